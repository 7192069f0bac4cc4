package org.vectorjce.fs.fat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.NonWritableChannelException;
import java.util.HashMap;
import java.util.Map;
import org.vectorjce.device.Device;

/**
 * A read-only device of zeros with some 512-byte sectors set: the fuzz target's image. Built from
 * records of (sector number u32 LE, byte count u16 LE, bytes), so that a small input can describe
 * a large volume (a FAT32 root cluster lies past its FATs).
 */
final class SparseDevice implements Device {
    private final Map<Long, byte[]> sectors = new HashMap<>();
    private final long size;

    private SparseDevice(long size) {
        this.size = size;
    }

    /** The device of {@code size} bytes that {@code records} describe; a truncated last record keeps its bytes. */
    static SparseDevice of(byte[] records, long size) {
        SparseDevice d = new SparseDevice(size);
        ByteBuffer b = ByteBuffer.wrap(records).order(ByteOrder.LITTLE_ENDIAN);
        while (b.remaining() >= 6) {
            long sector = b.getInt() & 0xffffffffL;
            int len = Math.min(b.getShort() & 0xffff, b.remaining());
            for (int i = 0; i < len; i++) {
                long at = sector * 512 + i;
                if (at >= size) {
                    break;
                }
                d.sectors.computeIfAbsent(at / 512, k -> new byte[512])[(int) (at % 512)] = b.get(b.position() + i);
            }
            b.position(b.position() + len);
        }
        return d;
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
        int done = 0;
        while (done < n) {
            long at = offset + done;
            int in = (int) (at % 512);
            int m = Math.min(n - done, 512 - in);
            byte[] s = sectors.get(at / 512);
            if (s != null) {
                dst.put(s, in, m);
            } else {
                dst.put(new byte[m]);
            }
            done += m;
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
