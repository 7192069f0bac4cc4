package org.vectorjce.internal;

import java.util.Arrays;

/**
 * LRW (IEEE P1619 draft "LRW-AES"; Linux {@code crypto/lrw.c}): C_j = E(K1, P_j ⊕ T_j) ⊕ T_j with
 * T_j = K2 ⊗ (I + j) in GF(2^128), big-endian bit order ("bbe"), I the 128-bit big-endian index of
 * the first block (the IV). Key = cipher key ‖ 16-byte K2.
 *
 * <p>One full multiplication per message gives T_0; after that each tweak is one XOR with a
 * precomputed K2 ⊗ (2^(k+1) − 1) (see {@link ModeArithmetic#lrwXor}), as Linux does. Like XTS:
 * tweak XOR for a chunk, one multi-block ECB call, tweak XOR (the tweaks regenerated, not stored).
 */
final class LrwMode extends Mode {
    private long k2Hi, k2Lo;
    /**
     * mulinc[2k], mulinc[2k+1] = K2 ⊗ (2^(k+1) − 1), hi and lo (k < 128); then, for lane code,
     * K2 ⊗ j for j = 0..3 as the 16 tweak bytes read as two little-endian longs (entries 256..263).
     */
    private final long[] mulinc = new long[ModeArithmetic.LRW_TABLE_LONGS];
    /** {tHi, tLo, iHi, iLo}: the current tweak and block index. */
    private final long[] state = new long[4];
    private final long[] product = new long[2];
    /** The chunk's starting tweak state, for the second XOR pass. */
    private final long[] chunkStart = new long[4];
    /** Input ⊕ tweaks, so the kernel call is out of place (the JDK kernel copies in-place input). */
    private final byte[] work = new byte[CHUNK_BLOCKS * BLOCK];

    LrwMode(BlockKernel kernel, byte[] k2, ModeArithmetic ops) {
        super(kernel, ops);
        k2Hi = (long) ModeArithmetic.BE64.get(k2, 0);
        k2Lo = (long) ModeArithmetic.BE64.get(k2, 8);
        long[] p = {k2Lo, k2Hi}; // K2·x^k, as {lo, hi}
        long accHi = 0, accLo = 0;
        for (int k = 0; k < 128; k++) {
            accLo ^= p[0];
            accHi ^= p[1];
            mulinc[2 * k] = accHi;
            mulinc[2 * k + 1] = accLo;
            Gf128.timesX(p);
        }
        // K2⊗0 = 0, K2⊗1 = mulinc(0), K2⊗x = mulinc(1) ⊕ mulinc(0), K2⊗(x+1) = mulinc(1).
        long[] small = {0, 0, mulinc[0], mulinc[1], mulinc[2] ^ mulinc[0], mulinc[3] ^ mulinc[1], mulinc[2], mulinc[3]};
        for (int i = 0; i < 8; i++) {
            mulinc[256 + i] = Long.reverseBytes(small[i]);
        }
        java.util.Arrays.fill(small, 0);
    }

    @Override
    void start(boolean encrypt, byte[] iv) {
        this.encrypt = encrypt;
        long iHi = (long) ModeArithmetic.BE64.get(iv, 0);
        long iLo = (long) ModeArithmetic.BE64.get(iv, 8);
        long[] t = product;
        Gf128.multiply(k2Hi, k2Lo, iHi, iLo, t);
        state[0] = t[1];
        state[1] = t[0];
        state[2] = iHi;
        state[3] = iLo;
    }

    @Override
    void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
        while (len > 0) {
            int n = Math.min(len, work.length);
            int blocks = n / BLOCK;
            System.arraycopy(state, 0, chunkStart, 0, 4);
            ops.lrwXor(state, mulinc, in, inOff, work, 0, blocks);
            if (encrypt) {
                kernel.encryptBlocks(work, 0, out, outOff, blocks);
            } else {
                kernel.decryptBlocks(work, 0, out, outOff, blocks);
            }
            // Second XOR pass: the same tweaks again, regenerated from the chunk's start.
            ops.lrwXor(chunkStart, mulinc, out, outOff, out, outOff, blocks);
            inOff += n;
            outOff += n;
            len -= n;
        }
    }

    @Override
    void destroy() {
        super.destroy();
        k2Hi = k2Lo = 0;
        Arrays.fill(mulinc, 0);
        Arrays.fill(state, 0);
        Arrays.fill(chunkStart, 0);
        Arrays.fill(product, 0);
        Arrays.fill(work, (byte) 0);
    }
}
