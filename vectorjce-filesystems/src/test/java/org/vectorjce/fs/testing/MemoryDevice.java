package org.vectorjce.fs.testing;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import org.vectorjce.device.Device;

/**
 * A read-only device over a byte array that reads zeros past the array up to {@code size}: the
 * fuzz targets' and the crafted tests' images, a few real sectors at the head of a large device.
 */
public final class MemoryDevice implements Device {
    private final byte[] head;
    private final long size;

    /** The device {@code head}, then zeros up to {@code size} bytes. */
    public MemoryDevice(byte[] head, long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size);
        }
        this.head = head;
        this.size = size;
    }

    /** The device of exactly {@code bytes}. */
    public MemoryDevice(byte[] bytes) {
        this(bytes, bytes.length);
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
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= size) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - offset);
        int fromHead = (int) Math.max(0, Math.min(n, head.length - offset));
        if (fromHead > 0) {
            dst.put(head, (int) offset, fromHead);
        }
        for (int i = fromHead; i < n; i++) {
            dst.put((byte) 0);
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
