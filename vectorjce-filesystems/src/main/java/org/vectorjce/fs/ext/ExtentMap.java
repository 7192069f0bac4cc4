package org.vectorjce.fs.ext;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * A file's extent tree (kernel Documentation/filesystems/ext4/ifork.rst, "Extent Tree"): a 12-byte
 * header (magic 0xF30A, entries, max, depth), then index entries (depth > 0: the first logical
 * block each child covers, the child's block) or leaf extents (depth 0: first logical block,
 * length, first physical block; a length over 32768 is an uninitialised extent of length − 32768,
 * which reads as zeros). The root is the inode's {@code i_block}; the other nodes are blocks, each
 * ending in a crc32c tail (seeded by the inode) with metadata_csum.
 *
 * <p>Bounds: the root's depth is at most 5 (the kernel's {@code EXT4_MAX_EXTENT_DEPTH}); each child
 * must say exactly its parent's depth − 1, so a child that points back at an ancestor (or itself) is
 * caught and the descent ends after at most 6 nodes; entries at most max, max at most what the node
 * holds; keys strictly increasing; every block within the filesystem and the device.
 *
 * <p>The last leaf looked up is kept (immutable, published through a volatile field), so a file read
 * from start to end descends the tree once per leaf, not once per read.
 */
final class ExtentMap implements BlockMapper {
    static final int MAGIC = 0xF30A;
    static final int MAX_DEPTH = 5;
    /** Logical block numbers are 32-bit. */
    static final long END = 1L << 32;

    private final Superblock sb;
    private final BlockCache cache;
    private final Inode inode;
    private final long deviceBlocks;
    private volatile Leaf last;

    ExtentMap(Superblock sb, BlockCache cache, Inode inode, long deviceSize) {
        this.sb = sb;
        this.cache = cache;
        this.inode = inode;
        this.deviceBlocks = Math.min(sb.blocksCount, deviceSize >> sb.logBlockSize);
    }

    /** A leaf's extents and the logical range [lo, hi) its parents give it. */
    private record Leaf(long lo, long hi, long[] start, long[] length, long[] physical, boolean[] uninit) {
        Run find(long lb) {
            int a = 0;
            int b = start.length - 1;
            int found = -1;
            while (a <= b) {
                int m = (a + b) >>> 1;
                if (start[m] <= lb) {
                    found = m;
                    a = m + 1;
                } else {
                    b = m - 1;
                }
            }
            if (found >= 0 && lb < start[found] + length[found]) {
                long n = start[found] + length[found] - lb;
                return new Run(lb, n, uninit[found] ? -1 : physical[found] + (lb - start[found]));
            }
            long next = found + 1 < start.length ? start[found + 1] : hi;
            return new Run(lb, Math.max(1, next - lb), -1);
        }
    }

    @Override
    public Run map(long lb) throws IOException {
        if (lb >= END) {
            return new Run(lb, Long.MAX_VALUE - lb, -1);
        }
        Leaf l = last;
        if (l != null && lb >= l.lo && lb < l.hi) {
            return l.find(lb);
        }
        byte[] node = inode.iBlock;
        long nodeAt = inode.offset + 0x28;
        int depth = -1;
        long lo = 0;
        long hi = END;
        for (int level = 0; level <= MAX_DEPTH + 1; level++) {
            int entries = header(node, nodeAt, depth, level == 0);
            int d = Le.u16(node, 6);
            if (d == 0) {
                l = leaf(node, nodeAt, entries, lo, hi);
                last = l;
                return l.find(lb);
            }
            int found = -1;
            long prev = -1;
            for (int i = 0; i < entries; i++) {
                long key = Le.u32(node, 12 + 12 * i);
                if (key <= prev) {
                    throw corrupt("index keys not increasing (" + key + " after " + prev + ")", nodeAt);
                }
                prev = key;
                if (key <= lb) {
                    found = i;
                }
            }
            if (found < 0) {
                long first = entries > 0 ? Le.u32(node, 12) : hi;
                return new Run(lb, Math.max(1, Math.min(first, hi) - lb), -1);
            }
            int e = 12 + 12 * found;
            lo = Math.max(lo, Le.u32(node, e));
            if (found + 1 < entries) {
                hi = Math.min(hi, Le.u32(node, e + 12));
            }
            long child = Le.u32(node, e + 4) | (long) Le.u16(node, e + 8) << 32;
            if (child < sb.firstDataBlock || child >= deviceBlocks) {
                throw corrupt("index entry points to block " + child + ", outside the filesystem's "
                        + deviceBlocks + " readable blocks", nodeAt);
            }
            nodeAt = child * sb.blockSize;
            node = cache.read(nodeAt, sb.blockSize, "ext: inode " + inode.number + ": extent block");
            depth = d - 1;
        }
        throw corrupt("extent tree deeper than " + MAX_DEPTH, nodeAt);
    }

