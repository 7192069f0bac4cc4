package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Content;

/**
 * A file's bytes: read run by run ({@link BlockMapper}), each contiguous part of a run in one device
 * read straight into the caller's buffer, holes and uninitialised extents as zeros; or, for inline
 * data, from the bytes held in the inode. No state but the mapper's cache: safe for many threads.
 */
final class ExtContent implements Content {
    private static final byte[] ZEROS = new byte[8192];

    private final Device device;
    private final int blockSize;
    private final long size;
    private final BlockMapper mapper;
    private final byte[] inline;

    private ExtContent(Device device, int blockSize, long size, BlockMapper mapper, byte[] inline) {
        this.device = device;
        this.blockSize = blockSize;
        this.size = size;
        this.mapper = mapper;
        this.inline = inline;
    }

    static ExtContent mapped(Device device, int blockSize, long size, BlockMapper mapper) {
        return new ExtContent(device, blockSize, size, mapper, null);
    }

    /** Content held in memory (inline data, a fast symlink): {@code size <= bytes.length}. */
    static ExtContent inline(byte[] bytes, long size) {
        return new ExtContent(null, 1, size, null, bytes);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= size) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), size - position);
        if (inline != null) {
            dst.put(inline, (int) position, want);
            return want;
        }
        int done = 0;
        while (done < want) {
            long pos = position + done;
            long lb = pos / blockSize;
            BlockMapper.Run run = mapper.map(lb);
            long runEnd = run.logical() + run.length();
            long endByte = runEnd > Long.MAX_VALUE / blockSize ? Long.MAX_VALUE : runEnd * blockSize;
            int n = (int) Math.min(want - done, endByte - pos);
            if (run.zeros()) {
                for (int left = n; left > 0; left -= Math.min(left, ZEROS.length)) {
                    dst.put(ZEROS, 0, Math.min(left, ZEROS.length));
                }
            } else {
                long at = run.physical() * blockSize + (pos - run.logical() * blockSize);
                ByteBuffer part = dst.slice(dst.position(), n);
                device.readFully(part, at);
                dst.position(dst.position() + n);
            }
            done += n;
        }
        return want;
    }
}
