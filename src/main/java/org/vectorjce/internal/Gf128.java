package org.vectorjce.internal;

/**
 * GF(2^128) arithmetic for the tweakable modes, in the one place both conventions live.
 *
 * <ul>
 *   <li><b>XTS</b> (IEEE 1619-2007 §5.2): the tweak is a little-endian 128-bit integer, held here as
 *       {@code lo} (bytes 0..7) and {@code hi} (bytes 8..15) read little-endian; multiplying by the
 *       primitive element α = x is a left shift by one with the carry reduced by
 *       x^128 = x^7 + x^2 + x + 1 (0x87).</li>
 *   <li><b>LRW</b> (IEEE P1619 draft, Linux {@code gf128mul} "bbe"): the byte string is a big-endian
 *       128-bit integer whose bit i is the coefficient of x^i, held as {@code hi} (bytes 0..7) and
 *       {@code lo} (bytes 8..15) read big-endian; the same polynomial.</li>
 * </ul>
 * Both are a shift of a 128-bit integer; they differ only in how bytes map to that integer.
 */
final class Gf128 {
    private Gf128() {
    }

    /** The low half of the reduction polynomial x^7 + x^2 + x + 1. */
    static final long R = 0x87L;

    /**
     * Multiplies the 128-bit value {@code (hi, lo)} by x in place: {@code v[0] = lo, v[1] = hi}.
     * Constant-time (no branch on the carry).
     */
    static void timesX(long[] v) {
        long lo = v[0], hi = v[1];
        long carry = hi >> 63; // all ones when the top bit is set
        v[1] = (hi << 1) | (lo >>> 63);
        v[0] = (lo << 1) ^ (carry & R);
    }

    /**
     * Product of two field elements given as 128-bit integers {@code a = (aHi, aLo)},
     * {@code b = (bHi, bLo)}, result into {@code r[0] = lo, r[1] = hi}. Plain shift-and-add (128
     * steps): used only at key and message set-up, never per block.
     */
    static void multiply(long aHi, long aLo, long bHi, long bLo, long[] r) {
        long pLo = aLo, pHi = aHi; // a·x^i
        long rLo = 0, rHi = 0;
        for (int i = 0; i < 128; i++) {
            long bit = i < 64 ? (bLo >>> i) & 1 : (bHi >>> (i - 64)) & 1;
            long mask = -bit;
            rLo ^= pLo & mask;
            rHi ^= pHi & mask;
            long carry = pHi >> 63;
            pHi = (pHi << 1) | (pLo >>> 63);
            pLo = (pLo << 1) ^ (carry & R);
        }
        r[0] = rLo;
        r[1] = rHi;
    }
}