    /** Checks a node's header: magic, counts, depth (the root's at most 5, a child's its parent's − 1). */
    private int header(byte[] node, long at, int expectedDepth, boolean root) throws CorruptFileSystemException {
        if (Le.u16(node, 0) != MAGIC) {
            throw corrupt(String.format("node magic 0x%04X is not 0xF30A", Le.u16(node, 0)), at);
        }
        int entries = Le.u16(node, 2);
        int max = Le.u16(node, 4);
        int depth = Le.u16(node, 6);
        int capacity = (node.length - 12) / 12;
        if (max > capacity || entries > max) {
            throw corrupt(entries + " entries of max " + max + " in a node that holds " + capacity, at);
        }
        if (root ? depth > MAX_DEPTH : depth != expectedDepth) {
            throw corrupt("node depth " + depth + (root ? " exceeds " + MAX_DEPTH : ", expected " + expectedDepth
                    + " (a loop or a damaged tree)"), at);
        }
        if (!root && sb.hasMetadataCsum()) {
            int tail = 12 + 12 * max;
            if (tail > node.length - 4) {
                throw corrupt("no room for the checksum tail after " + max + " entries", at);
            }
            int stored = Le.i32(node, tail);
            int computed = Crc.crc32c(inode.csumSeed, node, 0, tail);
            if (stored != computed) {
                throw corrupt(String.format("extent block checksum 0x%08x does not match the computed 0x%08x",
                        stored, computed), at);
            }
        }
        return entries;
    }

    private Leaf leaf(byte[] node, long at, int entries, long lo, long hi) throws CorruptFileSystemException {
        long[] start = new long[entries];
        long[] length = new long[entries];
        long[] physical = new long[entries];
        boolean[] uninit = new boolean[entries];
        long end = 0;
        for (int i = 0; i < entries; i++) {
            int e = 12 + 12 * i;
            long s = Le.u32(node, e);
            int len = Le.u16(node, e + 4);
            boolean u = len > 32768;
            if (u) {
                len -= 32768;
            }
            long p = Le.u32(node, e + 8) | (long) Le.u16(node, e + 6) << 32;
            if (len == 0 || s < end || s + len > END) {
                throw corrupt("extent " + i + " (logical " + s + ", " + len + " blocks) is empty, overlaps the one"
                        + " before or passes block 2^32", at);
            }
            if (!u && (p < sb.firstDataBlock || p > deviceBlocks - len)) {
                throw corrupt("extent " + i + " (blocks " + p + " to " + (p + len - 1) + ") passes the "
                        + deviceBlocks + " readable blocks of the filesystem", at);
            }
            start[i] = s;
            length[i] = len;
            physical[i] = p;
            uninit[i] = u;
            end = s + len;
        }
        return new Leaf(lo, hi, start, length, physical, uninit);
    }

    private CorruptFileSystemException corrupt(String what, long at) {
        return new CorruptFileSystemException("ext: inode " + inode.number + ": extent tree: " + what, at);
    }
}
