package org.vectorjce.webdav;

import java.time.Duration;

/**
 * The bounds that keep a slow or hostile client from taking the server down or exhausting its
 * memory: sizes of what a request may send, and the time each phase of a connection may take.
 * Every time is measured with {@link System#nanoTime()} from the phase's start; a connection past
 * its deadline is cut by the server's watchdog (see {@link FileServer}).
 *
 * @param maxConnections connections served at once; one more is answered 503 and closed
 * @param requestLine the longest request line (RFC 9112 section 3: 414 above it)
 * @param headerBytes the most bytes of header fields (431 above it)
 * @param headerFields the most header fields (431 above it)
 * @param bodyBytes the longest request body read (a PROPFIND's XML; 413 above it)
 * @param headerTimeout from a request's first byte (or the connection's accept) to its last
 *        header field: a client that sends a byte a second (slowloris) is cut here
 * @param requestTimeout from a request's first byte to the end of its body
 * @param idleTimeout how long a kept-alive connection may wait for its next request
 * @param sendTimeout how long one write of a response may make no progress (a client that stops reading)
 * @param drainTimeout how long {@link FileServer#close()} lets requests in flight finish
 */
record Limits(int maxConnections, int requestLine, int headerBytes, int headerFields, int bodyBytes,
        Duration headerTimeout, Duration requestTimeout, Duration idleTimeout, Duration sendTimeout,
        Duration drainTimeout) {

    static final Limits DEFAULTS = new Limits(128, 8 * 1024, 64 * 1024, 100, 64 * 1024,
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(30));

    Limits {
        positive("maxConnections", maxConnections);
        if (requestLine < 256) {
            throw new IllegalArgumentException("the request line limit " + requestLine + " is below 256 bytes");
        }
        if (headerBytes < 1024) {
            throw new IllegalArgumentException("the header limit " + headerBytes + " is below 1024 bytes");
        }
        positive("headerFields", headerFields);
        positive(headerTimeout, "headerTimeout");
        positive(requestTimeout, "requestTimeout");
        positive(idleTimeout, "idleTimeout");
        positive(sendTimeout, "sendTimeout");
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout is negative");
        }
    }

    private static void positive(String name, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException(name + " must be positive, not " + n);
        }
    }

    private static void positive(Duration d, String name) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, not " + d);
        }
    }

    Limits withConnections(int n) {
        return new Limits(n, requestLine, headerBytes, headerFields, bodyBytes, headerTimeout, requestTimeout,
                idleTimeout, sendTimeout, drainTimeout);
    }

    Limits withSizes(int line, int header, int fields) {
        return new Limits(maxConnections, line, header, fields, bodyBytes, headerTimeout, requestTimeout,
                idleTimeout, sendTimeout, drainTimeout);
    }

    Limits withTimeouts(Duration header, Duration request, Duration idle, Duration send) {
        return new Limits(maxConnections, requestLine, headerBytes, headerFields, bodyBytes, header, request, idle,
                send, drainTimeout);
    }

    Limits withDrain(Duration drain) {
        return new Limits(maxConnections, requestLine, headerBytes, headerFields, bodyBytes, headerTimeout,
                requestTimeout, idleTimeout, sendTimeout, drain);
    }
}
