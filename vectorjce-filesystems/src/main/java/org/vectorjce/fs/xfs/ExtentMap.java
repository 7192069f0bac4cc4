package org.vectorjce.fs.xfs;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A data fork's map from file blocks to extents, in either of its forms ("Data Extents"): the
 * extent list kept in the inode ({@code XFS_DINODE_FMT_EXTENTS}), or the B+tree of extents
 * ({@code XFS_DINODE_FMT_BTREE}, "Extent B+tree") whose root is in the inode and whose blocks are
 * read, checked and cached on demand ({@link BmbtBlocks}). Nothing is loaded whole: a B+tree map
 * holds only its root, and {@link #find} descends it per call.
 */
final class ExtentMap {
    /** XFS_BM_MAXLEVELS is at most 9 for any geometry; deeper trees are refused. */
    static final int MAX_LEVELS = 9;

    private final XfsFileSystem fs;
    private final Inode inode;
    /** The inode-resident extents (extent form), or null. */
    private final Extent[] list;
    /** The root's level, record count, and where its keys and pointers start in the inode. */
    private final int rootLevel;
    private final int rootRecs;
    private final int keysAt;
    private final int ptrsAt;

    ExtentMap(XfsFileSystem fs, Inode inode) throws CorruptFileSystemException {
        this.fs = fs;
        this.inode = inode;
        byte[] r = inode.raw;
        int fork = inode.forkStart;
        if (inode.format == Inode.FMT_EXTENTS) {
            if (inode.nextents > inode.forkSize / Extent.SIZE) {
                throw bad(inode.nextents + " extents do not fit the " + inode.forkSize + "-byte data fork");
            }
            list = new Extent[(int) inode.nextents];
            long end = 0;
            for (int i = 0; i < list.length; i++) {
                Extent e = Extent.unpack(r, fork + i * Extent.SIZE);
                if (e.startOff() < end || e.count() < 1) {
                    throw bad("extent " + i + " overlaps the one before it or is empty");
                }
                end = e.end();
                list[i] = e;
            }
            rootLevel = rootRecs = keysAt = ptrsAt = 0;
        } else if (inode.format == Inode.FMT_BTREE) {
            list = null;
            rootLevel = Be.u16(r, fork);
            rootRecs = Be.u16(r, fork + 2);
            int maxRecs = (inode.forkSize - 4) / 16;
            if (rootLevel < 1 || rootLevel > MAX_LEVELS || rootRecs < 1 || rootRecs > maxRecs) {
                throw bad("extent B+tree root of level " + rootLevel + " with " + rootRecs
                        + " records is out of range");
            }
            keysAt = fork + 4;
            ptrsAt = fork + 4 + maxRecs * 8;
        } else {
            throw bad("data fork format " + inode.format + " has no extents");
        }
    }

    private CorruptFileSystemException bad(String what) {
        return new CorruptFileSystemException("XFS: inode " + inode.number + ": " + what, inode.offset);
    }

    /**
     * The extent holding file block {@code block}, or else the first extent after it, or
     * {@code null} when there is none (the rest of the file is a hole).
     */
    Extent find(long block) throws IOException {
        if (list != null) {
            int lo = 0;
            int hi = list.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                Extent e = list[mid];
                if (e.end() <= block) {
                    lo = mid + 1;
                } else if (e.startOff() > block) {
                    hi = mid - 1;
                } else {
                    return e;
                }
            }
            return lo < list.length ? list[lo] : null;
        }
        // the root: the last key at or below the block (or the first child)
        int i = 0;
        while (i + 1 < rootRecs && Be.u64(inode.raw, keysAt + (i + 1) * 8) <= block) {
            i++;
        }
        long child = Be.u64(inode.raw, ptrsAt + i * 8);
        return fs.bmbt().find(inode.number, child, rootLevel - 1, block);
    }

    /** Whether the fork holds no extents at all. */
    boolean isEmpty() {
        return list != null && list.length == 0;
    }
}
