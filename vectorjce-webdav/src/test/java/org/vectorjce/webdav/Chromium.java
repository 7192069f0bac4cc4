package org.vectorjce.webdav;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One headless Chromium for all of a test's pages, driven over the Chrome DevTools Protocol
 * (https://chromedevtools.github.io/devtools-protocol/): starting the browser is most of the cost
 * of a page, so the pages are loaded one after another in its first tab. A page is read as
 * {@code --dump-dom} prints it (the serialized {@code document.documentElement}) after its load
 * event; a screenshot is {@code Page.captureScreenshot}'s PNG. The protocol's WebSocket (RFC 6455)
 * is the few lines it needs here: text frames, masked from the client.
 */
final class Chromium implements AutoCloseable {
    private static final long WAIT_SECONDS = 60;
    private static final Pattern DEVTOOLS = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final SecureRandom random = new SecureRandom();
    private final String session;
    private int lastId;

    private Chromium(Process process, URI browser) throws Exception {
        this.process = process;
        this.socket = new Socket(browser.getHost(), browser.getPort());
        socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        try {
            handshake(browser);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        String targets = call(null, "Target.getTargets", "{}");
        Matcher page = Pattern.compile("\"targetId\":\"([^\"]+)\",\"type\":\"page\"").matcher(targets);
        if (!page.find()) {
            throw new IOException("Chromium has no page open: " + targets);
        }
        String attached = call(null, "Target.attachToTarget", "{\"targetId\":\"" + page.group(1) + "\",\"flatten\":true}");
        this.session = string(attached, "sessionId");
        call(session, "Page.enable", "{}");
    }

    /**
     * Starts {@code chromium} with {@code HOME} and its profile in {@code home}, its window
     * {@code width} by {@code height}.
     */
    static Chromium start(Path home, int width, int height) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--remote-debugging-port=0",
                "--user-data-dir=" + home.resolve("chromium-profile"), "--window-size=" + width + "," + height,
                "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        try {
            // the browser's WebSocket address is the line it prints on stderr once it listens
            CompletableFuture<URI> address = new CompletableFuture<>();
            StringBuilder said = new StringBuilder();
            Thread drain = new Thread(() -> {
                try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = err.readLine()) != null; ) {
                        Matcher m = DEVTOOLS.matcher(line);
                        if (m.find()) {
                            address.complete(URI.create(m.group(1)));
                        } else if (!address.isDone()) {
                            said.append(line).append('\n');
                        }
                    }
                } catch (IOException e) {
                    address.completeExceptionally(e);
                }
                address.completeExceptionally(new IOException("chromium exited without a DevTools address: " + said));
            });
            drain.setDaemon(true);
            drain.start();
            return new Chromium(p, address.get(WAIT_SECONDS, TimeUnit.SECONDS));
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** Loads {@code url} in the tab and returns its DOM once its load event has fired. */
    String load(String url) throws Exception {
        int id = send(session, "Page.navigate", "{\"url\":" + quote(url) + "}");
        boolean answered = false;
        boolean loaded = false;
        while (!answered || !loaded) {
            String m = next();
            if (m.startsWith("{\"id\":" + id + ",")) {
                checked(m);
                if (m.contains("\"errorText\"")) {
                    throw new IOException("Chromium could not load " + url + ": " + m);
                }
                answered = true;
            } else if (m.contains("\"method\":\"Page.loadEventFired\"")) {
                loaded = true;
            }
        }
        String r = call(session, "Runtime.evaluate",
                "{\"expression\":\"document.documentElement.outerHTML\",\"returnByValue\":true}");
        return string(r, "value");
    }

    /** Writes a PNG of what the tab shows to {@code file}. */
    void screenshot(Path file) throws Exception {
        String r = call(session, "Page.captureScreenshot", "{\"format\":\"png\"}");
        Files.write(file, Base64.getDecoder().decode(string(r, "data")));
    }

    @Override
    public void close() throws IOException {
        try {
            send(null, "Browser.close", "{}");
            if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            socket.close();
            process.destroyForcibly();
        }
    }

    private int send(String toSession, String method, String params) throws IOException {
        int id = ++lastId;
        String m = "{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params
                + (toSession == null ? "" : ",\"sessionId\":\"" + toSession + "\"") + "}";
        // RFC 6455 section 5.2: FIN and text opcode, then the masked length and payload
        byte[] payload = m.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 14);
        f.write(0x81);
        if (payload.length > 0xffff) {
            throw new IOException(method + " is too long for this client: " + payload.length + " bytes");
        }
        if (payload.length < 126) {
            f.write(0x80 | payload.length);
        } else {
            f.write(0x80 | 126);
            f.write(payload.length >>> 8);
            f.write(payload.length);
        }
        byte[] mask = new byte[4];
        random.nextBytes(mask);
        f.write(mask);
        for (int i = 0; i < payload.length; i++) {
            f.write(payload[i] ^ mask[i & 3]);
        }
        out.write(f.toByteArray());
        out.flush();
        return id;
    }

    /** RFC 6455 section 4.1: the client's opening handshake, answered by 101. */
    private void handshake(URI browser) throws IOException {
        byte[] key = new byte[16];
        random.nextBytes(key);
        String request = "GET " + browser.getRawPath() + " HTTP/1.1\r\nHost: " + browser.getHost() + ":"
                + browser.getPort() + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.readUnsignedByte());
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("Chromium refused the WebSocket: " + head);
        }
    }

    /** Sends and waits for the answer, skipping the events in between. */
    private String call(String toSession, String method, String params) throws Exception {
        int id = send(toSession, method, params);
        for (;;) {
            String m = next();
            if (m.startsWith("{\"id\":" + id + ",")) {
                return checked(m);
            }
        }
    }

    /** The next whole text message (RFC 6455 section 5: frames, a large message in several), within the timeout. */
    private String next() throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        for (;;) {
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            long length = b1 & 0x7f;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            if ((b1 & 0x80) != 0 || length > 64 << 20) {
                throw new IOException("unexpected WebSocket frame from Chromium: " + b0 + " " + b1 + " " + length);
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            int opcode = b0 & 0x0f;
            if (opcode == 8) {
                throw new IOException("Chromium closed the WebSocket");
            }
            if (opcode == 0 || opcode == 1) {
                message.write(payload);
                if ((b0 & 0x80) != 0) {
                    return message.toString(StandardCharsets.UTF_8);
                }
            }
        }
    }

    private static String checked(String answer) throws IOException {
        if (answer.contains("\"error\":{")) {
            throw new IOException("Chromium answered with an error: " + answer);
        }
        return answer;
    }

    /** The first JSON string field {@code name} in {@code json}, unescaped. */
    private static String string(String json, String name) throws IOException {
        String key = "\"" + name + "\":\"";
        int at = json.indexOf(key);
        if (at < 0) {
            throw new IOException("no \"" + name + "\" in " + json);
        }
        String s = json.substring(at + key.length());
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                default -> b.append(e);
            }
        }
        throw new IOException("\"" + name + "\" does not end in " + json);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
