package org.vectorjce.fs.fat;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import org.vectorjce.device.Device;

/** A read-only device over a byte array, reading zeros past the array up to {@code size}: the fuzz target's image. */
final class MemoryDevice implements Device {
    private final byte[] data;
    private final long size;

    MemoryDevice(byte[] data, long size) {
        this.data = data;
        this.size = size;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public boolean readOnly() {
        return true;
    }

    @Override
    public int read(ByteBuffer dst, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (offset >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - offset);
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            dst.put(at < data.length ? data[(int) at] : 0);
        }
        return n;
    }

    @Override
    public void write(ByteBuffer src, long offset) {
        throw new NonWritableChannelException();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
