package org.vectorjce.fs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A small least-recently-used cache of fixed-size blocks of a device, for metadata a driver reads
 * again and again (FAT sectors, MFT records, index blocks): its memory is {@code blocks × blockSize}
 * whatever the device's size. Safe for many threads (one lock; a miss reads under it).
 */
public final class BlockCache {
    private final Device device;
    private final int blockSize;
    private final LinkedHashMap<Long, byte[]> blocks;

    /**
     * @param blockSize a power of two
     * @param capacity the blocks kept
     */
    public BlockCache(Device device, int blockSize, int capacity) {
        if (Integer.bitCount(blockSize) != 1 || capacity < 1) {
            throw new IllegalArgumentException("block size " + blockSize + ", capacity " + capacity);
        }
        this.device = device;
        this.blockSize = blockSize;
        this.blocks = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
                return size() > capacity;
            }
        };
    }

    public Device device() {
        return device;
    }

    /**
     * Copies {@code len} bytes at {@code offset} into {@code b[off..]}.
     *
     * @param what the structure read, for the message when it passes the device's end
     */
    public void read(long offset, byte[] b, int off, int len, String what) throws IOException {
        if (offset < 0 || len < 0 || offset > device.size() - len) {
            throw new CorruptFileSystemException(what + ": " + len + " bytes pass the end of the " + device.size()
                    + "-byte device", offset);
        }
        while (len > 0) {
            long index = offset / blockSize;
            int in = (int) (offset % blockSize);
            int n = Math.min(len, blockSize - in);
            byte[] block = block(index);
            System.arraycopy(block, in, b, off, n);
            offset += n;
            off += n;
            len -= n;
        }
    }

    /** {@code len} bytes at {@code offset}, as a new array. */
    public byte[] read(long offset, int len, String what) throws IOException {
        byte[] b = new byte[len];
        read(offset, b, 0, len, what);
        return b;
    }

    private byte[] block(long index) throws IOException {
        synchronized (blocks) {
            byte[] b = blocks.get(index);
            if (b == null) {
                b = new byte[blockSize];
                long at = index * blockSize;
                int n = (int) Math.min(blockSize, device.size() - at);
                device.readFully(ByteBuffer.wrap(b, 0, n), at);
                blocks.put(index, b);
            }
            return b;
        }
    }
}
