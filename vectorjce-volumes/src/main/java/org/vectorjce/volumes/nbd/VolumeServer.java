package org.vectorjce.volumes.nbd;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.vectorjce.volumes.Volume;

/**
 * Serves one {@link Volume}'s plaintext over the Network Block Device protocol ({@code doc/proto.md}
 * of the NetworkBlockDevice/nbd repository): the fixed newstyle handshake with
 * {@code NBD_OPT_EXPORT_NAME}, {@code INFO}, {@code GO}, {@code LIST}, {@code ABORT},
 * {@code STARTTLS} and {@code STRUCTURED_REPLY} (a read's reply is then {@code OFFSET_DATA} chunks,
 * an error an {@code ERROR} chunk); in transmission {@code NBD_CMD_READ}, {@code WRITE},
 * {@code FLUSH}, {@code DISC}, {@code TRIM} (accepted, nothing discarded), {@code WRITE_ZEROES}
 * and {@code NBD_CMD_FLAG_FUA}. Every other option is answered {@code NBD_REP_ERR_UNSUP}, every
 * other command {@code EINVAL}.
 *
 * <pre>{@code
 * try (Volume v = Volumes.open(image).passphrase(pw).readWrite().open();
 *      VolumeServer s = VolumeServer.builder(v).unixSocket(Path.of("/run/user/1000/disk.sock")).start()) {
 *     System.out.println(s.uri());        // nbd+unix:///?socket=/run/user/1000/disk.sock
 *     s.awaitStop();                       // until close() from another thread
 * }
 * }</pre>
 *
 * <p><b>Where it listens:</b> a Unix socket (only its owner can connect: see
 * {@link Builder#unixSocket}), or a TCP address the caller names. <b>Writes</b> go to the volume
 * when it was opened for writing and the builder did not ask {@link Builder#readOnly()}; otherwise
 * the export is read-only (advertised so) and a write is answered {@code EPERM}. A write is visible
 * to every later read of any connection (each connection reads and writes a
 * {@link Volume#device() device} of the volume at the request's offsets; writes take a lock that
 * reads share), so the server advertises {@code NBD_FLAG_CAN_MULTI_CONN}: {@code FLUSH} syncs the
 * whole image. <b>Memory</b> is bounded: a request longer than {@link Builder#maxRequest} (32 MiB
 * by default) is refused with {@code EINVAL} (a write's data is read and dropped); a read or write
 * above 1 MiB is served a MiB at a time (a write is applied as its data arrives, a structured
 * read's reply is a chunk per MiB), so one request holds at most 1 MiB; and the buffers of
 * requests in flight across all connections total at most {@link Builder#bufferBytes} (64 MiB), a
 * request waiting for room otherwise. A client that breaks the protocol loses its connection; the
 * others go on.
 *
 * <p><b>Threads:</b> one accepting and one per connection, on the caller's {@link Executor} or
 * threads started for this server; {@link #close()} stops accepting, lets each connection finish
 * the request it is in, closes the connections and returns once every thread has left. The volume
 * stays the caller's to close (after the server). Nothing secret is logged or sent: the server
 * logs nothing.
 *
 * <p>This class is the server's life only (bind, accept, close); the protocol is in the package's
 * {@code Handshake} (options and STARTTLS), {@code Transmission} (requests, each checked to an
 * errno in one place, {@code Request.check}, then served) and {@code Connection} (one client's
 * socket), the memory bound in {@code BufferBudget}.
 */
public final class VolumeServer implements Closeable {
    private final ServerSocketChannel server;
    private final String uri;
    private final Path socketPath;
    private final Export export;
    private final BufferBudget budget;
    private final SSLContext tls;
    private final Executor executor;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<Thread> own = new ArrayList<>();
    private volatile boolean closing;

    private VolumeServer(Builder b, Listener listener) {
        this.server = listener.channel();
        this.uri = listener.uri();
        this.socketPath = b.unixSocket;
        this.export = new Export(b.volume, b.exportName, b.readOnly, b.maxRequest);
        this.budget = new BufferBudget(b.bufferBytes);
        this.executor = b.executor;
        this.tls = b.tls;
    }

    /**
     * A server for {@code volume}'s plaintext.
     *
     * @param volume the open volume; it stays open after the server closes
     * @return the builder: name a Unix socket or a TCP address, then {@link Builder#start()}
     */
    public static Builder builder(Volume volume) {
        return new Builder(Objects.requireNonNull(volume, "volume"));
    }

    /** How to connect: {@code nbd+unix:///?socket=PATH} or {@code nbd://HOST:PORT/}, with the export name. */
    public String uri() {
        return uri;
    }

    /** Whether the export refuses writes. */
    public boolean readOnly() {
        return export.readOnly();
    }

