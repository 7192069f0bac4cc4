package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.Tools;

/**
 * The HTTP side against curl and raw requests: ranges, conditional requests, refused writes
 * (and the image unchanged), the token, traversal in every encoding, PROPFIND's depth and bodies.
 */
class FileServerHttpTest {
    @TempDir
    static Path dir;
    static ServedImage served;
    static FileServer server;
    static byte[] big;

    @BeforeAll
    static void start() throws Exception {
        served = ServedImage.make(dir);
        server = FileServer.builder(served.fs.getPath("/")).start();
        big = Files.readAllBytes(served.source.resolve(ServedImage.BIG));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (served != null) {
            served.close();
        }
    }

    /** The URL of a served path, encoded by java.net.URI (not by the code under test). */
    static String url(String path) throws URISyntaxException {
        URI u = server.uri();
        return new URI("http", null, u.getHost(), u.getPort(), u.getPath() + path, null, null).toASCIIString();
    }

    /** curl: the status, the head in {@code dir/h}, the body in {@code dir/b}. */
    static int curl(String... args) throws Exception {
        // curl writes no file for an empty body: none may be left from the last run
        Files.deleteIfExists(dir.resolve("b"));
        Files.deleteIfExists(dir.resolve("h"));
        List<String> cmd = new ArrayList<>(List.of("curl", "-s", "-S", "-o", dir.resolve("b").toString(), "-D",
                dir.resolve("h").toString(), "-w", "%{http_code}"));
        cmd.addAll(Arrays.asList(args));
        Tools.Run r = Tools.ok(cmd.toArray(new String[0]));
        return Integer.parseInt(r.out().strip());
    }

    static byte[] body() throws IOException {
        return Files.exists(dir.resolve("b")) ? Files.readAllBytes(dir.resolve("b")) : new byte[0];
    }

    static String head() throws IOException {
        return Files.readString(dir.resolve("h"), StandardCharsets.ISO_8859_1);
    }

    static String field(String name) throws IOException {
        Matcher m = Pattern.compile("(?im)^" + name + ":\\s*(.*?)\\r?$").matcher(head());
        return m.find() ? m.group(1) : null;
    }

    @Test
    void wholeFilesWithAwkwardNames() throws Exception {
        Tools.assumeTool("curl");
        for (String name : new String[] {"a b.txt", "100% sure.txt", "#hash.txt", "what?.txt", "Ünïcödé ファイル.txt",
            "it's <b>&amp \"q\".txt", "empty.bin", "big.bin", "sub folder/ü/ß.txt"}) {
            assertEquals(200, curl(url(name)), name);
            assertArrayEquals(Files.readAllBytes(served.source.resolve(name)), body(), name);
            assertEquals(Long.toString(Files.size(served.source.resolve(name))), field("Content-Length"), name);
            assertEquals("bytes", field("Accept-Ranges"));
        }
    }

    @Test
    void ranges() throws Exception {
        Tools.assumeTool("curl");
        assertEquals(206, curl("-r", "0-99", url("big.bin")));
        assertArrayEquals(Arrays.copyOfRange(big, 0, 100), body());
        assertEquals("bytes 0-99/" + big.length, field("Content-Range"));

        assertEquals(206, curl("-H", "Range: bytes=-500", url("big.bin")));
        assertArrayEquals(Arrays.copyOfRange(big, big.length - 500, big.length), body());

        assertEquals(206, curl("-r", "1000000-", url("big.bin")));
        assertArrayEquals(Arrays.copyOfRange(big, 1000000, big.length), body());

        assertEquals(206, curl("-r", "0-9,2000000-2000019", url("big.bin")));
        String type = field("Content-Type");
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        byte[] multi = body();
        String text = new String(multi, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("Content-Range: bytes 0-9/" + big.length), text);
        assertTrue(text.contains("Content-Range: bytes 2000000-2000019/" + big.length), text);
        assertTrue(Http.indexOf(multi, Arrays.copyOfRange(big, 0, 10)) > 0);
        assertTrue(Http.indexOf(multi, Arrays.copyOfRange(big, 2000000, 2000020)) > 0);
        assertTrue(text.endsWith("--" + type.substring(type.indexOf('=') + 1) + "--\r\n"), "the closing boundary");
        assertEquals(Integer.toString(multi.length), field("Content-Length"));

        assertEquals(416, curl("-r", big.length + "-", url("big.bin")));
        assertEquals("bytes */" + big.length, field("Content-Range"));
        assertEquals(416, curl("-r", "0-", url("empty.bin")));
    }

