package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A view of bytes {@code [offset, offset + size)} of an image: the encrypted payload, as
 * {@code SectorChannel} expects an image that starts at sector 0. Read-only unless made
 * {@code writable}; a write never reaches past the window's end (an {@code IOException} naming its
 * size, nothing written) and the window's size never changes ({@code truncate} is refused).
 * Closing it leaves the image open (the volume owns it).
 */
final class WindowChannel implements SeekableByteChannel {
    private final Image image;
    private final long offset, size;
    private final boolean writable;
    private long position;
    private boolean open = true;

    WindowChannel(Image image, long offset, long size, boolean writable) {
        this.image = image;
        this.offset = offset;
        this.size = size;
        this.writable = writable;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        ByteBuffer d = dst.slice().limit(n);
        image.readFully(offset + position, d);
        dst.position(dst.position() + n);
        position += n;
        return n;
    }

    /** Writes all of {@code src} at the position, which with it must lie inside the window. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        if (position > size || n > size - position) {
            throw new IOException("A write of " + n + " bytes at " + position + " goes past the end of the " + size
                    + "-byte payload");
        }
        image.writeFully(offset + position, src);
        position += n;
        return n;
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long p) throws IOException {
        ensureOpen();
        if (p < 0) {
            throw new IllegalArgumentException("Negative position " + p);
        }
        position = p;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    /** Refused: the payload's size is the header's. */
    @Override
    public SeekableByteChannel truncate(long s) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        throw new IOException("The payload's size is fixed at " + size + " bytes: truncate is not supported");
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
