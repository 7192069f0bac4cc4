package org.vectorjce.fs.xfs;

import org.vectorjce.fs.CorruptFileSystemException;

/**
 * One extent of a fork ({@code xfs_bmbt_rec}, "Data Extents"): {@code count} blocks of the file
 * from block {@code startOff} lie at filesystem block {@code startBlock}; an unwritten (preallocated)
 * extent reads as zeros.
 */
record Extent(long startOff, long startBlock, long count, boolean unwritten) {
    /** Bytes of one packed record. */
    static final int SIZE = 16;

    /**
     * Unpacks the 128-bit big-endian record at {@code b[o]}: bit 127 the unwritten flag, 54 bits of
     * file offset, 52 bits of filesystem block, 21 bits of length.
     */
    static Extent unpack(byte[] b, int o) {
        long l0 = Be.u64(b, o);
        long l1 = Be.u64(b, o + 8);
        return new Extent((l0 & Long.MAX_VALUE) >>> 9, (l0 & 0x1ff) << 43 | l1 >>> 21, l1 & 0x1fffff, l0 < 0);
    }

    long end() {
        return startOff + count;
    }

    boolean contains(long block) {
        return block >= startOff && block < startOff + count;
    }

    /**
     * The byte offset of this extent's first block, after checking the whole extent lies in one
     * allocation group of the filesystem.
     */
    long deviceOffset(Superblock sb, long ino) throws CorruptFileSystemException {
        long at = sb.blockOffset(startBlock);
        long agbno = startBlock & ((1L << sb.agBlkLog) - 1);
        if (at < 0 || count < 1 || agbno + count > sb.agBlocks
                || (at >>> sb.blockLog) + count > sb.dblocks) {
            throw new CorruptFileSystemException("XFS: inode " + ino + ": extent of " + count + " blocks at block "
                    + startBlock + " (file block " + startOff + ") passes its allocation group or the filesystem", -1);
        }
        return at;
    }
}