    /**
     * Waits until {@link #close()} has stopped the server.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    /**
     * Stops accepting, lets every connection finish the request it is in, closes the connections,
     * removes the Unix socket file, and returns when every thread of the server has left. Idempotent.
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        try {
            server.close();
            for (Connection c : connections) {
                c.stop();
            }
            synchronized (running) {
                while (running.get() > 0) {
                    try {
                        running.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            for (Thread t : own) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        } finally {
            if (socketPath != null) {
                Files.deleteIfExists(socketPath);
            }
            stopped.countDown();
        }
    }

    /** Runs {@code body} on the executor or a thread of the server's own, counted in {@link #running}. */
    private void spawn(String name, Runnable body) {
        running.incrementAndGet();
        Runnable r = () -> {
            try {
                body.run();
            } finally {
                synchronized (running) {
                    running.decrementAndGet();
                    running.notifyAll();
                }
            }
        };
        if (executor != null) {
            executor.execute(r);
        } else {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            synchronized (own) {
                own.add(t);
            }
            t.start();
        }
    }

    /** Accepts clients until {@link #close()}, each served on a thread of its own. */
    private void accept() {
        int n = 0;
        while (!closing) {
            SocketChannel s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Connection c = new Connection(s, export, budget, tls);
            connections.add(c);
            if (closing) {
                c.stop();
            }
            try {
                spawn("vectorjce-nbd-" + (++n), () -> {
                    try {
                        c.serve();
                    } finally {
                        connections.remove(c);
                    }
                });
            } catch (RuntimeException e) {
                connections.remove(c);
                c.stop();
            }
        }
    }

    /** Where and how to serve. */
    public static final class Builder {
        private final Volume volume;
        private Path unixSocket;
        private InetSocketAddress tcp;
        private boolean readOnly;
        private Executor executor;
        private String exportName = "";
        private int maxRequest = 32 << 20;
        private int bufferBytes = 64 << 20;
        private SSLContext tls;

        private Builder(Volume volume) {
            this.volume = volume;
        }

        /**
         * Listen on a Unix socket at {@code path} (which must not exist): it is bound in a new 0700
         * folder, made 0600 and only then linked to {@code path}, so no other user can ever connect.
         */
        public Builder unixSocket(Path path) {
            unixSocket = Objects.requireNonNull(path, "path");
            tcp = null;
            return this;
        }

        /** Listen on a TCP address (e.g. {@code new InetSocketAddress(InetAddress.getLoopbackAddress(), 10809)}). */
        public Builder tcp(InetSocketAddress address) {
            tcp = Objects.requireNonNull(address, "address");
            unixSocket = null;
            return this;
        }

        /** Refuse writes even where the volume takes them. */
        public Builder readOnly() {
            readOnly = true;
            return this;
        }

        /** Run the accepting thread and the connections on {@code executor} (it must give each its own thread). */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The export's name (default: {@code ""}, the default export; a client naming none gets it). */
        public Builder exportName(String name) {
            if (name.getBytes(StandardCharsets.UTF_8).length > 4096 || name.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("an export name is at most 4096 bytes of UTF-8 without NUL");
            }
            exportName = name;
            return this;
        }

        /**
         * Require TLS 1.3 ({@code NBD_OPT_STARTTLS}) with {@code context}'s server certificate and key
         * (see {@link TlsCredentials}): a client that does not start TLS gets
         * {@code NBD_REP_ERR_TLS_REQD} to every option and no export; the URI is {@code nbds://} or
         * {@code nbds+unix://}.
         */
        public Builder tls(SSLContext context) {
            tls = Objects.requireNonNull(context, "context");
            return this;
        }

        /** The longest read or write served (default 32 MiB); longer ones get {@code EINVAL}. */
        public Builder maxRequest(int bytes) {
            if (bytes < 4096) {
                throw new IllegalArgumentException("maxRequest " + bytes + " is below 4096");
            }
            maxRequest = bytes;
            return this;
        }

        /** The most request buffer bytes held at once across all connections (default 64 MiB; at least {@link #maxRequest}). */
        public Builder bufferBytes(int bytes) {
            bufferBytes = bytes;
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @return the running server
         * @throws IOException when the address cannot be bound (the socket file exists, the port is taken)
         * @throws IllegalStateException when no address was named
         * @throws IllegalArgumentException when {@link #bufferBytes} is below {@link #maxRequest}
         */
        public VolumeServer start() throws IOException {
            if (unixSocket == null && tcp == null) {
                throw new IllegalStateException("name a Unix socket or a TCP address to listen on");
            }
            if (bufferBytes < maxRequest) {
                throw new IllegalArgumentException("bufferBytes " + bufferBytes + " is below maxRequest " + maxRequest);
            }
            Listener l = unixSocket != null ? Listener.unix(unixSocket, tls != null, exportName)
                    : Listener.tcp(tcp, tls != null, exportName);
            VolumeServer v = new VolumeServer(this, l);
            try {
                v.spawn("vectorjce-nbd-accept", v::accept);
            } catch (RuntimeException e) {
                l.channel().close();
                throw e;
            }
            return v;
        }
    }
}
