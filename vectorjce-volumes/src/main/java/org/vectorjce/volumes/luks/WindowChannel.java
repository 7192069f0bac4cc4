package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only view of bytes {@code [offset, offset + size)} of an image: the encrypted payload,
 * as {@code SectorChannel} expects an image that starts at sector 0. Closing it leaves the image
 * open (the volume owns it).
 */
final class WindowChannel implements SeekableByteChannel {
    private final Image image;
    private final long offset, size;
    private long position;
    private boolean open = true;

    WindowChannel(Image image, long offset, long size) {
        this.image = image;
        this.offset = offset;
        this.size = size;
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

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
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

    @Override
    public SeekableByteChannel truncate(long s) {
        throw new NonWritableChannelException();
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
