package org.vectorjce.fs.ext;

import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * One inode (kernel Documentation/filesystems/ext4/inodes.rst), parsed and checked: its mode,
 * owner, size, times and the 60 bytes of {@code i_block} (a block map, an extent tree's root, a fast
 * symlink's target or inline data).
 *
 * <p>Owner: {@code i_uid}/{@code i_gid} with their high 16 bits from {@code osd2}. Size:
 * {@code i_size_lo | i_size_high << 32}. Times ("Inode Timestamps"): the 32-bit signed seconds,
 * extended by the {@code _extra} fields when {@code i_extra_isize} reaches them: their low 2 bits
 * are added to the seconds as bits 32 and 33, their high 30 bits are the nanoseconds. The creation
 * time ({@code i_crtime}) exists only in large inodes that reach it.
 *
 * <p>Checksum (metadata_csum): crc32c(seed, inode number, generation, the inode with
 * {@code l_i_checksum_lo} and {@code i_checksum_hi} as zeros); all 32 bits compared when
 * {@code i_checksum_hi} fits in the inode, else the low 16. An inode that is all zeros passes, as in
 * e2fsprogs (a never-used inode).
 */
final class Inode {
    static final int S_IFMT = 0xF000;
    static final int S_IFDIR = 0x4000;
    static final int S_IFREG = 0x8000;
    static final int S_IFLNK = 0xA000;

    static final int EXTENTS_FL = 0x80000;
    static final int ENCRYPT_FL = 0x800;
    static final int INDEX_FL = 0x1000;
    static final int INLINE_DATA_FL = 0x10000000;
    static final int CASEFOLD_FL = 0x40000000;
    static final int HUGE_FILE_FL = 0x40000;

    private static final int GOOD_OLD_SIZE = 128;
    private static final int CSUM_LO = 0x7C;
    private static final int CSUM_HI = 0x82;

    final long number;
    final long offset;
    final int mode;
    final int uid;
    final int gid;
    final long size;
    final int links;
    final int flags;
    final int generation;
    final long blocks512;
    final long fileAcl;
    final byte[] iBlock = new byte[60];
    final FileTime atime;
    final FileTime mtime;
    final FileTime ctime;
    final FileTime crtime;
    /** The in-inode extended attribute area (after {@code i_extra_isize}), or an empty array. */
    private final byte[] raw;
    private final int extraEnd;
    /** crc32c(fs seed, number, generation): the seed of this inode's extent and directory blocks. */
    final int csumSeed;

    private Inode(Superblock sb, long number, byte[] r, long offset) throws CorruptFileSystemException {
        this.number = number;
        this.offset = offset;
        this.raw = r;
        int extra = 0;
        if (r.length > GOOD_OLD_SIZE) {
            extra = Le.u16(r, 0x80);
            if (extra > r.length - GOOD_OLD_SIZE || (extra & 3) != 0) {
                throw new CorruptFileSystemException("ext: inode " + number + ": i_extra_isize " + extra
                        + " is out of range (a multiple of 4 up to " + (r.length - GOOD_OLD_SIZE) + ")", offset);
            }
        }
        extraEnd = GOOD_OLD_SIZE + extra;
        generation = Le.i32(r, 0x64);
        csumSeed = Crc.crc32c(Crc.crc32c(sb.csumSeed, (int) number), generation);
        if (sb.hasMetadataCsum()) {
            verify(r, number, offset);
        }
        mode = Le.u16(r, 0x0);
        uid = Le.u16(r, 0x2) | Le.u16(r, 0x78) << 16;
        gid = Le.u16(r, 0x18) | Le.u16(r, 0x7A) << 16;
        size = Le.u32(r, 0x4) | Le.u32(r, 0x6C) << 32;
        if (size < 0) {
            throw new CorruptFileSystemException("ext: inode " + number + ": size " + Long.toUnsignedString(size)
                    + " is out of range", offset);
        }
        links = Le.u16(r, 0x1A);
        flags = Le.i32(r, 0x20);
        long blocks = Le.u32(r, 0x1C);
        if ((sb.roCompat & Superblock.RO_COMPAT_HUGE_FILE) != 0) {
            blocks |= (long) Le.u16(r, 0x74) << 32;
        }
        blocks512 = (flags & HUGE_FILE_FL) != 0 ? blocks << (sb.logBlockSize - 9) : blocks;
        fileAcl = Le.u32(r, 0x68) | (long) Le.u16(r, 0x76) << 32;
        System.arraycopy(r, 0x28, iBlock, 0, 60);
        atime = time(r, 0x8, 0x8C);
        ctime = time(r, 0xC, 0x84);
        mtime = time(r, 0x10, 0x88);
        crtime = fits(0x90, 4) ? time(r, 0x90, 0x94) : null;
    }

    /**
     * Parses inode {@code number} from its {@code s_inode_size} bytes {@code r}, read at byte {@code offset}.
     */
    static Inode parse(Superblock sb, long number, byte[] r, long offset) throws CorruptFileSystemException {
        return new Inode(sb, number, r, offset);
    }

    private boolean fits(int at, int len) {
        return at + len <= extraEnd;
    }

    private FileTime time(byte[] r, int secondsAt, int extraAt) {
        long seconds = Le.i32(r, secondsAt);
        int nanos = 0;
        if (fits(extraAt, 4)) {
            long extra = Le.u32(r, extraAt);
            seconds += (extra & 3) << 32;
            nanos = (int) (extra >>> 2);
            if (nanos > 999_999_999) {
                nanos = 999_999_999;
            }
        }
        return FileTime.from(Instant.ofEpochSecond(seconds, nanos));
    }

    private void verify(byte[] r, long number, long offset) throws CorruptFileSystemException {
        boolean zero = true;
        for (byte b : r) {
            if (b != 0) {
                zero = false;
                break;
            }
        }
        if (zero) {
            return;
        }
        boolean hi = r.length > GOOD_OLD_SIZE && fits(CSUM_HI, 2);
        int c = csumSeed;
        c = Crc.crc32c(c, r, 0, CSUM_LO);
        c = Crc.crc32cZeros(c, 2);
        c = Crc.crc32c(c, r, CSUM_LO + 2, GOOD_OLD_SIZE - CSUM_LO - 2);
        if (r.length > GOOD_OLD_SIZE) {
            c = Crc.crc32c(c, r, GOOD_OLD_SIZE, CSUM_HI - GOOD_OLD_SIZE);
            int from = CSUM_HI;
            if (hi) {
                c = Crc.crc32cZeros(c, 2);
                from += 2;
            }
            c = Crc.crc32c(c, r, from, r.length - from);
        }
        int stored = Le.u16(r, CSUM_LO) | (hi ? Le.u16(r, CSUM_HI) << 16 : 0);
        int computed = hi ? c : c & 0xffff;
        if (stored != computed) {
            throw new CorruptFileSystemException(String.format(
                    "ext: inode %d: checksum 0x%08x does not match the computed 0x%08x", number, stored, computed),
                    offset);
        }
    }

    int type() {
        return mode & S_IFMT;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /**
     * The value of the in-inode extended attribute {@code system.data} (inline data; xattr.rst,
     * "Extended Attributes" in the inode body), or {@code null} when there is none. Every entry and
     * value is checked to lie within the inode.
     */
    byte[] systemData() throws CorruptFileSystemException {
        int start = extraEnd;
        if (raw.length - start < 4 || Le.i32(raw, start) != 0xEA020000) {
            return null;
        }
        int first = start + 4;
        int at = first;
        while (at + 4 <= raw.length && Le.i32(raw, at) != 0) {
            if (at + 16 > raw.length) {
                throw xattr("entry at " + (at - start) + " passes the inode");
            }
            int nameLen = Le.u8(raw, at);
            int index = Le.u8(raw, at + 1);
            int valueOffs = Le.u16(raw, at + 2);
            long valueInum = Le.u32(raw, at + 4);
            long valueSize = Le.u32(raw, at + 8);
            int next = at + ((16 + nameLen + 3) & ~3);
            if (next > raw.length) {
                throw xattr("entry name at " + (at - start) + " passes the inode");
            }
            // name index 7 is "system."; inline data's name is "data"
            if (index == 7 && nameLen == 4 && raw[at + 16] == 'd' && raw[at + 17] == 'a' && raw[at + 18] == 't'
                    && raw[at + 19] == 'a') {
                if (valueInum != 0 || valueSize > raw.length || first + valueOffs > raw.length - valueSize) {
                    throw xattr("system.data value (" + valueSize + " bytes at " + valueOffs
                            + ") is out of the inode");
                }
                byte[] v = new byte[(int) valueSize];
                System.arraycopy(raw, first + valueOffs, v, 0, v.length);
                return v;
            }
            at = next;
        }
        return null;
    }

    private CorruptFileSystemException xattr(String what) {
        return new CorruptFileSystemException("ext: inode " + number + ": extended attributes: " + what, offset);
    }
}
