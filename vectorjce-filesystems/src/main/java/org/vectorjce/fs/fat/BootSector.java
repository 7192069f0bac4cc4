package org.vectorjce.fs.fat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A FAT boot sector's BIOS parameter block, checked and turned into the volume's geometry, as
 * Microsoft's "FAT: General Overview of On-Disk Format" (fatgen103, 2000) defines it. The FAT type
 * comes from the count of clusters alone (fatgen103 "FAT Type Determination": fewer than 4085 is
 * FAT12, fewer than 65525 FAT16, else FAT32), never from the {@code BS_FilSysType} string, which the
 * spec says is informational only.
 *
 * <p>Every field the reader depends on is checked here, so that the rest of the driver may use the
 * geometry without further bounds checks: sizes are powers of two in range, the FATs and the fixed
 * root directory lie on the device, and each FAT is large enough for an entry per cluster.
 *
 * @param type 12, 16 or 32
 * @param bytesPerSector 512 to 4096, a power of two
 * @param clusterSize bytes per cluster, a power of two
 * @param fatOffset the byte offset of the FAT in use (the active one for FAT32 without mirroring)
 * @param fatBytes the bytes of one FAT
 * @param rootOffset FAT12/16: the byte offset of the fixed root directory region
 * @param rootEntries FAT12/16: the entries of the fixed root directory; 0 for FAT32
 * @param dataOffset the byte offset of cluster 2
 * @param clusterCount the count of data clusters (clusters 2 to {@code clusterCount + 1})
 * @param rootCluster FAT32: the root directory's first cluster; 0 for FAT12/16
 * @param fsInfoOffset FAT32: the byte offset of the FSInfo sector, or -1
 * @param serial the volume serial ({@code BS_VolID}), or -1 when the extended boot signature is absent
 * @param label the boot sector's volume label bytes (11), or {@code null} when absent
 * @param media the media byte ({@code BPB_Media}), which FAT[0] repeats
 */
