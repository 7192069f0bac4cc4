package org.vectorjce.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The per-block arithmetic of the modes, apart from the cipher itself: XOR passes, CTR counter
 * blocks, XTS and LRW tweak sequences. This is the named step a Vector API implementation replaces
 * with block-lane code; the modes call only these methods in their hot loops.
 *
 * <p>This base class is the portable scalar implementation (64-bit words). All ranges are trusted.
 */
public class ModeArithmetic {
    protected static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Length of the LRW table {@link #lrwXor} takes (see {@code LrwMode}). */
    public static final int LRW_TABLE_LONGS = 256 + 8;

    /** The scalar implementation. */
    public static final ModeArithmetic SCALAR = new ModeArithmetic();

    protected ModeArithmetic() {
    }

    /** Name shown by {@code info}. */
    public String name() {
        return "scalar";
    }

    /** {@code dst[dOff + i] = a[aOff + i] ^ b[bOff + i]} for {@code i < len} (len a multiple of 16). */
    public void xor(byte[] a, int aOff, byte[] b, int bOff, byte[] dst, int dOff, int len) {
        for (int i = 0; i < len; i += 8) {
            LE64.set(dst, dOff + i, (long) LE64.get(a, aOff + i) ^ (long) LE64.get(b, bOff + i));
        }
    }

    /**
     * Writes {@code blocks} consecutive CTR counter blocks starting at the big-endian 128-bit value
     * {@code ctr = {hi, lo}} and advances {@code ctr} past them (wrapping modulo 2^128).
     */
    public void ctrBlocks(long[] ctr, byte[] dst, int off, int blocks) {
        long hi = ctr[0], lo = ctr[1];
        for (int b = 0; b < blocks; b++, off += 16) {
            BE64.set(dst, off, hi);
            BE64.set(dst, off + 8, lo);
            lo++;
            if (lo == 0) {
                hi++;
            }
        }
        ctr[0] = hi;
        ctr[1] = lo;
    }

    /**
     * Writes the next {@code blocks} XTS tweaks, starting with {@code t = {lo, hi}} (little-endian
     * halves), and leaves {@code t} at the tweak after them (IEEE 1619 §5.3.1: T_j = E(K2, i)·α^j).
     */
    public void xtsTweaks(long[] t, byte[] dst, int off, int blocks) {
        long lo = t[0], hi = t[1];
        for (int b = 0; b < blocks; b++, off += 16) {
            LE64.set(dst, off, lo);
            LE64.set(dst, off + 8, hi);
            long carry = hi >> 63;
            hi = (hi << 1) | (lo >>> 63);
            lo = (lo << 1) ^ (carry & Gf128.R);
        }
        t[0] = lo;
        t[1] = hi;
    }

    /**
     * {@code out_j = in_j ⊕ T_j} for the next {@code blocks} XTS tweaks, starting with {@code t} and
     * leaving {@code t} after them — the tweak XOR pass of XTS with the tweaks generated on the
     * fly, so no tweak buffer is written and read back (XTS runs it twice per chunk, from a saved
     * start). {@code in} and {@code out} ranges are disjoint or identical.
     */
    public void xtsXor(long[] t, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        long lo = t[0], hi = t[1];
        for (int b = 0; b < blocks; b++, inOff += 16, outOff += 16) {
            LE64.set(out, outOff, (long) LE64.get(in, inOff) ^ lo);
            LE64.set(out, outOff + 8, (long) LE64.get(in, inOff + 8) ^ hi);
            long carry = hi >> 63;
            hi = (hi << 1) | (lo >>> 63);
            lo = (lo << 1) ^ (carry & Gf128.R);
        }
        t[0] = lo;
        t[1] = hi;
    }

    /**
     * {@code out_j = in_j ⊕ T_j} for the next {@code blocks} LRW tweaks T_j = K2 ⊗ (I + j),
     * generated on the fly: the tweak XOR pass of LRW without a tweak buffer.
     * {@code state = {tHi, tLo, iHi, iLo}} holds the current tweak and block index (big-endian
     * halves); {@code mulinc[2k], mulinc[2k+1]} = K2 ⊗ (2^(k+1) − 1) (hi, lo). Incrementing I
     * flips its trailing ones and the next zero, so the next tweak is one XOR with the entry for
     * the count of trailing ones (Linux {@code lrw.c}).
     */
    public void lrwXor(long[] state, long[] mulinc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        long tHi = state[0], tLo = state[1], iHi = state[2], iLo = state[3];
        for (int b = 0; b < blocks; b++, inOff += 16, outOff += 16) {
            BE64.set(out, outOff, (long) BE64.get(in, inOff) ^ tHi);
            BE64.set(out, outOff + 8, (long) BE64.get(in, inOff + 8) ^ tLo);
            int k = iLo != -1L ? Long.numberOfTrailingZeros(~iLo)
                    : Math.min(127, 64 + Long.numberOfTrailingZeros(~iHi));
            tHi ^= mulinc[2 * k];
            tLo ^= mulinc[2 * k + 1];
            iLo++;
            if (iLo == 0) {
                iHi++;
            }
        }
        state[0] = tHi;
        state[1] = tLo;
        state[2] = iHi;
        state[3] = iLo;
    }
}
