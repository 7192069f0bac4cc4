package org.vectorjce.volumes.nbd;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * One connection's bytes through TLS after {@code NBD_OPT_STARTTLS}: the JDK's {@link SSLEngine}
 * (server side) over the blocking socket. Used by one thread at a time, as a connection is. The
 * buffers are the session's packet and application sizes (about 17 KiB each), whatever the client
 * sends.
 */
final class TlsWire implements ByteChannel {
    private final SocketChannel ch;
    private final SSLEngine engine;
    private ByteBuffer netIn, netOut, appIn;
    private boolean eof;

    TlsWire(SocketChannel ch, SSLEngine engine) {
        this.ch = ch;
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocate(packet).flip();          // kept in read mode: what is received, not yet unwrapped
        netOut = ByteBuffer.allocate(packet);
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
    }

    /** Runs the TLS handshake to its end (or throws: the client then loses the connection). */
    void handshake() throws IOException {
        engine.beginHandshake();
        pump();
    }

    /** Drives the engine while it is handshaking (also after the handshake: TLS 1.3 session tickets). */
    private void pump() throws IOException {
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> wrap(ByteBuffer.allocate(0));
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (unwrapOnce() < 0) {
                        throw new EOFException("the client closed the connection in the TLS handshake");
                    }
                }
                case NEED_TASK -> {
                    Runnable t;
                    while ((t = engine.getDelegatedTask()) != null) {
                        t.run();
                    }
                }
                default -> {
                    return;
                }
            }
        }
    }

    /** Wraps all of {@code src} (or one handshake message when it is empty) and sends it. */
    private void wrap(ByteBuffer src) throws IOException {
        do {
            netOut.clear();
            SSLEngineResult r = engine.wrap(src, netOut);
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                continue;
            }
            if (r.getStatus() == SSLEngineResult.Status.CLOSED && r.bytesProduced() == 0) {
                throw new SSLException("the TLS session is closed");
            }
            netOut.flip();
            while (netOut.hasRemaining()) {
                ch.write(netOut);
            }
            if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                Runnable t;
                while ((t = engine.getDelegatedTask()) != null) {
                    t.run();
                }
            }
        } while (src.hasRemaining());
    }

    /**
     * Unwraps one record into {@link #appIn}, reading from the socket as needed; returns the
     * application bytes it gave, or -1 at the end of the stream.
     */
    private int unwrapOnce() throws IOException {
        while (true) {
            if (netIn.hasRemaining()) {
                appIn.compact();
                SSLEngineResult r;
                try {
                    r = engine.unwrap(netIn, appIn);
                } finally {
                    appIn.flip();
                }
                switch (r.getStatus()) {
                    case OK -> {
                        return r.bytesProduced();
                    }
                    case CLOSED -> {
                        eof = true;
                        return -1;
                    }
                    case BUFFER_OVERFLOW -> {
                        if (appIn.hasRemaining()) {
                            return 0;     // the caller reads what is there first
                        }
                        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
                        continue;
                    }
                    case BUFFER_UNDERFLOW -> {
                        // a partial record: read more below
                    }
                }
            }
            netIn.compact();
            if (!netIn.hasRemaining()) {
                // a record larger than the session's packet size: a broken client
                throw new SSLException("a TLS record larger than " + netIn.capacity() + " bytes");
            }
            int n;
            try {
                n = ch.read(netIn);
            } finally {
                netIn.flip();
            }
            if (n < 0) {
                eof = true;
                return -1;
            }
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        while (!appIn.hasRemaining()) {
            if (eof || unwrapOnce() < 0) {
                return -1;
            }
            if (engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                    && engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.FINISHED) {
                pump();
            }
        }
        int n = Math.min(dst.remaining(), appIn.remaining());
        ByteBuffer part = appIn.slice(appIn.position(), n);
        dst.put(part);
        appIn.position(appIn.position() + n);
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        wrap(src);
        return n;
    }

    @Override
    public boolean isOpen() {
        return ch.isOpen();
    }

    /** Sends TLS's close_notify where it can, then closes the socket. */
    @Override
    public void close() throws IOException {
        try {
            engine.closeOutbound();
            if (ch.isOpen()) {
                netOut.clear();
                engine.wrap(ByteBuffer.allocate(0), netOut);
                netOut.flip();
                while (netOut.hasRemaining() && ch.write(netOut) > 0) {
                    // send it
                }
            }
        } catch (IOException | RuntimeException e) {
            // the peer is gone: closing anyway
        } finally {
            ch.close();
        }
    }
}
