package org.vectorjce.fs.xfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.fs.spi.Checks;
import org.vectorjce.fs.spi.Content;

/**
 * A regular file's bytes, read through its {@link ExtentMap}: blocks no extent maps (holes), and
 * unwritten (preallocated) extents, read as zeros; bytes past {@code di_size} are not read. One call
 * reads as much of {@code dst} as it can, a contiguous run of device bytes at a time, straight from
 * the device. The last extent used is kept (an immutable record in a volatile field, so threads
 * may share it) so that sequential reads do not descend the B+tree again.
 */
final class FileContent implements Content {
    private final XfsFileSystem fs;
    private final Inode inode;
    private final ExtentMap map;
    private final int blockLog;
    private volatile Extent last;

    FileContent(XfsFileSystem fs, Inode inode, ExtentMap map) {
        this.fs = fs;
        this.inode = inode;
        this.map = map;
        this.blockLog = fs.sb.blockLog;
    }

    @Override
    public long size() {
        return inode.size;
    }

    /** {@code blocks} as bytes, saturating instead of overflowing (file offsets reach 2^54 blocks). */
    private long bytes(long blocks) {
        return blocks >= 1L << (62 - blockLog) ? Long.MAX_VALUE : blocks << blockLog;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (position >= inode.size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int want = (int) Math.min(dst.remaining(), inode.size - position);
        int done = 0;
        while (done < want) {
            long pos = position + done;
            long block = pos >>> blockLog;
            Extent e = last;
            if (e == null || !e.contains(block)) {
                e = map.find(block);
                if (e != null) {
                    last = e;
                }
            }
            int n;
            if (e == null || e.startOff() > block) {
                long holeEnd = e == null ? Long.MAX_VALUE : bytes(e.startOff());
                n = (int) Math.min(want - done, holeEnd - pos);
                zero(dst, n);
            } else {
                long inExtent = pos - bytes(e.startOff());
                n = (int) Math.min(want - done, bytes(e.count()) - inExtent);
                if (e.unwritten()) {
                    zero(dst, n);
                } else {
                    long at = e.deviceOffset(fs.sb, inode.number) + inExtent;
                    Checks.within(at, n, fs.device.size(), "XFS: inode " + inode.number + " data");
                    ByteBuffer slice = dst.slice(dst.position(), n);
                    fs.device.readFully(slice, at);
                    dst.position(dst.position() + n);
                }
            }
            done += n;
        }
        return done;
    }

    /** Zeros for holes; only ever read. */
    private static final byte[] ZEROS = new byte[8192];

    private static void zero(ByteBuffer dst, int n) {
        while (n > 0) {
            int k = Math.min(n, ZEROS.length);
            dst.put(ZEROS, 0, k);
            n -= k;
        }
    }
}
