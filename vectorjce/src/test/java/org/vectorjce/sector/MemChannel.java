package org.vectorjce.sector;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import java.util.Random;

/**
 * An in-memory image for the channel tests. It can fail: with {@link #failWrites} set, each write
 * call fails with that probability, after writing a random whole-sector prefix of its buffer
 * (the image's own writes are whole sectors, as {@code SectorChannel}'s guarantee assumes). Reads
 * may return fewer bytes than asked, as real channels do.
 */
final class MemChannel implements SeekableByteChannel {
    byte[] data = new byte[0];
    long size;
    private long position;
    private boolean open = true;
    double failWrites;
    int sector = 512;
    final Random rnd;

    MemChannel(Random rnd) {
        this.rnd = rnd;
    }

    /** Another open handle on the same bytes (a re-open). */
    MemChannel reopen() {
        MemChannel m = new MemChannel(rnd);
        m.data = data;
        m.size = size;
        m.sector = sector;
        return m;
    }

    void sync(MemChannel other) {
        data = other.data;
        size = other.size;
    }

    byte[] bytes() {
        return Arrays.copyOf(data, (int) size);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        check();
        if (position >= size) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        if (n > 1 && rnd.nextInt(4) == 0) {
            n = 1 + rnd.nextInt(n); // a short read
        }
        dst.put(data, (int) position, n);
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        check();
        int n = src.remaining();
        if (failWrites > 0 && rnd.nextDouble() < failWrites) {
            int sectors = n / sector;
            int prefix = sector * rnd.nextInt(sectors + 1);
            put(src, prefix);
            throw new IOException("injected failure after " + prefix + " of " + n + " bytes");
        }
        put(src, n);
        return n;
    }

    private void put(ByteBuffer src, int n) {
        long end = position + n;
        if (end > data.length) {
            data = Arrays.copyOf(data, (int) Math.max(end, data.length * 2L));
        }
        src.get(data, (int) position, n);
        position = end;
        size = Math.max(size, end);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long p) {
        position = p;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long s) {
        if (s < size) {
            Arrays.fill(data, (int) s, (int) size, (byte) 0);
            size = s;
        }
        position = Math.min(position, s);
        return this;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void check() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
