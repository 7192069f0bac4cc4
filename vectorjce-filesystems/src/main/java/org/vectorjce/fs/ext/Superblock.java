package org.vectorjce.fs.ext;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The ext2/3/4 superblock (the 1024 bytes at byte 1024 of the device), checked: kernel
 * Documentation/filesystems/ext4/super.rst, "The Super Block". Only the fields a reader needs are
 * kept; each is checked against the ranges the kernel's {@code ext4_fill_super} accepts and the
 * device's size before anything is sized or located by it.
 *
 * <p>Features (super.rst, "s_feature_incompat"): an incompatible feature this reader does not
 * understand is refused by name, as the kernel refuses to mount; compatible and read-only-compatible
 * features do not change how the disk reads and are ignored, but for the checksums
 * ({@code metadata_csum}, {@code gdt_csum}), which are verified.
 */
final class Superblock {
    static final int OFFSET = 1024;
    static final int SIZE = 1024;
    static final int MAGIC = 0xEF53;

    // s_feature_compat
    static final int COMPAT_HAS_JOURNAL = 0x4;
    static final int COMPAT_SPARSE_SUPER2 = 0x200;
    // s_feature_incompat
    static final int INCOMPAT_COMPRESSION = 0x1;
    static final int INCOMPAT_FILETYPE = 0x2;
    static final int INCOMPAT_RECOVER = 0x4;
    static final int INCOMPAT_JOURNAL_DEV = 0x8;
    static final int INCOMPAT_META_BG = 0x10;
    static final int INCOMPAT_EXTENTS = 0x40;
    static final int INCOMPAT_64BIT = 0x80;
    static final int INCOMPAT_MMP = 0x100;
    static final int INCOMPAT_FLEX_BG = 0x200;
    static final int INCOMPAT_EA_INODE = 0x400;
    static final int INCOMPAT_DIRDATA = 0x1000;
    static final int INCOMPAT_CSUM_SEED = 0x2000;
    static final int INCOMPAT_LARGEDIR = 0x4000;
    static final int INCOMPAT_INLINE_DATA = 0x8000;
    static final int INCOMPAT_ENCRYPT = 0x10000;
    static final int INCOMPAT_CASEFOLD = 0x20000;
    /**
     * What this reader reads; the rest of the incompatible bits are refused by name. {@code encrypt}
     * only says that some files may be encrypted (fscrypt): those are refused one by one
     * ({@link Inode#ENCRYPT_FL}), the others read.
     */
    static final int INCOMPAT_SUPPORTED = INCOMPAT_FILETYPE | INCOMPAT_RECOVER | INCOMPAT_META_BG | INCOMPAT_EXTENTS
            | INCOMPAT_64BIT | INCOMPAT_MMP | INCOMPAT_FLEX_BG | INCOMPAT_EA_INODE | INCOMPAT_CSUM_SEED
            | INCOMPAT_LARGEDIR | INCOMPAT_INLINE_DATA | INCOMPAT_CASEFOLD | INCOMPAT_ENCRYPT;
    // s_feature_ro_compat
    static final int RO_COMPAT_SPARSE_SUPER = 0x1;
    static final int RO_COMPAT_LARGE_FILE = 0x2;
    static final int RO_COMPAT_BTREE_DIR = 0x4;
    static final int RO_COMPAT_HUGE_FILE = 0x8;
    static final int RO_COMPAT_GDT_CSUM = 0x10;
    static final int RO_COMPAT_BIGALLOC = 0x200;
    static final int RO_COMPAT_METADATA_CSUM = 0x400;

    private static final String[] INCOMPAT_NAMES = {"compression", "filetype", "needs_recovery", "journal_dev",
        "meta_bg", "0x20", "extent", "64bit", "mmp", "flex_bg", "ea_inode", "0x800", "dirdata", "metadata_csum_seed",
        "large_dir", "inline_data", "encrypt", "casefold"};

    final int blockSize;
    final int logBlockSize;
    final long blocksCount;
    final long freeBlocks;
    final long inodesCount;
    final long firstDataBlock;
    final long blocksPerGroup;
    final long inodesPerGroup;
    final int inodeSize;
    final long firstIno;
    final int compat;
    final int incompat;
    final int roCompat;
    final int descSize;
    final long firstMetaBg;
    final long groupCount;
    final long[] backupBgs;
    final byte[] uuid = new byte[16];
    final String label;
    /** The checksum seed of metadata_csum: {@code s_checksum_seed}, or crc32c(~0, uuid). */
    final int csumSeed;
    /** {@code s_hash_seed}: the htree hash's seed (4 words). */
    final int[] hashSeed = new int[4];
    /** {@code s_flags}: 0x1 signed, 0x2 unsigned directory hash. */
    final int flags;
    private final int checksumType;
    private final int storedChecksum;
    private final int computedChecksum;

