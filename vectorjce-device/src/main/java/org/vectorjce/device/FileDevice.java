package org.vectorjce.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link Device#open}: a file or block device through {@link FileChannel}'s positional calls. */
final class FileDevice implements Device {
    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final boolean write;

    private FileDevice(Path path, FileChannel channel, long size, boolean write) {
        this.path = path;
        this.channel = channel;
        this.size = size;
        this.write = write;
    }

    static Device open(Path path, boolean write) throws IOException {
        FileChannel ch = write ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.READ);
        try {
            // a block device's FileChannel.size() is 0 on some JDKs: its end is where a seek lands
            long size = ch.size();
            if (size == 0) {
                size = Math.max(0, blockDeviceSize(ch));
            }
            return new FileDevice(path, ch, size, write);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static long blockDeviceSize(FileChannel ch) throws IOException {
        // FileChannel has no SEEK_END; a block device reports its size through position(Long.MAX_VALUE)
        // only on some platforms, so read backwards by halving (at most 63 single-byte reads).
        ByteBuffer one = ByteBuffer.allocate(1);
        long lo = 0;
        long hi = 1L << 62;
        if (ch.read(one, 0) <= 0) {
            return 0;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            one.clear();
            if (ch.read(one, mid) > 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public boolean readOnly() {
        return !write;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= size) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), size - offset);
        int limit = dst.limit();
        dst.limit(dst.position() + want);
        try {
            int n = channel.read(dst, offset);
            return n;
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        if (!write) {
            throw new NonWritableChannelException();
        }
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (offset > size - src.remaining()) {
            throw new IOException("a " + src.remaining() + "-byte write at " + offset + " passes the end of the "
                    + size + "-byte " + path);
        }
        long at = offset;
        while (src.hasRemaining()) {
            at += channel.write(src, at);
        }
    }

    @Override
    public void flush() throws IOException {
        if (write) {
            channel.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
