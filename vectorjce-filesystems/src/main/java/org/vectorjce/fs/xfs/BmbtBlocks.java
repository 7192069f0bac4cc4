package org.vectorjce.fs.xfs;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * The blocks of extent B+trees ("Extent B+tree", {@code struct xfs_btree_block} with long
 * pointers): "BMA3" blocks with a 72-byte header (CRC32C at byte 64, their own disk address and
 * owning inode) on v5 filesystems, "BMAP" blocks with a 24-byte header on v4. A node holds keys
 * (64-bit file block) then as many 64-bit pointers; a leaf holds packed extent records.
 *
 * <p>Each step down must land on a block whose level is one less than its parent's, so a pointer
 * back up the tree, or to itself, is caught; the depth is at most {@link ExtentMap#MAX_LEVELS}.
 */
final class BmbtBlocks {
    private static final long MAGIC_V5 = 0x424d4133L; // "BMA3"
    private static final long MAGIC_V4 = 0x424d4150L; // "BMAP"
    private static final long NULL_BLOCK = -1L;

    private final Superblock sb;
    private final BlockCache cache;
    private final int header;
    private final int maxRecs;

    BmbtBlocks(Superblock sb, BlockCache cache) {
        this.sb = sb;
        this.cache = cache;
        this.header = sb.version == 5 ? 72 : 24;
        this.maxRecs = (sb.blockSize - header) / 16;
    }

    /**
     * From the block {@code fsb} at {@code level} of inode {@code ino}'s tree: the extent holding file
     * block {@code block}, else the first one after it, else {@code null}.
     */
    Extent find(long ino, long fsb, int level, long block) throws IOException {
        for (int depth = 0; depth <= ExtentMap.MAX_LEVELS; depth++) {
            byte[] b = read(ino, fsb, level);
            int n = Be.u16(b, 6);
            if (level == 0) {
                for (int i = 0; i < n; i++) {
                    Extent e = Extent.unpack(b, header + i * 16);
                    if (e.end() > block) {
                        return e;
                    }
                }
                long right = Be.u64(b, sb.version == 5 ? 16 : 16);
                if (right == NULL_BLOCK) {
                    return null;
                }
                byte[] r = read(ino, right, 0);
                Extent e = Extent.unpack(r, header);
                if (e.end() <= block) {
                    throw new CorruptFileSystemException("XFS: inode " + ino + ": extent B+tree leaf " + right
                            + " does not follow leaf " + fsb, sb.blockOffset(right));
                }
                return e;
            }
            int i = 0;
            while (i + 1 < n && Be.u64(b, header + (i + 1) * 8) <= block) {
                i++;
            }
            fsb = Be.u64(b, header + maxRecs * 8 + i * 8);
            level--;
        }
        throw new CorruptFileSystemException("XFS: inode " + ino + ": extent B+tree is deeper than "
                + ExtentMap.MAX_LEVELS + " levels", -1);
    }

    /** Block {@code fsb} of inode {@code ino}'s tree, checked to be a tree block at {@code level}. */
    private byte[] read(long ino, long fsb, int level) throws IOException {
        long at = sb.blockOffset(fsb);
        if (at < 0) {
            throw new CorruptFileSystemException("XFS: inode " + ino + ": extent B+tree block " + fsb
                    + " is outside the filesystem", -1);
        }
        byte[] b = cache.read(at, sb.blockSize, "XFS: extent B+tree block");
        String what = "XFS: inode " + ino + ": extent B+tree block " + fsb;
        long magic = Be.u32(b, 0);
        if (magic != (sb.version == 5 ? MAGIC_V5 : MAGIC_V4)) {
            throw new CorruptFileSystemException(what + ": no \"BMA3\"/\"BMAP\" magic", at);
        }
        if (sb.version == 5) {
            if (!Be.crcOk(b, 0, b.length, 64)) {
                throw new CorruptFileSystemException(what + ": CRC does not match", at);
            }
            if (Be.u64(b, 24) != at >>> 9 || Be.u64(b, 56) != ino) {
                throw new CorruptFileSystemException(what + ": records another address or owner", at);
            }
        }
        int n = Be.u16(b, 6);
        if (Be.u16(b, 4) != level || n < 1 || n > maxRecs) {
            throw new CorruptFileSystemException(what + ": level " + Be.u16(b, 4) + " (expected " + level + ") or "
                    + n + " records out of range", at);
        }
        return b;
    }
}