    private Superblock(byte[] s) throws CorruptFileSystemException {
        if (Le.u16(s, 0x38) != MAGIC) {
            throw bad(String.format("magic 0x%04X is not 0xEF53", Le.u16(s, 0x38)));
        }
        long log = Le.u32(s, 0x18);
        if (log > 6) {
            throw bad("s_log_block_size " + log + " is out of range (0 to 6: 1 KiB to 64 KiB blocks)");
        }
        logBlockSize = (int) log + 10;
        blockSize = 1 << logBlockSize;
        long rev = Le.u32(s, 0x4C);
        compat = rev == 0 ? 0 : Le.i32(s, 0x5C);
        incompat = rev == 0 ? 0 : Le.i32(s, 0x60);
        roCompat = rev == 0 ? 0 : Le.i32(s, 0x64);
        boolean is64 = (incompat & INCOMPAT_64BIT) != 0;
        blocksCount = Le.u32(s, 0x4) | (is64 ? Le.u32(s, 0x150) << 32 : 0);
        freeBlocks = Le.u32(s, 0xC) | (is64 ? Le.u32(s, 0x158) << 32 : 0);
        inodesCount = Le.u32(s, 0x0);
        firstDataBlock = Le.u32(s, 0x14);
        blocksPerGroup = Le.u32(s, 0x20);
        inodesPerGroup = Le.u32(s, 0x28);
        inodeSize = rev == 0 ? 128 : Le.u16(s, 0x58);
        firstIno = rev == 0 ? 11 : Le.u32(s, 0x54);
        if (blocksCount == 0 || blocksCount > Long.MAX_VALUE >> logBlockSize) {
            throw bad("s_blocks_count " + Long.toUnsignedString(blocksCount) + " is out of range");
        }
        // the superblock lives in block 0 (blocks > 1 KiB) or 1 (1 KiB blocks; 0 with bigalloc)
        if (firstDataBlock > (blockSize == 1024 ? 1 : 0) || firstDataBlock >= blocksCount) {
            throw bad("s_first_data_block " + firstDataBlock + " is out of range for " + blockSize + "-byte blocks");
        }
        // a group's block bitmap is one block: 8 × block size blocks, or clusters with bigalloc
        long perGroupMax = 8L * blockSize;
        if ((roCompat & RO_COMPAT_BIGALLOC) != 0) {
            long logCluster = Le.u32(s, 0x1C);
            long clustersPerGroup = Le.u32(s, 0x24);
            if (logCluster < log || logCluster > log + 20 || clustersPerGroup < 1 || clustersPerGroup > perGroupMax
                    || blocksPerGroup != clustersPerGroup << (logCluster - log)) {
                throw bad("bigalloc: s_log_cluster_size " + logCluster + ", s_clusters_per_group " + clustersPerGroup
                        + " and s_blocks_per_group " + blocksPerGroup + " disagree");
            }
            perGroupMax <<= logCluster - log;
        }
        if (blocksPerGroup < 8 || blocksPerGroup > perGroupMax) {
            throw bad("s_blocks_per_group " + blocksPerGroup + " is out of range (8 to " + perGroupMax + ")");
        }
        if (inodesPerGroup < 1 || inodesPerGroup > 8L * blockSize) {
            throw bad("s_inodes_per_group " + inodesPerGroup + " is out of range (1 to " + 8L * blockSize + ")");
        }
        if (inodeSize < 128 || inodeSize > blockSize || Integer.bitCount(inodeSize) != 1) {
            throw bad("s_inode_size " + inodeSize + " is not a power of two from 128 to the block size " + blockSize);
        }
        groupCount = (blocksCount - firstDataBlock + blocksPerGroup - 1) / blocksPerGroup;
        if (inodesCount < 2 || inodesCount > groupCount * inodesPerGroup) {
            throw bad("s_inodes_count " + inodesCount + " is out of range (2 to " + groupCount * inodesPerGroup
                    + " for " + groupCount + " groups)");
        }
        if (firstIno < 3 || firstIno > inodesCount) {
            throw bad("s_first_ino " + firstIno + " is out of range");
        }
        if (is64) {
            descSize = Le.u16(s, 0xFE);
            if (descSize < 64 || descSize > 1024 || Integer.bitCount(descSize) != 1) {
                throw bad("s_desc_size " + descSize + " is not a power of two from 64 to 1024 (64bit feature)");
            }
        } else {
            descSize = 32;
        }
        firstMetaBg = Le.u32(s, 0x104);
        backupBgs = new long[] {Le.u32(s, 0x24C), Le.u32(s, 0x250)};
        System.arraycopy(s, 0x68, uuid, 0, 16);
        int n = 0;
        while (n < 16 && s[0x78 + n] != 0) {
            n++;
        }
        label = new String(s, 0x78, n, StandardCharsets.UTF_8);
        for (int i = 0; i < 4; i++) {
            hashSeed[i] = Le.i32(s, 0xEC + 4 * i);
        }
        flags = Le.i32(s, 0x160);
        checksumType = Le.u8(s, 0x175);
        storedChecksum = Le.i32(s, 0x3FC);
        computedChecksum = Crc.crc32c(~0, s, 0, 0x3FC);
        csumSeed = (incompat & INCOMPAT_CSUM_SEED) != 0 ? Le.i32(s, 0x270) : Crc.crc32c(~0, uuid, 0, 16);
    }

