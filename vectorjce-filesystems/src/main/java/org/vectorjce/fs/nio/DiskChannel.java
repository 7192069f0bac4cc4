package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.vectorjce.fs.spi.Content;

/**
 * A read-only channel over one stream of a file: a position of its own over the driver's
 * positional {@link Content}, so that any number of channels read one file at once. One channel's
 * calls are serialised (its position is shared state). Closing the filesystem ends it too.
 */
final class DiskChannel implements SeekableByteChannel {
    /** Calls in a row a driver may return 0 for bytes it holds before that counts as an error, not a hang. */
    private static final int MAX_EMPTY_READS = 16;

    private final DiskFileSystem fs;
    private final Content content;
    private final String name;
    private long position;
    private boolean open = true;

    DiskChannel(DiskFileSystem fs, Content content, String name) {
        this.fs = fs;
        this.content = content;
        this.name = name;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open || !fs.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= content.size()) {
            return -1;
        }
        for (int tries = 0; tries < MAX_EMPTY_READS; tries++) {
            int n = content.read(dst, position);
            if (n < 0) {
                return -1;
            }
            if (n > 0) {
                position += n;
                return n;
            }
        }
        throw new IOException(name + ": no bytes read at " + position + " of " + content.size());
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        ensureOpen();
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return content.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized boolean isOpen() {
        return open && fs.isOpen();
    }

    @Override
    public synchronized void close() {
        open = false;
    }
}
