package org.vectorjce.internal.mode;

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
}
