package org.vectorjce.fs.ntfs;

import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The NTFS boot sector (volume header): the geometry every other structure is found by. Layout as
 * keramics' {@code docs/formats/src/ntfs.md} "Volume header" and TSK's {@code ntfs_sb}: OEM id
 * {@code "NTFS    "} at 3, bytes per sector at 11, sectors per cluster at 13 (a value above 128 is
 * the negative exponent form, 2^(256 - v), for clusters over 64 KiB), total sectors at 40, the MFT's
 * and MFT mirror's cluster numbers at 48 and 56, the MFT record and index block sizes at 64 and 68
 * (a positive value counts clusters, a negative one -n means 2^n bytes), the serial at 72 and the
 * 0xAA55 signature at 510.
 */
record BootSector(int bytesPerSector, int clusterSize, long totalSectors, long clusterCount, long mftLcn,
        long mftMirrLcn, int recordSize, int indexBlockSize, long serial) {

    /** The largest cluster Windows formats (2 MiB). */
    static final int MAX_CLUSTER = 2 << 20;

    /**
     * The boot sector in {@code s} (at least 512 bytes), checked against a device of
     * {@code deviceSize} bytes.
     *
     * @throws CorruptFileSystemException naming the first field out of range
     */
    static BootSector parse(byte[] s, long deviceSize) throws CorruptFileSystemException {
        if (s.length < 512 || !"NTFS    ".equals(new String(s, 3, 8, StandardCharsets.US_ASCII))) {
            throw new CorruptFileSystemException("NTFS: no \"NTFS    \" OEM id in the boot sector", 0);
        }
        if (Le.u16(s, 510) != 0xAA55) {
            throw new CorruptFileSystemException("NTFS: boot sector signature is not 0xAA55", 510);
        }
        int bps = Le.u16(s, 11);
        if (bps < 256 || bps > 4096 || Integer.bitCount(bps) != 1) {
            throw new CorruptFileSystemException("NTFS: bytes per sector " + bps + " is not a power of two from 256 to 4096", 11);
        }
        int v = Le.u8(s, 13);
        long cluster;
        if (v == 0) {
            throw new CorruptFileSystemException("NTFS: sectors per cluster is 0", 13);
        } else if (v <= 0x80) {
            if (Integer.bitCount(v) != 1) {
                throw new CorruptFileSystemException("NTFS: sectors per cluster " + v + " is not a power of two", 13);
            }
            cluster = (long) bps * v;
        } else {
            int shift = 256 - v;
            cluster = shift > 21 ? Long.MAX_VALUE : (long) bps << shift;
        }
        if (cluster > MAX_CLUSTER) {
            throw new CorruptFileSystemException("NTFS: cluster size of more than 2 MiB (field " + v + ")", 13);
        }
        int cs = (int) cluster;
        long totalSectors = Le.s64(s, 40);
        if (totalSectors <= 0 || totalSectors > deviceSize / bps) {
            throw new CorruptFileSystemException("NTFS: total sectors " + Long.toUnsignedString(totalSectors)
                    + " do not fit the " + deviceSize + "-byte device", 40);
        }
        long clusters = totalSectors * bps / cs;
        long mft = Le.s64(s, 48);
        long mirr = Le.s64(s, 56);
        if (mft < 0 || mft >= clusters) {
            throw new CorruptFileSystemException("NTFS: MFT cluster " + Long.toUnsignedString(mft)
                    + " is not within the volume's " + clusters + " clusters", 48);
        }
        int record = size(s, 64, cs, "MFT record size", 512);
        int index = size(s, 68, cs, "index block size", 512);
        if (mft * cs + record > deviceSize) {
            throw new CorruptFileSystemException("NTFS: MFT record 0 passes the end of the device", 48);
        }
        return new BootSector(bps, cs, totalSectors, clusters, mft, mirr, record, index, Le.s64(s, 72));
    }

    /** A size field in the clusters-or-negative-exponent form, within [min, 64 KiB] and a power of two. */
    private static int size(byte[] s, int at, int cs, String what, int min) throws CorruptFileSystemException {
        int c = s[at];
        long n;
        if (c > 0) {
            n = (long) c * cs;
        } else if (c < 0 && c >= -31) {
            n = 1L << -c;
        } else {
            n = 0;
        }
        if (n < min || n > 65536 || Long.bitCount(n) != 1) {
            throw new CorruptFileSystemException("NTFS: " + what + " " + n + " (field " + c
                    + ") is not a power of two from " + min + " to 65536", at);
        }
        return (int) n;
    }

    /** The serial as ntfsinfo and blkid print it: 16 upper-case hex digits of the 64-bit value. */
    String serialText() {
        return String.format("%016X", serial);
    }
}
