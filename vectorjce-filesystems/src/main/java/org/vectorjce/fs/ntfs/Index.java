package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A folder's file name index, $I30: a B+ tree whose root node is the resident $INDEX_ROOT (type
 * 0x90: indexed attribute type at 0, collation at 4, index block size at 8, then the node header
 * at 16) and whose other nodes are "INDX" blocks of $INDEX_ALLOCATION (0xA0; fix-ups, the block's
 * VCN at 16, node header at 24). A node header gives its entries' offset at 0 and their end at 4,
 * both from the header. Each entry holds a file reference at 0, its length at 8, key length at 10,
 * flags at 12 (1: a child node's VCN is in the entry's last 8 bytes; 2: the last entry, with no
 * key) and the key, a $FILE_NAME value, at 16 (keramics ntfs.md "Index", TSK {@code ntfs_dent.cpp}).
 *
 * <p>{@link #iterator} walks the tree in order holding only the path from the root (at most
 * {@link #MAX_DEPTH} blocks); a child that is already on the path, a path too deep or more block
 * visits than the allocation holds blocks is a {@link CorruptFileSystemException}, never a loop.
 */
final class Index {
    static final int MAX_DEPTH = 32;
    static final int SUBNODE = 1;
    static final int LAST = 2;

    /** One file name entry. */
    record Entry(long record, int sequence, int namespace, String name) {
    }

    private final long dir;
    private final byte[] root;
    private final int rootStart;
    private final int rootEnd;
    private final StreamContent alloc;
    private final int blockSize;
    private final int vcnUnit;
    private final long maxVisits;
    private final UpCase upcase;

    private Index(long dir, byte[] root, int rootStart, int rootEnd, StreamContent alloc, int blockSize, int vcnUnit,
            UpCase upcase) {
        this.dir = dir;
        this.root = root;
        this.rootStart = rootStart;
        this.rootEnd = rootEnd;
        this.alloc = alloc;
        this.blockSize = blockSize;
        this.vcnUnit = vcnUnit;
        this.maxVisits = alloc == null ? 0 : alloc.size() / blockSize + 1;
        this.upcase = upcase;
    }

    /** The $I30 index of folder {@code dir}. */
    static Index open(NtfsFileSystem fs, MftFile dir) throws IOException {
        String what = "NTFS: $INDEX_ROOT of MFT record " + dir.number();
        Attribute r = dir.first(Attribute.INDEX_ROOT, "$I30");
        if (r == null || !r.resident) {
            throw new CorruptFileSystemException(what + " is missing or not resident", fs.recordOffset(dir.number()));
        }
        byte[] v = r.value;
        if (v.length < 32) {
            throw new CorruptFileSystemException(what + ": " + v.length + " bytes", r.at);
        }
        if (Le.u32(v, 0) != Attribute.FILE_NAME) {
            throw new CorruptFileSystemException(what + ": indexes attribute 0x" + Long.toHexString(Le.u32(v, 0))
                    + ", not $FILE_NAME", r.at);
        }
        long bs = Le.u32(v, 8);
        if (bs < 512 || bs > 65536 || Long.bitCount(bs) != 1) {
            throw new CorruptFileSystemException(what + ": index block size " + bs, r.at);
        }
        int blockSize = (int) bs;
        int[] range = nodeRange(v, 16, v.length, what, r.at);
        StreamContent alloc = null;
        if (!dir.find(Attribute.INDEX_ALLOCATION, "$I30").isEmpty()) {
            alloc = dir.content(Attribute.INDEX_ALLOCATION, "$I30", fs::readCached);
        }
        int cs = fs.boot.clusterSize();
        return new Index(dir.number(), v, range[0], range[1], alloc, blockSize, blockSize >= cs ? cs : 512,
                fs.upcase);
    }

    /** The entries region of the node whose header is at {@code h} of a buffer of {@code limit} bytes. */
    private static int[] nodeRange(byte[] b, int h, int limit, String what, long at) throws CorruptFileSystemException {
        if (h + 16 > limit) {
            throw new CorruptFileSystemException(what + ": node header passes the end", at);
        }
        long start = h + Le.u32(b, h);
        long end = h + Le.u32(b, h + 4);
        if (Le.u32(b, h) < 16 || start > end || end > limit) {
            throw new CorruptFileSystemException(what + ": entries from " + start + " to " + end + " of " + limit
                    + " bytes", at);
        }
        return new int[] {(int) start, (int) end};
    }

    /** One node on the walk's path: its bytes and the next entry. */
    private static final class Frame {
        final byte[] b;
        final long vcn;
        int pos;
        final int end;
        boolean descended;

        Frame(byte[] b, long vcn, int pos, int end) {
            this.b = b;
            this.vcn = vcn;
            this.pos = pos;
            this.end = end;
        }
    }

    /** An entry's parsed header. */
    private record Raw(int len, int flags, long child, Entry entry) {
    }

    private Raw entry(Frame f) throws CorruptFileSystemException {
        String what = "NTFS: index entry of MFT record " + dir + (f.vcn < 0 ? " (root)" : " (block VCN " + f.vcn + ")");
        byte[] b = f.b;
        int p = f.pos;
        if (p + 16 > f.end) {
            throw new CorruptFileSystemException(what + ": entries end without a last entry", -1);
        }
        int len = Le.u16(b, p + 8);
        int keyLen = Le.u16(b, p + 10);
        int flags = Le.u16(b, p + 12);
        if (len < 16 || (len & 7) != 0 || len > f.end - p) {
            throw new CorruptFileSystemException(what + ": entry length " + len + " at its byte " + p, -1);
        }
        long child = -1;
        int keyRoom = len - 16;
        if ((flags & SUBNODE) != 0) {
            if (len < 24) {
                throw new CorruptFileSystemException(what + ": child entry of " + len + " bytes", -1);
            }
            child = Le.s64(b, p + len - 8);
            keyRoom -= 8;
            if (alloc == null || child < 0 || child > alloc.size() / vcnUnit) {
                throw new CorruptFileSystemException(what + ": child VCN " + child + " is outside the index allocation", -1);
            }
        }
        Entry e = null;
        if ((flags & LAST) == 0) {
            if (keyLen < 0x42 || keyLen > keyRoom) {
                throw new CorruptFileSystemException(what + ": key of " + keyLen + " bytes in a " + len + "-byte entry", -1);
            }
            int k = p + 16;
            int nameLen = Le.u8(b, k + 0x40);
            if (0x42 + 2 * nameLen > keyLen) {
                throw new CorruptFileSystemException(what + ": name of " + nameLen + " characters passes the key", -1);
            }
            long ref = Le.s64(b, p);
            e = new Entry(ref & 0xFFFFFFFFFFFFL, (int) (ref >>> 48), Le.u8(b, k + 0x41), Le.utf16(b, k + 0x42, nameLen));
        }
        return new Raw(len, flags, child, e);
    }

    private Frame block(long vcn, int depth) throws IOException {
        String what = "NTFS: index block VCN " + vcn + " of MFT record " + dir;
        if (depth >= MAX_DEPTH) {
            throw new CorruptFileSystemException(what + ": the index is more than " + MAX_DEPTH + " levels deep", -1);
        }
        long pos = vcn * vcnUnit;
        if (pos > alloc.size() - blockSize) {
            throw new CorruptFileSystemException(what + " passes the index allocation's " + alloc.size() + " bytes", -1);
        }
        byte[] b = new byte[blockSize];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (alloc.read(bb, pos + bb.position()) < 0) {
                throw new CorruptFileSystemException(what + ": allocation ended", -1);
            }
        }
        long at = alloc.deviceOffset(pos);
        Fixups.apply(b, blockSize, "INDX", what, at);
        if (Le.s64(b, 16) != vcn) {
            throw new CorruptFileSystemException(what + ": the block says it is VCN " + Le.s64(b, 16), at + 16);
        }
        int[] range = nodeRange(b, 24, blockSize, what, at);
        return new Frame(b, vcn, range[0], range[1]);
    }

    /** The folder's entries in index order, read lazily. */
    Iterator iterator() {
        return new Iterator();
    }

    /** An in-order walk of the tree: holds the path of nodes from the root. */
    final class Iterator {
        private final Deque<Frame> path = new ArrayDeque<>();
        private long visits;

        private Iterator() {
            path.push(new Frame(root, -1, rootStart, rootEnd));
        }

        /** The next entry, or null at the end. */
        Entry next() throws IOException {
            while (!path.isEmpty()) {
                Frame f = path.peek();
                Raw r = entry(f);
                if (r.child >= 0 && !f.descended) {
                    f.descended = true;
                    for (Frame g : path) {
                        if (g.vcn == r.child) {
                            throw new CorruptFileSystemException("NTFS: index of MFT record " + dir + ": block VCN "
                                    + r.child + " is its own ancestor", -1);
                        }
                    }
                    if (++visits > maxVisits) {
                        throw new CorruptFileSystemException("NTFS: index of MFT record " + dir
                                + " visits more blocks than its allocation holds", -1);
                    }
                    path.push(block(r.child, path.size()));
                    continue;
                }
                if ((r.flags & LAST) != 0) {
                    path.pop();
                    continue;
                }
                f.pos += r.len;
                f.descended = false;
                return r.entry;
            }
            return null;
        }
    }

    /**
     * The entry called {@code name}, or null: one descent from the root. Names are ordered by
     * $UpCase and, between names equal through it (POSIX names differing only in case), by their
     * code units; the descent follows that order, so an exact match is found when there is one,
     * else the first name equal through $UpCase met on the way (every such name is adjacent to
     * where the exact one would be, and so on the path).
     */
    Entry lookup(String name) throws IOException {
        Frame f = new Frame(root, -1, rootStart, rootEnd);
        Entry folded = null;
        long steps = 0;
        int depth = 0;
        while (true) {
            Raw r = entry(f);
            int cmp = -1;
            if ((r.flags & LAST) == 0) {
                cmp = upcase.compare(name, r.entry.name());
                if (cmp == 0) {
                    if (name.equals(r.entry.name())) {
                        return r.entry;
                    }
                    if (folded == null) {
                        folded = r.entry;
                    }
                    cmp = name.compareTo(r.entry.name());
                }
            }
            if (cmp > 0) {
                f.pos += r.len;
                continue;
            }
            if (r.child < 0) {
                return folded;
            }
            if (++steps > maxVisits) {
                throw new CorruptFileSystemException("NTFS: index of MFT record " + dir
                        + " visits more blocks than its allocation holds", -1);
            }
            f = block(r.child, ++depth);
        }
    }
}
