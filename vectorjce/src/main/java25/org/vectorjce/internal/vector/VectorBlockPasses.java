package org.vectorjce.internal.vector;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.mode.BlockPasses;

/**
 * The modes' arithmetic in block lanes, on the preferred vector width: XOR passes a vector at a
 * time, and the XTS tweak XOR pass with the tweaks generated in registers as independent chains — 4 vectors of {@code L} tweaks each
 * ({@code L} = 4 per 512-bit vector, 2 per 256-bit), every step multiplying all of them by
 * α^(4L) at once. With a fast cipher the tweak work, not the cipher, sets the speed; four
 * chains keep the shift/reduce latency of one chain hidden. LRW tweaks come in groups of 4
 * vectors from per-key constants (see {@link #lrwXor}); CTR counters stay on the scalar code of
 * the base class (two stores per block).
 */
public final class VectorBlockPasses extends BlockPasses {
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

    private VectorBlockPasses() {
    }

    /**
     * The vector arithmetic, or null when it should not be used here (no C2, or vectors narrower
     * than 256 bits, where one 128-bit lane per vector gains nothing, or wider than 512).
     */
    public static BlockPasses create() {
        // Above 512 bits an LRW group would outgrow the table's 16 lane constants.
        return VectorSupport.unavailableReason(256, false) == null && LS.vectorBitSize() <= 512 ? new VectorBlockPasses() : null;
    }

    @Override
    public String name() {
        return "vector-" + LS.vectorBitSize();
    }

