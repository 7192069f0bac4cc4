package org.vectorjce.fs.xfs;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The primary superblock of an XFS filesystem, sector 0 of allocation group 0 ({@code struct xfs_dsb}
 * of libxfs/xfs_format.h; "Algorithms &amp; Data Structures", chapter "Allocation Groups", section
 * "Superblocks"), checked field by field, and the geometry derived from it: block and inode sizes,
 * the allocation groups, and how an inode number and a filesystem block number become byte offsets.
 *
 * <p>Version 5 (CRC-enabled) and version 4 with version 2 directories are read. A v5 superblock's
 * CRC32C (over the whole sector, the field at byte 224 zeroed) must match, and every incompatible
 * feature must be one this reader understands; the rest are refused by name.
 */
final class Superblock {
    static final long MAGIC = 0x58465342L; // "XFSB"
    /** Bytes of the fields read (to sb_meta_uuid's end). */
    static final int SIZE = 264;
    private static final int CRC_AT = 224;

    // sb_versionnum bits (v4)
    private static final int VERSION_NUMBITS = 0x000f;
    private static final int VERSION_EXTFLGBIT = 0x1000;
    private static final int VERSION_DIRV2BIT = 0x2000;
    private static final int VERSION_BORGBIT = 0x4000;
    private static final int VERSION_MOREBITSBIT = 0x8000;
    // sb_features2 bits
    private static final long VERSION2_FTYPE = 0x200;
    // sb_features_incompat bits (v5)
    static final long INCOMPAT_FTYPE = 1;
    static final long INCOMPAT_SPINODES = 1 << 1;
    static final long INCOMPAT_META_UUID = 1 << 2;
    static final long INCOMPAT_BIGTIME = 1 << 3;
    static final long INCOMPAT_NEEDSREPAIR = 1 << 4;
    static final long INCOMPAT_NREXT64 = 1 << 5;
    static final long INCOMPAT_EXCHRANGE = 1 << 6;
    static final long INCOMPAT_PARENT = 1 << 7;
    static final long INCOMPAT_METADIR = 1 << 8;
    private static final long INCOMPAT_UNDERSTOOD = INCOMPAT_FTYPE | INCOMPAT_SPINODES | INCOMPAT_META_UUID
            | INCOMPAT_BIGTIME | INCOMPAT_NREXT64 | INCOMPAT_EXCHRANGE | INCOMPAT_PARENT | INCOMPAT_METADIR;
    private static final String[] INCOMPAT_NAMES = {"ftype", "sparse inodes", "meta_uuid", "bigtime",
        "needsrepair (xfs_repair did not finish)", "nrext64", "exchange-range", "parent pointers", "metadir",
        "zoned", "zone gaps"};

    final int version;
    final int blockSize;
    final int blockLog;
    final long dblocks;
    final byte[] uuid;
    final long rootIno;
    final long agBlocks;
    final long agCount;
    final int sectSize;
    final int inodeSize;
    final int inodeLog;
    final int inopBlock;
    final int inopLog;
    final int agBlkLog;
    final String label;
    final long fdblocks;
    final int dirBlkLog;
    final long incompat;
    final boolean ftype;
    final boolean asciiCi;
    /** Whether extent records may carry the unwritten flag (always on v5). */
    final boolean extFlag;

    private Superblock(byte[] s) {
        version = Be.u16(s, 100) & VERSION_NUMBITS;
        blockSize = (int) Be.u32(s, 4);
        blockLog = Be.u8(s, 120);
        dblocks = Be.u64(s, 8);
        uuid = java.util.Arrays.copyOfRange(s, 32, 48);
        rootIno = Be.u64(s, 56);
        agBlocks = Be.u32(s, 84);
        agCount = Be.u32(s, 88);
        sectSize = Be.u16(s, 102);
        inodeSize = Be.u16(s, 104);
        inopBlock = Be.u16(s, 106);
        int n = 0;
        while (n < 12 && s[108 + n] != 0) {
            n++;
        }
        label = Be.name(s, 108, n);
        inodeLog = Be.u8(s, 122);
        inopLog = Be.u8(s, 123);
        agBlkLog = Be.u8(s, 124);
        fdblocks = Be.u64(s, 144);
        dirBlkLog = Be.u8(s, 192);
        int versionNum = Be.u16(s, 100);
        long features2 = (versionNum & VERSION_MOREBITSBIT) != 0 ? Be.u32(s, 200) : 0;
        incompat = version == 5 ? Be.u32(s, 216) : 0;
        ftype = version == 5 ? (incompat & INCOMPAT_FTYPE) != 0 : (features2 & VERSION2_FTYPE) != 0;
        asciiCi = (versionNum & VERSION_BORGBIT) != 0;
        extFlag = version == 5 || (versionNum & VERSION_EXTFLGBIT) != 0;
    }

