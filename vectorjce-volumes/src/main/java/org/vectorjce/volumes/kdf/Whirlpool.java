package org.vectorjce.volumes.kdf;

import java.util.Arrays;

/**
 * Whirlpool (ISO/IEC 10118-3, the 2003 version with the final S-box: what VeraCrypt, libgcrypt and
 * Bouncy Castle compute), written for PBKDF2: a one-message digest ({@link #hash}) and the
 * PBKDF2-HMAC-Whirlpool block loop ({@link #pbkdf2Block}) with the HMAC's inner and outer states
 * keyed once and each iteration four compressions on locals (a 64-byte message after a pre-keyed
 * block always ends in the same padding block), no allocation or buffering per iteration.
 *
 * <p>The tables are computed at class load from the specification: the S-box from its 4-bit
 * mini-boxes E, E<sup>-1</sup> and R, the mixing from the circulant matrix
 * cir(1, 1, 4, 1, 8, 5, 2, 9) over GF(2<sup>8</sup>) mod x<sup>8</sup> + x<sup>4</sup> +
 * x<sup>3</sup> + x<sup>2</sup> + 1, the round constants from the S-box.
 */
final class Whirlpool {
    static final int LENGTH = 64, BLOCK = 64;
    private static final int ROUNDS = 10;
    private static final long[] C0 = new long[256], C1 = new long[256], C2 = new long[256], C3 = new long[256],
            C4 = new long[256], C5 = new long[256], C6 = new long[256], C7 = new long[256];
    private static final long[] RC = new long[ROUNDS];

    static {
        int[] e = {0x1, 0xB, 0x9, 0xC, 0xD, 0x6, 0xF, 0x3, 0xE, 0x8, 0x7, 0x4, 0xA, 0x2, 0x5, 0x0};
        int[] r = {0x7, 0xC, 0xB, 0xD, 0xE, 0x4, 0x9, 0xF, 0x6, 0x3, 0x8, 0xA, 0x2, 0x5, 0x1, 0x0};
        int[] ei = new int[16];
        for (int i = 0; i < 16; i++) {
            ei[e[i]] = i;
        }
        int[] sbox = new int[256];
        for (int u = 0; u < 256; u++) {
            int a = e[u >>> 4], b = ei[u & 15], x = r[a ^ b];
            sbox[u] = e[a ^ x] << 4 | ei[b ^ x];
        }
        int[] row = {1, 1, 4, 1, 8, 5, 2, 9};
        for (int u = 0; u < 256; u++) {
            long v = 0;
            for (int j = 0; j < 8; j++) {
                v = v << 8 | mul(sbox[u], row[j]);
            }
            C0[u] = v;
            C1[u] = Long.rotateRight(v, 8);
            C2[u] = Long.rotateRight(v, 16);
            C3[u] = Long.rotateRight(v, 24);
            C4[u] = Long.rotateRight(v, 32);
            C5[u] = Long.rotateRight(v, 40);
            C6[u] = Long.rotateRight(v, 48);
            C7[u] = Long.rotateRight(v, 56);
        }
        for (int i = 0; i < ROUNDS; i++) {
            long v = 0;
            for (int j = 0; j < 8; j++) {
                v = v << 8 | sbox[8 * i + j];
            }
            RC[i] = v;
        }
    }

    private Whirlpool() {
    }

    /** {@code a · b} in GF(2^8) with Whirlpool's polynomial 0x11D. */
    private static int mul(int a, int b) {
        int p = 0;
        while (b != 0) {
            if ((b & 1) != 0) {
                p ^= a;
            }
            a <<= 1;
            if ((a & 0x100) != 0) {
                a ^= 0x11D;
            }
            b >>>= 1;
        }
        return p;
    }

