package org.vectorjce.internal.vector;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.ModeArithmetic;

/**
 * The modes' arithmetic in block lanes, on the preferred vector width: XOR passes a vector at a
 * time, and the XTS tweak XOR pass with the tweaks generated in registers as independent chains — 4 vectors of {@code L} tweaks each
 * ({@code L} = 4 per 512-bit vector, 2 per 256-bit), every step multiplying all of them by
 * α^(4L) at once. A probe here found the tweak work, not the cipher, limiting fast ciphers; four
 * chains keep the shift/reduce latency of one chain hidden. LRW tweaks and CTR counters stay on
 * the scalar code of the base class (two stores per block).
 */
public final class VectorArithmetic extends ModeArithmetic {
    private static final VectorSpecies<Byte> BS = ByteVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LS = LongVector.SPECIES_PREFERRED;
    private static final int VLEN = BS.length();
    /** Tweaks per vector. */
    private static final int L = VLEN / 16;
    /** Tweaks per step: 4 chains of one vector each. */
    private static final int STEP = 4 * L;
    /** Multiplying by α^STEP is a shift by STEP bits within each 128-bit lane. */
    private static final int SHIFT = STEP;
    /** Swaps the two 64-bit halves of every 128-bit lane. */
    private static final VectorShuffle<Long> SWAP = VectorShuffle.fromOp(LS, i -> i ^ 1);
    /** The high half of every 128-bit lane. */
    private static final VectorMask<Long> HIGH = VectorMask.fromLong(LS, 0xAAAAAAAAAAAAAAAAL);

    private VectorArithmetic() {
    }

    /**
     * The vector arithmetic, or null when it should not be used here (no C2, or vectors narrower
     * than 256 bits, where one 128-bit lane per vector gains nothing).
     */
    public static ModeArithmetic create() {
        return VectorSupport.unavailableReason(256, false) == null ? new VectorArithmetic() : null;
    }

    @Override
    public String name() {
        return "vector-" + LS.vectorBitSize();
    }

    @Override
    public void xor(byte[] a, int aOff, byte[] b, int bOff, byte[] dst, int dOff, int len) {
        int i = 0;
        for (; i + VLEN <= len; i += VLEN) {
            ByteVector.fromArray(BS, a, aOff + i)
                    .lanewise(VectorOperators.XOR, ByteVector.fromArray(BS, b, bOff + i))
                    .intoArray(dst, dOff + i);
        }
        if (i < len) {
            super.xor(a, aOff + i, b, bOff + i, dst, dOff + i, len - i);
        }
    }

    /**
     * Tweak arithmetic, written out inline below (C2 does not inline a helper this size at every
     * call site, and a vector crossing a call is boxed — measured 2.6 GB/s instead of 8 for
     * AES-XTS): v·x^s mod x^128+x^7+x^2+x+1 in every 128-bit lane (tweaks are little-endian, low
     * half in the even lane) shifts both halves, carries the low half's top bits into the high
     * half, and folds the high half's top s bits c back into the low half as c·(x^7+x^2+x+1),
     * which stays below 2^(s+7). c = (x >>> 1) >>> (63 − s), which is x >>> (64 − s) and also
     * right for s = 0; PAIR_INDEX_R holds 63 − s.
     */
    private static final LongVector PAIR_INDEX = LongVector.zero(LS).addIndex(1).lanewise(VectorOperators.LSHR, 1);
    private static final LongVector PAIR_INDEX_R = PAIR_INDEX.neg().add(63);

