package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.vectorjce.fs.spi.Content;

/**
 * A read-only channel over one stream of a file: a position of its own over the driver's
 * positional {@link Content}, so that any number of channels read one file at once. The relative
 * calls of one channel are serialised (its position is shared state); the positional
 * {@link #read(ByteBuffer, long)} is not. Every write is a {@link NonWritableChannelException};
 * {@link #map} is unsupported (the bytes are not in a file of this machine); a shared lock is
 * granted and means nothing (nobody writes), an exclusive one is refused as on any read-only
 * channel. Closing the filesystem closes its channels.
 */
final class DiskChannel extends FileChannel {
    /** Calls in a row a driver may return 0 for bytes it holds before that counts as an error, not a hang. */
    private static final int MAX_EMPTY_READS = 16;
    private static final int TRANSFER_CHUNK = 64 << 10;

    private final DiskFileSystem fs;
    private final Content content;
    private final String name;
    private final Object lock = new Object();
    private long position;

    DiskChannel(DiskFileSystem fs, Content content, String name) {
        this.fs = fs;
        this.content = content;
        this.name = name;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen() || !fs.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /** Reads at {@code at} without touching the position: the driver's read, checked not to stall. */
    private int readAt(ByteBuffer dst, long at) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (at >= content.size()) {
            return -1;
        }
        for (int tries = 0; tries < MAX_EMPTY_READS; tries++) {
            int n = content.read(dst, at);
            if (n != 0) {
                return n;
            }
        }
        throw new IOException(name + ": no bytes read at " + at + " of " + content.size());
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        synchronized (lock) {
            ensureOpen();
            int n = readAt(dst, position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        if (offset < 0 || length < 0 || offset > dsts.length - length) {
            throw new IndexOutOfBoundsException();
        }
        synchronized (lock) {
            ensureOpen();
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                while (dsts[i].hasRemaining()) {
                    int n = readAt(dsts[i], position);
                    if (n < 0) {
                        return total == 0 ? -1 : total;
                    }
                    position += n;
                    total += n;
                }
            }
            return total;
        }
    }

    @Override
    public int read(ByteBuffer dst, long at) throws IOException {
        if (at < 0) {
            throw new IllegalArgumentException("negative position " + at);
        }
        ensureOpen();
        return readAt(dst, at);
    }

    @Override
    public long position() throws IOException {
        synchronized (lock) {
            ensureOpen();
            return position;
        }
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        synchronized (lock) {
            ensureOpen();
            position = newPosition;
            return this;
        }
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return content.size();
    }

    @Override
    public long transferTo(long at, long count, WritableByteChannel target) throws IOException {
        if (at < 0 || count < 0) {
            throw new IllegalArgumentException("position " + at + ", count " + count);
        }
        ensureOpen();
        long end = Math.min(content.size(), at + Math.min(count, Long.MAX_VALUE - at));
        ByteBuffer buf = ByteBuffer.allocate((int) Math.max(1, Math.min(TRANSFER_CHUNK, end - at)));
        long done = 0;
        while (at + done < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - at - done));
            int n = readAt(buf, at + done);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                if (target.write(buf) == 0) {
                    return done + n - buf.remaining(); // a non-blocking target that is full
                }
            }
            done += n;
        }
        return done;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        throw new NonWritableChannelException();
    }

    @Override
    public int write(ByteBuffer src, long at) {
        throw new NonWritableChannelException();
    }

    @Override
    public FileChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long at, long count) {
        throw new NonWritableChannelException();
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long at, long size) {
        throw new UnsupportedOperationException("a file inside a disk image cannot be mapped");
    }

    @Override
    public FileLock lock(long at, long size, boolean shared) throws IOException {
        return tryLock(at, size, shared);
    }

    @Override
    public FileLock tryLock(long at, long size, boolean shared) throws IOException {
        if (!shared) {
            throw new NonWritableChannelException();
        }
        ensureOpen();
        return new FileLock(this, at, size, true) {
            private volatile boolean valid = true;

            @Override
            public boolean isValid() {
                return valid && channel().isOpen();
            }

            @Override
            public void release() throws IOException {
                if (!channel().isOpen()) {
                    throw new ClosedChannelException();
                }
                valid = false;
            }
        };
    }

    @Override
    protected void implCloseChannel() {
        fs.forget(this);
    }
}
