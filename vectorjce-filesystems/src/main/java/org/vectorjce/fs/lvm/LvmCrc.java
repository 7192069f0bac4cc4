package org.vectorjce.fs.lvm;

/**
 * LVM2's checksum of its label, metadata area header and metadata text ({@code lib/misc/crc.c}):
 * the reflected CRC-32 of polynomial 0xEDB88320, as zlib's, but started from {@link #INITIAL}
 * ({@code INITIAL_CRC} in {@code lib/format_text/layout.h}) and never inverted at the end, so that a
 * text split in two (the circular buffer's wrap) is checked by continuing from the first part's value.
 */
final class LvmCrc {
    /** The value every LVM2 checksum starts from. */
    static final int INITIAL = 0xf597a6cf;

    private static final int[] TABLE = table();

    private LvmCrc() {
    }

    /** The checksum of {@code b[off, off + len)} continued from {@code crc}. */
    static int update(int crc, byte[] b, int off, int len) {
        int c = crc;
        for (int i = off; i < off + len; i++) {
            c = TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
        }
        return c;
    }

    private static int[] table() {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }
}
