package org.vectorjce.webdav;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A connection's incoming bytes, buffered, read as HTTP/1.1 lines (RFC 9112 section 2.2: CRLF,
 * or a bare LF, ends a line) with a bound on each line and on a body. Nothing here is sized by
 * the client: the buffer is fixed, a line longer than its limit is an error, not an allocation.
 */
final class HttpInput {
    private final InputStream in;
    private final byte[] buf = new byte[8192];
    private int pos, end;

    HttpInput(InputStream in) {
        this.in = in;
    }

    /**
     * Waits for the next request's first byte.
     *
     * @return false when the client closed the connection (or the watchdog cut it) before sending one
     */
    boolean awaitByte() throws IOException {
        return pos < end || fill();
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        pos = 0;
        end = n;
        return true;
    }

    /**
     * One line without its end, its bytes as ISO-8859-1 characters (so every byte survives for
     * the parser to judge).
     *
     * @param max the most bytes the line may have
     * @param tooLong the error when it has more
     * @throws EOFException when the connection ends inside the line
     */
    String line(int max, HttpError tooLong) throws IOException {
        StringBuilder s = new StringBuilder(Math.min(max, 128));
        while (true) {
            if (pos == end && !fill()) {
                throw new EOFException("the connection ended inside a line");
            }
            byte b = buf[pos++];
            if (b == '\n') {
                int n = s.length();
                if (n > 0 && s.charAt(n - 1) == '\r') {
                    s.setLength(n - 1);
                }
                return s.toString();
            }
            if (s.length() >= max) {
                throw tooLong;
            }
            s.append((char) (b & 0xff));
        }
    }

    /** Reads exactly {@code n} bytes (the caller has bounded {@code n}). */
    byte[] read(int n) throws IOException {
        byte[] out = new byte[n];
        int off = 0;
        while (off < n) {
            if (pos == end && !fill()) {
                throw new EOFException("the connection ended inside a request body");
            }
            int k = Math.min(n - off, end - pos);
            System.arraycopy(buf, pos, out, off, k);
            pos += k;
            off += k;
        }
        return out;
    }

    /** Reads and drops {@code n} bytes. */
    void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == end && !fill()) {
                throw new EOFException("the connection ended inside a request body");
            }
            int k = (int) Math.min(n, end - pos);
            pos += k;
            n -= k;
        }
    }
}
