package org.vectorjce.volumes.kdf;

import java.util.Arrays;

/**
 * BLAKE2b of RFC 7693 without a key, for Argon2's H0 and H' (RFC 9106 section 3.2-3.3): digest
 * lengths 1..64 bytes. The module's own because Bouncy Castle's {@code Blake2bDigest} costs about
 * 0.2 s the first time a JVM uses it (its service registrar's start-up), a tenth of a LUKS2 unlock.
 * {@link #doFinal} wipes the chaining value and the buffer; the instance is then ready for a new
 * message of the same length.
 */
final class Blake2b {
    private static final long[] IV = {
        0x6a09e667f3bcc908L, 0xbb67ae8584caa73bL, 0x3c6ef372fe94f82bL, 0xa54ff53a5f1d36f1L,
        0x510e527fade682d1L, 0x9b05688c2b3e6c1fL, 0x1f83d9abfb41bd6bL, 0x5be0cd19137e2179L,
    };
    private static final byte[][] SIGMA = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    };

    private final int length;
    private final long[] h = new long[8];
    private final long[] v = new long[16];
    private final long[] m = new long[16];
    private final byte[] buffer = new byte[128];
    private int buffered;
    private long counter;

    /** A BLAKE2b of {@code length} bytes (1..64). */
    Blake2b(int length) {
        if (length < 1 || length > 64) {
            throw new IllegalArgumentException("BLAKE2b length " + length + " outside 1..64");
        }
        this.length = length;
        reset();
    }

    /** Starts a new message. */
    void reset() {
        System.arraycopy(IV, 0, h, 0, 8);
        h[0] ^= 0x01010000L ^ length;
        buffered = 0;
        counter = 0;
    }

    void update(byte[] in, int off, int len) {
        while (len > 0) {
            if (buffered == 128) {
                // a full buffer is compressed only when more input follows (the last block is final)
                counter += 128;
                compress(buffer, false);
                buffered = 0;
            }
            int n = Math.min(len, 128 - buffered);
            System.arraycopy(in, off, buffer, buffered, n);
            buffered += n;
            off += n;
            len -= n;
        }
    }

    /** Writes the digest's {@code length} bytes to {@code out} at {@code off}, wipes, and resets. */
    void doFinal(byte[] out, int off) {
        counter += buffered;
        Arrays.fill(buffer, buffered, 128, (byte) 0);
        compress(buffer, true);
        for (int i = 0; i < length; i++) {
            out[off + i] = (byte) (h[i >>> 3] >>> (8 * (i & 7)));
        }
        Arrays.fill(buffer, (byte) 0);
        Arrays.fill(v, 0);
        Arrays.fill(m, 0);
        reset();
    }

    private void compress(byte[] block, boolean last) {
        for (int i = 0; i < 16; i++) {
            long w = 0;
            for (int b = 7; b >= 0; b--) {
                w = (w << 8) | (block[8 * i + b] & 0xFF);
            }
            m[i] = w;
        }
        System.arraycopy(h, 0, v, 0, 8);
        System.arraycopy(IV, 0, v, 8, 8);
        v[12] ^= counter; // messages here stay far below 2^64 bytes: the counter's high word is 0
        if (last) {
            v[14] = ~v[14];
        }
        for (int round = 0; round < 12; round++) {
            byte[] s = SIGMA[round % 10];
            g(0, 4, 8, 12, m[s[0]], m[s[1]]);
            g(1, 5, 9, 13, m[s[2]], m[s[3]]);
            g(2, 6, 10, 14, m[s[4]], m[s[5]]);
            g(3, 7, 11, 15, m[s[6]], m[s[7]]);
            g(0, 5, 10, 15, m[s[8]], m[s[9]]);
            g(1, 6, 11, 12, m[s[10]], m[s[11]]);
            g(2, 7, 8, 13, m[s[12]], m[s[13]]);
            g(3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for (int i = 0; i < 8; i++) {
            h[i] ^= v[i] ^ v[i + 8];
        }
    }

    private void g(int a, int b, int c, int d, long x, long y) {
        v[a] += v[b] + x;
        v[d] = Long.rotateRight(v[d] ^ v[a], 32);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 24);
        v[a] += v[b] + y;
        v[d] = Long.rotateRight(v[d] ^ v[a], 16);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 63);
    }
}
