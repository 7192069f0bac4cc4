package org.vectorjce.fs.part;

/**
 * A GUID as text from its 16 bytes on the disk. UEFI 2.10 appendix A stores a GUID's first three
 * fields (32, 16 and 16 bits) little-endian and its last eight bytes in order, so the text of the
 * bytes {@code 28 73 2a c1 1f f8 d2 11 ba 4b 00 a0 c9 3e c9 3b} is
 * {@code c12a7328-f81f-11d2-ba4b-00a0c93ec93b}: what {@code sgdisk} prints, in lower case.
 */
final class Guids {
    private Guids() {
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The GUID in {@code b[off, off + 16)} as 36 lower-case characters. */
    static String format(byte[] b, int off) {
        // the byte order of the text: fields 1 to 3 reversed, then the rest as stored
        int[] order = {3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1, 8, 9, -1, 10, 11, 12, 13, 14, 15};
        StringBuilder s = new StringBuilder(36);
        for (int i : order) {
            if (i < 0) {
                s.append('-');
            } else {
                int v = b[off + i] & 0xff;
                s.append(HEX[v >>> 4]).append(HEX[v & 0xf]);
            }
        }
        return s.toString();
    }

    /** Whether the 16 bytes at {@code off} are all zero: the GPT's "unused entry" type. */
    static boolean isZero(byte[] b, int off) {
        for (int i = 0; i < 16; i++) {
            if (b[off + i] != 0) {
                return false;
            }
        }
        return true;
    }
}
