package org.vectorjce.fs.ext;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * An ext2/ext3 block map (kernel Documentation/filesystems/ext4/blockmap.rst): {@code i_block[0..11]}
 * point at the first 12 data blocks, {@code i_block[12]} at a block of pointers, {@code [13]} at a
 * block of pointers to such blocks, {@code [14]} one level more. A zero pointer at any level is a
 * hole (zeros) over all it would cover.
 *
 * <p>The pointer blocks come through the metadata cache; a run is extended over consecutive
 * pointers of the same pointer block (or of {@code i_block}), so reading a contiguous file issues
 * one device read per pointer block. The descent is at most 3 levels: no loop to bound.
 */
final class BlockMap implements BlockMapper {
    private static final int DIRECT = 12;

    private final Superblock sb;
    private final BlockCache cache;
    private final Inode inode;
    private final long deviceBlocks;
    private final long perBlock;

    BlockMap(Superblock sb, BlockCache cache, Inode inode, long deviceSize) {
        this.sb = sb;
        this.cache = cache;
        this.inode = inode;
        this.deviceBlocks = Math.min(sb.blocksCount, deviceSize >> sb.logBlockSize);
        this.perBlock = sb.blockSize / 4;
    }

    @Override
    public Run map(long lb) throws IOException {
        if (lb < DIRECT) {
            return scan(inode.iBlock, DIRECT, (int) lb, lb, inode.offset + 0x28);
        }
        long rel = lb - DIRECT;
        long span = perBlock;
        for (int level = 1; level <= 3; level++) {
            if (rel < span) {
                long top = Le.u32(inode.iBlock, 4 * (DIRECT + level - 1));
                return descend(top, level, rel, span, lb);
            }
            rel -= span;
            span *= perBlock;
        }
        // past what a block map can address: zeros to the end
        return new Run(lb, Long.MAX_VALUE - lb, -1);
    }

    /**
     * Walks {@code levels} pointer blocks from {@code block} to logical block {@code lb}, which is at
     * {@code rel} within the {@code span} blocks the subtree covers.
     */
    private Run descend(long block, int levels, long rel, long span, long lb) throws IOException {
        long at = inode.offset + 0x28;
        for (int level = levels; level >= 1; level--) {
            if (block == 0) {
                return new Run(lb, span - rel, -1);
            }
            check(block, "pointer block", at);
            at = block * sb.blockSize;
            byte[] ptrs = cache.read(at, sb.blockSize, "ext: inode " + inode.number + ": block map");
            span /= perBlock;
            int index = (int) (rel / span);
            rel %= span;
            if (level == 1) {
                return scan(ptrs, (int) perBlock, index, lb, at);
            }
            block = Le.u32(ptrs, 4 * index);
        }
        throw new IllegalStateException("unreachable");
    }

    /** The run from pointer {@code index} of {@code ptrs} (n pointers): consecutive blocks, or consecutive zeros. */
    private Run scan(byte[] ptrs, int n, int index, long lb, long at) throws CorruptFileSystemException {
        long p = Le.u32(ptrs, 4 * index);
        int len = 1;
        if (p == 0) {
            while (index + len < n && Le.u32(ptrs, 4 * (index + len)) == 0) {
                len++;
            }
            return new Run(lb, len, -1);
        }
        check(p, "data block", at);
        while (index + len < n && Le.u32(ptrs, 4 * (index + len)) == p + len) {
            len++;
        }
        check(p + len - 1, "data block", at);
        return new Run(lb, len, p);
    }

    private void check(long block, String what, long at) throws CorruptFileSystemException {
        if (block < sb.firstDataBlock || block >= deviceBlocks) {
            throw new CorruptFileSystemException("ext: inode " + inode.number + ": block map: " + what + " " + block
                    + " is outside the filesystem's " + deviceBlocks + " readable blocks", at);
        }
    }
}