    /** {@code h = h ⊕ W_h(m) ⊕ m}: the Miyaguchi–Preneel compression of one 8-word block. */
    static void compress(long[] h, long[] m) {
        long k0 = h[0], k1 = h[1], k2 = h[2], k3 = h[3], k4 = h[4], k5 = h[5], k6 = h[6], k7 = h[7];
        long s0 = m[0] ^ k0, s1 = m[1] ^ k1, s2 = m[2] ^ k2, s3 = m[3] ^ k3,
                s4 = m[4] ^ k4, s5 = m[5] ^ k5, s6 = m[6] ^ k6, s7 = m[7] ^ k7;
        for (int r = 0; r < ROUNDS; r++) {
            long l0 = rho(k0, k7, k6, k5, k4, k3, k2, k1) ^ RC[r];
            long l1 = rho(k1, k0, k7, k6, k5, k4, k3, k2);
            long l2 = rho(k2, k1, k0, k7, k6, k5, k4, k3);
            long l3 = rho(k3, k2, k1, k0, k7, k6, k5, k4);
            long l4 = rho(k4, k3, k2, k1, k0, k7, k6, k5);
            long l5 = rho(k5, k4, k3, k2, k1, k0, k7, k6);
            long l6 = rho(k6, k5, k4, k3, k2, k1, k0, k7);
            long l7 = rho(k7, k6, k5, k4, k3, k2, k1, k0);
            k0 = l0; k1 = l1; k2 = l2; k3 = l3; k4 = l4; k5 = l5; k6 = l6; k7 = l7;
            l0 = rho(s0, s7, s6, s5, s4, s3, s2, s1) ^ k0;
            l1 = rho(s1, s0, s7, s6, s5, s4, s3, s2) ^ k1;
            l2 = rho(s2, s1, s0, s7, s6, s5, s4, s3) ^ k2;
            l3 = rho(s3, s2, s1, s0, s7, s6, s5, s4) ^ k3;
            l4 = rho(s4, s3, s2, s1, s0, s7, s6, s5) ^ k4;
            l5 = rho(s5, s4, s3, s2, s1, s0, s7, s6) ^ k5;
            l6 = rho(s6, s5, s4, s3, s2, s1, s0, s7) ^ k6;
            l7 = rho(s7, s6, s5, s4, s3, s2, s1, s0) ^ k7;
            s0 = l0; s1 = l1; s2 = l2; s3 = l3; s4 = l4; s5 = l5; s6 = l6; s7 = l7;
        }
        h[0] ^= s0 ^ m[0];
        h[1] ^= s1 ^ m[1];
        h[2] ^= s2 ^ m[2];
        h[3] ^= s3 ^ m[3];
        h[4] ^= s4 ^ m[4];
        h[5] ^= s5 ^ m[5];
        h[6] ^= s6 ^ m[6];
        h[7] ^= s7 ^ m[7];
    }

    /** One output row of γ, π and θ: byte j (most significant first) of row i - j, through C_j. */
    private static long rho(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7) {
        return C0[(int) (a0 >>> 56)] ^ C1[(int) (a1 >>> 48) & 0xff] ^ C2[(int) (a2 >>> 40) & 0xff]
                ^ C3[(int) (a3 >>> 32) & 0xff] ^ C4[(int) (a4 >>> 24) & 0xff] ^ C5[(int) (a5 >>> 16) & 0xff]
                ^ C6[(int) (a6 >>> 8) & 0xff] ^ C7[(int) a7 & 0xff];
    }

    /** Whirlpool of {@code prefix ‖ msg} for a {@code prefix} of whole blocks (or none): the state after them is {@code h}. */
    private static void absorb(long[] h, byte[] msg, long prefixBytes) {
        long[] m = new long[8];
        int off = 0;
        for (; off + BLOCK <= msg.length; off += BLOCK) {
            load(msg, off, m);
            compress(h, m);
        }
        byte[] last = new byte[2 * BLOCK];
        int rest = msg.length - off;
        System.arraycopy(msg, off, last, 0, rest);
        last[rest] = (byte) 0x80;
        int end = rest + 1 + 32 <= BLOCK ? BLOCK : 2 * BLOCK;
        long bits = (prefixBytes + msg.length) * 8;
        for (int i = 0; i < 8; i++) {
            last[end - 1 - i] = (byte) (bits >>> 8 * i);
        }
        for (int b = 0; b < end; b += BLOCK) {
            load(last, b, m);
            compress(h, m);
        }
        Arrays.fill(last, (byte) 0);
        Arrays.fill(m, 0);
    }