    /**
     * Parses and checks the superblock in {@code s} (at least one sector, {@link #SIZE} bytes or more)
     * for a device of {@code deviceSize} bytes.
     */
    static Superblock parse(byte[] s, long deviceSize) throws CorruptFileSystemException {
        if (s.length < SIZE || Be.u32(s, 0) != MAGIC) {
            throw bad("no \"XFSB\" magic");
        }
        Superblock sb = new Superblock(s);
        int versionNum = Be.u16(s, 100);
        if (sb.version != 4 && sb.version != 5) {
            throw bad("version " + sb.version + " is not 4 or 5");
        }
        if (sb.version == 4 && (versionNum & VERSION_DIRV2BIT) == 0) {
            throw bad("version 4 without version 2 directories is not read");
        }
        if (sb.blockLog < 9 || sb.blockLog > 16 || sb.blockSize != 1 << sb.blockLog) {
            throw bad("block size " + sb.blockSize + " (log " + sb.blockLog
                    + ") is not a power of two from 512 to 64 KiB");
        }
        int sectLog = Be.u8(s, 121);
        if (sectLog < 9 || sectLog > 15 || sb.sectSize != 1 << sectLog || sb.sectSize > sb.blockSize
                || sb.sectSize > s.length) {
            throw bad("sector size " + sb.sectSize + " is out of range");
        }
        if (sb.inodeLog < 8 || sb.inodeLog > 11 || sb.inodeSize != 1 << sb.inodeLog || sb.inodeSize > sb.blockSize
                || (sb.version == 5 && sb.inodeSize < 512)) {
            throw bad("inode size " + sb.inodeSize + " is out of range");
        }
        if (sb.inopBlock != sb.blockSize / sb.inodeSize || sb.inopLog != sb.blockLog - sb.inodeLog) {
            throw bad(sb.inopBlock + " inodes a block (log " + sb.inopLog + ") do not match the block and inode sizes");
        }
        if (sb.agBlocks < 16 || sb.agCount < 1 || sb.agBlkLog > 31 || 1L << sb.agBlkLog < sb.agBlocks
                || sb.agBlkLog > 0 && 1L << (sb.agBlkLog - 1) >= sb.agBlocks) {
            throw bad(sb.agCount + " allocation groups of " + sb.agBlocks + " blocks (log " + sb.agBlkLog
                    + ") are out of range");
        }
        if (sb.agCount > (deviceSize >> sb.blockLog) / sb.agBlocks + 1) {
            throw bad(sb.agCount + " allocation groups of " + sb.agBlocks + " blocks pass the end of the "
                    + deviceSize + "-byte device");
        }
        if (sb.dblocks < 1 || sb.dblocks > sb.agCount * sb.agBlocks || sb.dblocks <= (sb.agCount - 1) * sb.agBlocks) {
            throw bad(sb.dblocks + " blocks do not fill " + sb.agCount + " groups of " + sb.agBlocks);
        }
        if (sb.dblocks > deviceSize >> sb.blockLog) {
            throw bad("the " + sb.dblocks + " blocks of " + sb.blockSize + " bytes pass the end of the " + deviceSize
                    + "-byte device");
        }
        if (sb.blockLog + sb.dirBlkLog > 16) {
            throw bad("directory blocks of 2^" + (sb.blockLog + sb.dirBlkLog) + " bytes are too large");
        }
        if (Be.u8(s, 126) != 0) {
            throw bad("mkfs did not finish (sb_inprogress is set)");
        }
        if (sb.version == 5) {
            if (!Be.crcOk(s, 0, sb.sectSize, CRC_AT)) {
                throw bad("superblock CRC does not match");
            }
            long unknown = sb.incompat & ~INCOMPAT_UNDERSTOOD;
            if (unknown != 0) {
                throw bad("incompatible features not read: " + names(unknown));
            }
        }
        sb.inodeOffset(sb.rootIno, "the root inode");
        return sb;
    }

    private static String names(long bits) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            if ((bits & 1L << i) != 0) {
                out.add(i < INCOMPAT_NAMES.length ? INCOMPAT_NAMES[i] : String.format("0x%x", 1L << i));
            }
        }
        return String.join(", ", out);
    }

    private static CorruptFileSystemException bad(String what) {
        return new CorruptFileSystemException("XFS: superblock: " + what, 0);
    }

    /** Bytes of a directory block ({@code blocksize << sb_dirblklog}). */
    int dirBlockSize() {
        return blockSize << dirBlkLog;
    }

    /** The inode core's size: 176 bytes in v3 inodes (v5), 100 in v1/v2. */
    int inodeCoreSize() {
        return version == 5 ? 176 : 100;
    }

    /**
     * The byte offset of inode {@code ino}: its high bits are the AG, then {@code sb_agblklog} bits of
     * block in the AG, then {@code sb_inopblog} bits of inode in the block ("Inode Numbers").
     */
    long inodeOffset(long ino, String what) throws CorruptFileSystemException {
        int aginoBits = agBlkLog + inopLog;
        long agno = aginoBits >= 63 ? 0 : ino >>> aginoBits;
        long agino = ino & ((1L << aginoBits) - 1);
        long agbno = agino >>> inopLog;
        long index = agino & (inopBlock - 1);
        if (ino < 0 || agno >= agCount || agbno >= agBlocks || agno * agBlocks + agbno >= dblocks) {
            throw new CorruptFileSystemException("XFS: " + what + ", inode " + ino + ", is past the filesystem's "
                    + agCount + " allocation groups of " + agBlocks + " blocks", -1);
        }
        return ((agno * agBlocks + agbno) << blockLog) + index * inodeSize;
    }

    /**
     * The byte offset of filesystem block {@code fsb} (AG number in the bits above {@code sb_agblklog},
     * block within the AG below), or -1 when it lies outside the filesystem.
     */
    long blockOffset(long fsb) {
        long agno = fsb >>> agBlkLog;
        long agbno = fsb & ((1L << agBlkLog) - 1);
        if (fsb < 0 || agno >= agCount || agbno >= agBlocks) {
            return -1;
        }
        long linear = agno * agBlocks + agbno;
        return linear >= dblocks ? -1 : linear << blockLog;
    }

    /** The UUID as blkid prints it: lower-case 8-4-4-4-12. */
    String uuidText() {
        String h = HexFormat.of().formatHex(uuid);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20)
                + "-" + h.substring(20);
    }

    boolean bigtime() {
        return (incompat & INCOMPAT_BIGTIME) != 0;
    }
}
