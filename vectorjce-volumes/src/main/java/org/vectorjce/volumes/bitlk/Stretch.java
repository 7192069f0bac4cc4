package org.vectorjce.volumes.bitlk;

import java.util.Arrays;

/**
 * BitLocker's key stretch (cryptsetup {@code lib/bitlk/bitlk.c}, {@code bitlk_kdf}; libbde's
 * "Stretch key" and dislocker's {@code stretch_key}): an 88-byte record {@code last_sha256[32] ‖
 * initial_sha256[32] ‖ salt[16] ‖ count[8, little-endian]}, hashed with SHA-256 2^20 times, each
 * hash becoming the next {@code last_sha256} and {@code count} going up by one; the last hash is
 * the key that opens the VMK.
 *
 * <p>Why a SHA-256 of its own instead of {@code MessageDigest}: every round is exactly two
 * compressions of a fixed layout — the first block is {@code last ‖ initial}, where {@code last}
 * is the previous round's state words as they are (no bytes in between), and the second is the
 * salt, the count and the constant padding of an 88-byte message. Running the compression
 * directly on those words skips the digest object's buffering, padding and byte conversions,
 * which cost more than the compressions themselves at this size (figures in
 * {@code docs/volumes-bitlk.md}). Checked against {@code MessageDigest} in {@code BitlkStretchTest}.
 */
final class Stretch {
    /** Rounds of a BitLocker stretch ({@code BITLK_KDF_ITERATION_COUNT}). */
    static final int ROUNDS = 1 << 20;

    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    private static final int[] IV = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };

    private Stretch() {
    }

    /**
     * The stretched key of {@code initial} (the 32-byte SHA-256 the protector starts from) and the
     * VMK entry's 16-byte {@code salt}, after {@code rounds} rounds (the format has {@link #ROUNDS};
     * tests take fewer).
     */
    static byte[] derive(byte[] initial, byte[] salt, int rounds) {
        if (initial.length != 32 || salt.length != 16) {
            throw new IllegalArgumentException("stretch input of " + initial.length + " and salt of " + salt.length
                    + " bytes: 32 and 16");
        }
        int[] w = new int[64];
        int[] h = new int[8];          // last_sha256, as state words; zeros at the start
        int[] init = words(initial, 8);
        int[] s = words(salt, 4);
        int[] st = new int[8];
        try {
            for (long count = 0; count < rounds; count++) {
                // block 1: last_sha256 ‖ initial_sha256
                System.arraycopy(h, 0, w, 0, 8);
                System.arraycopy(init, 0, w, 8, 8);
                System.arraycopy(IV, 0, st, 0, 8);
                compress(st, w);
                // block 2: salt ‖ count (LE bytes read as big-endian words) ‖ 0x80 ‖ 0 ... ‖ bit length 704
                System.arraycopy(s, 0, w, 0, 4);
                w[4] = Integer.reverseBytes((int) count);
                w[5] = Integer.reverseBytes((int) (count >>> 32));
                w[6] = 0x80000000;
                Arrays.fill(w, 7, 15, 0);
                w[15] = 88 * 8;
                System.arraycopy(st, 0, h, 0, 8);
                compress(h, w);
            }
            byte[] out = new byte[32];
            for (int i = 0; i < 8; i++) {
                out[4 * i] = (byte) (h[i] >>> 24);
                out[4 * i + 1] = (byte) (h[i] >>> 16);
                out[4 * i + 2] = (byte) (h[i] >>> 8);
                out[4 * i + 3] = (byte) h[i];
            }
            return out;
        } finally {
            Arrays.fill(w, 0);
            Arrays.fill(h, 0);
            Arrays.fill(init, 0);
            Arrays.fill(s, 0);
            Arrays.fill(st, 0);
        }
    }

    private static int[] words(byte[] b, int n) {
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            w[i] = (b[4 * i] & 0xff) << 24 | (b[4 * i + 1] & 0xff) << 16 | (b[4 * i + 2] & 0xff) << 8
                    | (b[4 * i + 3] & 0xff);
        }
        return w;
    }

    /** One SHA-256 compression (FIPS 180-4 §6.2.2) of {@code w[0..15]} into {@code st}; {@code w} is the schedule. */
    private static void compress(int[] st, int[] w) {
        for (int t = 16; t < 64; t++) {
            int x = w[t - 15], y = w[t - 2];
            int s0 = Integer.rotateRight(x, 7) ^ Integer.rotateRight(x, 18) ^ (x >>> 3);
            int s1 = Integer.rotateRight(y, 17) ^ Integer.rotateRight(y, 19) ^ (y >>> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        int a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], hh = st[7];
        for (int t = 0; t < 64; t++) {
            int t1 = hh + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                    + ((e & f) ^ (~e & g)) + K[t] + w[t];
            int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                    + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        st[5] += f;
        st[6] += g;
        st[7] += hh;
    }
}
