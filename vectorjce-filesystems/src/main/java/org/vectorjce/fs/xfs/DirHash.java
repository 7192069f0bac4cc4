package org.vectorjce.fs.xfs;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * Lookup through a directory's hash index ("Directories": block, leaf and node forms): the name's
 * {@code xfs_da_hashname} hash is searched among the leaf entries (hash, address) kept sorted by
 * hash: at the end of a single-block directory, in the leaf block at the leaf offset (32 GiB), or,
 * in node and B+tree directories, in the leaf reached by descending the da B+tree of node blocks
 * from that offset. Each entry with the hash is read from its data block (checked as a listing
 * checks it) and its name compared. Leaf and node blocks are checked too: magic, v5 CRC32C at byte
 * 12, address and owner; node levels must fall by one each step (at most 5), and following leaves
 * for a run of equal hashes is bounded.
 */
final class DirHash {
    private static final int LEAF1_V5 = 0x3df1;
    private static final int LEAFN_V5 = 0x3dff;
    private static final int NODE_V5 = 0x3ebe;
    private static final int LEAF1_V4 = 0xd2f1;
    private static final int LEAFN_V4 = 0xd2ff;
    private static final int NODE_V4 = 0xfebe;
    private static final int MAX_DEPTH = 5;
    private static final int MAX_SIBLINGS = 64;

    private DirHash() {
    }

    /** {@code xfs_da_hashname}: seven bits a byte, rotated, of the name's bytes. */
    static int hash(byte[] name) {
        int h = 0;
        int i = 0;
        int n = name.length;
        for (; n >= 4; n -= 4, i += 4) {
            h = u(name, i) << 21 ^ u(name, i + 1) << 14 ^ u(name, i + 2) << 7 ^ u(name, i + 3)
                    ^ Integer.rotateLeft(h, 7 * 4);
        }
        return switch (n) {
            case 3 -> u(name, i) << 14 ^ u(name, i + 1) << 7 ^ u(name, i + 2) ^ Integer.rotateLeft(h, 7 * 3);
            case 2 -> u(name, i) << 7 ^ u(name, i + 1) ^ Integer.rotateLeft(h, 7 * 2);
            case 1 -> u(name, i) ^ Integer.rotateLeft(h, 7);
            default -> h;
        };
    }

    private static int u(byte[] b, int i) {
        return b[i] & 0xff;
    }

