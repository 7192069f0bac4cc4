package org.vectorjce.volumes.nbd;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.VolumeException;

/**
 * One client: its socket (or TLS over it after {@code NBD_OPT_STARTTLS}), and its life — the
 * {@link Handshake}, then the {@link Transmission} of its requests on a {@link Device} of its own,
 * one request at a time ("Protocol phases" of {@code doc/proto.md}). A client that breaks the
 * protocol or goes away ends only its own connection.
 *
 * <p>{@link #stop()} (from the server's {@code close()}) closes the socket once the request in
 * progress has been answered.
 */
final class Connection {
    /** How long {@link #stop()} lets a connection finish a request whose data it is still sending. */
    static final int STOP_WAIT_SECONDS = 10;

    private final SocketChannel socket;
    private final Export export;
    private final BufferBudget budget;
    private final SSLContext tls;
    /** The connection's bytes: the socket, or TLS over it after {@link #startTls()}. */
    private ByteChannel wire;
    /** Held while a request is served: {@link #stop} waits for it. */
    private final ReentrantLock busy = new ReentrantLock();
    private volatile boolean stopping;

    /**
     * @param tls the server's TLS context, or null for a server without TLS
     */
    Connection(SocketChannel socket, Export export, BufferBudget budget, SSLContext tls) {
        this.socket = socket;
        this.wire = socket;
        this.export = export;
        this.budget = budget;
        this.tls = tls;
    }

    /** Serves the client until it leaves, breaks the protocol or {@link #stop()}; never throws. */
    void serve() {
        Device device = null;
        try {
            Handshake h = new Handshake(this, export, tls);
            if (h.run()) {
                device = export.open();
                new Transmission(this, export, budget, device, h.structured()).run();
            }
        } catch (IOException | VolumeException | RuntimeException e) {
            // this client is gone or broke the protocol; the others go on
        } finally {
            close();
            if (device != null) {
                try {
                    device.close();
                } catch (IOException e) {
                    // nothing to flush: writes went through already
                }
            }
        }
    }

    /**
     * Closes the socket once the request in progress (if any) has been answered; a client that
     * stalls in the middle of sending one is cut off after {@link #STOP_WAIT_SECONDS}.
     */
    void stop() {
        boolean locked = false;
        try {
            locked = busy.tryLock(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            stopping = true;
            close();
        } finally {
            if (locked) {
                busy.unlock();
            }
        }
    }

    /** Marks a request as in progress; false (nothing held) when the connection is stopping. */
    boolean begin() {
        busy.lock();
        if (stopping) {
            busy.unlock();
            return false;
        }
        return true;
    }

    /** Ends what {@link #begin()} started. */
    void end() {
        busy.unlock();
    }

    private void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // gone
        }
    }

    // ---- TLS ("TLS support" of doc/proto.md)

    /** Whether TLS is on. */
    boolean tlsOn() {
        return wire != socket;
    }

    /** Runs the TLS 1.3 handshake as the server; every later byte goes through TLS. */
    void startTls() throws IOException {
        SSLEngine e = tls.createSSLEngine();
        e.setUseClientMode(false);
        e.setEnabledProtocols(new String[] {"TLSv1.3"});
        TlsWire w = new TlsWire(socket, e);
        w.handshake();
        wire = w;
    }

    // ---- socket I/O

    /** The next {@code n} bytes from the client, flipped for reading. */
    ByteBuffer read(int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        fill(b);
        return b.flip();
    }

    /** Reads from the client until {@code b} is full. */
    void fill(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (wire.read(b) < 0) {
                throw new EOFException("the client closed the connection");
            }
        }
    }

    /** Reads and drops {@code n} bytes (an unsigned 32-bit count), 64 KiB at a time. */
    void skip(long n) throws IOException {
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

    /** Sends all of {@code bs}, in order (one gathering write on a plain socket). */
    void write(ByteBuffer... bs) throws IOException {
        if (tlsOn()) {
            for (ByteBuffer b : bs) {
                wire.write(b);
            }
            return;
        }
        long left = 0;
        for (ByteBuffer b : bs) {
            left += b.remaining();
        }
        while (left > 0) {
            left -= socket.write(bs);
        }
    }
}
