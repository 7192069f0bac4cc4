package org.vectorjce.fs.part;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import org.vectorjce.device.Device;

/** A read-only device of {@code size} bytes: {@code head}, then zeros (the fuzz target's image). */
final class SparseDevice implements Device {
    private final byte[] head;
    private final long size;

    SparseDevice(byte[] head, long size) {
        this.head = head.clone();
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
        int n = (int) Math.min(dst.remaining(), size - offset);
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            dst.put(at < head.length ? head[(int) at] : 0);
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
