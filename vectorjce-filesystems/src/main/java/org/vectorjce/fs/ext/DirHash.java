package org.vectorjce.fs.ext;

/**
 * The name hashes of hashed (htree) folders (kernel Documentation/filesystems/ext4/directory.rst,
 * "Hash Tree Directories"; fs/ext4/hash.c): the legacy hash, half-MD4 and TEA, each over the name's
 * bytes read as signed or unsigned chars ({@code s_flags}), seeded by {@code s_hash_seed}. The
 * result's low bit is cleared (the index uses it to mark a continued hash).
 */
final class DirHash {
    static final int LEGACY = 0;
    static final int HALF_MD4 = 1;
    static final int TEA = 2;
    static final int LEGACY_UNSIGNED = 3;
    static final int HALF_MD4_UNSIGNED = 4;
    static final int TEA_UNSIGNED = 5;

    private DirHash() {
    }

    /** The 32-bit hash of {@code name} by {@code version} (0 to 5), or empty for another version (siphash). */
    static java.util.OptionalInt hash(byte[] name, int version, int[] seed) {
        int[] buf = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
        if (seed[0] != 0 || seed[1] != 0 || seed[2] != 0 || seed[3] != 0) {
            buf = seed.clone();
        }
        boolean unsigned = version >= 3;
        int hash;
        switch (version) {
            case LEGACY, LEGACY_UNSIGNED -> hash = legacy(name, unsigned);
            case HALF_MD4, HALF_MD4_UNSIGNED -> {
                int[] in = new int[8];
                for (int p = 0, len = name.length; len > 0; len -= 32, p += 32) {
                    words(name, p, len, in, 8, unsigned);
                    halfMd4(buf, in);
                }
                hash = buf[1];
            }
            case TEA, TEA_UNSIGNED -> {
                int[] in = new int[4];
                for (int p = 0, len = name.length; len > 0; len -= 16, p += 16) {
                    words(name, p, len, in, 4, unsigned);
                    tea(buf, in);
                }
                hash = buf[0];
            }
            default -> {
                return java.util.OptionalInt.empty();
            }
        }
        hash &= ~1;
        if (hash == 0x7fffffff << 1) {
            hash = (0x7fffffff - 1) << 1;
        }
        return java.util.OptionalInt.of(hash);
    }

    private static int ch(byte[] b, int i, boolean unsigned) {
        return unsigned ? b[i] & 0xff : b[i];
    }

    /** The legacy hash ("dx_hack_hash"). */
    private static int legacy(byte[] name, boolean unsigned) {
        int h0 = 0x12a3fe2d;
        int h1 = 0x37abe8f9;
        for (int i = 0; i < name.length; i++) {
            int h = h1 + (h0 ^ (ch(name, i, unsigned) * 7152373));
            if ((h & 0x80000000) != 0) {
                h -= 0x7fffffff;
            }
            h1 = h0;
            h0 = h;
        }
        return h0 << 1;
    }

    /**
     * Packs up to {@code num × 4} bytes of {@code name[p..]} ({@code len} left) into {@code num}
     * big-endian-accumulated words, padded with the length byte repeated (hash.c's str2hashbuf).
     */
    private static void words(byte[] name, int p, int len, int[] out, int num, boolean unsigned) {
        int pad = len | len << 8;
        pad |= pad << 16;
        int val = pad;
        int n = Math.min(len, num * 4);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (i % 4 == 0) {
                val = pad;
            }
            val = ch(name, p + i, unsigned) + (val << 8);
            if (i % 4 == 3) {
                out[k++] = val;
                val = pad;
                num--;
            }
        }
        if (--num >= 0) {
            out[k++] = val;
        }
        while (--num >= 0) {
            out[k++] = pad;
        }
    }

    private static void tea(int[] buf, int[] in) {
        int sum = 0;
        int b0 = buf[0];
        int b1 = buf[1];
        for (int n = 0; n < 16; n++) {
            sum += 0x9E3779B9;
            b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >>> 5) + in[1]);
            b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >>> 5) + in[3]);
        }
        buf[0] += b0;
        buf[1] += b1;
    }

    /** The half-MD4 transform (lib/halfmd4.c): MD4's three rounds over 8 words. */
    private static void halfMd4(int[] buf, int[] x) {
        int a = buf[0];
        int b = buf[1];
        int c = buf[2];
        int d = buf[3];
        final int k2 = 013240474631;
        final int k3 = 015666365641;
        a = Integer.rotateLeft(a + f(b, c, d) + x[0], 3);
        d = Integer.rotateLeft(d + f(a, b, c) + x[1], 7);
        c = Integer.rotateLeft(c + f(d, a, b) + x[2], 11);
        b = Integer.rotateLeft(b + f(c, d, a) + x[3], 19);
        a = Integer.rotateLeft(a + f(b, c, d) + x[4], 3);
        d = Integer.rotateLeft(d + f(a, b, c) + x[5], 7);
        c = Integer.rotateLeft(c + f(d, a, b) + x[6], 11);
        b = Integer.rotateLeft(b + f(c, d, a) + x[7], 19);

        a = Integer.rotateLeft(a + g(b, c, d) + x[1] + k2, 3);
        d = Integer.rotateLeft(d + g(a, b, c) + x[3] + k2, 5);
        c = Integer.rotateLeft(c + g(d, a, b) + x[5] + k2, 9);
        b = Integer.rotateLeft(b + g(c, d, a) + x[7] + k2, 13);
        a = Integer.rotateLeft(a + g(b, c, d) + x[0] + k2, 3);
        d = Integer.rotateLeft(d + g(a, b, c) + x[2] + k2, 5);
        c = Integer.rotateLeft(c + g(d, a, b) + x[4] + k2, 9);
        b = Integer.rotateLeft(b + g(c, d, a) + x[6] + k2, 13);

        a = Integer.rotateLeft(a + (b ^ c ^ d) + x[3] + k3, 3);
        d = Integer.rotateLeft(d + (a ^ b ^ c) + x[7] + k3, 9);
        c = Integer.rotateLeft(c + (d ^ a ^ b) + x[2] + k3, 11);
        b = Integer.rotateLeft(b + (c ^ d ^ a) + x[6] + k3, 15);
        a = Integer.rotateLeft(a + (b ^ c ^ d) + x[1] + k3, 3);
        d = Integer.rotateLeft(d + (a ^ b ^ c) + x[5] + k3, 9);
        c = Integer.rotateLeft(c + (d ^ a ^ b) + x[0] + k3, 11);
        b = Integer.rotateLeft(b + (c ^ d ^ a) + x[4] + k3, 15);

        buf[0] += a;
        buf[1] += b;
        buf[2] += c;
        buf[3] += d;
    }

    private static int f(int x, int y, int z) {
        return z ^ (x & (y ^ z));
    }

    private static int g(int x, int y, int z) {
        return (x & y) + ((x ^ y) & z);
    }
}
