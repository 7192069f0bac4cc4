package org.vectorjce.fs.xfs;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A folder's entries, one at a time, in every directory format ("Directories"): short form, kept in
 * the inode ({@code xfs_dir2_sf_hdr}, 4- or 8-byte inode numbers by {@code i8count}); and, in every
 * other form (block, leaf, node, B+tree), the data blocks found through the data fork below the leaf
 * offset ({@code XFS_DIR2_LEAF_OFFSET}, 32 GiB), read in order of their offset. The leaf, node and
 * free-index blocks (above that offset) are hash indexes of the same entries and are not needed to
 * list them.
 *
 * <p>A data block ("XDB3"/"XDD3" on v5, with a CRC32C at byte 4, its own disk address and owner;
 * "XD2B"/"XD2D" on v4) holds 8-byte-aligned entries: a 64-bit inode number, a name length, the name,
 * the file type byte with the ftype feature, and a tag; free spans start with 0xFFFF and give their
 * length. A single-block directory keeps its hash leaf and a tail at the block's end, where the
 * entries stop. "." and ".." are skipped. Only one directory block is held at a time.
 */
final class DirReader {
    /** One entry: its sanitized name and inode number. */
    record Entry(String name, long ino) {
    }

    private static final long BLOCK_V5 = 0x58444233L; // "XDB3"
    private static final long DATA_V5 = 0x58444433L; // "XDD3"
    private static final long BLOCK_V4 = 0x58443242L; // "XD2B"
    private static final long DATA_V4 = 0x58443244L; // "XD2D"
    private static final long LEAF_OFFSET = 32L << 30;

    private final XfsFileSystem fs;
    private final Inode dir;
    private final ExtentMap map;
    /** The fs blocks of a directory block, and the first fs block of the leaf area. */
    private final int perDirBlock;
    private final long leafBlock;
    private final int ftypeBytes;
    /** The block being read (or the inode, in short form), where its entries end, and the position. */
    private byte[] buf;
    private long bufAt;
    private int end;
    private int pos;
    /** Short form: entries left; -1 for block forms. */
    private int sfLeft = -1;
    private boolean sfWide;
    /** The next fs block of the data fork to look at. */
    private long next;
    /** When not -1, entries whose names are not this many bytes long are skipped undecoded (lookup). */
    private int onlyLength = -1;

    DirReader(XfsFileSystem fs, Inode dir) throws IOException {
        this.fs = fs;
        this.dir = dir;
        Superblock sb = fs.sb;
        this.perDirBlock = 1 << sb.dirBlkLog;
        this.leafBlock = LEAF_OFFSET >>> sb.blockLog;
        this.ftypeBytes = sb.ftype ? 1 : 0;
        if (dir.format == Inode.FMT_LOCAL) {
            map = null;
            int start = dir.forkStart;
            if (dir.size < 6 || dir.size > dir.forkSize) {
                throw bad("short-form directory of " + dir.size + " bytes does not fit its " + dir.forkSize
                        + "-byte fork", dir.offset);
            }
            buf = dir.raw;
            bufAt = dir.offset;
            end = start + (int) dir.size;
            sfLeft = Be.u8(buf, start);
            sfWide = Be.u8(buf, start + 1) != 0;
            pos = start + 2 + (sfWide ? 8 : 4);
        } else {
            map = new ExtentMap(fs, dir);
        }
    }

    /**
     * Makes {@link #next} skip, without decoding them, entries whose names are not {@code bytes} long:
     * a lookup's filter, for a name whose UTF-8 form is that long and holds no character the decoding
     * substitutes.
     */
    void onlyLength(int bytes) {
        onlyLength = bytes;
    }

    private CorruptFileSystemException bad(String what, long at) {
        return new CorruptFileSystemException("XFS: directory inode " + dir.number + ": " + what, at);
    }

    /** The next entry other than "." and "..", or {@code null} at the end. */
    Entry next() throws IOException {
        while (true) {
            if (sfLeft >= 0) {
                return nextShort();
            }
            if (buf == null || pos >= end) {
                if (!nextBlock()) {
                    return null;
                }
                continue;
            }
            Entry e = nextData();
            if (e != null) {
                return e;
            }
        }
    }

    private Entry nextShort() throws CorruptFileSystemException {
        while (sfLeft > 0) {
            sfLeft--;
            if (pos + 3 > end) {
                throw bad("short-form entry passes the directory's " + dir.size + " bytes", bufAt);
            }
            int len = Be.u8(buf, pos);
            int numAt = pos + 3 + len + ftypeBytes;
            int width = sfWide ? 8 : 4;
            if (len == 0 || numAt + width > end) {
                throw bad("short-form entry of a " + len + "-byte name passes the directory's end", bufAt);
            }
            long ino = sfWide ? Be.u64(buf, numAt) : Be.u32(buf, numAt);
            int at = pos + 3;
            pos = numAt + width;
            if (onlyLength >= 0 && len != onlyLength) {
                continue;
            }
            String name = Be.name(buf, at, len);
            if (!name.equals(".") && !name.equals("..")) {
                return new Entry(name, ino);
            }
        }
        return null;
    }

