package org.vectorjce.volumes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * The common part of a read-only {@link SeekableByteChannel} of a fixed size: the position, the
 * size, end of data, writes and truncation refused with {@link NonWritableChannelException}, and
 * every call after {@link #close()} refused with {@link ClosedChannelException}. A subclass reads
 * the bytes ({@link #readAt}) and may wipe its state on close ({@link #closed}). Not thread-safe.
 */
public abstract class ReadOnlyChannel implements SeekableByteChannel {
    private final long size;
    private long position;
    private boolean open = true;

    /** A channel of {@code size} bytes, at position 0. */
    protected ReadOnlyChannel(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size " + size);
        }
        this.size = size;
    }

    /**
     * Fills {@code dst} (its {@code remaining()} bytes, at least one, all inside the channel) with
     * the channel's bytes from {@code position}, or throws.
     */
    protected abstract void readAt(long position, ByteBuffer dst) throws IOException;

    /** Called once by the first {@link #close()}; nothing by default. */
    protected void closed() {
    }

    @Override
    public final int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        if (n == 0) {
            return 0;
        }
        ByteBuffer d = dst.slice().limit(n);
        readAt(position, d);
        if (d.hasRemaining()) {
            throw new IOException("Short read at byte " + (position + d.position()));
        }
        dst.position(dst.position() + n);
        position += n;
        return n;
    }

    @Override
    public final int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public final long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public final SeekableByteChannel position(long p) throws IOException {
        ensureOpen();
        if (p < 0) {
            throw new IllegalArgumentException("Negative position " + p);
        }
        position = p;
        return this;
    }

    @Override
    public final long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public final SeekableByteChannel truncate(long s) {
        throw new NonWritableChannelException();
    }

    @Override
    public final boolean isOpen() {
        return open;
    }

    @Override
    public final void close() {
        if (open) {
            open = false;
            closed();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
