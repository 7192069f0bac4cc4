package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.Tools;

/**
 * The served ext4 image through clients no one here wrote: rclone's webdav backend lists and
 * copies exactly the source tree mkfs.ext4 was filled from, cadaver lists and gets, and headless
 * Chromium (one browser, {@link Chromium}) shows a folder's page, follows its link into a subfolder
 * and takes a screenshot.
 */
class FileServerClientsTest {
    @TempDir
    static Path dir;
    static ServedImage served;
    static FileServer server;

    @BeforeAll
    static void start() throws Exception {
        served = ServedImage.make(dir);
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("format", "raw image");
        facts.put("filesystem", "ext4");
        facts.put("label", "webdav-test");
        server = FileServer.builder(served.fs.getPath("/")).title("ext4.img").facts(facts).start();
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

    private static Map<String, String> rclone() {
        return Map.of("RCLONE_CONFIG_X_TYPE", "webdav", "RCLONE_CONFIG_X_URL", server.uri().toString(),
                "RCLONE_CONFIG", dir.resolve("rclone.conf").toString());
    }

    @Test
    void rcloneListsTheSourceTree() throws Exception {
        Tools.assumeTool("rclone");
        String json = Tools.ok(rclone(), "rclone", "lsjson", "-R", "X:").out();
        Map<String, long[]> listed = new TreeMap<>();
        Matcher m = Pattern.compile("\\{\"Path\":\"((?:[^\"\\\\]|\\\\.)*)\".*?\"Size\":(-?\\d+).*?\"ModTime\":\"([^\"]+)\",\"IsDir\":(true|false)")
                .matcher(json);
        while (m.find()) {
            String path = unescape(m.group(1));
            if (path.equals("lost+found")) {
                continue;
            }
            boolean isDir = m.group(4).equals("true");
            listed.put(path, new long[] {isDir ? -1 : Long.parseLong(m.group(2)),
                OffsetDateTime.parse(m.group(3)).toEpochSecond()});
        }
        Map<String, long[]> expected = ServedImage.tree(served.source);
        assertEquals(expected.keySet(), listed.keySet(), json);
        for (String k : expected.keySet()) {
            assertArrayEquals(expected.get(k), listed.get(k), k);
        }
    }

    @Test
    void rcloneCopiesTheSourceTree() throws Exception {
        Tools.assumeTool("rclone", "diff");
        Path copy = dir.resolve("rclone-copy");
        Tools.ok(rclone(), "rclone", "copy", "X:", copy.toString());
        Files.deleteIfExists(copy.resolve("lost+found"));
        Tools.Run diff = Tools.run("diff", "-r", served.source.toString(), copy.toString());
        assertEquals(0, diff.exit(), diff.out() + diff.stderr());
    }

    @Test
    void cadaverListsAndGets() throws Exception {
        Tools.assumeTool("cadaver");
        Path got1 = dir.resolve("cadaver-1");
        Path got2 = dir.resolve("cadaver-2");
        Path script = Files.writeString(dir.resolve("cadaver.txt"), "ls\nget \"a b.txt\" " + got1 + "\ncd \"sub folder\"\nls\n"
                + "cd nested\nget deep.txt " + got2 + "\nquit\n");
        ProcessBuilder pb = new ProcessBuilder("cadaver", server.uri().toString()).redirectInput(script.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("cadaver.out").toFile());
        pb.environment().put("HOME", dir.toString()); // no ~/.netrc or ~/.cadaverrc of the machine's user
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "cadaver did not end");
        String out = Files.readString(dir.resolve("cadaver.out"), StandardCharsets.UTF_8);
        for (String name : new String[] {"a b.txt", "100% sure.txt", "#hash.txt", "what?.txt", "empty.bin", "sub folder",
            "plus+sign.txt", "nested"}) {
            assertTrue(out.contains(name), name + " is not in cadaver's listing:\n" + out);
        }
        assertArrayEquals(Files.readAllBytes(served.source.resolve("a b.txt")), Files.readAllBytes(got1), out);
        assertArrayEquals(Files.readAllBytes(served.source.resolve("sub folder/nested/deep.txt")), Files.readAllBytes(got2), out);
    }

    @Test
    void chromiumShowsTheFolderPageAndFollowsALink() throws Exception {
        Tools.assumeTool("chromium");
        Path shot = dir.resolve("root.png");
        try (Chromium chromium = Chromium.start(dir, 1000, 700)) {
            String root = chromium.load(server.uri().toString());
            chromium.screenshot(shot);
            for (String name : new String[] {"a b.txt", "100% sure.txt", "#hash.txt", "what?.txt", "Ünïcödé ファイル.txt",
                "big.bin", "ext4.img", "ext4", "webdav-test"}) {
                assertTrue(root.contains(name), name + " is not on the page:\n" + root);
            }
            // the markup in a name is text, not an element
            assertTrue(root.contains("it's &lt;b&gt;&amp;amp \"q\".txt"), root);
            Matcher link = Pattern.compile("href=\"([^\"]+)\">sub folder</a>").matcher(root);
            assertTrue(link.find(), root);
            String sub = chromium.load(server.uri().resolve(link.group(1).replace("&amp;", "&")).toString());
            assertTrue(sub.contains("plus+sign.txt") && sub.contains(">nested<") && sub.contains(">ü<"), sub);
            // and a file from that page: Chromium shows text as it is
            Matcher file = Pattern.compile("href=\"([^\"]+)\">plus\\+sign.txt</a>").matcher(sub);
            assertTrue(file.find(), sub);
            String text = chromium.load(server.uri().resolve(file.group(1)).toString());
            assertTrue(text.contains(">" + Files.readString(served.source.resolve("sub folder/plus+sign.txt")) + "</pre>"),
                    text);
        }
        byte[] png = Files.readAllBytes(shot);
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "no PNG screenshot");
        String keep = System.getProperty("webdav.screenshot");
        if (keep != null) {
            Files.copy(shot, Path.of(keep), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A JSON string's escapes (Go's encoder writes {@code <>&} as {@code \u003c} and so on). */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'u': b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; break;
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                default: b.append(e);
            }
        }
        return b.toString();
    }
}