record BootSector(int type, int bytesPerSector, int clusterSize, long fatOffset, long fatBytes, long rootOffset,
        int rootEntries, long dataOffset, long clusterCount, long rootCluster, long fsInfoOffset, long serial,
        byte[] label, int media) {

    /** fatgen103: the largest FAT12 and FAT16 cluster counts are one below these. */
    static final long FAT12_LIMIT = 4085;
    static final long FAT16_LIMIT = 65525;
    /** fatgen103: FAT32 entries are 28 bits; 0x0FFFFFF7 is the bad mark, so clusters end at 0x0FFFFFF6. */
    static final long FAT32_MAX_CLUSTERS = 0x0FFFFFF5L;

    /**
     * Reads and checks the first sector of a volume.
     *
     * @param s the first 512 bytes at least
     * @param deviceSize the device's bytes, which the FATs and the root region must fit in
     * @throws CorruptFileSystemException naming the field that is out of range (offset 0 is the boot sector)
     */
    static BootSector parse(byte[] s, long deviceSize) throws CorruptFileSystemException {
        if (s.length < 512) {
            throw bad("the device is shorter than a boot sector");
        }
        ByteBuffer b = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
        // fatgen103 "Boot Sector and BPB": BS_jmpBoot is EB ?? 90 or E9 ?? ??; the 0x55AA signature ends sector 0.
        int j = s[0] & 0xff;
        if (!(j == 0xEB && (s[2] & 0xff) == 0x90) && j != 0xE9) {
            throw bad("no x86 jump at the boot sector's start (0x" + Integer.toHexString(j) + ")");
        }
        if ((s[510] & 0xff) != 0x55 || (s[511] & 0xff) != 0xAA) {
            throw bad("no 0x55AA boot signature at byte 510");
        }
        String oem = new String(s, 3, 8, StandardCharsets.ISO_8859_1);
        if (oem.equals("EXFAT   ") || oem.equals("NTFS    ")) {
            throw bad("an " + oem.trim() + " boot sector, not FAT");
        }
        int bytesPerSector = b.getShort(11) & 0xffff;
        if (bytesPerSector < 512 || bytesPerSector > 4096 || Integer.bitCount(bytesPerSector) != 1) {
            throw bad("BPB_BytsPerSec " + bytesPerSector + " is not 512, 1024, 2048 or 4096");
        }
        int sectorsPerCluster = s[13] & 0xff;
        if (sectorsPerCluster == 0 || Integer.bitCount(sectorsPerCluster) != 1) {
            throw bad("BPB_SecPerClus " + sectorsPerCluster + " is not a power of two");
        }
        int reserved = b.getShort(14) & 0xffff;
        if (reserved == 0) {
            throw bad("BPB_RsvdSecCnt is 0");
        }
        int fats = s[16] & 0xff;
        if (fats == 0) {
            throw bad("BPB_NumFATs is 0");
        }
        int rootEntries = b.getShort(17) & 0xffff;
        int media = s[21] & 0xff;
        if (media != 0xF0 && media < 0xF8) {
            throw bad("BPB_Media 0x" + Integer.toHexString(media) + " is not F0 or F8 to FF");
        }
        long totalSectors = b.getShort(19) & 0xffff;
        if (totalSectors == 0) {
            totalSectors = b.getInt(32) & 0xffffffffL;
        }
        int fatSize16 = b.getShort(22) & 0xffff;
        long fatSectors = fatSize16 != 0 ? fatSize16 : b.getInt(36) & 0xffffffffL;
        if (fatSectors == 0) {
            throw bad("the FAT size (BPB_FATSz16 and BPB_FATSz32) is 0");
        }
        // fatgen103 "FAT Type Determination": RootDirSectors, then the data sectors and their clusters.
        long rootSectors = ((long) rootEntries * 32 + bytesPerSector - 1) / bytesPerSector;
        long metaSectors = reserved + fats * fatSectors + rootSectors;
        if (totalSectors <= metaSectors) {
            throw bad("the " + totalSectors + " sectors leave no data area after " + metaSectors
                    + " reserved, FAT and root sectors");
        }
        long clusterCount = (totalSectors - metaSectors) / sectorsPerCluster;
        int type = clusterCount < FAT12_LIMIT ? 12 : clusterCount < FAT16_LIMIT ? 16 : 32;
        if (clusterCount == 0) {
            throw bad("no whole cluster in the data area");
        }
        if (type == 32 && clusterCount > FAT32_MAX_CLUSTERS) {
            throw bad(clusterCount + " clusters are more than FAT32's 28-bit entries address");
        }
        long fatBytes = fatSectors * bytesPerSector;
        long entriesBytes = type == 12 ? ((clusterCount + 2) * 3 + 1) / 2 : (clusterCount + 2) * (type / 8);
        if (fatBytes < entriesBytes) {
            throw bad("a FAT of " + fatBytes + " bytes is too small for " + clusterCount + " FAT" + type
                    + " clusters");
        }
        long fatOffset = (long) reserved * bytesPerSector;
        long rootCluster = 0;
        long fsInfoOffset = -1;
        int extended;
        if (type == 32) {
            // fatgen103 "FAT32 Structure Starting at Offset 36": no fixed root, FATSz16 0, version 0:0.
            if (rootEntries != 0 || fatSize16 != 0) {
                throw bad("a FAT32 cluster count with BPB_RootEntCnt " + rootEntries + " and BPB_FATSz16 "
                        + fatSize16 + " (both must be 0)");
            }
            if (b.getShort(42) != 0) {
                throw bad("BPB_FSVer 0x" + Integer.toHexString(b.getShort(42) & 0xffff) + " is not 0:0");
            }
            int extFlags = b.getShort(40) & 0xffff;
            if ((extFlags & 0x80) != 0) {
                // Mirroring off: only the FAT numbered in bits 0-3 is in use.
                int active = extFlags & 0x0f;
                if (active >= fats) {
                    throw bad("BPB_ExtFlags names FAT " + active + " of " + fats);
                }
                fatOffset += active * fatBytes;
            }
            rootCluster = b.getInt(44) & 0x0fffffffL;
            if (rootCluster < 2 || rootCluster > clusterCount + 1) {
                throw bad("BPB_RootClus " + rootCluster + " is not a data cluster (2 to " + (clusterCount + 1) + ")");
            }
            int fsInfo = b.getShort(48) & 0xffff;
            if (fsInfo != 0 && fsInfo != 0xffff && fsInfo < reserved) {
                fsInfoOffset = (long) fsInfo * bytesPerSector;
            }
            extended = 64;
        } else {
            if (rootEntries == 0) {
                throw bad("a FAT" + type + " cluster count with BPB_RootEntCnt 0 (no root directory)");
            }
            extended = 36;
        }
        long rootOffset = (long) reserved * bytesPerSector + fats * fatBytes;
        long dataOffset = rootOffset + rootSectors * bytesPerSector;
        long fatsEnd = type == 32 ? dataOffset : rootOffset + (long) rootEntries * 32;
        if (fatsEnd > deviceSize) {
            throw bad("the FATs and root region end at byte " + fatsEnd + ", past the " + deviceSize
                    + "-byte device");
        }
        // The extended boot signature 0x29 says BS_VolID, BS_VolLab and BS_FilSysType are present;
        // 0x28 (DOS 4) has the serial only.
        int sig = s[extended + 2] & 0xff;
        long serial = sig == 0x29 || sig == 0x28 ? b.getInt(extended + 3) & 0xffffffffL : -1;
        byte[] label = null;
        if (sig == 0x29) {
            label = new byte[11];
            System.arraycopy(s, extended + 7, label, 0, 11);
        }
        return new BootSector(type, bytesPerSector, sectorsPerCluster * bytesPerSector, fatOffset, fatBytes,
                type == 32 ? 0 : rootOffset, type == 32 ? 0 : rootEntries, dataOffset, clusterCount, rootCluster,
                fsInfoOffset, serial, label, media);
    }

    /** The byte offset of data cluster {@code c} (2 or more). */
    long clusterOffset(long c) {
        return dataOffset + (c - 2) * clusterSize;
    }

    /** The last valid cluster number. */
    long maxCluster() {
        return clusterCount + 1;
    }

    private static CorruptFileSystemException bad(String what) {
        return new CorruptFileSystemException("FAT boot sector: " + what, 0);
    }
}
