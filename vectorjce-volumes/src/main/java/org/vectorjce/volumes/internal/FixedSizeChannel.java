package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * The common part of a {@link SeekableByteChannel} of a fixed size: the position, the size, end of
 * data, {@code truncate} refused, and every call after {@link #close()} refused with
 * {@link ClosedChannelException}. A read-only channel refuses writes and truncation with
 * {@link NonWritableChannelException}; a writable one refuses a write that would reach past its
 * end with an {@code IOException} naming its size (nothing written) and truncation with an
 * {@code IOException}. A subclass reads the bytes ({@link #readAt}), writes them if writable
 * ({@link #writeAt}) and may wipe its state on close ({@link #closed}). Not thread-safe.
 */
public abstract class FixedSizeChannel implements SeekableByteChannel {
    private final long size;
    private final boolean writable;
    private long position;
    private boolean open = true;

    /** A read-only channel of {@code size} bytes, at position 0. */
    protected FixedSizeChannel(long size) {
        this(size, false);
    }

    /** A channel of {@code size} bytes, at position 0, that writes when {@code writable}. */
    protected FixedSizeChannel(long size, boolean writable) {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size " + size);
        }
        this.size = size;
        this.writable = writable;
    }

    /**
     * Fills {@code dst} (its {@code remaining()} bytes, at least one, all inside the channel) with
     * the channel's bytes from {@code position}, or throws.
     */
    protected abstract void readAt(long position, ByteBuffer dst) throws IOException;

    /**
     * Writes all of {@code src} (at least one byte, all inside the channel) at {@code position};
     * called only when the channel is writable. Refuses by default.
     */
    protected void writeAt(long position, ByteBuffer src) throws IOException {
        throw new NonWritableChannelException();
    }

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
    public final int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        if (position > size || n > size - position) {
            throw new IOException("A write of " + n + " bytes at " + position + " goes past the end of the " + size
                    + "-byte payload");
        }
        if (n > 0) {
            writeAt(position, src);
        }
        position += n;
        return n;
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
    public final SeekableByteChannel truncate(long s) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        throw new IOException("The payload's size is fixed at " + size + " bytes: truncate is not supported");
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
