package org.vectorjce.fs.xfs;

import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Kind;

/**
 * One on-disk inode ({@code struct xfs_dinode} of libxfs/xfs_format.h; "Algorithms &amp; Data
 * Structures", chapter "On-disk Inode"): the core (mode, owner, group, links, size, times, extent
 * count, fork offset, flags) and its raw bytes, from which the data fork is read.
 *
 * <p>Checked on parse: the "IN" magic, the version (3 on v5 filesystems, 1 or 2 on v4), a v3
 * inode's CRC32C (over the whole inode, the field at byte 100 zeroed) and its own inode number, the
 * fork formats, and that the attribute fork offset leaves a data fork inside the inode.
 */
final class Inode {
    static final int MAGIC = 0x494e; // "IN"
    // di_format
    static final int FMT_DEV = 0;
    static final int FMT_LOCAL = 1;
    static final int FMT_EXTENTS = 2;
    static final int FMT_BTREE = 3;
    // di_flags
    static final int DIFLAG_REALTIME = 0x1;
    // di_flags2
    private static final long DIFLAG2_BIGTIME = 1 << 3;
    private static final long DIFLAG2_NREXT64 = 1 << 4;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;

    final long number;
    final long offset;
    final byte[] raw;
    final int mode;
    final int format;
    final long uid;
    final long gid;
    final long nlink;
    final long size;
    final long nblocks;
    final long nextents;
    final int flags;
    final FileTime atime;
    final FileTime mtime;
    final FileTime ctime;
    final FileTime crtime;
    /** Where the data fork starts in {@link #raw}, and its bytes. */
    final int forkStart;
    final int forkSize;

    private Inode(long number, long offset, byte[] raw, int core, boolean v3) throws CorruptFileSystemException {
        this.number = number;
        this.offset = offset;
        this.raw = raw;
        mode = Be.u16(raw, 2);
        format = Be.u8(raw, 5);
        int version = Be.u8(raw, 4);
        uid = Be.u32(raw, 8);
        gid = version == 1 ? Be.u16(raw, 20) : Be.u32(raw, 12);
        nlink = version == 1 ? Be.u16(raw, 6) : Be.u32(raw, 16);
        long flags2 = v3 ? Be.u64(raw, 120) : 0;
        boolean big = (flags2 & DIFLAG2_BIGTIME) != 0;
        atime = time(raw, 32, big);
        mtime = time(raw, 40, big);
        ctime = time(raw, 48, big);
        crtime = v3 ? time(raw, 144, big) : null;
        size = Be.u64(raw, 56);
        nblocks = Be.u64(raw, 64);
        nextents = (flags2 & DIFLAG2_NREXT64) != 0 ? Be.u64(raw, 24) : Be.u32(raw, 76);
        flags = Be.u16(raw, 90);
        int forkOff = Be.u8(raw, 82) * 8;
        forkStart = core;
        forkSize = forkOff == 0 ? raw.length - core : forkOff;
        if (forkSize > raw.length - core || size < 0) {
            throw bad("attribute fork offset " + forkOff + " or size " + size + " is out of range");
        }
    }

    /**
     * Parses the inode {@code raw} (the superblock's inode size) read at byte {@code offset} as inode
     * {@code number}.
     */
    static Inode parse(Superblock sb, long number, long offset, byte[] raw) throws CorruptFileSystemException {
        if (Be.u16(raw, 0) != MAGIC) {
            throw new CorruptFileSystemException("XFS: inode " + number + ": no \"IN\" magic", offset);
        }
        int version = Be.u8(raw, 4);
        boolean v3 = sb.version == 5;
        if (v3 ? version != 3 : version != 1 && version != 2) {
            throw new CorruptFileSystemException("XFS: inode " + number + ": version " + version
                    + " does not match the superblock's", offset);
        }
        if (v3) {
            if (!Be.crcOk(raw, 0, raw.length, 100)) {
                throw new CorruptFileSystemException("XFS: inode " + number + ": CRC does not match", offset);
            }
            if (Be.u64(raw, 152) != number) {
                throw new CorruptFileSystemException("XFS: inode " + number + ": records itself as inode "
                        + Be.u64(raw, 152), offset);
            }
        }
        return new Inode(number, offset, raw, sb.inodeCoreSize(), v3);
    }

    private CorruptFileSystemException bad(String what) {
        return new CorruptFileSystemException("XFS: inode " + number + ": " + what, offset);
    }

    /**
     * A timestamp: with bigtime, nanoseconds since 1901-12-13T20:45:52Z as an unsigned 64-bit count
     * ("Timestamps"); else signed seconds since 1970 and nanoseconds, 32 bits each.
     */
    private static FileTime time(byte[] b, int o, boolean big) {
        if (big) {
            long ns = Be.u64(b, o);
            long secs = Long.divideUnsigned(ns, 1_000_000_000L) - (1L << 31);
            long nanos = Long.remainderUnsigned(ns, 1_000_000_000L);
            return FileTime.from(Instant.ofEpochSecond(secs, nanos));
        }
        return FileTime.from(Instant.ofEpochSecond(Be.s32(b, o), Be.u32(b, o + 4)));
    }

    Kind kind() {
        return switch (mode & S_IFMT) {
            case S_IFREG -> Kind.FILE;
            case S_IFDIR -> Kind.DIRECTORY;
            case S_IFLNK -> Kind.SYMLINK;
            default -> Kind.OTHER;
        };
    }

    /** Checks the data fork's format is one a {@code kind} inode may have. */
    void checkFormat() throws CorruptFileSystemException {
        Kind k = kind();
        boolean ok = switch (k) {
            case FILE -> format == FMT_EXTENTS || format == FMT_BTREE;
            case DIRECTORY, SYMLINK -> format == FMT_LOCAL || format == FMT_EXTENTS || format == FMT_BTREE;
            case OTHER -> format == FMT_DEV || format == FMT_EXTENTS || format == FMT_LOCAL;
        };
        if (!ok) {
            throw bad("data fork format " + format + " is not valid for a " + k.name().toLowerCase());
        }
        if (k == Kind.FILE && (flags & DIFLAG_REALTIME) != 0) {
            throw bad("its data is on the realtime device, which is not read");
        }
    }
}
