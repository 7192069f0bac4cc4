package org.vectorjce.fs.exfat;

import java.nio.ByteBuffer;
import org.vectorjce.device.Device;

/** A read-only device over a byte array: the fuzz target's and the hostile tests' images. */
final class MemoryDevice implements Device {
    private final byte[] bytes;

    MemoryDevice(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    public long size() {
        return bytes.length;
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
        if (offset >= bytes.length) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), bytes.length - offset);
        dst.put(bytes, (int) offset, n);
        return n;
    }

    @Override
    public void write(ByteBuffer src, long offset) {
        throw new java.nio.channels.NonWritableChannelException();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
