package org.vectorjce.webdav;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * Serves a folder of any {@link java.nio.file.FileSystem} (usually its root, such as a disk
 * image's filesystem) read-only over HTTP/1.1: as WebDAV class 1 (RFC 4918) for file managers and
 * sync tools, and as an HTML page of each folder for browsers. Nothing is ever written.
 *
 * <pre>{@code
 * try (FileSystem fs = DiskFileSystems.open(image, Map.of());
 *      FileServer server = FileServer.builder(fs.getPath("/"))
 *              .title("backup.img").facts(Map.of("filesystem", "ext4"))
 *              .start()) {
 *     System.out.println(server.uri());   // http://127.0.0.1:PORT/TOKEN/
 *     server.await();                      // until close() from another thread
 * }
 * }</pre>
 *
 * <p><b>Who may read:</b> by default every URL starts with a random 128-bit token
 * ({@link #uri()} carries it), so another user of the same machine cannot read the files through
 * the port; a wrong or missing token is answered 404 exactly as a missing file. Or
 * {@link Builder#basicAuth HTTP Basic}, only over {@link Builder#tls TLS}.
 *
 * <p><b>Bounds:</b> at most {@link Builder#maxConnections} connections (one more is answered 503
 * and closed), a request line of 8 KiB, 64 KiB and 100 header fields, a request body (PROPFIND's
 * XML) of 64 KiB, and timeouts for each phase of a connection ({@link Builder#timeouts}); see
 * the package documentation.
 *
 * <p><b>Threads:</b> one accepting, one watchdog that enforces the timeouts, and one per
 * connection, on the caller's {@link Executor} or on a pool of this server's own.
 * {@link #close()} stops accepting, lets requests in flight finish (for at most the drain
 * timeout), closes the connections and returns once every one of these threads has ended. The
 * server logs nothing; every failure becomes a status or a closed connection.
 */
public final class FileServer implements Closeable {
    private static final String THREAD_PREFIX = "vectorjce-webdav-";

    private final ServerSocket listener;
    private final Limits limits;
    private final SSLContext tls;
    private final Access access;
    private final Handler handler;
    private final URI uri;
    private final Executor executor;
    private final ThreadPoolExecutor pool;
    private final List<Thread> poolThreads = Collections.synchronizedList(new ArrayList<>());
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    /** Tasks of this server still running: the accepting loop, the watchdog, the connections. */
    private final AtomicInteger running = new AtomicInteger();
    private final Object lock = new Object();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;

    private FileServer(Builder b, ServerSocket listener, Access access) {
        this.listener = listener;
        this.limits = b.limits;
        this.tls = b.tls;
        this.access = access;
        this.handler = new Handler(b.root, access, b.title, b.facts);
        InetSocketAddress a = (InetSocketAddress) listener.getLocalSocketAddress();
        InetAddress host = a.getAddress().isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : a.getAddress();
        String h = host.getHostAddress();
        this.uri = URI.create((tls != null ? "https://" : "http://") + (h.contains(":") ? "[" + h + "]" : h) + ":"
                + a.getPort() + access.prefix());
        if (b.executor != null) {
            this.executor = b.executor;
            this.pool = null;
        } else {
            int threads = limits.maxConnections() + 2;
            this.pool = new ThreadPoolExecutor(threads, threads, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, THREAD_PREFIX + a.getPort() + "-" + poolThreads.size());
                t.setDaemon(true);
                poolThreads.add(t);
                return t;
            });
            pool.allowCoreThreadTimeOut(true);
            this.executor = pool;
        }
    }

    /**
     * A server for the tree under {@code root}.
     *
     * @param root a folder of any filesystem, e.g. {@code fs.getPath("/")}; requests never reach above it
     * @return the builder; {@link Builder#start()} binds and serves
     */
    public static Builder builder(Path root) {
        return new Builder(Objects.requireNonNull(root, "root"));
    }

    /**
     * Where to point a client: {@code http://HOST:PORT/TOKEN/} ({@code https} with TLS, no token
     * with Basic authentication). A wildcard listening address is given as the loopback address.
     * The URI carries the token: treat it as the secret it is.
     *
     * @return the address of the served root, ending in {@code /}
     */
    public URI uri() {
        return uri;
    }

    /**
     * The port the server listens on.
     *
     * @return the bound port (the one chosen when the builder asked for port 0)
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Waits until {@link #close()} has stopped the server.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void await() throws InterruptedException {
        stopped.await();
    }

    boolean closing() {
        return closing;
    }

    /**
     * Stops accepting, lets every request in flight finish (for at most the drain timeout, 30 s
     * unless {@link Builder#drainTimeout} says otherwise), closes the connections, and returns
     * once every thread of the server has ended. Idempotent; the served filesystem stays open.
     */
    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (closing) {
                return;
            }
            closing = true;
            lock.notifyAll();
        }
        try {
            listener.close();
            for (Connection c : connections) {
                c.stopIfIdle();
            }
            long end = System.nanoTime() + limits.drainTimeout().toNanos();
            synchronized (lock) {
                for (long left; !connections.isEmpty() && (left = end - System.nanoTime()) > 0; ) {
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
            for (Connection c : connections) {
                c.kill();
            }
            synchronized (lock) {
                while (running.get() > 0) {
                    lock.wait(100);
                    for (Connection c : connections) {
                        c.kill();
                    }
                }
            }
            if (pool != null) {
                pool.shutdown();
                pool.awaitTermination(1, TimeUnit.MINUTES);
                List<Thread> threads;
                synchronized (poolThreads) {
                    threads = new ArrayList<>(poolThreads);
                }
                for (Thread t : threads) {
                    t.join();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            access.wipe();
            stopped.countDown();
        }
    }

    private void spawn(Runnable body) {
        running.incrementAndGet();
        try {
            executor.execute(() -> {
                try {
                    body.run();
                } finally {
                    synchronized (lock) {
                        running.decrementAndGet();
                        lock.notifyAll();
                    }
                }
            });
        } catch (RuntimeException e) {
            running.decrementAndGet();
            throw e;
        }
    }

    /** A connection has ended. */
    void ended(Connection c) {
        synchronized (lock) {
            connections.remove(c);
            lock.notifyAll();
        }
    }

    private void accept() {
        while (!closing) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (closing || listener.isClosed()) {
                    return;
                }
                continue; // a connection that failed while being accepted
            }
            try {
                s.setTcpNoDelay(true);
            } catch (IOException e) {
                // a hint only
            }
            if (closing || connections.size() >= limits.maxConnections()) {
                refuse(s);
                continue;
            }
            Connection c = new Connection(this, s, tls, limits, handler);
            connections.add(c);
            try {
                spawn(c);
            } catch (RejectedExecutionException e) {
                connections.remove(c);
                refuse(s);
            }
        }
    }

    /** 503 to a connection over the limit (RFC 9110 section 15.6.4), then closed; over TLS only closed. */
    private void refuse(Socket s) {
        try (s) {
            if (tls == null) {
                OutputStream out = s.getOutputStream();
                byte[] body = "too many connections: try again\n".getBytes(StandardCharsets.US_ASCII);
                out.write(("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                s.shutdownOutput();
            }
        } catch (IOException e) {
            // the client is gone
        }
    }

    /** Enforces every connection's deadline, a few times per shortest timeout. */
    private void watchdog() {
        long tick = Math.max(10, Math.min(250, shortest().toMillis() / 4));
        synchronized (lock) {
            while (true) {
                long now = System.nanoTime();
                for (Connection c : connections) {
                    c.check(now);
                }
                if (closing && connections.isEmpty()) {
                    return;
                }
                try {
                    lock.wait(tick);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private Duration shortest() {
        Duration d = limits.headerTimeout();
        for (Duration x : List.of(limits.requestTimeout(), limits.idleTimeout(), limits.sendTimeout())) {
            if (x.compareTo(d) < 0) {
                d = x;
            }
        }
        return d;
    }

    /** What to serve, where, to whom, within which bounds. */
    public static final class Builder {
        private final Path root;
        private InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private String token;
        private String user;
        private char[] password;
        private SSLContext tls;
        private Executor executor;
        private Limits limits = Limits.DEFAULTS;
        private String title = "Files";
        private Map<String, String> facts = Map.of();

        private Builder(Path root) {
            this.root = root;
        }

        /**
         * The address to listen on (default: 127.0.0.1, a free port). Any other address exposes the files to that network.
         *
         * @param address the host and port; port 0 for any free one
         * @return this builder
         */
        public Builder listen(InetSocketAddress address) {
            this.address = Objects.requireNonNull(address, "address");
            return this;
        }

        /**
         * The secret first path segment of every URL (default: 128 random bits from
         * {@link SecureRandom}, base64url): letters, digits, {@code -}, {@code _}, {@code .}, {@code ~}, 8 to 256 of them.
         *
         * @param token the secret
         * @return this builder
         */
        public Builder token(String token) {
            if (token.length() < 8 || token.length() > 256 || !token.matches("[A-Za-z0-9._~-]+") || token.matches("\\.+")) {
                throw new IllegalArgumentException("a token is 8 to 256 letters, digits, '-', '_', '.' or '~'");
            }
            this.token = token;
            this.user = null;
            return this;
        }

        /**
         * HTTP Basic authentication (RFC 7617) instead of the token: URLs have no token and every
         * request must carry these credentials. Needs {@link #tls}, since Basic sends the password
         * readable by anyone on the path. The password is copied (into a digest at
         * {@link #start()}); the caller may wipe its array.
         *
         * @param user the user name (no {@code :})
         * @param password the password
         * @return this builder
         */
        public Builder basicAuth(String user, char[] password) {
            if (user.isEmpty() || user.indexOf(':') >= 0) {
                throw new IllegalArgumentException("a Basic user name is not empty and has no ':'");
            }
            if (this.password != null) {
                java.util.Arrays.fill(this.password, '\0');
            }
            this.user = user;
            this.password = password.clone();
            this.token = null;
            return this;
        }

        /**
         * Serve HTTPS with {@code context}'s certificate and key (e.g. from the NBD server's TlsCredentials).
         *
         * @param context a server context: its key managers hold the certificate and key
         * @return this builder
         */
        public Builder tls(SSLContext context) {
            this.tls = Objects.requireNonNull(context, "context");
            return this;
        }

        /**
         * Run the accepting loop, the watchdog and the connections on {@code executor}; it must
         * give every task its own thread at once (up to {@link #maxConnections} + 2). Without one
         * the server has a pool of its own, ended by {@link FileServer#close()}.
         *
         * @param executor runs the server's tasks; it stays the caller's to shut down
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * The most connections served at once (default 128); one more is answered 503 and closed.
         *
         * @param n at least 1
         * @return this builder
         */
        public Builder maxConnections(int n) {
            limits = limits.withConnections(n);
            return this;
        }

        /**
         * The size limits of a request head (defaults: an 8 KiB request line, 64 KiB and 100 header fields).
         *
         * @param requestLineBytes the longest request line (at least 256)
         * @param headerBytes the most bytes of all header fields (at least 1024)
         * @param headerFields the most header fields
         * @return this builder
         */
        public Builder headerLimits(int requestLineBytes, int headerBytes, int headerFields) {
            limits = limits.withSizes(requestLineBytes, headerBytes, headerFields);
            return this;
        }

        /**
         * The timeouts (defaults 10 s, 30 s, 30 s, 60 s): {@code header} from a request's first
         * byte (or the connection's accept) to the end of its head, which cuts clients that send a
         * byte at a time; {@code request} from its first byte to the end of its body; {@code idle}
         * a kept-alive connection's wait for its next request; {@code send} one write of a response
         * that makes no progress (a client that stopped reading).
         *
         * @param header the header timeout
         * @param request the whole-request timeout
         * @param idle the keep-alive timeout
         * @param send the stalled-write timeout
         * @return this builder
         */
        public Builder timeouts(Duration header, Duration request, Duration idle, Duration send) {
            limits = limits.withTimeouts(header, request, idle, send);
            return this;
        }

        /**
         * How long {@link FileServer#close()} lets requests in flight finish before it cuts them (default 30 s).
         *
         * @param drain zero or more
         * @return this builder
         */
        public Builder drainTimeout(Duration drain) {
            limits = limits.withDrain(drain);
            return this;
        }

        /**
         * The heading of every HTML page and the root's display name (default "Files").
         *
         * @param title e.g. the image's file name
         * @return this builder
         */
        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /**
         * Name and value pairs shown, in their order, under the title of every page (e.g. format, filesystem, label).
         *
         * @param facts copied; an ordered map keeps its order
         * @return this builder
         */
        public Builder facts(Map<String, String> facts) {
            this.facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @return the running server
         * @throws IOException when the address cannot be bound, or {@code root} is not a folder
         * @throws IllegalStateException when Basic authentication is asked for without TLS
         */
        public FileServer start() throws IOException {
            if (user != null && tls == null) {
                throw new IllegalStateException("HTTP Basic needs tls(...): without TLS the password crosses the network readable");
            }
            if (!Files.isDirectory(root)) {
                throw new NotDirectoryException(root.toString());
            }
            Access access;
            if (user != null) {
                access = Access.basic(user, password);
                java.util.Arrays.fill(password, '\0');
                password = null;
            } else {
                String t = token;
                if (t == null) {
                    byte[] b = new byte[16];
                    new SecureRandom().nextBytes(b);
                    t = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
                }
                access = Access.token(t);
            }
            ServerSocket s = new ServerSocket();
            FileServer server;
            try {
                s.bind(address, 128);
                server = new FileServer(this, s, access);
                server.spawn(server::accept);
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
            try {
                server.spawn(server::watchdog);
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        }
    }
}
