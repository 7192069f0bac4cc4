package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The exFAT boot region's fields the reader depends on (Microsoft exFAT specification, section 3.1
 * "Main Boot Sector"), each checked against the ranges the specification allows before anything is
 * read through it, and the boot checksum (section 3.4) checked over the region's first eleven
 * sectors.
 *
 * <p>A boot region is {@link #read} from sector 0 (the main region) or sector 12 (the backup, 3.1
 * "Backup Boot Region"); {@link #open} takes the main one, or the backup when the main one fails its
 * field checks or its checksum, and refuses when both fail, naming the main region's fault.
 */
final class ExfatBootSector {
    static final long MAX_CLUSTER_COUNT = 0xFFFFFFF5L; // 3.1.9: 2^32 - 11

    /** Sector size: 2^BytesPerSectorShift, 512 to 4096 (3.1.14). */
    final int sectorSize;
    /** Cluster size: 2^(BytesPerSectorShift + SectorsPerClusterShift), at most 32 MiB (3.1.15). */
    final int clusterSize;
    final int clusterShift;
    /** Bytes of the volume (VolumeLength × sector size). */
    final long volumeBytes;
    /** Byte offset of the active FAT (3.1.5, 3.1.6, VolumeFlags.ActiveFat of 3.1.13.1). */
    final long fatOffset;
    final long fatBytes;
    /** Byte offset of the cluster heap, whose first cluster is number 2 (3.1.7). */
    final long heapOffset;
    /** Clusters in the heap (3.1.8): the valid cluster numbers are 2 to clusterCount + 1. */
    final long clusterCount;
    final long rootCluster;
    final int serial;
    /** Which FAT and allocation bitmap are active: 0 or 1 (VolumeFlags bit 0, only with two FATs). */
    final int activeFat;
    /** Where this boot region starts: 0 (main) or 12 × sector size (backup). */
    final long regionOffset;

    private ExfatBootSector(ByteBuffer b, long regionOffset) {
        this.regionOffset = regionOffset;
        int bpsShift = b.get(108);
        int spcShift = b.get(109);
        sectorSize = 1 << bpsShift;
        clusterShift = bpsShift + spcShift;
        clusterSize = 1 << clusterShift;
        volumeBytes = b.getLong(72) << bpsShift;
        int fats = b.get(110);
        activeFat = fats == 2 ? b.getShort(106) & 1 : 0;
        fatBytes = Integer.toUnsignedLong(b.getInt(84)) << bpsShift;
        fatOffset = (Integer.toUnsignedLong(b.getInt(80)) << bpsShift) + activeFat * fatBytes;
        heapOffset = Integer.toUnsignedLong(b.getInt(88)) << bpsShift;
        clusterCount = Integer.toUnsignedLong(b.getInt(92));
        rootCluster = Integer.toUnsignedLong(b.getInt(96));
        serial = b.getInt(100);
    }

    /**
     * Whether the device's first sector says exFAT and the main boot sector's fields, or a backup
     * boot sector's (sector 12), are in range; the checksum is left to {@link #open}, so that a
     * damaged exFAT volume is reported as such rather than as an unknown one.
     */
    static boolean probe(Device device) throws IOException {
        if (device.size() < 512) {
            return false;
        }
        ByteBuffer b = sector(device, 0);
        if (!isExfat(b)) {
            return false;
        }
        if (fieldProblem(b) == null) {
            return true;
        }
        for (int shift = 9; shift <= 12; shift++) {
            if (device.size() >= (12L << shift) + 512 && fieldProblem(sector(device, 12L << shift)) == null) {
                return true;
            }
        }
        return false;
    }

    /**
     * The main boot region if its fields and checksum are sound, else the backup region (sector 12,
     * tried for each sector size) if its are, else a {@link CorruptFileSystemException} naming the
     * main region's fault. Windows and Linux likewise fall back to the backup.
     */
    static ExfatBootSector open(Device device) throws IOException {
        CorruptFileSystemException main;
        try {
            return read(device, 0);
        } catch (CorruptFileSystemException e) {
            main = e;
        }
        for (int shift = 9; shift <= 12; shift++) {
            try {
                ExfatBootSector backup = read(device, 12L << shift);
                if (backup.sectorSize == 1 << shift) {
                    return backup;
                }
            } catch (CorruptFileSystemException e) {
                // not a sound backup at this sector size: the main region's fault is reported
            }
        }
        throw main;
    }

    /** The boot region at {@code regionOffset}, its fields and checksum verified. */
    static ExfatBootSector read(Device device, long regionOffset) throws IOException {
        if (regionOffset > device.size() - 512) {
            throw new CorruptFileSystemException("exFAT: boot sector passes the device's end", regionOffset);
        }
        ByteBuffer b = sector(device, regionOffset);
        String problem = fieldProblem(b);
        if (problem != null) {
            throw new CorruptFileSystemException("exFAT: boot sector: " + problem, regionOffset);
        }
        ExfatBootSector boot = new ExfatBootSector(b, regionOffset);
        boot.verifyChecksum(device);
        return boot;
    }

    /**
     * Section 3.4: sector 11 of the region is the 32-bit checksum of sectors 0 to 10, repeated; the
     * checksum skips VolumeFlags (bytes 106, 107) and PercentInUse (byte 112), which change in use.
     */
    private void verifyChecksum(Device device) throws IOException {
        long end = regionOffset + 12L * sectorSize;
        if (end > device.size()) {
            throw new CorruptFileSystemException("exFAT: boot region passes the device's end", regionOffset);
        }
        byte[] region = new byte[12 * sectorSize];
        device.readFully(regionOffset, region, 0, region.length);
        int sum = 0;
        for (int i = 0; i < 11 * sectorSize; i++) {
            if (i == 106 || i == 107 || i == 112) {
                continue;
            }
            sum = ((sum & 1) != 0 ? 0x80000000 : 0) + (sum >>> 1) + (region[i] & 0xff);
        }
        ByteBuffer check = ByteBuffer.wrap(region).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 11 * sectorSize; i < 12 * sectorSize; i += 4) {
            if (check.getInt(i) != sum) {
                throw new CorruptFileSystemException(String.format(
                        "exFAT: boot checksum sector holds 0x%08x, sectors 0-10 sum to 0x%08x", check.getInt(i), sum),
                        regionOffset + 11L * sectorSize);
            }
        }
    }

    private static ByteBuffer sector(Device device, long offset) throws IOException {
        byte[] s = new byte[512];
        device.readFully(offset, s, 0, 512);
        return ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static boolean isExfat(ByteBuffer b) {
        byte[] name = new byte[8];
        b.get(3, name);
        return new String(name, StandardCharsets.US_ASCII).equals("EXFAT   ");
    }

    /** What is out of range in a boot sector (3.1.1 to 3.1.19), or null when nothing is. */
    static String fieldProblem(ByteBuffer b) {
        if (!isExfat(b)) {
            return "FileSystemName is not \"EXFAT   \"";
        }
        for (int i = 11; i < 64; i++) {
            if (b.get(i) != 0) {
                return "MustBeZero byte " + i + " is not zero";
            }
        }
        if ((b.getShort(510) & 0xffff) != 0xAA55) {
            return "BootSignature is not 0xAA55";
        }
        int bps = b.get(108);
        int spc = b.get(109);
        if (bps < 9 || bps > 12) {
            return "BytesPerSectorShift " + bps + " is outside 9-12";
        }
        if (spc < 0 || spc > 25 - bps) {
            return "SectorsPerClusterShift " + spc + " makes clusters over 32 MiB";
        }
        int fats = b.get(110);
        if (fats != 1 && fats != 2) {
            return "NumberOfFats " + fats + " is not 1 or 2";
        }
        long volumeLength = b.getLong(72);
        long fatOffset = Integer.toUnsignedLong(b.getInt(80));
        long fatLength = Integer.toUnsignedLong(b.getInt(84));
        long heap = Integer.toUnsignedLong(b.getInt(88));
        long count = Integer.toUnsignedLong(b.getInt(92));
        long root = Integer.toUnsignedLong(b.getInt(96));
        if (volumeLength < (1L << 20 >> bps) || volumeLength > Long.MAX_VALUE >> 12) {
            return "VolumeLength " + Long.toUnsignedString(volumeLength) + " is out of range";
        }
        if (fatOffset < 24) {
            return "FatOffset " + fatOffset + " is inside the boot regions";
        }
        if (count < 1 || count > MAX_CLUSTER_COUNT) {
            return "ClusterCount " + count + " is out of range";
        }
        if (fatLength * (1L << bps) < (count + 2) * 4) {
            return "FatLength " + fatLength + " sectors cannot hold " + count + " clusters";
        }
        if (heap < fatOffset + fatLength * fats) {
            return "ClusterHeapOffset " + heap + " overlaps the FAT";
        }
        if (heap + (count << spc) > volumeLength) {
            return "the cluster heap (" + count + " clusters from sector " + heap + ") passes VolumeLength "
                    + volumeLength;
        }
        if (root < 2 || root > count + 1) {
            return "FirstClusterOfRootDirectory " + root + " is outside clusters 2-" + (count + 1);
        }
        return null;
    }

    /** The serial as blkid prints an exFAT UUID: {@code 1234-ABCD}. */
    String serialText() {
        return String.format("%04X-%04X", serial >>> 16, serial & 0xffff);
    }

    /** Byte offset of cluster {@code n} (2 to clusterCount + 1). */
    long clusterOffset(long n) {
        return heapOffset + ((n - 2) << clusterShift);
    }

    boolean validCluster(long n) {
        return n >= 2 && n <= clusterCount + 1;
    }
}