    /** Reads the next data block below the leaf offset; false when there is none. */
    private boolean nextBlock() throws IOException {
        if (next >= leafBlock) {
            return false;
        }
        Extent e = map.find(next);
        if (e == null || e.startOff() >= leafBlock) {
            next = leafBlock;
            return false;
        }
        long first = Math.max(next, e.startOff()) & -perDirBlock;
        next = first + perDirBlock;
        byte[] b = new byte[fs.sb.dirBlockSize()];
        parseHeader(b, readBlock(first, b));
        return true;
    }

    /**
     * Reads the directory block whose first fs block is file block {@code first} into {@code b},
     * every one of its fs blocks mapped; returns the device offset of the first.
     */
    long readBlock(long first, byte[] b) throws IOException {
        long addr = -1;
        for (int k = 0; k < perDirBlock; k++) {
            Extent x = map.find(first + k);
            if (x == null || !x.contains(first + k) || x.unwritten()) {
                throw bad("directory block at offset " + first + " is not wholly mapped", dir.offset);
            }
            long at = x.deviceOffset(fs.sb, dir.number) + ((first + k - x.startOff()) << fs.sb.blockLog);
            if (k == 0) {
                addr = at;
            }
            fs.cache.read(at, b, k << fs.sb.blockLog, fs.sb.blockSize, "XFS: directory block");
        }
        return addr;
    }

    /**
     * The entry at byte {@code dirByte} of the directory's data space (a leaf entry's address × 8),
     * from its checked data block; null for a free span or "." / "..".
     */
    Entry entryAt(long dirByte) throws IOException {
        int dbs = fs.sb.dirBlockSize();
        long db = dirByte / dbs;
        if (dirByte < 0 || db * perDirBlock >= leafBlock) {
            throw bad("leaf entry's address " + dirByte + " is outside the data blocks", dir.offset);
        }
        byte[] b = new byte[dbs];
        parseHeader(b, readBlock(db * perDirBlock, b));
        int at = (int) (dirByte % dbs);
        if (at < pos || at >= end || (at & 7) != 0) {
            throw bad("leaf entry's address " + dirByte + " is not an entry of its data block", bufAt);
        }
        pos = at;
        return nextData();
    }

    private void parseHeader(byte[] b, long at) throws CorruptFileSystemException {
        long magic = Be.u32(b, 0);
        boolean v5 = fs.sb.version == 5;
        boolean single = magic == (v5 ? BLOCK_V5 : BLOCK_V4);
        if (!single && magic != (v5 ? DATA_V5 : DATA_V4)) {
            throw bad("directory data block has no \"" + (v5 ? "XDB3\"/\"XDD3" : "XD2B\"/\"XD2D") + "\" magic", at);
        }
        if (v5) {
            if (!Be.crcOk(b, 0, b.length, 4)) {
                throw bad("directory data block CRC does not match", at);
            }
            if (Be.u64(b, 8) != at >>> 9 || Be.u64(b, 40) != dir.number) {
                throw bad("directory data block records another address or owner", at);
            }
        }
        int header = v5 ? 64 : 16;
        int stop = b.length;
        if (single) {
            long count = Be.u32(b, b.length - 8);
            if (count > (b.length - 8 - header) / 8) {
                throw bad("single-block directory's " + count + " leaf entries do not fit", at);
            }
            stop = b.length - 8 - (int) count * 8;
        }
        buf = b;
        bufAt = at;
        pos = header;
        end = stop;
    }

    /** The entry at {@link #pos} of a data block, or null for a free span or "." / "..". */
    private Entry nextData() throws CorruptFileSystemException {
        if (end - pos < 4) {
            throw bad("directory entry at " + pos + " passes the entries' end", bufAt);
        }
        if (Be.u16(buf, pos) == 0xffff) {
            int len = Be.u16(buf, pos + 2);
            if (len < 8 || (len & 7) != 0 || len > end - pos) {
                throw bad("free span of " + len + " bytes at " + pos + " is out of range", bufAt);
            }
            pos += len;
            return null;
        }
        if (end - pos < 16) {
            throw bad("directory entry at " + pos + " passes the entries' end", bufAt);
        }
        long ino = Be.u64(buf, pos);
        int len = Be.u8(buf, pos + 8);
        int size = (8 + 1 + len + ftypeBytes + 2 + 7) & ~7;
        if (len == 0 || size > end - pos) {
            throw bad("directory entry of a " + len + "-byte name at " + pos + " passes the entries' end", bufAt);
        }
        int at = pos + 9;
        pos += size;
        if (onlyLength >= 0 && len != onlyLength) {
            return null;
        }
        String name = Be.name(buf, at, len);
        return name.equals(".") || name.equals("..") ? null : new Entry(name, ino);
    }
}