    /** The Whirlpool digest of {@code msg} (64 bytes). */
    static byte[] hash(byte[] msg) {
        long[] h = new long[8];
        absorb(h, msg, 0);
        byte[] out = new byte[LENGTH];
        store(h, out, 0);
        Arrays.fill(h, 0);
        return out;
    }

    /**
     * Block {@code index} of PBKDF2-HMAC-Whirlpool: what {@link Pbkdf2#block} returns for
     * {@link HashAlgorithm#WHIRLPOOL}, with its checks of the interrupt and of {@code stop} (may be null).
     */
    static byte[] pbkdf2Block(byte[] password, byte[] salt, long iterations, int index,
            java.util.function.BooleanSupplier stop) {
        byte[] key = password.length > BLOCK ? hash(password) : password.clone();
        long[] ipad = new long[8], opad = new long[8], m = new long[8], u = new long[8], t = new long[8],
                h = new long[8], pad = new long[8];
        byte[] kb = new byte[BLOCK];
        byte[] first = new byte[salt.length + 4];
        try {
            System.arraycopy(key, 0, kb, 0, key.length);
            for (int i = 0; i < BLOCK; i++) {
                kb[i] ^= 0x36;
            }
            load(kb, 0, m);
            compress(ipad, m);
            for (int i = 0; i < BLOCK; i++) {
                kb[i] ^= 0x36 ^ 0x5c;
            }
            load(kb, 0, m);
            compress(opad, m);
            // U_1 = HMAC(salt ‖ INT(index)): the inner message after its key block is any length
            System.arraycopy(salt, 0, first, 0, salt.length);
            first[salt.length] = (byte) (index >>> 24);
            first[salt.length + 1] = (byte) (index >>> 16);
            first[salt.length + 2] = (byte) (index >>> 8);
            first[salt.length + 3] = (byte) index;
            System.arraycopy(ipad, 0, h, 0, 8);
            absorb(h, first, BLOCK);
            System.arraycopy(opad, 0, u, 0, 8);
            compress(u, h);           // the 64-byte inner hash: one block
            pad[0] = 0x80L << 56;     // then 0x80, zeros, the length: 128 bytes = 1024 bits
            pad[7] = 1024;
            compress(u, pad);
            System.arraycopy(u, 0, t, 0, 8);
            for (long i = 1; i < iterations; i++) {
                if ((i & 4095) == 0 && (Thread.currentThread().isInterrupted()
                        || stop != null && stop.getAsBoolean())) {
                    throw new java.util.concurrent.CancellationException("PBKDF2 interrupted");
                }
                System.arraycopy(ipad, 0, h, 0, 8);
                compress(h, u);
                compress(h, pad);
                System.arraycopy(opad, 0, u, 0, 8);
                compress(u, h);
                compress(u, pad);
                for (int j = 0; j < 8; j++) {
                    t[j] ^= u[j];
                }
            }
            byte[] out = new byte[LENGTH];
            store(t, out, 0);
            return out;
        } finally {
            Arrays.fill(key, (byte) 0);
            Arrays.fill(kb, (byte) 0);
            Arrays.fill(first, (byte) 0);
            for (long[] a : new long[][] {ipad, opad, m, u, t, h}) {
                Arrays.fill(a, 0);
            }
        }
    }

    private static void load(byte[] b, int off, long[] m) {
        for (int i = 0; i < 8; i++) {
            long v = 0;
            for (int j = 0; j < 8; j++) {
                v = v << 8 | (b[off + 8 * i + j] & 0xff);
            }
            m[i] = v;
        }
    }

    private static void store(long[] h, byte[] out, int off) {
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                out[off + 8 * i + j] = (byte) (h[i] >>> 56 - 8 * j);
            }
        }
    }
}