    /** Parses and checks the geometry of the superblock {@code s} (1024 bytes). */
    static Superblock parse(byte[] s) throws CorruptFileSystemException {
        return new Superblock(s);
    }

    /**
     * Refuses the incompatible features this reader does not read, by name, and a superblock whose
     * metadata_csum checksum (crc32c of its first 1020 bytes) does not match. Not part of the probe,
     * so that a damaged or unsupported ext filesystem is named as such rather than unrecognised.
     */
    void checkFeatures() throws CorruptFileSystemException {
        if (hasMetadataCsum()) {
            if (checksumType != 1) {
                throw bad("s_checksum_type " + checksumType + " is not 1 (crc32c)");
            }
            if (storedChecksum != computedChecksum) {
                throw bad(String.format("checksum 0x%08x does not match the computed crc32c 0x%08x", storedChecksum,
                        computedChecksum));
            }
        }
        if ((incompat & INCOMPAT_JOURNAL_DEV) != 0) {
            throw bad("this is an external journal device (journal_dev), not a filesystem");
        }
        int unknown = incompat & ~INCOMPAT_SUPPORTED;
        if (unknown != 0) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                if ((unknown & (1 << i)) != 0) {
                    names.add(i < INCOMPAT_NAMES.length ? INCOMPAT_NAMES[i] : String.format("0x%x", 1 << i));
                }
            }
            throw bad("incompatible features not supported by this reader: " + String.join(", ", names));
        }
    }

    boolean has(int incompatBit) {
        return (incompat & incompatBit) != 0;
    }

    boolean hasMetadataCsum() {
        return (roCompat & RO_COMPAT_METADATA_CSUM) != 0;
    }

    boolean hasGdtCsum() {
        return (roCompat & RO_COMPAT_GDT_CSUM) != 0 && !hasMetadataCsum();
    }

    /**
     * blkid's rule for the name: {@code ext4} when any incompatible feature beyond ext3's
     * ({@code filetype}, {@code needs_recovery}, {@code meta_bg}) or any read-only-compatible one
     * beyond ext3's ({@code sparse_super}, {@code large_file}, {@code btree_dir}) is set;
     * else {@code ext3} when it has a journal; else {@code ext2}.
     */
    String typeName() {
        int ext3Incompat = INCOMPAT_FILETYPE | INCOMPAT_RECOVER | INCOMPAT_META_BG;
        int ext3RoCompat = RO_COMPAT_SPARSE_SUPER | RO_COMPAT_LARGE_FILE | RO_COMPAT_BTREE_DIR;
        if ((incompat & ~ext3Incompat) != 0 || (roCompat & ~ext3RoCompat) != 0) {
            return "ext4";
        }
        return (compat & COMPAT_HAS_JOURNAL) != 0 ? "ext3" : "ext2";
    }

    /** The UUID as blkid prints it: lower-case 8-4-4-4-12. */
    String uuidString() {
        StringBuilder b = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                b.append('-');
            }
            b.append(String.format("%02x", uuid[i] & 0xff));
        }
        return b.toString();
    }

    /** The first block of group {@code g}. */
    long groupFirstBlock(long g) {
        return firstDataBlock + g * blocksPerGroup;
    }

    /**
     * Whether group {@code g} holds a superblock backup (and so its descriptor copy): the kernel's
     * {@code ext4_bg_has_super} (group 0; sparse_super2's two groups; else 0, 1 and powers of 3, 5, 7
     * with sparse_super; every group without).
     */
    boolean groupHasSuper(long g) {
        if (g == 0) {
            return true;
        }
        if ((compat & COMPAT_SPARSE_SUPER2) != 0) {
            return g == backupBgs[0] || g == backupBgs[1];
        }
        if (g <= 1 || (roCompat & RO_COMPAT_SPARSE_SUPER) == 0) {
            return true;
        }
        if ((g & 1) == 0) {
            return false;
        }
        return isPower(g, 3) || isPower(g, 5) || isPower(g, 7);
    }

    private static boolean isPower(long g, int base) {
        long p = base;
        while (p < g) {
            p *= base;
        }
        return p == g;
    }

    private static CorruptFileSystemException bad(String what) {
        return new CorruptFileSystemException("ext: superblock: " + what, OFFSET);
    }
}
