package org.vectorjce.fs.ext;

/**
 * The two checksums ext4 uses, in the kernel's form: {@code crc32c(seed, bytes)} with no final
 * inversion (so that a checksum chains as the kernel's {@code ext4_chksum} does: the filesystem's
 * seed, then the inode number, then the generation, then the structure), and the CRC-16 (ANSI,
 * reflected polynomial 0xA001) of the older {@code gdt_csum} feature's group descriptors.
 *
 * <p>{@link java.util.zip.CRC32C} cannot start from an arbitrary seed (ext4's
 * {@code s_checksum_seed} with the {@code csum_seed} feature), hence these tables; they checksum
 * metadata only (a superblock, a descriptor, an inode, one directory or extent block), never file data.
 */
final class Crc {
    private static final int[] CRC32C = table32(0x82F63B78);
    private static final int[] CRC16 = table16();

    private Crc() {
    }

    private static int[] table32(int poly) {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ poly : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }

    private static int[] table16() {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xA001 : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }

    /** The kernel's {@code crc32c(seed, b[off..off+len))}: no pre- or post-inversion. */
    static int crc32c(int seed, byte[] b, int off, int len) {
        int c = seed;
        for (int i = off; i < off + len; i++) {
            c = CRC32C[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        }
        return c;
    }

    /** {@link #crc32c(int, byte[], int, int)} of a little-endian 32-bit value. */
    static int crc32c(int seed, int value) {
        int c = seed;
        for (int i = 0; i < 4; i++) {
            c = CRC32C[(c ^ (value >>> (8 * i))) & 0xff] ^ (c >>> 8);
        }
        return c;
    }

    /** {@link #crc32c(int, byte[], int, int)} of {@code n} zero bytes (a checksum field taken as zero). */
    static int crc32cZeros(int seed, int n) {
        int c = seed;
        for (int i = 0; i < n; i++) {
            c = CRC32C[c & 0xff] ^ (c >>> 8);
        }
        return c;
    }

    /** The kernel's {@code crc16(seed, b[off..off+len))} (lib/crc16.c). */
    static int crc16(int seed, byte[] b, int off, int len) {
        int c = seed & 0xffff;
        for (int i = off; i < off + len; i++) {
            c = (c >>> 8) ^ CRC16[(c ^ b[i]) & 0xff];
        }
        return c;
    }
}