    @Override
    public void xtsXor(long[] t, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (blocks < 2 * STEP) {
            super.xtsXor(t, in, inOff, out, outOff, blocks);
            return;
        }
        // Four chains: v_k holds tweaks j+kL .. j+kL+L-1; every step advances all by α^STEP.
        // v0 = (T·α^0, T·α^1, ..): the broadcast tweak shifted by each pair's index.
        LongVector v0 = LongVector.broadcast(LS, t[0]).blend(t[1], HIGH);
        {
            LongVector c0 = v0.rearrange(SWAP).lanewise(VectorOperators.LSHR, 1).lanewise(VectorOperators.LSHR, PAIR_INDEX_R);
            LongVector r0 = c0.lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 7));
            v0 = v0.lanewise(VectorOperators.LSHL, PAIR_INDEX).lanewise(VectorOperators.XOR, r0.blend(c0, HIGH));
        }
        LongVector v1, v2, v3;
        {
            LongVector c1 = v0.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - L);
            LongVector r1 = c1.lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 7));
            v1 = v0.lanewise(VectorOperators.LSHL, L).lanewise(VectorOperators.XOR, r1.blend(c1, HIGH));
            LongVector c2 = v1.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - L);
            LongVector r2 = c2.lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 7));
            v2 = v1.lanewise(VectorOperators.LSHL, L).lanewise(VectorOperators.XOR, r2.blend(c2, HIGH));
            LongVector c3 = v2.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - L);
            LongVector r3 = c3.lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 7));
            v3 = v2.lanewise(VectorOperators.LSHL, L).lanewise(VectorOperators.XOR, r3.blend(c3, HIGH));
        }
        int done = 0;
        for (; done + STEP <= blocks; done += STEP, inOff += STEP * 16, outOff += STEP * 16) {
            ByteVector.fromArray(BS, in, inOff).lanewise(VectorOperators.XOR, v0.reinterpretAsBytes()).intoArray(out, outOff);
            ByteVector.fromArray(BS, in, inOff + VLEN).lanewise(VectorOperators.XOR, v1.reinterpretAsBytes()).intoArray(out, outOff + VLEN);
            ByteVector.fromArray(BS, in, inOff + 2 * VLEN).lanewise(VectorOperators.XOR, v2.reinterpretAsBytes()).intoArray(out, outOff + 2 * VLEN);
            ByteVector.fromArray(BS, in, inOff + 3 * VLEN).lanewise(VectorOperators.XOR, v3.reinterpretAsBytes()).intoArray(out, outOff + 3 * VLEN);
            LongVector cs0 = v0.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP);
            LongVector rs0 = cs0.lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 7));
            v0 = v0.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.XOR, rs0.blend(cs0, HIGH));
            LongVector cs1 = v1.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP);
            LongVector rs1 = cs1.lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 7));
            v1 = v1.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.XOR, rs1.blend(cs1, HIGH));
            LongVector cs2 = v2.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP);
            LongVector rs2 = cs2.lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 7));
            v2 = v2.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.XOR, rs2.blend(cs2, HIGH));
            LongVector cs3 = v3.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP);
            LongVector rs3 = cs3.lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 7));
            v3 = v3.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.XOR, rs3.blend(cs3, HIGH));
        }
        t[0] = v0.lane(0); // v0 now starts the next step: T_(j+done)
        t[1] = v0.lane(1);
        if (done < blocks) {
            super.xtsXor(t, in, inOff, out, outOff, blocks - done);
        }
    }

    /** log2 of the blocks per vector. */
    private static final int LOG_L = Integer.numberOfTrailingZeros(L);

    /**
     * LRW tweak XOR a vector of {@code L} blocks at a time. For an index I that is a multiple of
     * L, I + j = I ⊕ j for j < L, so the L tweaks are T_I ⊕ K2⊗j: one broadcast of T_I and one XOR
     * with the per-key constants K2⊗j (table entries 256..). The next group's tweak follows from
     * I ⊕ (I + L) = L·(2^(k+1) − 1), k the trailing ones of I/L: T ⊕= mulinc(k + log L) ⊕
     * mulinc(log L − 1). Blocks before the first aligned index, and the tail, go one by one.
     */
    @Override
    public void lrwXor(long[] state, long[] mulinc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        int head = (int) (-state[3] & (L - 1)); // blocks until I is a multiple of L
        if (blocks < head + 2 * L) {
            super.lrwXor(state, mulinc, in, inOff, out, outOff, blocks);
            return;
        }
        if (head > 0) {
            super.lrwXor(state, mulinc, in, inOff, out, outOff, head);
            inOff += 16 * head;
            outOff += 16 * head;
            blocks -= head;
        }
        long tHi = state[0], tLo = state[1], iHi = state[2], iLo = state[3];
        LongVector small = LongVector.fromArray(LS, mulinc, 256);
        for (; blocks >= L; blocks -= L, inOff += VLEN, outOff += VLEN) {
            LongVector tv = LongVector.broadcast(LS, Long.reverseBytes(tHi)).blend(Long.reverseBytes(tLo), HIGH)
                    .lanewise(VectorOperators.XOR, small);
            ByteVector.fromArray(BS, in, inOff).lanewise(VectorOperators.XOR, tv.reinterpretAsBytes()).intoArray(out, outOff);
            long m = ~iLo & -L; // the zero bits of I above the aligned low bits
            int k = m != 0 ? Long.numberOfTrailingZeros(m) : Math.min(127, 64 + Long.numberOfTrailingZeros(~iHi));
            // k is the first zero bit of I at or above log L: I ⊕ (I+L) = 2^(k+1) − L.
            tHi ^= mulinc[2 * k] ^ mulinc[2 * (LOG_L - 1)];
            tLo ^= mulinc[2 * k + 1] ^ mulinc[2 * (LOG_L - 1) + 1];
            iLo += L;
            if (Long.compareUnsigned(iLo, L) < 0) {
                iHi++;
            }
        }
        state[0] = tHi;
        state[1] = tLo;
        state[2] = iHi;
        state[3] = iLo;
        if (blocks > 0) {
            super.lrwXor(state, mulinc, in, inOff, out, outOff, blocks);
        }
    }
}
