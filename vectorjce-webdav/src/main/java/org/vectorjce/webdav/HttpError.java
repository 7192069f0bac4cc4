package org.vectorjce.webdav;

import java.io.IOException;

/**
 * A request the server answers with an error status (RFC 9110 section 15) and, where the rest of
 * the request cannot be trusted to be framed right, by closing the connection. The message is
 * the response's one-line body: it never repeats the request's path, names or credentials.
 */
final class HttpError extends IOException {
    private static final long serialVersionUID = 1L;

    final int status;
    final boolean close;

    HttpError(int status, String message, boolean close) {
        super(message);
        this.status = status;
        this.close = close;
    }

    /** A malformed request (400): the connection is closed, since its framing is in doubt. */
    static HttpError bad(String message) {
        return new HttpError(400, message, true);
    }
}
