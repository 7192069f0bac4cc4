package org.vectorjce.volumes.nbd;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * Serves one {@link Volume}'s plaintext payload over the Network Block Device protocol
 * ({@code doc/proto.md} of the NetworkBlockDevice/nbd repository): the fixed newstyle handshake
 * with {@code NBD_OPT_EXPORT_NAME}, {@code INFO}, {@code GO}, {@code LIST}, {@code ABORT} and
 * {@code STRUCTURED_REPLY} (reads are then one {@code OFFSET_DATA} chunk, errors an
 * {@code ERROR} chunk); in transmission {@code NBD_CMD_READ}, {@code WRITE}, {@code FLUSH},
 * {@code DISC}, {@code TRIM} (accepted, nothing discarded), {@code WRITE_ZEROES} and
 * {@code NBD_CMD_FLAG_FUA}. Every other option is answered {@code NBD_REP_ERR_UNSUP}, every other
 * command {@code EINVAL}.
 *
 * <pre>{@code
 * try (Volume v = Volumes.open(image).passphrase(pw).readWrite().open();
 *      VolumeServer s = VolumeServer.builder(v).unixSocket(Path.of("/run/user/1000/disk.sock")).start()) {
 *     System.out.println(s.uri());        // nbd+unix:///?socket=/run/user/1000/disk.sock
 *     s.awaitStop();                       // until close() from another thread
 * }
 * }</pre>
 *
 * <p><b>Where it listens:</b> a Unix socket (made {@code 0600} right after it is bound; put it in
 * a {@code 0700} folder for no window at all), or a TCP address the caller names. <b>Writes</b> go
 * to the volume when it was opened for writing and the builder did not ask {@link Builder#readOnly()};
 * otherwise the export is read-only (advertised so) and a write is answered {@code EPERM}.
 * A write is visible to every later read of any connection (one payload channel per connection,
 * all over the same image; writes take a lock that reads share), so the server advertises
 * {@code NBD_FLAG_CAN_MULTI_CONN}: {@code FLUSH} syncs the whole image. <b>Memory</b> is bounded:
 * a request longer than {@link Builder#maxRequest} (32 MiB by default) is refused with
 * {@code EINVAL} (a write's data is read and dropped); a read or write above 1 MiB is served a
 * MiB at a time (a write is applied as its data arrives, a structured read's reply is a chunk
 * per MiB), so one request holds at most 1 MiB; and the buffers of requests in flight across all
 * connections total at most {@link Builder#bufferBytes} (64 MiB), a request waiting for room
 * otherwise. A client that breaks the protocol loses its connection; the others go on.
 *
 * <p><b>Threads:</b> one accepting and one per connection, on the caller's {@link Executor} or
 * threads started for this server; {@link #close()} stops accepting, lets each connection finish
 * the request it is in, closes the connections and returns once every thread has left. The volume
 * stays the caller's to close (after the server). Nothing secret is logged or sent: the server
 * logs nothing.
 */
public final class VolumeServer implements Closeable {
    static final long NBDMAGIC = 0x4e42444d41474943L, IHAVEOPT = 0x49484156454f5054L, OPT_REPLY = 0x3e889045565a9L;
    static final int REQUEST_MAGIC = 0x25609513, SIMPLE_REPLY = 0x67446698, STRUCTURED_REPLY = 0x668e33ef;
    static final int FLAG_FIXED_NEWSTYLE = 1, FLAG_NO_ZEROES = 2;
    static final int OPT_EXPORT_NAME = 1, OPT_ABORT = 2, OPT_LIST = 3, OPT_STARTTLS = 5, OPT_INFO = 6, OPT_GO = 7,
            OPT_STRUCTURED_REPLY = 8;
    static final int REP_ACK = 1, REP_SERVER = 2, REP_INFO = 3;
    static final int REP_ERR_UNSUP = 0x80000001, REP_ERR_INVALID = 0x80000003, REP_ERR_TLS_REQD = 0x80000005,
            REP_ERR_UNKNOWN = 0x80000006, REP_ERR_TOO_BIG = 0x80000009;
    static final int INFO_EXPORT = 0, INFO_NAME = 1, INFO_DESCRIPTION = 2, INFO_BLOCK_SIZE = 3;
    static final int TF_HAS_FLAGS = 1, TF_READ_ONLY = 2, TF_SEND_FLUSH = 4, TF_SEND_FUA = 8, TF_SEND_TRIM = 32,
            TF_SEND_WRITE_ZEROES = 64, TF_CAN_MULTI_CONN = 256;
    static final int CMD_READ = 0, CMD_WRITE = 1, CMD_DISC = 2, CMD_FLUSH = 3, CMD_TRIM = 4, CMD_WRITE_ZEROES = 6;
    static final int CMD_FLAG_FUA = 1, CMD_FLAG_NO_HOLE = 2, CMD_FLAG_DF = 4;
    static final int REPLY_FLAG_DONE = 1, REPLY_TYPE_OFFSET_DATA = 1, REPLY_TYPE_ERROR = 0x8001;
    static final int EPERM = 1, EIO = 5, EINVAL = 22, ENOSPC = 28, EOVERFLOW = 75;
    /** How long {@link #close()} lets a connection finish a request whose data it is still sending. */
    static final int STOP_WAIT_SECONDS = 10;
    /** Longest option request read; more is a broken client. */
    static final int MAX_OPTION = 64 * 1024;
    /**
     * The most bytes of one read or write held at once: a longer request is served a piece at a
     * time, so that four clients' 32 MiB requests fit a 64 MiB heap.
     */
    static final int PIECE = 1 << 20;
    /** Pieces from this size up use the pool's buffers. */
    private static final int POOLED_FROM = 64 << 10;

    private final Volume volume;
    private final ServerSocketChannel server;
    private final String uri;
    private final Path socketPath;
    private final boolean readOnly;
    private final String exportName;
    private final int maxRequest;
    private final Semaphore buffers;
    /**
     * {@link #PIECE}-byte buffers of finished requests, for the next ones: each was made while
     * {@link #PIECE} of {@link #buffers}' permits were held, so the pooled and the used ones
     * together stay within the budget.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer> pool =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final javax.net.ssl.SSLContext tls;
    private final int bufferBytes;
    private final Executor executor;
    private final ReadWriteLock io = new ReentrantReadWriteLock();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<Thread> own = new ArrayList<>();
    private volatile boolean closing;

    private VolumeServer(Builder b, ServerSocketChannel server, String uri) {
        this.volume = b.volume;
        this.server = server;
        this.uri = uri;
        this.socketPath = b.unixSocket;
        this.readOnly = b.readOnly || b.volume.readOnly();
        this.exportName = b.exportName;
        this.maxRequest = b.maxRequest;
        this.bufferBytes = b.bufferBytes;
        this.buffers = new Semaphore(b.bufferBytes);
        this.executor = b.executor;
        this.tls = b.tls;
    }

    /**
     * A server for {@code volume}'s payload.
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
        return readOnly;
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

    private void accept() {
        int n = 0;
        while (!closing) {
            SocketChannel s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Connection c = new Connection(s);
            connections.add(c);
            if (closing) {
                c.stop();
            }
            try {
                spawn("vectorjce-nbd-" + (++n), c::serve);
            } catch (RuntimeException e) {
                connections.remove(c);
                c.stop();
            }
        }
    }

    /** A broken protocol: the connection is closed. */
    private static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String m) {
            super(m);
        }
    }

    /** One client: the handshake, then requests in order, one at a time. */
    private final class Connection {
        private final SocketChannel ch;
        /** The connection's bytes: the socket, or TLS over it after NBD_OPT_STARTTLS. */
        private java.nio.channels.ByteChannel wire;
        /** Held while a request is served: {@link #stop} waits for it (a bounded time, for a client that stalls mid-request). */
        private final java.util.concurrent.locks.ReentrantLock busy = new java.util.concurrent.locks.ReentrantLock();
        private boolean structured;
        private boolean stopping;
        private SeekableByteChannel payload;

        Connection(SocketChannel ch) {
            this.ch = ch;
            this.wire = ch;
        }

        /**
         * Closes the socket once the request in progress (if any) has been answered; a client that
         * stalls in the middle of sending one is cut off after {@link #STOP_WAIT_SECONDS}.
         */
        void stop() {
            boolean locked = false;
            try {
                locked = busy.tryLock(STOP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                stopping = true;
                ch.close();
            } catch (IOException e) {
                // closing anyway
            } finally {
                if (locked) {
                    busy.unlock();
                }
            }
        }

        void serve() {
            try {
                if (handshake()) {
                    payload = volume.payload();
                    transmission();
                }
            } catch (IOException | VolumeException | RuntimeException e) {
                // this client is gone or broke the protocol; the others go on
            } finally {
                connections.remove(this);
                try {
                    ch.close();
                } catch (IOException e) {
                    // gone
                }
                if (payload != null) {
                    try {
                        payload.close();
                    } catch (IOException e) {
                        // nothing to flush: writes went through already
                    }
                }
            }
        }

        // ---- handshake

        /** True when the client entered the transmission phase. */
        private boolean handshake() throws IOException {
            ByteBuffer hello = ByteBuffer.allocate(18).putLong(NBDMAGIC).putLong(IHAVEOPT)
                    .putShort((short) (FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES));
            write(hello.flip());
            int clientFlags = read(4).getInt();
            if ((clientFlags & ~(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES)) != 0 || (clientFlags & FLAG_FIXED_NEWSTYLE) == 0) {
                return false; // unknown flags, or an old client: close, as the protocol says
            }
            boolean noZeroes = (clientFlags & FLAG_NO_ZEROES) != 0;
            while (true) {
                ByteBuffer h = read(16);
                if (h.getLong() != IHAVEOPT) {
                    return false;
                }
                int opt = h.getInt();
                int len = h.getInt();
                if (len < 0 || len > MAX_OPTION) {
                    if (opt == OPT_EXPORT_NAME) {
                        return false;
                    }
                    skip(Integer.toUnsignedLong(len));
                    optReply(opt, REP_ERR_TOO_BIG, "option data too long");
                    continue;
                }
                ByteBuffer data = read(len);
                if (tls != null && wire == ch && opt != OPT_STARTTLS && opt != OPT_ABORT) {
                    // TLS is required: nothing but STARTTLS (or ABORT) before it
                    if (opt == OPT_EXPORT_NAME) {
                        return false; // it has no error reply: close
                    }
                    optReply(opt, REP_ERR_TLS_REQD, "TLS is required: send NBD_OPT_STARTTLS first");
                    continue;
                }
                switch (opt) {
                    case OPT_STARTTLS -> {
                        if (tls == null) {
                            optReply(opt, REP_ERR_UNSUP, "this server has no TLS certificate");
                        } else if (len != 0 || wire != ch) {
                            optReply(opt, REP_ERR_INVALID, len != 0 ? "NBD_OPT_STARTTLS takes no data"
                                    : "TLS is already on");
                        } else {
                            optReply(opt, REP_ACK, (ByteBuffer) null);
                            javax.net.ssl.SSLEngine e = tls.createSSLEngine();
                            e.setUseClientMode(false);
                            e.setEnabledProtocols(new String[] {"TLSv1.3"});
                            TlsWire w = new TlsWire(ch, e);
                            w.handshake();
                            wire = w;
                        }
                    }
                    case OPT_EXPORT_NAME -> {
                        if (!nameMatches(data, len)) {
                            return false; // the protocol's only answer: close
                        }
                        ByteBuffer r = ByteBuffer.allocate(10 + (noZeroes ? 0 : 124)).putLong(volume.payloadSize())
                                .putShort((short) transmissionFlags());
                        write(r.position(r.capacity()).flip());
                        return true;
                    }
                    case OPT_ABORT -> {
                        optReply(opt, REP_ACK, (ByteBuffer) null);
                        return false;
                    }
                    case OPT_LIST -> {
                        if (len != 0) {
                            optReply(opt, REP_ERR_INVALID, "NBD_OPT_LIST takes no data");
                            continue;
                        }
                        byte[] name = exportName.getBytes(StandardCharsets.UTF_8);
                        ByteBuffer d = ByteBuffer.allocate(4 + name.length).putInt(name.length).put(name);
                        optReply(opt, REP_SERVER, d.flip());
                        optReply(opt, REP_ACK, (ByteBuffer) null);
                    }
                    case OPT_STRUCTURED_REPLY -> {
                        if (len != 0) {
                            optReply(opt, REP_ERR_INVALID, "NBD_OPT_STRUCTURED_REPLY takes no data");
                            continue;
                        }
                        structured = true;
                        optReply(opt, REP_ACK, (ByteBuffer) null);
                    }
                    case OPT_INFO, OPT_GO -> {
                        if (info(opt, data, len) && opt == OPT_GO) {
                            return true;
                        }
                    }
                    default -> optReply(opt, REP_ERR_UNSUP, "option " + opt + " is not supported");
                }
            }
        }

        private boolean nameMatches(ByteBuffer data, int len) {
            byte[] n = new byte[len];
            data.get(data.position(), n);
            String name = new String(n, StandardCharsets.UTF_8);
            return name.isEmpty() || name.equals(exportName);
        }

        /** NBD_OPT_INFO or GO: true when the export was described and acknowledged. */
        private boolean info(int opt, ByteBuffer data, int len) throws IOException {
            if (len < 6) {
                optReply(opt, REP_ERR_INVALID, "option data too short");
                return false;
            }
            int nameLen = data.getInt();
            if (nameLen < 0 || nameLen > len - 6) {
                optReply(opt, REP_ERR_INVALID, "export name length " + Integer.toUnsignedString(nameLen) + " is wrong");
                return false;
            }
            byte[] n = new byte[nameLen];
            data.get(n);
            int requests = data.getShort() & 0xffff;
            if (data.remaining() != 2 * requests) {
                optReply(opt, REP_ERR_INVALID, "information request count does not match the data");
                return false;
            }
            String name = new String(n, StandardCharsets.UTF_8);
            if (!name.isEmpty() && !name.equals(exportName)) {
                optReply(opt, REP_ERR_UNKNOWN, "no export of that name");
                return false;
            }
            boolean wantsName = false, wantsDescription = false, wantsBlockSize = false;
            for (int i = 0; i < requests; i++) {
                switch (data.getShort() & 0xffff) {
                    case INFO_NAME -> wantsName = true;
                    case INFO_DESCRIPTION -> wantsDescription = true;
                    case INFO_BLOCK_SIZE -> wantsBlockSize = true;
                    default -> {
                        // unknown or NBD_INFO_EXPORT (always sent): ignored, as the protocol says
                    }
                }
            }
            optReply(opt, REP_INFO, ByteBuffer.allocate(12).putShort((short) INFO_EXPORT).putLong(volume.payloadSize())
                    .putShort((short) transmissionFlags()).flip());
            if (wantsName) {
                byte[] e = exportName.getBytes(StandardCharsets.UTF_8);
                optReply(opt, REP_INFO, ByteBuffer.allocate(2 + e.length).putShort((short) INFO_NAME).put(e).flip());
            }
            if (wantsDescription) {
                byte[] d = (volume.info().format().typeName() + " " + volume.info().cipherSpec())
                        .getBytes(StandardCharsets.UTF_8);
                optReply(opt, REP_INFO, ByteBuffer.allocate(2 + d.length).putShort((short) INFO_DESCRIPTION).put(d).flip());
            }
            if (wantsBlockSize) {
                // any length works (a partial sector is read, changed and written back); the
                // sector is what is efficient
                optReply(opt, REP_INFO, ByteBuffer.allocate(14).putShort((short) INFO_BLOCK_SIZE).putInt(1)
                        .putInt(volume.sectorSize()).putInt(maxRequest).flip());
            }
            optReply(opt, REP_ACK, (ByteBuffer) null);
            return true;
        }

        private int transmissionFlags() {
            return TF_HAS_FLAGS | TF_SEND_FLUSH | TF_SEND_FUA | TF_SEND_TRIM | TF_SEND_WRITE_ZEROES | TF_CAN_MULTI_CONN
                    | (readOnly ? TF_READ_ONLY : 0);
        }

        private void optReply(int opt, int type, String message) throws IOException {
            optReply(opt, type, message == null ? null : ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)));
        }

        private void optReply(int opt, int type, ByteBuffer data) throws IOException {
            int len = data == null ? 0 : data.remaining();
            ByteBuffer h = ByteBuffer.allocate(20).putLong(OPT_REPLY).putInt(opt).putInt(type).putInt(len);
            write(h.flip());
            if (data != null) {
                write(data);
            }
        }

        // ---- transmission

        private void transmission() throws IOException {
            while (true) {
                ByteBuffer r = read(28);
                busy.lock();
                try {
                    if (stopping) {
                        return;
                    }
                    if (r.getInt() != REQUEST_MAGIC) {
                        throw new ProtocolException("bad request magic");
                    }
                    int flags = r.getShort() & 0xffff;
                    int type = r.getShort() & 0xffff;
                    long cookie = r.getLong();
                    long offset = r.getLong();
                    long length = Integer.toUnsignedLong(r.getInt());
                    if (type == CMD_DISC) {
                        return;
                    }
                    request(flags, type, cookie, offset, length);
                } finally {
                    busy.unlock();
                }
            }
        }

        private void request(int flags, int type, long cookie, long offset, long length) throws IOException {
            long size = volume.payloadSize();
            boolean inside = offset >= 0 && length <= size && offset <= size - length;
            if ((flags & ~(CMD_FLAG_FUA | CMD_FLAG_NO_HOLE | CMD_FLAG_DF)) != 0) {
                if (type == CMD_WRITE) {
                    skip(length);
                }
                error(type, cookie, EINVAL, "unknown command flags");
                return;
            }
            switch (type) {
                case CMD_READ -> {
                    if (length == 0 || length > maxRequest || !inside) {
                        error(type, cookie, EINVAL, length == 0 ? "zero length" : length > maxRequest
                                ? "longer than " + maxRequest + " bytes" : "beyond the end of the export");
                        return;
                    }
                    if ((flags & CMD_FLAG_DF) != 0 && structured && length > PIECE) {
                        // one content chunk was asked for, and this read is sent in pieces
                        error(type, cookie, EOVERFLOW, "longer than " + PIECE + " bytes in one chunk");
                        return;
                    }
                    read(cookie, offset, (int) length);
                }
                case CMD_WRITE -> {
                    if (length == 0 || length > maxRequest || !inside || readOnly) {
                        skip(length);
                        error(type, cookie, readOnly ? EPERM : !inside ? ENOSPC : EINVAL,
                                readOnly ? "read-only export" : !inside ? "beyond the end of the export"
                                        : length == 0 ? "zero length" : "longer than " + maxRequest + " bytes");
                        return;
                    }
                    write(cookie, offset, (int) length, (flags & CMD_FLAG_FUA) != 0);
                }
                case CMD_FLUSH -> {
                    volume.flush();
                    reply(cookie, 0);
                }
                case CMD_TRIM -> {
                    // proto.md: EINVAL for a read or trim beyond the end, ENOSPC for a write
                    if (readOnly || !inside) {
                        error(type, cookie, readOnly ? EPERM : EINVAL, readOnly ? "read-only export" : "beyond the end");
                        return;
                    }
                    if ((flags & CMD_FLAG_FUA) != 0) {
                        volume.flush();
                    }
                    reply(cookie, 0); // nothing is discarded: the ciphertext stays
                }
                case CMD_WRITE_ZEROES -> {
                    if (readOnly || !inside) {
                        error(type, cookie, readOnly ? EPERM : ENOSPC, readOnly ? "read-only export" : "beyond the end");
                        return;
                    }
                    zeroes(cookie, offset, length, (flags & CMD_FLAG_FUA) != 0);
                }
                default -> error(type, cookie, EINVAL, "command " + type + " is not supported");
            }
        }

        /**
         * A read, {@link #PIECE} bytes at a time: a simple reply's header goes with the first piece
         * (an error reading that one is still an error reply; a later one can only end the
         * connection, as the protocol says); with structured replies each piece is an
         * {@code OFFSET_DATA} chunk, the last one final, and an error an {@code ERROR} chunk.
         */
        private void read(long cookie, long offset, int length) throws IOException {
            int piece = Math.min(length, PIECE);
            ByteBuffer b = take(piece);
            try {
                for (int done = 0; done < length; ) {
                    int n = Math.min(piece, length - done);
                    b.clear().limit(n);
                    io.readLock().lock();
                    try {
                        readAt(b, offset + done);
                    } catch (IOException e) {
                        if (done > 0 && !structured) {
                            throw e; // the reply said success and some data went: hard disconnect
                        }
                        error(CMD_READ, cookie, EIO, "read failed");
                        return;
                    } finally {
                        io.readLock().unlock();
                    }
                    b.flip();
                    if (structured) {
                        ByteBuffer h = ByteBuffer.allocate(28).putInt(STRUCTURED_REPLY)
                                .putShort((short) (done + n == length ? REPLY_FLAG_DONE : 0))
                                .putShort((short) REPLY_TYPE_OFFSET_DATA).putLong(cookie).putInt(8 + n).putLong(offset + done);
                        write(h.flip(), b);
                    } else if (done == 0) {
                        ByteBuffer h = ByteBuffer.allocate(16).putInt(SIMPLE_REPLY).putInt(0).putLong(cookie);
                        write(h.flip(), b);
                    } else {
                        write(b);
                    }
                    done += n;
                }
            } finally {
                give(b);
            }
        }

        private void readAt(ByteBuffer b, long offset) throws IOException {
            payload.position(offset);
            while (b.hasRemaining()) {
                if (payload.read(b) < 0) {
                    throw new EOFException("the payload ended early");
                }
            }
        }

        /**
         * A write, {@link #PIECE} bytes at a time as its data arrives: each piece is written under
         * the write lock. After a piece fails the rest of the data is still read (the connection
         * stays in step) and the reply is {@code EIO}.
         */
        private void write(long cookie, long offset, int length, boolean fua) throws IOException {
            int piece = Math.min(length, PIECE);
            ByteBuffer b = take(piece);
            try {
                boolean failed = false;
                for (int done = 0; done < length; ) {
                    int n = Math.min(piece, length - done);
                    b.clear().limit(n);
                    fill(b);
                    b.flip();
                    failed = failed || !writeAt(b, offset + done);
                    done += n;
                }
                if (!failed && fua) {
                    try {
                        volume.flush();
                    } catch (IOException e) {
                        failed = true;
                    }
                }
                if (failed) {
                    error(CMD_WRITE, cookie, EIO, "write failed");
                } else {
                    reply(cookie, 0);
                }
            } finally {
                give(b);
            }
        }

        /** False when the payload refused the write. */
        private boolean writeAt(ByteBuffer b, long offset) {
            io.writeLock().lock();
            try {
                payload.position(offset);
                while (b.hasRemaining()) {
                    payload.write(b);
                }
                return true;
            } catch (IOException e) {
                return false;
            } finally {
                io.writeLock().unlock();
            }
        }

        private void zeroes(long cookie, long offset, long length, boolean fua) throws IOException {
            int chunk = (int) Math.min(length, 1 << 20);
            acquire(chunk);
            try {
                ByteBuffer z = ByteBuffer.allocate(chunk);
                io.writeLock().lock();
                try {
                    payload.position(offset);
                    for (long left = length; left > 0; ) {
                        z.clear().limit((int) Math.min(left, chunk));
                        left -= z.remaining();
                        while (z.hasRemaining()) {
                            payload.write(z);
                        }
                    }
                    if (fua) {
                        volume.flush();
                    }
                } catch (IOException e) {
                    error(CMD_WRITE_ZEROES, cookie, EIO, "write failed");
                    return;
                } finally {
                    io.writeLock().unlock();
                }
                reply(cookie, 0);
            } finally {
                buffers.release(chunk);
            }
        }

        /**
         * A buffer for a piece of {@code bytes} (at most {@link #PIECE}) under the budget: from 64 KiB
         * up a pooled {@link #PIECE}-byte one (no new 256 KiB array to zero and collect per request
         * of a bulk copy), below that a new one of its size. {@link #give} returns it.
         */
        private ByteBuffer take(int bytes) throws IOException {
            if (bytes < POOLED_FROM || PIECE > bufferBytes) {
                acquire(bytes);
                return ByteBuffer.allocate(bytes);
            }
            acquire(PIECE);
            ByteBuffer b = pool.poll();
            return b != null ? b.clear() : ByteBuffer.allocate(PIECE);
        }

        private void give(ByteBuffer b) {
            if (b.capacity() == PIECE && PIECE <= bufferBytes) {
                pool.offer(b);
            }
            buffers.release(b.capacity());
        }

        private void acquire(int bytes) throws IOException {
            try {
                buffers.acquire(Math.min(bytes, bufferBytes));
                if (bytes > bufferBytes) {
                    buffers.release(bufferBytes);
                    throw new ProtocolException("request larger than the buffer limit");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClosedChannelException();
            }
        }

        private void reply(long cookie, int error) throws IOException {
            write(ByteBuffer.allocate(16).putInt(SIMPLE_REPLY).putInt(error).putLong(cookie).flip());
        }

        /** An error reply: a structured ERROR chunk to a read when structured replies were negotiated. */
        private void error(int type, long cookie, int errno, String message) throws IOException {
            if (structured && type == CMD_READ) {
                byte[] m = message.getBytes(StandardCharsets.UTF_8);
                ByteBuffer b = ByteBuffer.allocate(20 + 6 + m.length).putInt(STRUCTURED_REPLY)
                        .putShort((short) REPLY_FLAG_DONE).putShort((short) REPLY_TYPE_ERROR).putLong(cookie)
                        .putInt(6 + m.length).putInt(errno).putShort((short) m.length).put(m);
                write(b.flip());
            } else {
                reply(cookie, errno);
            }
        }

        // ---- socket I/O

        private ByteBuffer read(int n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(n);
            fill(b);
            return b.flip();
        }

        /** Reads from the client until {@code b} is full. */
        private void fill(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                if (wire.read(b) < 0) {
                    throw new EOFException("the client closed the connection");
                }
            }
        }

        private void skip(long n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(n, 64 * 1024));
            while (n > 0) {
                b.clear().limit((int) Math.min(n, b.capacity()));
                int r = wire.read(b);
                if (r < 0) {
                    throw new EOFException("the client closed the connection");
                }
                n -= r;
            }
        }

        private void write(ByteBuffer... bs) throws IOException {
            long left = 0;
            for (ByteBuffer b : bs) {
                left += b.remaining();
            }
            if (wire != ch) {
                for (ByteBuffer b : bs) {
                    wire.write(b);
                }
                return;
            }
            while (left > 0) {
                left -= ch.write(bs);
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
        private javax.net.ssl.SSLContext tls;

        private Builder(Volume volume) {
            this.volume = volume;
        }

        /** Listen on a Unix socket at {@code path} (which must not exist); made 0600. */
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
        public Builder tls(javax.net.ssl.SSLContext context) {
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
         */
        /**
         * Binds {@code s} to {@code path} so that no other user can ever connect: the socket is
         * made in a new 0700 folder beside {@code path}, set to 0600, then hard-linked to
         * {@code path} (which fails, replacing nothing, when {@code path} exists) and its first name
         * and the folder removed.
         */
        private static void bindPrivately(ServerSocketChannel s, Path path) throws IOException {
            Path abs = path.toAbsolutePath();
            Path dir = Files.createTempDirectory(abs.getParent(), ".vectorjce-nbd-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path first = dir.resolve("s");
            try {
                s.bind(UnixDomainSocketAddress.of(first));
                Files.setPosixFilePermissions(first, PosixFilePermissions.fromString("rw-------"));
                Files.createLink(abs, first);
            } finally {
                Files.deleteIfExists(first);
                Files.deleteIfExists(dir);
            }
        }

        public VolumeServer start() throws IOException {
            if (unixSocket == null && tcp == null) {
                throw new IllegalStateException("name a Unix socket or a TCP address to listen on");
            }
            if (bufferBytes < maxRequest) {
                throw new IllegalArgumentException("bufferBytes " + bufferBytes + " is below maxRequest " + maxRequest);
            }
            ServerSocketChannel s;
            String uri;
            if (unixSocket != null) {
                s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                try {
                    bindPrivately(s, unixSocket);
                } catch (IOException | RuntimeException e) {
                    s.close();
                    throw e;
                }
                uri = (tls != null ? "nbds+unix:///" : "nbd+unix:///") + exportName + "?socket=" + unixSocket.toAbsolutePath();
            } else {
                // the address's own family: an IPv4 address stays IPv4 (the default socket is IPv6, dual-stack)
                s = ServerSocketChannel.open(tcp.getAddress() instanceof java.net.Inet4Address
                        ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
                try {
                    s.bind(tcp);
                } catch (IOException | RuntimeException e) {
                    s.close();
                    throw e;
                }
                InetSocketAddress a = (InetSocketAddress) s.getLocalAddress();
                String host = a.getAddress().getHostAddress();
                uri = (tls != null ? "nbds://" : "nbd://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/" + exportName;
            }
            VolumeServer v = new VolumeServer(this, s, uri);
            try {
                v.spawn("vectorjce-nbd-accept", v::accept);
            } catch (RuntimeException e) {
                s.close();
                throw e;
            }
            return v;
        }
    }
}
