package org.vectorjce.webdav;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One response being written (RFC 9112 sections 4 to 7): the status line, the header fields, and
 * a body of known length or, when the length is not known ahead (a PROPFIND of a large folder),
 * chunked (HTTP/1.1) or ended by closing the connection (HTTP/1.0). A HEAD request's response
 * sends the same header fields and no body (RFC 9110 section 9.3.2).
 */
final class Response {
    /** Where a HEAD response's body goes. */
    static final OutputStream NOWHERE = OutputStream.nullOutputStream();
    private final OutputStream out;
    private final boolean head;
    private final boolean http11;
    private final List<String> fields = new ArrayList<>();
    /** Whether the connection closes after this response. */
    boolean close;
    boolean committed;
    int status;

    Response(OutputStream out, boolean head, boolean http11, boolean close) {
        this.out = out;
        this.head = head;
        this.http11 = http11;
        this.close = close;
    }

    Response header(String name, String value) {
        fields.add(name + ": " + value);
        return this;
    }

    /** A whole body held in memory (short: a page of one folder, an error line, a depth-0 PROPFIND). */
    void send(int status, String contentType, byte[] body) throws IOException {
        if (contentType != null) {
            header("Content-Type", contentType);
        }
        OutputStream o = fixed(status, body.length);
        o.write(body);
        o.flush();
    }

    /** A one-line plain text body: the reason for an error, with nothing from the request in it. */
    void text(int status, String message) throws IOException {
        send(status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A response with no content: 304 and 1xx carry no Content-Length (RFC 9110 section 8.6). */
    void empty(int status) throws IOException {
        if (status != 304) {
            header("Content-Length", "0");
        }
        writeHead(status);
        out.flush();
    }

    /** Writes the head with a Content-Length and returns where the body goes (nowhere for HEAD). */
    OutputStream fixed(int status, long length) throws IOException {
        header("Content-Length", Long.toString(length));
        writeHead(status);
        return head ? NOWHERE : out;
    }

    /** Writes the head of a body whose length is not known: chunked on HTTP/1.1, else ended by closing. */
    OutputStream unsized(int status) throws IOException {
        if (head) {
            writeHead(status);
            return NOWHERE;
        }
        if (!http11) {
            close = true;
            writeHead(status);
            return out;
        }
        header("Transfer-Encoding", "chunked");
        writeHead(status);
        return new Chunked(out);
    }

    private void writeHead(int status) throws IOException {
        if (committed) {
            throw new IllegalStateException("the response head was written already");
        }
        committed = true;
        this.status = status;
        StringBuilder s = new StringBuilder(256);
        s.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        s.append("Date: ").append(HttpDates.format(Instant.now())).append("\r\n");
        for (String f : fields) {
            s.append(f).append("\r\n");
        }
        if (close) {
            s.append("Connection: close\r\n");
        }
        s.append("\r\n");
        out.write(s.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** RFC 9110 section 15's reason phrases for the statuses this server sends. */
    static String reason(int status) {
        switch (status) {
            case 100: return "Continue";
            case 200: return "OK";
            case 206: return "Partial Content";
            case 207: return "Multi-Status";
            case 301: return "Moved Permanently";
            case 304: return "Not Modified";
            case 400: return "Bad Request";
            case 401: return "Unauthorized";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 408: return "Request Timeout";
            case 411: return "Length Required";
            case 412: return "Precondition Failed";
            case 413: return "Content Too Large";
            case 414: return "URI Too Long";
            case 415: return "Unsupported Media Type";
            case 416: return "Range Not Satisfiable";
            case 417: return "Expectation Failed";
            case 431: return "Request Header Fields Too Large";
            case 500: return "Internal Server Error";
            case 501: return "Not Implemented";
            case 503: return "Service Unavailable";
            case 505: return "HTTP Version Not Supported";
            default: return "Status";
        }
    }

    /** The chunked transfer coding (RFC 9112 section 7.1), a chunk per buffer of 16 KiB; close() writes the last chunk. */
    private static final class Chunked extends OutputStream {
        private final OutputStream out;
        private final byte[] buf = new byte[16 * 1024];
        private int n;
        private boolean done;

        Chunked(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (n == buf.length) {
                chunk();
            }
            buf[n++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (n == buf.length) {
                    chunk();
                }
                int k = Math.min(len, buf.length - n);
                System.arraycopy(b, off, buf, n, k);
                n += k;
                off += k;
                len -= k;
            }
        }

        private void chunk() throws IOException {
            if (n > 0) {
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(buf, 0, n);
                out.write('\r');
                out.write('\n');
                n = 0;
            }
        }

        @Override
        public void flush() throws IOException {
            chunk();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (!done) {
                done = true;
                chunk();
                out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        }
    }
}