    @Test
    void conditionalRequests() throws Exception {
        Tools.assumeTool("curl");
        assertEquals(200, curl(url("a b.txt")));
        String etag = field("ETag");
        String modified = field("Last-Modified");
        assertTrue(etag.startsWith("\"") && etag.endsWith("\""), etag);
        assertEquals(304, curl("-H", "If-None-Match: " + etag, url("a b.txt")));
        assertEquals(0, body().length);
        assertEquals(304, curl("-H", "If-None-Match: \"other\", W/" + etag, url("a b.txt")));
        assertEquals(200, curl("-H", "If-None-Match: \"other\"", url("a b.txt")));
        assertEquals(304, curl("-H", "If-Modified-Since: " + modified, url("a b.txt")));
        assertEquals(200, curl("-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT", url("a b.txt")));
        assertEquals(412, curl("-H", "If-Match: \"other\"", url("a b.txt")));
        // If-Range: the range only while the validator still matches
        assertEquals(206, curl("-r", "0-4", "-H", "If-Range: " + etag, url("big.bin").replace("big.bin", "a%20b.txt")));
        assertEquals(200, curl("-r", "0-4", "-H", "If-Range: \"stale\"", url("a b.txt")));
        assertEquals(Files.size(served.source.resolve("a b.txt")), body().length);
    }

    @Test
    void writesAreRefusedAndTheImageIsUnchanged() throws Exception {
        Tools.assumeTool("curl");
        String before = ServedImage.sha256(served.image);
        Path upload = Files.writeString(dir.resolve("upload.txt"), "new bytes\n".repeat(10_000));
        for (String[] c : new String[][] {
            {"-T", upload.toString(), url("new.txt")},
            {"-T", upload.toString(), url("a b.txt")},
            {"-X", "DELETE", url("a b.txt")},
            {"-X", "DELETE", url("sub folder/")},
            {"-X", "MKCOL", url("new folder/")},
            {"-X", "MOVE", "-H", "Destination: " + url("moved.txt"), url("a b.txt")},
            {"-X", "COPY", "-H", "Destination: " + url("copied.txt"), url("a b.txt")},
            {"-X", "PROPPATCH", "-H", "Content-Type: application/xml", "--data-binary",
                "<?xml version=\"1.0\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><D:displayname>x</D:displayname>"
                    + "</D:prop></D:set></D:propertyupdate>", url("a b.txt")},
            {"-X", "LOCK", url("a b.txt")},
            {"-X", "POST", "--data-binary", "x=1", url("a b.txt")}}) {
            assertEquals(405, curl(c), String.join(" ", c));
            assertEquals(Handler.ALLOW, field("Allow"));
        }
        assertEquals(before, ServedImage.sha256(served.image));
        assertFalse(Files.exists(served.fs.getPath("/new.txt")));
        assertArrayEquals(Files.readAllBytes(served.source.resolve("a b.txt")), Files.readAllBytes(served.fs.getPath("/a b.txt")));
    }

    /** Every name in the tree, for checking that an error reveals none. */
    static List<String> names() throws IOException {
        List<String> n = new ArrayList<>();
        for (String p : ServedImage.tree(served.source).keySet()) {
            n.add(p.substring(p.lastIndexOf('/') + 1));
        }
        n.add("lost+found");
        return n;
    }

    @Test
    void withoutTheTokenNothingIsServedOrNamed() throws Exception {
        Tools.assumeTool("curl");
        URI u = server.uri();
        String base = "http://" + u.getHost() + ":" + u.getPort();
        String wrong = "AAAAAAAAAAAAAAAAAAAAAA";
        for (String[] c : new String[][] {
            {base + "/"}, {base + "/a%20b.txt"}, {base + "/" + wrong + "/"}, {base + "/" + wrong + "/a%20b.txt"},
            {"-X", "PROPFIND", "-H", "Depth: 1", base + "/" + wrong + "/"}, {"-X", "PROPFIND", "-H", "Depth: 1", base + "/"},
            {base + u.getPath().substring(0, u.getPath().length() - 2) + "/"}}) {
            int status = curl(c);
            assertTrue(status == 404, status + " " + String.join(" ", c));
            String text = new String(body(), StandardCharsets.UTF_8) + head();
            for (String name : names()) {
                assertFalse(text.contains(name), name + " leaked: " + text);
            }
        }
    }