    /**
     * The entry of {@code dir} (not short form) called {@code name}, whose UTF-8 bytes are
     * {@code bytes}, or null.
     */
    static DirReader.Entry lookup(XfsFileSystem fs, Inode dir, String name, byte[] bytes) throws IOException {
        Superblock sb = fs.sb;
        boolean v5 = sb.version == 5;
        DirReader r = new DirReader(fs, dir);
        ExtentMap map = new ExtentMap(fs, dir);
        int h = hash(bytes);
        int dbs = sb.dirBlockSize();
        long leafBlock = (32L << 30) >>> sb.blockLog;
        Extent leafExtent = map.find(leafBlock);
        byte[] b = new byte[dbs];
        if (leafExtent == null) {
            // single-block form: the leaf entries lie before the tail at the block's end
            long at = r.readBlock(0, b);
            long magic = Be.u32(b, 0);
            if (magic != (v5 ? 0x58444233L : 0x58443242L)) {
                throw new CorruptFileSystemException("XFS: directory inode " + dir.number
                        + ": no leaf block and no single directory block", at);
            }
            if (v5 && !Be.crcOk(b, 0, dbs, 4)) {
                throw new CorruptFileSystemException("XFS: directory inode " + dir.number
                        + ": directory data block CRC does not match", at);
            }
            long count = Be.u32(b, dbs - 8);
            int header = v5 ? 64 : 16;
            if (count > (dbs - 8 - header) / 8) {
                throw new CorruptFileSystemException("XFS: directory inode " + dir.number
                        + ": single-block directory's " + count + " leaf entries do not fit", at);
            }
            int first = dbs - 8 - (int) count * 8;
            return scan(r, b, first, (int) count, h, name, at, dir);
        }
        long block = leafBlock;
        int expectLevel = -1;
        for (int depth = 0; depth <= MAX_DEPTH; depth++) {
            long at = r.readBlock(block, b);
            int magic = checkDa(b, at, dir, v5);
            int header = v5 ? 64 : 16;
            int count = Be.u16(b, v5 ? 56 : 12);
            if (count > (dbs - header) / 8) {
                throw bad(dir, "leaf or node block of " + count + " entries does not fit", at);
            }
            if (magic == (v5 ? NODE_V5 : NODE_V4)) {
                int level = Be.u16(b, v5 ? 58 : 14);
                if (level < 1 || level > MAX_DEPTH || expectLevel >= 0 && level != expectLevel || count < 1) {
                    throw bad(dir, "node block of level " + level + " and " + count + " entries is out of place", at);
                }
                expectLevel = level - 1;
                int i = 0;
                while (i + 1 < count && Integer.compareUnsigned((int) Be.u32(b, header + i * 8), h) < 0) {
                    i++;
                }
                block = Be.u32(b, header + i * 8 + 4);
                if (block < leafBlock) {
                    throw bad(dir, "node block points below the leaf offset", at);
                }
                continue;
            }
            if (expectLevel > 0 || magic != (v5 ? LEAF1_V5 : LEAF1_V4) && magic != (v5 ? LEAFN_V5 : LEAFN_V4)) {
                throw bad(dir, "no leaf block where the index leads", at);
            }
            // a run of equal hashes may continue in the next leaves
            for (int hop = 0; hop < MAX_SIBLINGS; hop++) {
                DirReader.Entry e = scan(r, b, header, count, h, name, at, dir);
                if (e != null || count == 0
                        || Integer.compareUnsigned((int) Be.u32(b, header + (count - 1) * 8), h) > 0) {
                    return e;
                }
                long forw = Be.u32(b, 0);
                if (forw == 0) {
                    return null;
                }
                if (forw < leafBlock || forw == block) {
                    throw bad(dir, "leaf block's next leaf " + forw + " is out of place", at);
                }
                block = forw;
                at = r.readBlock(block, b);
                magic = checkDa(b, at, dir, v5);
                count = Be.u16(b, v5 ? 56 : 12);
                if (magic != (v5 ? LEAFN_V5 : LEAFN_V4) || count > (dbs - header) / 8) {
                    throw bad(dir, "next leaf block is not a leaf", at);
                }
            }
            throw bad(dir, "more than " + MAX_SIBLINGS + " leaves hold one hash", at);
        }
        throw bad(dir, "directory node tree is deeper than " + MAX_DEPTH + " levels", -1);
    }

    /** The da block's magic after checking it (v5: CRC at 12, address at 16, owner at 48). */
    private static int checkDa(byte[] b, long at, Inode dir, boolean v5) throws CorruptFileSystemException {
        if (v5) {
            if (!Be.crcOk(b, 0, b.length, 12)) {
                throw bad(dir, "leaf or node block CRC does not match", at);
            }
            if (Be.u64(b, 16) != at >>> 9 || Be.u64(b, 48) != dir.number) {
                throw bad(dir, "leaf or node block records another address or owner", at);
            }
        }
        return Be.u16(b, 8);
    }

    /** Among {@code count} sorted leaf entries at {@code first}: the one with hash {@code h} named {@code name}. */
    private static DirReader.Entry scan(DirReader r, byte[] b, int first, int count, int h, String name, long at,
            Inode dir) throws IOException {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Integer.compareUnsigned((int) Be.u32(b, first + mid * 8), h) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < count && (int) Be.u32(b, first + i * 8) == h; i++) {
            long addr = Be.u32(b, first + i * 8 + 4);
            if (addr == 0) {
                continue; // a stale entry
            }
            DirReader.Entry e = r.entryAt(addr * 8);
            if (e != null && e.name().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static CorruptFileSystemException bad(Inode dir, String what, long at) {
        return new CorruptFileSystemException("XFS: directory inode " + dir.number + ": " + what, at);
    }
}
