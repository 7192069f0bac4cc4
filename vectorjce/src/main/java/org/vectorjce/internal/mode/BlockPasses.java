package org.vectorjce.internal.mode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.Settings;

/**
 * The passes a mode makes over its data besides the cipher itself (its "arithmetic", as the
 * {@code arithmetic} setting names it): XOR passes, CTR counter
 * blocks, XTS and LRW tweak sequences. This is the named step a Vector API implementation replaces
 * with block-lane code; the modes call only these methods in their hot loops.
 *
 * <p>This base class is the portable scalar implementation (64-bit words). All ranges are trusted.
 */
public class BlockPasses {
    public static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    public static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * Length of the per-key LRW table {@link #lrwTable} builds and {@link #lrwXor} reads, in four
     * parts:
     * <ul>
     *   <li>{@code [2k], [2k+1]} for k &lt; 128: K2 ⊗ (2^(k+1) − 1), hi and lo (the per-block step);</li>
     *   <li>{@link #LRW_LANES}{@code + 2j, + 2j+1} for j &lt; 32: K2 ⊗ j as the 16 tweak bytes read
     *       as two little-endian longs, so a vector load gives the tweak offsets of a group of blocks;</li>
     *   <li>{@link #LRW_BYTES}{@code + 2j, + 2j+1} for j &lt; 256: K2 ⊗ j, hi and lo, and
     *       {@link #LRW_BYTES_HIGH}{@code + 2j, + 2j+1}: (K2·x^64) ⊗ j, hi and lo (the 8-bit
     *       multiplication tables for T_0 = K2 ⊗ I, see {@link #lrwTweak}).</li>
     * </ul>
     * 10.5 KiB per key: LRW keys are few, and 8-bit tables take half the lookups of 4-bit ones in
     * the per-message multiplication.
     */
    public static final int LRW_TABLE_LONGS = 256 + 64 + 2 * 512;
    /** Offset of the lane-form K2 ⊗ j entries in the LRW table. */
    public static final int LRW_LANES = 256;
    /** Offset of the hi/lo K2 ⊗ j entries (j &lt; 256) in the LRW table. */
    public static final int LRW_BYTES = 256 + 64;
    /** Offset of the hi/lo (K2·x^64) ⊗ j entries (j &lt; 256) in the LRW table. */
    public static final int LRW_BYTES_HIGH = LRW_BYTES + 512;

    /**
     * Whether {@code a[aOff..aOff+len)} equals {@code b[bOff..bOff+len)}, in time that depends
     * only on {@code len} (for key bytes): 8 bytes per step, no early exit. Ranges are trusted.
     * {@code MessageDigest.isEqual} compares byte by byte, eight times the steps.
     */
    public static boolean constantTimeEqual(byte[] a, int aOff, byte[] b, int bOff, int len) {
        long diff = 0;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            diff |= (long) LE64.get(a, aOff + i) ^ (long) LE64.get(b, bOff + i);
        }
        for (; i < len; i++) {
            diff |= a[aOff + i] ^ b[bOff + i];
        }
        return diff == 0;
    }

    /** The scalar implementation. */
    public static final BlockPasses SCALAR = new BlockPasses();

    protected BlockPasses() {
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
     * {@code out_j = in_j ⊕ T_j} for the next {@code blocks} XTS tweaks, starting with {@code t}
     * and leaving {@code t} after them, each tweak T_j also written to {@code tw[twOff + 16j ..]}:
     * XTS's second XOR pass reads them back ({@link #xor}) instead of generating them again, which
     * is faster from 4 KiB to 1 MiB messages. {@code in} and {@code out} ranges are
     * disjoint or identical.
     */
    public void xtsXorSave(long[] t, byte[] in, int inOff, byte[] out, int outOff, int blocks, byte[] tw, int twOff) {
        long lo = t[0], hi = t[1];
        for (int b = 0; b < blocks; b++, inOff += 16, outOff += 16, twOff += 16) {
            LE64.set(tw, twOff, lo);
            LE64.set(tw, twOff + 8, hi);
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
     * The LRW table for the multiplier {@code K2 = (k2Hi, k2Lo)} (big-endian halves of the 16
     * key bytes): see {@link #LRW_TABLE_LONGS}. The caller wipes it when the key goes.
     */
    public static long[] lrwTable(long k2Hi, long k2Lo) {
        long[] table = new long[LRW_TABLE_LONGS];
        lrwTable(k2Hi, k2Lo, table);
        return table;
    }

    /** {@link #lrwTable(long, long)} into {@code table} (re-key in place: every entry is overwritten). */
    public static void lrwTable(long k2Hi, long k2Lo, long[] table) {
        long pHi = k2Hi, pLo = k2Lo; // K2·x^k
        long accHi = 0, accLo = 0;
        for (int k = 0; k < 128; k++) {
            accHi ^= pHi;
            accLo ^= pLo;
            table[2 * k] = accHi;
            table[2 * k + 1] = accLo;
            long carry = pHi >> 63;
            pHi = (pHi << 1) | (pLo >>> 63);
            pLo = (pLo << 1) ^ (carry & Gf128.R);
        }
        // K2 ⊗ j and (K2·x^64) ⊗ j for j < 256: the entry for j is the one for j without its
        // lowest set bit b, ⊕ K2·x^(b+s) (s = 0, 64); K2·x^e is table[2e] ⊕ table[2e − 2], the
        // difference of two consecutive all-ones multipliers.
        for (int s = 0; s <= 64; s += 64) {
            int base = s == 0 ? LRW_BYTES : LRW_BYTES_HIGH;
            for (int j = 1; j < 256; j++) {
                int e = s + Integer.numberOfTrailingZeros(j);
                int rest = base + 2 * (j & (j - 1));
                table[base + 2 * j] = table[rest] ^ table[2 * e] ^ (e > 0 ? table[2 * e - 2] : 0);
                table[base + 2 * j + 1] = table[rest + 1] ^ table[2 * e + 1] ^ (e > 0 ? table[2 * e - 1] : 0);
            }
        }
        for (int j = 0; j < 32; j++) {
            table[LRW_LANES + 2 * j] = Long.reverseBytes(table[LRW_BYTES + 2 * j]);
            table[LRW_LANES + 2 * j + 1] = Long.reverseBytes(table[LRW_BYTES + 2 * j + 1]);
        }
    }

    /**
     * T = K2 ⊗ I for the 128-bit index {@code I = (iHi, iLo)}, into {@code state = {tHi, tLo, iHi,
     * iLo}}. K2 ⊗ I = (K2·x^64) ⊗ iHi ⊕ K2 ⊗ iLo: two independent chains of Horner's rule over 8
     * bytes each, high first, with the two 8-bit tables (8 steps of a shift by 8 and one table XOR
     * per chain, instead of 128 single-bit steps). The lookups are indexed by I, the public block
     * index, never by key bytes.
     */
    public static void lrwTweak(long[] table, long iHi, long iLo, long[] state) {
        long aHi = 0, aLo = 0, bHi = 0, bLo = 0;
        for (int n = 56; n >= 0; n -= 8) {
            // z = z·x^8: the top 8 bits c fold back as c·(x^7 + x^2 + x + 1), below 2^15.
            long ca = aHi >>> 56, cb = bHi >>> 56;
            aHi = (aHi << 8) | (aLo >>> 56);
            aLo = (aLo << 8) ^ ca ^ (ca << 1) ^ (ca << 2) ^ (ca << 7);
            bHi = (bHi << 8) | (bLo >>> 56);
            bLo = (bLo << 8) ^ cb ^ (cb << 1) ^ (cb << 2) ^ (cb << 7);
            int na = LRW_BYTES + 2 * (int) ((iLo >>> n) & 255);
            int nb = LRW_BYTES_HIGH + 2 * (int) ((iHi >>> n) & 255);
            aHi ^= table[na];
            aLo ^= table[na + 1];
            bHi ^= table[nb];
            bLo ^= table[nb + 1];
        }
        state[0] = aHi ^ bHi;
        state[1] = aLo ^ bLo;
        state[2] = iHi;
        state[3] = iLo;
    }

    /**
     * {@code out_j = in_j ⊕ T_j} for the next {@code blocks} LRW tweaks T_j = K2 ⊗ (I + j),
     * generated on the fly: the tweak XOR pass of LRW without a tweak buffer.
     * {@code state = {tHi, tLo, iHi, iLo}} holds the current tweak and block index (big-endian
     * halves); {@code mulinc} is the {@link #lrwTable}, where {@code mulinc[2k], mulinc[2k+1]} = K2 ⊗ (2^(k+1) − 1) (hi, lo). Incrementing I
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

    // ---------------------------------------------------------------- which one serves

    /*
     * Which implementation serves a provider's modes, from its {@code arithmetic} setting and this
     * JVM's facts: the Vector API one where it runs (Java 25+ with {@code jdk.incubator.vector},
     * C2, vectors of 256 or 512 bits), else this scalar one. The choice is made when a mode is
     * created and never changes under it. The vector class is loaded on the first mode that needs
     * it, not before: an ECB program or a command that never reaches a mode does not pay its class
     * initialisation.
     */


    /** The vector arithmetic, loaded on first need, or null where it does not run. */
    private static final class Loaded {
        static final BlockPasses VECTOR = load();
        static final String FAILURE = failure;
    }

    private static String failure;

    private static BlockPasses load() {
        String why = VectorBridge.vectorCodeUnavailable();
        if (why != null) {
            failure = why;
            return null;
        }
        try {
            Object v = VectorBridge.blockPasses();
            if (v == null) {
                failure = "vectors of 256 to 512 bits with C2 are needed";
            }
            return (BlockPasses) v;
        } catch (ReflectiveOperationException | LinkageError e) {
            failure = "the vector arithmetic failed to load: " + e;
            return null;
        }
    }

    /** Why {@code arithmetic=auto} keeps the scalar passes beside 256-bit vector ones. */
    static final String AUTO_WITHOUT_512 = "arithmetic=auto takes the vector arithmetic with 512-bit vectors only: "
            + "with 256-bit ones it is as fast per sector once compiled and slower until C2 has compiled it; "
            + "arithmetic=vector takes it";

    /**
     * The arithmetic a mode gets under {@code setting}. {@code auto} takes the vector arithmetic
     * only where it runs 512 bits wide. Where the preferred vectors are 256 bits every cipher
     * kernel is far slower than either pass, so once compiled the vector passes gain little, and
     * until C2 compiles them they run interpreted, which slows a fresh JVM's first calls (the
     * measurements: {@code docs/performance.md}, "The mode arithmetic from the first call").
     * {@code vector} takes them at any width they run.
     */
    public static BlockPasses forSetting(Settings.Arithmetic setting) {
        if (setting == Settings.Arithmetic.SCALAR) {
            return BlockPasses.SCALAR;
        }
        BlockPasses v = Loaded.VECTOR;
        if (v == null || (setting == Settings.Arithmetic.AUTO && !v.name().equals("vector-512"))) {
            return BlockPasses.SCALAR;
        }
        return v;
    }


    /** One line for {@code info} and {@code speed}: what serves under {@code setting}, and why. */
    public static String describe(Settings.Arithmetic setting) {
        if (setting == Settings.Arithmetic.SCALAR) {
            return "scalar (arithmetic=scalar)";
        }
        BlockPasses v = Loaded.VECTOR;
        if (v == null) {
            return "scalar (" + Loaded.FAILURE + ")";
        }
        return forSetting(setting) == v ? v.name() : "scalar (" + AUTO_WITHOUT_512 + ")";
    }
}