    @Test
    void traversalInEveryEncodingIsRefused() throws Exception {
        Tools.assumeTool("curl");
        String t = server.uri().toString();
        for (String tail : new String[] {"../", "../etc/passwd", "%2e%2e/", "%2E%2e/etc/passwd", ".%2e/", "%2e/",
            "sub%20folder/../../", "sub%20folder/%2e%2e/%2e%2e/", "sub%20folder%2f..%2f..%2f", "%2fetc%2fpasswd",
            "..%5c..%5cetc", "sub%20folder%5cnested", "a%00b", "a%20b.txt%00.html", "%c0%ae%c0%ae/", "%c0%af",
            "%e0%80%ae%e0%80%ae/", "%ff", "%zz", "%2", "sub%20folder//nested/", "./a%20b.txt"}) {
            int status = curl("--path-as-is", t + tail);
            assertTrue(status == 400 || status == 404, status + " for " + tail);
            String text = new String(body(), StandardCharsets.UTF_8) + head();
            for (String name : names()) {
                assertFalse(text.contains(name), name + " leaked for " + tail + ": " + text);
            }
            assertFalse(text.contains("root:"), tail);
        }
        // above the token
        URI u = server.uri();
        Http.Reply r = Http.send(u, "GET /..%2f" + u.getPath().substring(1) + "a%20b.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(r.status() == 400 || r.status() == 404, r.all());
        r = Http.send(u, "GET " + u.getPath() + "a\\b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(r.status() == 400 || r.status() == 404, r.all());
    }

    @Test
    void propfind() throws Exception {
        Tools.assumeTool("curl");
        assertEquals(403, curl("-X", "PROPFIND", url("")));
        assertTrue(new String(body(), StandardCharsets.UTF_8).contains("propfind-finite-depth"));
        assertEquals(403, curl("-X", "PROPFIND", "-H", "Depth: infinity", url("sub folder/")));

        assertEquals(207, curl("-X", "PROPFIND", "-H", "Depth: 0", url("a b.txt")));
        String one = new String(body(), StandardCharsets.UTF_8);
        assertTrue(one.contains("<D:getcontentlength>" + Files.size(served.source.resolve("a b.txt")) + "<"), one);
        assertTrue(one.contains("<D:href>" + server.uri().getPath() + "a%20b.txt</D:href>"), one);
        assertFalse(one.contains("<D:collection/>"), one);

        String props = "<?xml version=\"1.0\"?><propfind xmlns=\"DAV:\" xmlns:Z=\"urn:z\"><prop><getcontentlength/>"
                + "<resourcetype/><Z:color/><quota-used-bytes/></prop></propfind>";
        assertEquals(207, curl("-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data-binary",
                props, url("sub folder/")));
        String sub = new String(body(), StandardCharsets.UTF_8);
        assertTrue(sub.contains("HTTP/1.1 404 Not Found") && sub.contains("color") && sub.contains("quota-used-bytes"), sub);
        assertTrue(sub.contains("<D:href>" + server.uri().getPath() + "sub%20folder/plus%2Bsign.txt</D:href>")
                || sub.toLowerCase(Locale.ROOT).contains("sub%20folder/plus%2bsign.txt"), sub);
        assertTrue(sub.contains("<D:collection/>"), sub);

        assertEquals(207, curl("-X", "PROPFIND", "-H", "Depth: 0", "--data-binary",
                "<propfind xmlns=\"DAV:\"><propname/></propfind>", url("")));
        assertTrue(new String(body(), StandardCharsets.UTF_8).contains("<D:getlastmodified/>"));

        assertEquals(400, curl("-X", "PROPFIND", "-H", "Depth: 0", "--data-binary", "<propfind", url("")));
        // no DTD, so no entity can read a file or expand without bound
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE p [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<propfind xmlns=\"DAV:\"><prop><displayname>&x;</displayname></prop></propfind>";
        assertEquals(400, curl("-X", "PROPFIND", "-H", "Depth: 0", "--data-binary", xxe, url("")));
        assertFalse(new String(body(), StandardCharsets.UTF_8).contains("root:"));
        assertEquals(413, curl("-X", "PROPFIND", "-H", "Depth: 0", "--data-binary", "x".repeat(70_000), url("")));
    }

    @Test
    void optionsAndFolders() throws Exception {
        Tools.assumeTool("curl");
        assertEquals(200, curl("-X", "OPTIONS", url("")));
        assertEquals("1", field("DAV"));
        assertEquals(Handler.ALLOW, field("Allow"));
        URI root = server.uri().resolve("/");
        assertEquals(200, curl("-X", "OPTIONS", root.toString()));
        assertEquals("1", field("DAV"));
        assertEquals(0, body().length);
        assertEquals(301, curl(url("sub folder")));
        assertEquals(server.uri().getPath() + "sub%20folder/", field("Location"));
        assertEquals(200, curl(url("sub folder/") + "?sort=size&order=desc"));
        assertEquals("default-src 'none'; style-src 'unsafe-inline'", field("Content-Security-Policy"));
        String page = new String(body(), StandardCharsets.UTF_8);
        assertTrue(page.contains("<meta name=\"viewport\""), page);
        assertFalse(page.contains("<script") || page.contains("src=") || page.contains("@import"), page);
        assertEquals(404, curl(url("a b.txt") + "/"));
        assertEquals(404, curl(url("no such file")));
        URI u = server.uri();
        Http.Reply head = Http.send(u, "HEAD " + u.getPath() + "big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals(200, head.status());
        assertTrue(head.head().contains("Content-Length: " + big.length), head.head());
        assertEquals(0, head.body().length);
        assertEquals(200, curl(url("page.html")));
        assertTrue(field("Content-Security-Policy").startsWith("sandbox;"), head());
        assertEquals("nosniff", field("X-Content-Type-Options"));
        assertEquals(200, curl(url("a b.txt")));
        assertEquals(null, field("Content-Security-Policy"));
        assertEquals("nosniff", field("X-Content-Type-Options"));
        assertEquals(200, curl(url("a b.txt") + "?download"));
        assertEquals("attachment; filename=\"a b.txt\"; filename*=UTF-8''a%20b.txt", field("Content-Disposition"));
    }

    @Test
    void basicAuthNeedsTls() throws IOException {
        FileServer.Builder b = FileServer.builder(served.fs.getPath("/")).basicAuth("me", "secret".toCharArray());
        IllegalStateException e = assertThrows(IllegalStateException.class, b::start);
        assertTrue(e.getMessage().contains("TLS"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"));
    }

    @Test
    void basicAuthOverTls() throws Exception {
        Tools.assumeTool("curl", "keytool");
        Path ks = dir.resolve("server.p12");
        Tools.ok("keytool", "-genkeypair", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", "storepw",
                "-alias", "s", "-keyalg", "EC", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1", "-validity", "2");
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(ks)) {
            store.load(in, "storepw".toCharArray());
        }
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance("PKIX");
        kmf.init(store, "storepw".toCharArray());
        javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        try (FileServer s = FileServer.builder(served.fs.getPath("/")).tls(ctx)
                .basicAuth("me", "pässword".toCharArray()).start()) {
            String uri = s.uri().toString();
            assertTrue(uri.startsWith("https://127.0.0.1:") && uri.endsWith(":" + s.port() + "/"), uri);
            assertEquals(401, curl("-k", uri + "a%20b.txt"));
            assertEquals("Basic realm=\"files\", charset=\"UTF-8\"", field("WWW-Authenticate"));
            assertEquals(401, curl("-k", "-u", "me:wrong", uri + "a%20b.txt"));
            assertFalse(new String(body(), StandardCharsets.UTF_8).contains("spaces"));
            assertEquals(200, curl("-k", "-u", "me:pässword", uri + "a%20b.txt"));
            assertArrayEquals(Files.readAllBytes(served.source.resolve("a b.txt")), body());
        }
    }

    @Test
    void unknownMethodsAndBadRequests() throws Exception {
        URI u = server.uri();
        assertEquals(501, Http.send(u, "BREW " + u.getPath() + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status());
        assertEquals(505, Http.send(u, "GET " + u.getPath() + " HTTP/2.0\r\nHost: x\r\n\r\n").status());
        assertEquals(400, Http.send(u, "GET " + u.getPath() + " HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n").status());
        assertEquals(400, Http.send(u, "GET " + u.getPath() + " HTTP/1.1\r\nHost : x\r\n\r\n").status());
        assertEquals(400, Http.send(u, "GET " + u.getPath() + " HTTP/1.1\r\nConnection: close\r\n\r\n").status());
        assertEquals(414, Http.send(u, "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\n\r\n").status());
        assertEquals(431, Http.send(u, "GET / HTTP/1.1\r\n" + "X-A: b\r\n".repeat(101) + "\r\n").status());
        assertEquals(411, Http.send(u, "PROPFIND " + u.getPath() + " HTTP/1.1\r\nHost: x\r\nDepth: 0\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").status());
        // Expect: 100-continue (RFC 9110 section 10.1.1): the interim answer, then the body is read
        try (java.net.Socket s = new java.net.Socket(u.getHost(), u.getPort())) {
            s.setSoTimeout(10_000);
            String xml = "<propfind xmlns=\"DAV:\"><prop><getcontentlength/></prop></propfind>";
            s.getOutputStream().write(("PROPFIND " + u.getPath() + "a%20b.txt HTTP/1.1\r\nHost: x\r\nDepth: 0\r\n"
                    + "Expect: 100-continue\r\nConnection: close\r\nContent-Length: " + xml.length() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] interim = s.getInputStream().readNBytes(25);
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(interim, StandardCharsets.US_ASCII));
            s.getOutputStream().write(xml.getBytes(StandardCharsets.US_ASCII));
            Http.Reply r = Http.read(s.getInputStream());
            assertEquals(207, r.status(), r.all());
            assertTrue(r.text().contains("getcontentlength>19<"), r.all());
        }
        // two requests on one connection: keep-alive
        Http.Reply two = Http.send(u, "HEAD " + u.getPath() + "a%20b.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET " + u.getPath() + "a%20b.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals(200, two.status());
        assertTrue(two.text().contains("HTTP/1.1 200 OK") && two.text().endsWith("spaces in the name\n"), two.all());
    }
}
