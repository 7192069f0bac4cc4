package org.vectorjce.webdav;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One client connection: TLS when the server has it, then requests one after another on the same
 * connection (persistent connections, RFC 9112 section 9.3) until the client or the server
 * closes it. Every phase has a deadline the server's watchdog enforces ({@link #check}): the
 * first request's head within the header timeout of the accept, a later one's first byte within
 * the idle timeout, its head within the header timeout of that byte, its body within the request
 * timeout, and each write of the response within the send timeout.
 *
 * <p>Nothing a client sends escapes as an exception: a malformed or oversized request is
 * answered with its status (400, 408, 411, 413, 414, 417, 431, 505) and the connection closed;
 * an unexpected failure while answering is a 500, or a closed connection once the response's
 * head is out.
 */
final class Connection implements Runnable {
    private static final int IDLE = 0, READING = 1, WRITING = 2, HANDLING = 3;
    private static final long LINGER_BYTES = 256 * 1024, LINGER_NANOS = 1_000_000_000L;

    private final FileServer server;
    private final Socket raw;
    private final SSLContext tls;
    private final Limits limits;
    private final Handler handler;
    private volatile long deadline = Long.MAX_VALUE;
    private volatile int phase = IDLE;
    private volatile boolean timedOut;
    private HttpInput input;

    Connection(FileServer server, Socket raw, SSLContext tls, Limits limits, Handler handler) {
        this.server = server;
        this.raw = raw;
        this.tls = tls;
        this.limits = limits;
        this.handler = handler;
    }

    @Override
    public void run() {
        try {
            Socket s = raw;
            if (tls != null) {
                SSLSocket t = (SSLSocket) tls.getSocketFactory().createSocket(raw, null, raw.getPort(), true);
                t.setUseClientMode(false);
                s = t;
            }
            HttpInput in = new HttpInput(s.getInputStream());
            input = in;
            OutputStream out = new BufferedOutputStream(new Watched(s.getOutputStream()), 16 * 1024);
            long wait = limits.headerTimeout().toNanos();
            while (!server.closing()) {
                arm(IDLE, System.nanoTime() + wait);
                if (!in.awaitByte()) {
                    break;
                }
                long start = System.nanoTime();
                arm(READING, start + limits.headerTimeout().toNanos());
                if (!exchange(in, out, start)) {
                    break;
                }
                wait = limits.idleTimeout().toNanos();
            }
            linger();
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // the client left, broke the protocol or was cut by the watchdog; the others go on
        } finally {
            try {
                raw.close();
            } catch (IOException e) {
                // closed anyway
            }
            server.ended(this);
        }
    }

    /** One request and its response; false when the connection is to close after it. */
    private boolean exchange(HttpInput in, OutputStream out, long start) throws IOException {
        Request req;
        byte[] body;
        try {
            req = Request.read(in, limits);
            if (req == null) {
                return false;
            }
        } catch (HttpError e) {
            error(out, e.status, e.getMessage(), false);
            return false;
        } catch (IOException e) {
            if (timedOut) {
                error(out, 408, "the request took too long", false);
            }
            return false;
        }
        Response res = new Response(out, req.method.equals("HEAD"), req.minor >= 1,
                !req.keepAlive() || server.closing());
        res.header("X-Content-Type-Options", "nosniff").header("Referrer-Policy", "no-referrer");
        try {
            body = body(req, res, out, start);
            arm(HANDLING, Long.MAX_VALUE);
            handler.handle(req, res, body);
            out.flush();
        } catch (HttpError e) {
            if (res.committed) {
                return false;
            }
            if (e.close) {
                res.close = true;
            }
            if (e.status == 401) {
                res.header("WWW-Authenticate", Access.challenge());
            }
            res.text(e.status, e.getMessage());
        } catch (IOException | RuntimeException e) {
            if (timedOut || res.committed) {
                if (timedOut && !res.committed) {
                    error(out, 408, "the request took too long", false);
                }
                return false;
            }
            res.close = true;
            res.text(500, "the request could not be served");
        }
        return !res.close && !server.closing();
    }

    /**
     * Reads the request body within {@link Limits#bodyBytes()} and the request timeout: only for
     * the methods served; a refused method's body is left unread and the connection closed after
     * the answer. Answers {@code Expect: 100-continue} (RFC 9110 section 10.1.1).
     */
    private byte[] body(Request req, Response res, OutputStream out, long start) throws IOException {
        long length = req.contentLength();
        String expect = req.header("expect");
        if (expect != null && !expect.equalsIgnoreCase("100-continue")) {
            throw new HttpError(417, "only Expect: 100-continue is understood", true);
        }
        if (length == 0) {
            return new byte[0];
        }
        if (!Handler.served(req.method)) {
            res.close = true;
            return new byte[0];
        }
        if (length > limits.bodyBytes()) {
            throw new HttpError(413, "the request body is too large", true);
        }
        if (expect != null && req.minor >= 1) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
        arm(READING, start + limits.requestTimeout().toNanos());
        return input.read((int) length);
    }

    /** A short error response on a connection that closes after it; a failure to send it is ignored. */
    private static void error(OutputStream out, int status, String message, boolean head) {
        try {
            Response r = new Response(out, head, true, true);
            r.text(status, message);
        } catch (IOException | RuntimeException e) {
            // the client is gone
        }
    }

    /**
     * Closes gently, as RFC 9112 section 9.6 asks: the sending side first, then what the client
     * still sends is read and dropped (at most {@link #LINGER_BYTES}, for at most a second), so
     * that the kernel does not answer unread bytes with a reset that destroys the response.
     */
    private void linger() throws IOException {
        if (tls != null || raw.isClosed() || raw.isInputShutdown()) {
            return;
        }
        raw.shutdownOutput();
        arm(READING, System.nanoTime() + LINGER_NANOS);
        InputStream in = raw.getInputStream();
        byte[] b = new byte[8192];
        for (long n = 0; n < LINGER_BYTES; ) {
            int k = in.read(b);
            if (k < 0) {
                return;
            }
            n += k;
        }
    }

    private void arm(int phase, long deadline) {
        this.phase = phase;
        this.deadline = deadline;
    }

    /**
     * The watchdog's look at this connection: past its deadline, a connection waiting for bytes
     * has its input shut (the reader sees the end and answers 408 where a request had begun), and
     * one stuck writing is closed.
     */
    void check(long now) {
        if (now - deadline < 0 || deadline == Long.MAX_VALUE) {
            return;
        }
        timedOut = true;
        deadline = Long.MAX_VALUE;
        try {
            if (phase == READING) {
                raw.shutdownInput();
            } else {
                raw.close();
            }
        } catch (IOException e) {
            kill();
        }
    }

    /** At the server's close: a connection between requests is closed now; one in a request finishes it first. */
    void stopIfIdle() {
        if (phase == IDLE) {
            kill();
        }
    }

    /** Closes the socket, which ends any read or write in progress. */
    void kill() {
        try {
            raw.close();
        } catch (IOException e) {
            // closed anyway
        }
    }

    /** The socket's output, with a deadline on each write so that a client that stops reading is cut. */
    private final class Watched extends FilterOutputStream {
        Watched(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int was = phase;
            long wasDeadline = deadline;
            arm(WRITING, System.nanoTime() + limits.sendTimeout().toNanos());
            try {
                out.write(b, off, len);
            } finally {
                arm(was, wasDeadline);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }
}
