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
 * time, and the XTS tweak sequence as independent chains — 4 vectors of {@code L} tweaks each
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

    @Override
    public void xtsTweaks(long[] t, byte[] dst, int off, int blocks) {
        if (blocks < 2 * STEP) {
            super.xtsTweaks(t, dst, off, blocks);
            return;
        }
        // The first STEP tweaks one by one; then each chain advances by α^STEP per step.
        super.xtsTweaks(t, dst, off, STEP);
        LongVector v0 = ByteVector.fromArray(BS, dst, off).reinterpretAsLongs();
        LongVector v1 = ByteVector.fromArray(BS, dst, off + VLEN).reinterpretAsLongs();
        LongVector v2 = ByteVector.fromArray(BS, dst, off + 2 * VLEN).reinterpretAsLongs();
        LongVector v3 = ByteVector.fromArray(BS, dst, off + 3 * VLEN).reinterpretAsLongs();
        int done = STEP;
        int o = off + STEP * 16;
        for (; done + STEP <= blocks; done += STEP, o += STEP * 16) {
            // v·x^SHIFT mod x^128+x^7+x^2+x+1 per 128-bit lane (tweaks are little-endian):
            // shift both halves, carry the low half's top bits into the high half, and fold the
            // high half's top bits c back into the low half as c·(x^7+x^2+x+1) (< 2^(SHIFT+7)).
            LongVector c0 = v0.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - SHIFT);
            LongVector c1 = v1.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - SHIFT);
            LongVector c2 = v2.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - SHIFT);
            LongVector c3 = v3.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - SHIFT);
            LongVector r0 = c0.lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c0.lanewise(VectorOperators.LSHL, 7));
            LongVector r1 = c1.lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c1.lanewise(VectorOperators.LSHL, 7));
            LongVector r2 = c2.lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c2.lanewise(VectorOperators.LSHL, 7));
            LongVector r3 = c3.lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, c3.lanewise(VectorOperators.LSHL, 7));
            v0 = v0.lanewise(VectorOperators.LSHL, SHIFT).lanewise(VectorOperators.XOR, r0.blend(c0, HIGH));
            v1 = v1.lanewise(VectorOperators.LSHL, SHIFT).lanewise(VectorOperators.XOR, r1.blend(c1, HIGH));
            v2 = v2.lanewise(VectorOperators.LSHL, SHIFT).lanewise(VectorOperators.XOR, r2.blend(c2, HIGH));
            v3 = v3.lanewise(VectorOperators.LSHL, SHIFT).lanewise(VectorOperators.XOR, r3.blend(c3, HIGH));
            v0.reinterpretAsBytes().intoArray(dst, o);
            v1.reinterpretAsBytes().intoArray(dst, o + VLEN);
            v2.reinterpretAsBytes().intoArray(dst, o + 2 * VLEN);
            v3.reinterpretAsBytes().intoArray(dst, o + 3 * VLEN);
        }
        // Continue the sequence from the last tweak written: next = last·α.
        t[0] = (long) LE64.get(dst, o - 16);
        t[1] = (long) LE64.get(dst, o - 8);
        super.xtsTweaks(t, dst, o - 16, 1); // rewrites the last tweak and advances t past it
        if (done < blocks) {
            super.xtsTweaks(t, dst, o, blocks - done);
        }
    }
}