    @Override
    public void xor(byte[] a, int aOff, byte[] b, int bOff, byte[] dst, int dOff, int len) {
        // Loops here are counted (int index from 0 to a bound, one step) so C2 hoists the
        // per-access bounds checks out of them, which "i + VLEN <= len" with several induction
        // variables defeats (it is then much slower on an L1-resident chunk).
        int bound = BS.loopBound(len);
        int i = 0;
        for (; i < bound; i += VLEN) {
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
     * call site, and a vector crossing a call is boxed, which would cost AES-XTS most of its
     * speed): v·x^s mod x^128+x^7+x^2+x+1 in every 128-bit lane (tweaks are little-endian, low
     * half in the even lane) shifts both halves, carries the low half's top bits into the high
     * half, and folds the high half's top s bits c back into the low half as c·(x^7+x^2+x+1),
     * which stays below 2^(s+7). c = (x >>> 1) >>> (63 − s), which is x >>> (64 − s) and also
     * right for s = 0; PAIR_INDEX_R holds 63 − s.
     */
    private static final LongVector PAIR_INDEX = LongVector.zero(LS).addIndex(1).lanewise(VectorOperators.LSHR, 1);
    private static final LongVector PAIR_INDEX_R = PAIR_INDEX.neg().add(63);

    /**
     * The step's multiplication by x^STEP starts from every 128-bit lane rotated left by STEP bits:
     * the lane shifted left with its top STEP bits c brought round to the bottom, so only
     * c·(x^7+x^2+x) remains to be folded in, from c picked out of the low half by
     * {@link #STEP_CARRY}. With 512-bit vectors and AVX-512 VBMI (as /proc/cpuinfo or the OS
     * reports it) the rotation is one byte permute ({@code vpermb}) by STEP / 8 bytes, which leaves
     * the shift units, which bound this pass, to the fold (a 4 KiB sector's pass on an AMD EPYC:
     * 118–130 ns, against 131–159 ns with the rotation made of shifts, alternated runs); elsewhere,
     * where a byte permute of the whole vector takes several instructions, it is the two halves
     * swapped and shifted.
     */
    private static final boolean BYTE_ROTATE = LS.vectorBitSize() == 512
            && org.vectorjce.internal.kernel.Platform.cpuFeature("avx512vbmi").present();
    /** That permute: byte i of each 128-bit lane from byte i − STEP / 8 (mod 16) of the same lane. */
    private static final VectorShuffle<Byte> ROTATE_STEP = VectorShuffle.fromOp(BS, i -> (i & ~15) | ((i - STEP / 8) & 15));
    /** The low STEP bits of each low half (where the rotation put c), none of the high halves. */
    private static final LongVector STEP_CARRY = LongVector.broadcast(LS, (1L << STEP) - 1).blend(0L, HIGH);

    @Override
    public void xtsXorSave(long[] t, byte[] in, int inOff, byte[] out, int outOff, int blocks, byte[] tw, int twOff) {
        if (blocks < 2 * STEP) {
            super.xtsXorSave(t, in, inOff, out, outOff, blocks, tw, twOff);
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
        int bytes = blocks / STEP * (STEP * 16);
        for (int i = 0; i < bytes; i += STEP * 16) {
            ByteVector.fromArray(BS, in, inOff + i).lanewise(VectorOperators.XOR, v0.reinterpretAsBytes()).intoArray(out, outOff + i);
            ByteVector.fromArray(BS, in, inOff + i + VLEN).lanewise(VectorOperators.XOR, v1.reinterpretAsBytes()).intoArray(out, outOff + i + VLEN);
            ByteVector.fromArray(BS, in, inOff + i + 2 * VLEN).lanewise(VectorOperators.XOR, v2.reinterpretAsBytes()).intoArray(out, outOff + i + 2 * VLEN);
            ByteVector.fromArray(BS, in, inOff + i + 3 * VLEN).lanewise(VectorOperators.XOR, v3.reinterpretAsBytes()).intoArray(out, outOff + i + 3 * VLEN);
            v0.reinterpretAsBytes().intoArray(tw, twOff + i);
            v1.reinterpretAsBytes().intoArray(tw, twOff + i + VLEN);
            v2.reinterpretAsBytes().intoArray(tw, twOff + i + 2 * VLEN);
            v3.reinterpretAsBytes().intoArray(tw, twOff + i + 3 * VLEN);
            LongVector rot0 = BYTE_ROTATE ? v0.reinterpretAsBytes().rearrange(ROTATE_STEP).reinterpretAsLongs()
                    : v0.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.OR, v0.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP));
            LongVector cs0 = rot0.lanewise(VectorOperators.AND, STEP_CARRY);
            v0 = rot0.lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs0.lanewise(VectorOperators.LSHL, 7));
            LongVector rot1 = BYTE_ROTATE ? v1.reinterpretAsBytes().rearrange(ROTATE_STEP).reinterpretAsLongs()
                    : v1.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.OR, v1.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP));
            LongVector cs1 = rot1.lanewise(VectorOperators.AND, STEP_CARRY);
            v1 = rot1.lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs1.lanewise(VectorOperators.LSHL, 7));
            LongVector rot2 = BYTE_ROTATE ? v2.reinterpretAsBytes().rearrange(ROTATE_STEP).reinterpretAsLongs()
                    : v2.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.OR, v2.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP));
            LongVector cs2 = rot2.lanewise(VectorOperators.AND, STEP_CARRY);
            v2 = rot2.lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs2.lanewise(VectorOperators.LSHL, 7));
            LongVector rot3 = BYTE_ROTATE ? v3.reinterpretAsBytes().rearrange(ROTATE_STEP).reinterpretAsLongs()
                    : v3.lanewise(VectorOperators.LSHL, STEP).lanewise(VectorOperators.OR, v3.rearrange(SWAP).lanewise(VectorOperators.LSHR, 64 - STEP));
            LongVector cs3 = rot3.lanewise(VectorOperators.AND, STEP_CARRY);
            v3 = rot3.lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 1))
                    .lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 2))
                    .lanewise(VectorOperators.XOR, cs3.lanewise(VectorOperators.LSHL, 7));
        }
        t[0] = v0.lane(0); // v0 now starts the next step: T_(j+done)
        t[1] = v0.lane(1);
        int done = bytes / 16;
        if (done < blocks) {
            super.xtsXorSave(t, in, inOff + bytes, out, outOff + bytes, blocks - done, tw, twOff + bytes);
        }
    }

    /** log2 of the blocks per vector, and of the blocks per LRW group (4 vectors). */
    private static final int LOG_L = Integer.numberOfTrailingZeros(L);
    private static final int LOG_STEP = LOG_L + 2;

    /**
     * LRW tweak XOR, {@code STEP} = 4 vectors of blocks at a time, from wherever the message starts.
     * For an aligned group G (a multiple of STEP), G + j = G ⊕ j for j &lt; STEP, so T_(G+j) = T_G ⊕
     * K2⊗j. A message starting s blocks into a group covers, every STEP blocks, the last STEP − s
     * blocks of one group and the first s of the next: block p (p &lt; STEP) of such a stretch has
     * tweak T_G ⊕ K2⊗(s + p) while s + p &lt; STEP, and T_(G+STEP) ⊕ K2⊗(s + p − STEP) =
     * (T_(G+STEP) ⊕ K2⊗STEP) ⊕ K2⊗(s + p) after (STEP is a power of two above s + p − STEP). So
     * each vector is a per-call constant K2⊗(s + p ..) (the table's lane part, j &lt; 32) XORed with
     * one of two broadcasts chosen by a per-call lane mask, and no block goes the scalar way except
     * a tail of fewer than L. The next group's tweak is one scalar step: G ⊕ (G + STEP) =
     * STEP·(2^(m+1) − 1), m the trailing ones of G/STEP, so T ⊕= mulinc(k) ⊕ mulinc(LOG_STEP − 1)
     * with k = m + LOG_STEP.
     */
    @Override
    public void lrwXor(long[] state, long[] mulinc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (blocks < L) {
            super.lrwXor(state, mulinc, in, inOff, out, outOff, blocks);
            return;
        }
        long gHi = state[2], iLo = state[3];
        int s = (int) iLo & (STEP - 1); // blocks into the group
        long gLo = iLo - s;
        long tHi = state[0] ^ mulinc[BlockPasses.LRW_BYTES + 2 * s]; // T_G
        long tLo = state[1] ^ mulinc[BlockPasses.LRW_BYTES + 2 * s + 1];
        long kStepHi = mulinc[BlockPasses.LRW_BYTES + 2 * STEP], kStepLo = mulinc[BlockPasses.LRW_BYTES + 2 * STEP + 1];
        long stepHi = mulinc[2 * (LOG_STEP - 1)], stepLo = mulinc[2 * (LOG_STEP - 1) + 1];
        LongVector c0 = LongVector.fromArray(LS, mulinc, BlockPasses.LRW_LANES + 2 * s);
        LongVector c1 = LongVector.fromArray(LS, mulinc, BlockPasses.LRW_LANES + 2 * (s + L));
        LongVector c2 = LongVector.fromArray(LS, mulinc, BlockPasses.LRW_LANES + 2 * (s + 2 * L));
        LongVector c3 = LongVector.fromArray(LS, mulinc, BlockPasses.LRW_LANES + 2 * (s + 3 * L));
        // Lanes of vector v whose block lies in the next group: s + vL + (lane's block) >= STEP.
        VectorMask<Long> m0 = PAIR_INDEX.compare(VectorOperators.GE, STEP - s);
        VectorMask<Long> m1 = PAIR_INDEX.compare(VectorOperators.GE, STEP - s - L);
        VectorMask<Long> m2 = PAIR_INDEX.compare(VectorOperators.GE, STEP - s - 2 * L);
        VectorMask<Long> m3 = PAIR_INDEX.compare(VectorOperators.GE, STEP - s - 3 * L);
        int bytes = blocks / STEP * (STEP * 16);
        for (int i = 0; i < bytes; i += STEP * 16) {
            int k = lrwStepBit(gLo, gHi);
            long nHi = tHi ^ mulinc[2 * k] ^ stepHi, nLo = tLo ^ mulinc[2 * k + 1] ^ stepLo; // T_(G+STEP)
            LongVector ta = LongVector.broadcast(LS, Long.reverseBytes(tHi)).blend(Long.reverseBytes(tLo), HIGH);
            LongVector tb = LongVector.broadcast(LS, Long.reverseBytes(nHi ^ kStepHi)).blend(Long.reverseBytes(nLo ^ kStepLo), HIGH);
            ByteVector.fromArray(BS, in, inOff + i).lanewise(VectorOperators.XOR, ta.blend(tb, m0).lanewise(VectorOperators.XOR, c0).reinterpretAsBytes()).intoArray(out, outOff + i);
            ByteVector.fromArray(BS, in, inOff + i + VLEN).lanewise(VectorOperators.XOR, ta.blend(tb, m1).lanewise(VectorOperators.XOR, c1).reinterpretAsBytes()).intoArray(out, outOff + i + VLEN);
            ByteVector.fromArray(BS, in, inOff + i + 2 * VLEN).lanewise(VectorOperators.XOR, ta.blend(tb, m2).lanewise(VectorOperators.XOR, c2).reinterpretAsBytes()).intoArray(out, outOff + i + 2 * VLEN);
            ByteVector.fromArray(BS, in, inOff + i + 3 * VLEN).lanewise(VectorOperators.XOR, ta.blend(tb, m3).lanewise(VectorOperators.XOR, c3).reinterpretAsBytes()).intoArray(out, outOff + i + 3 * VLEN);
            tHi = nHi;
            tLo = nLo;
            gLo += STEP;
            gHi += gLo == 0 ? 1 : 0;
        }
        inOff += bytes;
        outOff += bytes;
        blocks -= bytes / 16;
        // Fewer than STEP blocks left: whole vectors the same way, then the last few one by one.
        int pos = s; // the next block's offset from G
        if (blocks >= L) {
            int k = lrwStepBit(gLo, gHi);
            long nHi = tHi ^ mulinc[2 * k] ^ stepHi, nLo = tLo ^ mulinc[2 * k + 1] ^ stepLo;
            LongVector ta = LongVector.broadcast(LS, Long.reverseBytes(tHi)).blend(Long.reverseBytes(tLo), HIGH);
            LongVector tb = LongVector.broadcast(LS, Long.reverseBytes(nHi ^ kStepHi)).blend(Long.reverseBytes(nLo ^ kStepLo), HIGH);
            for (; blocks >= L; blocks -= L, pos += L, inOff += VLEN, outOff += VLEN) {
                LongVector t = ta.blend(tb, PAIR_INDEX.compare(VectorOperators.GE, STEP - pos))
                        .lanewise(VectorOperators.XOR, LongVector.fromArray(LS, mulinc, BlockPasses.LRW_LANES + 2 * pos));
                ByteVector.fromArray(BS, in, inOff).lanewise(VectorOperators.XOR, t.reinterpretAsBytes()).intoArray(out, outOff);
            }
            if (pos >= STEP) { // the next block is in the next group: T_(G+STEP) ⊕ K2⊗(pos − STEP)
                tHi = nHi;
                tLo = nLo;
                pos -= STEP;
                gLo += STEP;
                gHi += gLo == 0 ? 1 : 0;
            }
        }
        state[0] = tHi ^ mulinc[BlockPasses.LRW_BYTES + 2 * pos];
        state[1] = tLo ^ mulinc[BlockPasses.LRW_BYTES + 2 * pos + 1];
        state[2] = gHi;
        state[3] = gLo + pos;
        if (blocks > 0) {
            super.lrwXor(state, mulinc, in, inOff, out, outOff, blocks);
        }
    }

    /**
     * k for the step from group G = (gHi, gLo) to G + STEP: the first zero bit of G at or above
     * bit LOG_STEP (127 when there is none: the index wraps).
     */
    private static int lrwStepBit(long gLo, long gHi) {
        long m = ~gLo & -STEP; // the zero bits of G above the group bits
        return m != 0 ? Long.numberOfTrailingZeros(m) : Math.min(127, 64 + Long.numberOfTrailingZeros(~gHi));
    }
}
