package org.vectorjce.webdav;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A raw HTTP exchange over a socket: the request's bytes exactly as given, the response read to the end. */
final class Http {
    private Http() {
    }

    /** A response: status, head and body as sent. */
    record Reply(int status, String head, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String all() {
            return head + "\r\n\r\n" + text();
        }
    }

    /** Sends {@code request} (which should say Connection: close) and reads until the server closes. */
    static Reply send(URI server, String request) throws IOException {
        return send(server, request.getBytes(StandardCharsets.UTF_8));
    }

    static Reply send(URI server, byte[] request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(server.getHost(), server.getPort()), 5000);
            s.setSoTimeout(15_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            return read(s.getInputStream());
        }
    }

    static Reply read(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        byte[] all = b.toByteArray();
        int end = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (end < 0) {
            return new Reply(-1, new String(all, StandardCharsets.ISO_8859_1), new byte[0]);
        }
        String head = new String(all, 0, end, StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(head.substring(9, 12));
        return new Reply(status, head, Arrays.copyOfRange(all, end + 4, all.length));
    }

    static int indexOf(byte[] a, byte[] x) {
        outer:
        for (int i = 0; i + x.length <= a.length; i++) {
            for (int j = 0; j < x.length; j++) {
                if (a[i + j] != x[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
