// The blocks marked BEGIN GENERATED .. END GENERATED are written by src/main/gen/gen_twofish.py; the rest is edited here.
package org.vectorjce.internal.vector;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec128-ct}: constant-time Twofish on 128-bit vectors, 16 blocks per batch, the
 * key-dependent S-boxes computed nibble by nibble from the q permutations' 4-bit tables, each
 * lookup one 16-entry in-register byte shuffle ({@code pshufb} on x86, {@code tbl} on ARM).
 *
 * <p>Why this shape. A 256-entry S-box cannot be looked up in constant time by one shuffle on
 * these widths, and a 256-bit byte shuffle may cross 128-bit lanes, which C2 compiles for AVX2 to
 * five instructions. But Twofish's key-dependent S-box s_j (paper §4.3.2) is a chain of the fixed
 * permutations q0/q1 with key bytes xored in between, and each q (§4.3.5) is four 4-bit tables
 * t0..t3 joined by nibble xors and the linear maps L(a) = a ⊕ 8a mod 16 and R(b) = ROR4(b, 1):
 * <pre>
 *   a1 = a0 ⊕ b0            b1 = L(a0) ⊕ R(b0)
 *   a3 = t0[a1] ⊕ t1[b1]    b3 = L(t0[a1]) ⊕ R(t1[b1])
 *   q(16·a0 + b0) = 16·t3[b3] + t2[a3]
 * </pre>
 * Every step is a 16-entry lookup or a xor of nibble vectors. A byte's two nibbles travel packed
 * (a in bits 0-3, b in 4-7), and the tables are packed to match: one lookup of a and one of b in
 * packed tables give both next nibbles with one xor — t0 with L∘t0, t1 with R∘t1, and at the
 * boundary between two q's the key byte folded into four 4-bit tables (rebuilt at key set-up).
 * The last q and the MDS product (§4.2) fold into tables c·t2[a] and c·16·t3[b] for the three
 * coefficients of the S-box's MDS column. Per S-box and plane: 18 lookups for a 128-bit key (three
 * q's), 26 for a 256-bit one (five). {@code selectFrom} wraps its index to four bits, so the low
 * nibble needs no mask and the high one a shift.
 *
 * <p>The state is word-sliced like the other Twofish kernels (one int lane per block), 32 blocks
 * per batch as two groups of 16; for the two g's of a round the two input words are transposed
 * into byte planes (plane j of g holds byte j of its input word for the 16 blocks of a group; g1's
 * ROL by 8 is a relabelling of planes), by two rounds of shift-and-mask zips that need nothing
 * beyond SSE2. The output planes are zipped back to words the same way, and the round (§4.1) runs
 * lanewise.
 *
 * <p>Slower than {@code twofish-table-2way} (docs/performance.md), more so with 256-bit keys,
 * whose S-boxes have two more q's. Its
 * work memory is one heap {@code byte[]}, not a native segment as in {@link TwofishVec512}: with
 * 16-byte operations the segment's per-access checks cost as much as the operations. Each call
 * processes two groups, so four planes share each table load, and the coefficient that appears
 * twice in an MDS column is looked up once for both its rows.
 *
 * <p><b>Free of secret-indexed memory access</b> on its vector path: tables are loaded whole from
 * fixed addresses and looked up by register shuffles, and there is no data-dependent branch. Calls
 * and tails shorter than {@link #PAD_MIN_BLOCKS} blocks go to the scalar fallback
 * ({@code twofish-table-2way}, secret-indexed tables) unless the constant-time policy asked this
 * kernel to pad them into a vector batch. Key set-up is table-based, as everywhere in the project.
 *
 * <p>Code shape (see {@link TwofishVec512}): no method takes or returns a vector, and each method
 * stays small enough for C1's tier 3, so the kernel reaches C2; vectors pass between steps
 * through {@link #mem}.
 */
public final class TwofishVec128 extends TwofishBatchKernel {
    /** Registry name. */
    static final String NAME = "twofish-vec128-ct";

    /** Compile-time constant species: C2 intrinsifies only constant species. */
    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_128;

    /** Blocks per batch: two groups of 16 (a plane holds one byte of each block of a group). */
    private static final int WAY = 32;

    /** Groups of 16 blocks per batch (one plane each per S-box): two, for independent work in flight. */
    private static final int GROUPS = WAY / 16;

    /** A tail of at least this many blocks is run as one padded batch; shorter ones go to the fallback. */
    static final int PAD_MIN_BLOCKS = 8;

    // ---- the q permutations' 4-bit tables (Twofish paper §4.3.5), q0 then q1, t0..t3 each ----
    private static final byte[][][] QT = {
        {
            {0x8, 0x1, 0x7, 0xD, 0x6, 0xF, 0x3, 0x2, 0x0, 0xB, 0x5, 0x9, 0xE, 0xC, 0xA, 0x4},
            {0xE, 0xC, 0xB, 0x8, 0x1, 0x2, 0x3, 0x5, 0xF, 0x4, 0xA, 0x6, 0x7, 0x0, 0x9, 0xD},
            {0xB, 0xA, 0x5, 0xE, 0x6, 0xD, 0x9, 0x0, 0xC, 0x8, 0xF, 0x3, 0x2, 0x4, 0x7, 0x1},
            {0xD, 0x7, 0xF, 0x4, 0x1, 0x2, 0x6, 0xE, 0x9, 0xB, 0x3, 0x0, 0x8, 0x5, 0xC, 0xA},
        },
        {
            {0x2, 0x8, 0xB, 0xD, 0xF, 0x7, 0x6, 0xE, 0x3, 0x1, 0x9, 0x4, 0x0, 0xA, 0xC, 0x5},
            {0x1, 0xE, 0x2, 0xB, 0x4, 0xC, 0x3, 0x7, 0x6, 0xD, 0xA, 0x5, 0xF, 0x9, 0x0, 0x8},
            {0x4, 0xC, 0x7, 0x5, 0x1, 0x6, 0x9, 0xA, 0x0, 0xE, 0xD, 0x8, 0x2, 0xB, 0x3, 0xF},
            {0xB, 0x9, 0x5, 0x1, 0xC, 0x3, 0xD, 0xE, 0x6, 0x4, 0x7, 0xF, 0x2, 0x0, 0x8, 0xA},
        },
    };

    /**
     * Which q each S-box applies, first to last, for 128-, 192- and 256-bit keys (§4.3.2; the
     * order of {@code TwofishTable.sboxes}): row = S-box j, 1 = q1. The key bytes between them are
     * those of S_{k-1}, ..., S_0.
     */
    private static final int[][] Q_OF = {
        {1, 1, 0, 0, 1},
        {0, 1, 1, 0, 0},
        {0, 0, 0, 1, 1},
        {1, 0, 1, 1, 0},
    };

    /** MDS (§4.2): z_i = Σ_j MDS[i][j]·y_j over GF(2^8) modulo x^8 + x^6 + x^5 + x^3 + 1. */
    private static final int[][] MDS = {
        {0x01, 0xEF, 0x5B, 0x5B},
        {0x5B, 0xEF, 0xEF, 0x01},
        {0xEF, 0x5B, 0x01, 0xEF},
        {0xEF, 0x01, 0xEF, 0x5B},
    };

    /**
     * Per S-box j, at 4j .. 4j+3: the MDS rows of column j's three distinct coefficients, the
     * third one's two rows last (each column holds 01, 5B and EF, one of them twice).
     */
    private static final int[] COEFF_ROWS = new int[16];

    static {
        for (int j = 0; j < 4; j++) {
            int n = 0, twice = -1;
            for (int i = 0; i < 4; i++) {
                int same = 0;
                for (int r = 0; r < 4; r++) {
                    same += MDS[r][j] == MDS[i][j] ? 1 : 0;
                }
                if (same == 1) {
                    COEFF_ROWS[4 * j + n++] = i;
                } else if (twice < 0) {
                    twice = i;
                } else {
                    COEFF_ROWS[4 * j + 2] = twice;
                    COEFF_ROWS[4 * j + 3] = i;
                }
            }
        }
    }

    /*
     * Working memory, one heap byte[] (see the class comment on why not a native segment):
     *   START       the first q's input step: [a0 | L(a0) << 4], [b0 | R(b0) << 4]
     *   TAB + JSTRIDE·j   S-box j's tables in the order sbox() reads them: per q but the last, the
     *               middle [t0 | L∘t0 << 4 by a1, t1 | R∘t1 << 4 by b1], then the boundary with the
     *               next key byte [by b3, by a3]; for the last q, its middle, then the six MDS
     *               tables [c·t2[a] for c of COEFF_ROWS, then c·16·t3[b] for the same three c]
     *   STATE       words x0..x3 of the batch, WAY ints each (lane = block)
     *   PLANES      per group of 16 blocks: g0's four input planes, then g1's (byte j of its
     *               word in plane j)
     *   Z           the same for the output planes, then the words they become
     *   A3B3        the last q's packed (a3, b3) of the four planes, from sbox() to mds()
     */
    private static final int START = 0;
    private static final int TAB = 32;
    private static final int JSTRIDE = 4 * 64 + 32 + 96;
    private static final int STATE = TAB + 4 * JSTRIDE;
    private static final int PLANES = STATE + 4 * 4 * WAY;
    private static final int Z = PLANES + 128 * GROUPS;
    private static final int A3B3 = Z + 128 * GROUPS;
    private static final int SIZE = A3B3 + 32 * GROUPS;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final byte[] mem = new byte[SIZE];

    /** q's per S-box: 3, 4 or 5 for 128-, 192- and 256-bit keys. */
    private int layers;

    /** {@code padAll} under the constant-time policy: no call or tail reaches the table fallback. */
    TwofishVec128(byte[] key, boolean padAll) {
        super(NAME, key, WAY, PAD_MIN_BLOCKS, padAll);
        fillTables(key);
    }

    @Override
    public boolean rekey(byte[] key) {
        fallback.rekey(key);
        // All of it: the last batch's state, and tables of a longer old key that the new
        // key's fewer q's would not overwrite.
        Arrays.fill(mem, (byte) 0);
        fillTables(key);
        return true;
    }

    @Override
    public void destroy() {
        super.destroy();
        Arrays.fill(mem, (byte) 0);
    }

    private static void put(byte[] m, int off, int v) {
        m[off] = (byte) v;
    }

    private static int lMap(int a) {
        return a ^ ((a & 1) << 3);
    }

    private static int rMap(int b) {
        return ((b >>> 1) | (b << 3)) & 0xf;
    }

    /** Product in GF(2^8) modulo the MDS polynomial 0x169. */
    private static int mul(int a, int b) {
        int r = 0;
        for (; b != 0; b >>>= 1) {
            r ^= (b & 1) * a;
            a = (a << 1) ^ ((a >>> 7) * 0x169);
        }
        return r & 0xff;
    }

    /** Two 4-bit tables in one: {@code lo} in bits 0-3, {@code hi} in bits 4-7. */
    private static byte pack(int lo, int hi) {
        return (byte) (lo | hi << 4);
    }

    /**
     * The key-independent tables for keys of {@code n} 64-bit words (index n - 2): START, every
     * q's middle tables and the last q's MDS tables, with zeros where the key's boundary tables
     * go. A key set-up copies one and writes only the boundaries instead of computing them every
     * time (the GF products alone are ~3,000 operations).
     */
    private static final byte[][] TEMPLATES = {template(2), template(3), template(4)};

    private static byte[] template(int n) {
        byte[] m = new byte[STATE];
        for (int x = 0; x < 16; x++) {
            put(m, START + x, pack(x, lMap(x)));       // a0 -> (a0, L(a0))
            put(m, START + 16 + x, pack(x, rMap(x)));  // b0 -> (b0, R(b0))
        }
        int layers = n + 1;
        for (int j = 0; j < 4; j++) {
            int t = TAB + JSTRIDE * j;
            for (int l = 0; l < layers; l++) {
                byte[][] q = QT[Q_OF[j][5 - layers + l]];
                for (int x = 0; x < 16; x++) {
                    put(m, t + x, pack(q[0][x], lMap(q[0][x])));       // a1 -> (t0, L∘t0)
                    put(m, t + 16 + x, pack(q[1][x], rMap(q[1][x])));  // b1 -> (t1, R∘t1)
                }
                t += 32;
                if (l < layers - 1) {
                    t += 32; // the boundary with the next key byte: fillTables
                } else {
                    for (int c = 0; c < 3; c++) {
                        int coeff = MDS[COEFF_ROWS[4 * j + c]][j];
                        for (int x = 0; x < 16; x++) {
                            put(m, t + 16 * c + x, (byte) mul(coeff, q[2][x]));
                            put(m, t + 48 + 16 * c + x, (byte) mul(coeff, q[3][x] << 4));
                        }
                    }
                }
            }
        }
        return m;
    }

    /** The tables of {@code key}: its length's template, and per S-box the boundaries between its q's. */
    private void fillTables(byte[] key) {
        byte[] m = mem;
        int n = key.length / 8;
        System.arraycopy(TEMPLATES[n - 2], 0, m, 0, STATE);
        layers = n + 1;
        for (int i = 0; i < n; i++) {
            // S_i = RS of key bytes 8i..8i+7 is xored in after the (i+1)-th q of each chain.
            int s = TwofishTable.sboxKey(key, i);
            for (int j = 0; j < 4; j++) {
                int t = TAB + JSTRIDE * j + 64 * i + 32;
                byte[][] q = QT[Q_OF[j][5 - layers + i]];
                // Next input y ^ kb, y = 16·t3[b3] + t2[a3]: a0' = t3[b3] ^ kh, b0' = t2[a3] ^ kl,
                // and a1' = a0' ^ b0', b1' = L(a0') ^ R(b0') (L and R are linear).
                int kb = (s >>> (8 * j)) & 0xff, kh = kb >>> 4, kl = kb & 0xf;
                for (int x = 0; x < 16; x++) {
                    put(m, t + x, pack(q[3][x] ^ kh ^ kl, lMap(q[3][x] ^ kh)));  // by b3
                    put(m, t + 16 + x, pack(q[2][x], rMap(q[2][x] ^ kl)));      // by a3
                }
            }
        }
    }

    @Override
    void encryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            load(in, inOff, 0);
            encryptBatch();
            store(out, outOff, 4);
        }
    }

    @Override
    void decryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            loadDec(in, inOff);
            decryptBatch();
            storeDec(out, outOff);
        }
    }

    private static final int X0 = STATE, X1 = STATE + 4 * WAY, X2 = STATE + 8 * WAY, X3 = STATE + 12 * WAY;

    private void encryptBatch() {
        final int[] k = this.k;
        planes(X0, X1);
        for (int r = 8; r < 40; r += 4) {
            g();
            pht(X2, X3, k[r], k[r + 1], 0, X2, X3);
            g();
            pht(X0, X1, k[r + 2], k[r + 3], 0, r < 36 ? X0 : -1, X1);
        }
    }

    private void decryptBatch() {
        final int[] k = this.k;
        planes(X2, X3);
        for (int r = 36; r >= 8; r -= 4) {
            g();
            pht(X1, X0, k[r + 3], k[r + 2], 1, X0, X1);
            g();
            pht(X3, X2, k[r + 1], k[r], 1, r > 8 ? X2 : -1, X3);
        }
    }

    /** Block words to STATE, word w of block b at {@code STATE + 64w + 4b}, xored with {@code k[kb + w]}. */
    private void load(byte[] in, int off, int kb) {
        final byte[] m = mem;
        final int[] k = this.k;
        int k0 = k[kb], k1 = k[kb + 1], k2 = k[kb + 2], k3 = k[kb + 3];
        for (int b = 0; b < WAY; b++, off += 16) {
            LE_INT.set(m, X0 + 4 * b, readInt(in, off) ^ k0);
            LE_INT.set(m, X1 + 4 * b, readInt(in, off + 4) ^ k1);
            LE_INT.set(m, X2 + 4 * b, readInt(in, off + 8) ^ k2);
            LE_INT.set(m, X3 + 4 * b, readInt(in, off + 12) ^ k3);
        }
    }

    /** Output whitening undoes the last swap (§4): C = (x2, x3, x0, x1) ^ K4..K7. */
    private void store(byte[] out, int off, int kb) {
        final byte[] m = mem;
        final int[] k = this.k;
        int k0 = k[kb], k1 = k[kb + 1], k2 = k[kb + 2], k3 = k[kb + 3];
        for (int b = 0; b < WAY; b++, off += 16) {
            writeInt(out, off, (int) LE_INT.get(m, X2 + 4 * b) ^ k0);
            writeInt(out, off + 4, (int) LE_INT.get(m, X3 + 4 * b) ^ k1);
            writeInt(out, off + 8, (int) LE_INT.get(m, X0 + 4 * b) ^ k2);
            writeInt(out, off + 12, (int) LE_INT.get(m, X1 + 4 * b) ^ k3);
        }
    }

    /** Ciphertext (x2, x3, x0, x1) ^ K4..K7 into the state. */
    private void loadDec(byte[] in, int off) {
        final byte[] m = mem;
        final int[] k = this.k;
        int k4 = k[4], k5 = k[5], k6 = k[6], k7 = k[7];
        for (int b = 0; b < WAY; b++, off += 16) {
            LE_INT.set(m, X2 + 4 * b, readInt(in, off) ^ k4);
            LE_INT.set(m, X3 + 4 * b, readInt(in, off + 4) ^ k5);
            LE_INT.set(m, X0 + 4 * b, readInt(in, off + 8) ^ k6);
            LE_INT.set(m, X1 + 4 * b, readInt(in, off + 12) ^ k7);
        }
    }

    private void storeDec(byte[] out, int off) {
        final byte[] m = mem;
        final int[] k = this.k;
        int k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
        for (int b = 0; b < WAY; b++, off += 16) {
            writeInt(out, off, (int) LE_INT.get(m, X0 + 4 * b) ^ k0);
            writeInt(out, off + 4, (int) LE_INT.get(m, X1 + 4 * b) ^ k1);
            writeInt(out, off + 8, (int) LE_INT.get(m, X2 + 4 * b) ^ k2);
            writeInt(out, off + 12, (int) LE_INT.get(m, X3 + 4 * b) ^ k3);
        }
    }

    private static final java.lang.invoke.VarHandle LE_INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, LE);

    private static int readInt(byte[] b, int off) {
        return (int) LE_INT.get(b, off);
    }

    private static void writeInt(byte[] b, int off, int v) {
        LE_INT.set(b, off, v);
    }

    /*
     * Words to planes and back. zip8 on 16-bit lanes of (A, B): (A.lo | B.lo << 8, A.hi | B.hi << 8),
     * zip16 the same on 32-bit lanes with halves. Word vector k (blocks 4k..4k+3, one int lane
     * each): zip8 of vectors (0, 1) and (2, 3), then zip16 of the results, gives four planes, byte j
     * of all 16 blocks each, plane lane 4m + k = block 4k + m. Both zips are their own inverse
     * pattern: the same two steps in reverse order turn the planes back into words.
     */

    /** Byte planes of words p (g0's input) and q (g1's, ROL 8: its byte b feeds S-box b + 1). */
    private void planes(int p, int q) {
        final byte[] m = mem;
        for (int set = 0; set < 2 * GROUPS; set++) {
            int src = ((set & 1) == 0 ? p : q) + 64 * (set >> 1), rot = set & 1; // g1: byte b to plane b + 1
            ShortVector v0 = ByteVector.fromArray(B, m, src).reinterpretAsShorts();
            ShortVector v1 = ByteVector.fromArray(B, m, src + 16).reinterpretAsShorts();
            ShortVector v2 = ByteVector.fromArray(B, m, src + 32).reinterpretAsShorts();
            ShortVector v3 = ByteVector.fromArray(B, m, src + 48).reinterpretAsShorts();
            IntVector c01 = v0.and((short) 0x00ff).or(v1.lanewise(LSHL, 8)).reinterpretAsInts();
            IntVector d01 = v0.lanewise(LSHR, 8).or(v1.and((short) 0xff00)).reinterpretAsInts();
            IntVector c23 = v2.and((short) 0x00ff).or(v3.lanewise(LSHL, 8)).reinterpretAsInts();
            IntVector d23 = v2.lanewise(LSHR, 8).or(v3.and((short) 0xff00)).reinterpretAsInts();
            int dst = PLANES + 64 * set;
            c01.and(0xffff).or(c23.lanewise(LSHL, 16)).reinterpretAsBytes().intoArray(m, dst + 16 * (rot & 3));
            d01.and(0xffff).or(d23.lanewise(LSHL, 16)).reinterpretAsBytes().intoArray(m, dst + 16 * ((1 + rot) & 3));
            c01.lanewise(LSHR, 16).or(c23.and(0xffff0000)).reinterpretAsBytes().intoArray(m, dst + 16 * ((2 + rot) & 3));
            d01.lanewise(LSHR, 16).or(d23.and(0xffff0000)).reinterpretAsBytes().intoArray(m, dst + 16 * ((3 + rot) & 3));
        }
    }

    /** Both g's of a round: the four S-boxes on the planes, MDS output planes to Z. */
    private void g() {
        for (int j = 0; j < 4; j++) {
            sbox(j);
            mds(j);
        }
    }

    // BEGIN GENERATED by src/main/gen/gen_twofish.py (sbox): edit the generator, not this block.
    /**
     * S-box j and its MDS column on plane j of g0 and of g1 ({@code p}, {@code q} below), the
     * result xored into Z (written, for j = 0). Each q works on the byte's nibbles a (high) and b
     * (low), carried packed as a | b << 4: one lookup of each nibble in a packed table gives two
     * 4-bit results, and one xor joins them into the next packed pair. {@code selectFrom} wraps its
     * index to the low four bits, so the low nibble needs no mask and the high one a shift.
     */
    private void sbox(int j) {
        final byte[] m = mem;
        ByteVector s0 = ByteVector.fromArray(B, m, START);
        ByteVector s1 = ByteVector.fromArray(B, m, START + 16);
        ByteVector p = ByteVector.fromArray(B, m, PLANES + 0 + 16 * j);
        ByteVector q = ByteVector.fromArray(B, m, PLANES + 64 + 16 * j);
        ByteVector r = ByteVector.fromArray(B, m, PLANES + 128 + 16 * j);
        ByteVector u = ByteVector.fromArray(B, m, PLANES + 192 + 16 * j);
        // x = 16·a0 + b0 -> (a1, b1) = (a0 ^ b0, L(a0) ^ R(b0))
        ByteVector pd = p.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(s0).lanewise(XOR, p.selectFrom(s1));
        ByteVector qd = q.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(s0).lanewise(XOR, q.selectFrom(s1));
        ByteVector rd = r.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(s0).lanewise(XOR, r.selectFrom(s1));
        ByteVector ud = u.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(s0).lanewise(XOR, u.selectFrom(s1));
        int t = TAB + JSTRIDE * j;
        for (int l = layers - 1; l > 0; l--, t += 64) {
            ByteVector m0 = ByteVector.fromArray(B, m, t);
            ByteVector m1 = ByteVector.fromArray(B, m, t + 16);
            ByteVector b0 = ByteVector.fromArray(B, m, t + 32);
            ByteVector b1 = ByteVector.fromArray(B, m, t + 48);
            // (a1, b1) -> (a3, b3) -> the next q's (a1, b1)
            ByteVector pc = pd.selectFrom(m0).lanewise(XOR, pd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
            ByteVector qc = qd.selectFrom(m0).lanewise(XOR, qd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
            ByteVector rc = rd.selectFrom(m0).lanewise(XOR, rd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
            ByteVector uc = ud.selectFrom(m0).lanewise(XOR, ud.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
            pd = pc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(b0).lanewise(XOR, pc.selectFrom(b1));
            qd = qc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(b0).lanewise(XOR, qc.selectFrom(b1));
            rd = rc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(b0).lanewise(XOR, rc.selectFrom(b1));
            ud = uc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(b0).lanewise(XOR, uc.selectFrom(b1));
        }
        ByteVector m0 = ByteVector.fromArray(B, m, t);
        ByteVector m1 = ByteVector.fromArray(B, m, t + 16);
        ByteVector pc = pd.selectFrom(m0).lanewise(XOR, pd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
        ByteVector qc = qd.selectFrom(m0).lanewise(XOR, qd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
        ByteVector rc = rd.selectFrom(m0).lanewise(XOR, rd.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
        ByteVector uc = ud.selectFrom(m0).lanewise(XOR, ud.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes().selectFrom(m1));
        pc.reinterpretAsBytes().intoArray(m, A3B3 + 0);
        qc.reinterpretAsBytes().intoArray(m, A3B3 + 16);
        rc.reinterpretAsBytes().intoArray(m, A3B3 + 32);
        uc.reinterpretAsBytes().intoArray(m, A3B3 + 48);
    }
    // END GENERATED (sbox)

    // BEGIN GENERATED by src/main/gen/gen_twofish.py (mds): edit the generator, not this block.
    /**
     * The last q's output step and S-box j's MDS column, from the packed (a3, b3) of the four
     * planes at A3B3; the products xored into Z's rows, whose old contents S-box 0 masks away
     * (a lanewise AND with 0, not a branch).
     */
    private void mds(int j) {
        final byte[] m = mem;
        final int t = TAB + JSTRIDE * j + 64 * (layers - 1) + 32;
        ByteVector pc = ByteVector.fromArray(B, m, A3B3 + 0);
        ByteVector qc = ByteVector.fromArray(B, m, A3B3 + 16);
        ByteVector rc = ByteVector.fromArray(B, m, A3B3 + 32);
        ByteVector uc = ByteVector.fromArray(B, m, A3B3 + 48);
        ByteVector ph = pc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes();
        ByteVector qh = qc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes();
        ByteVector rh = rc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes();
        ByteVector uh = uc.reinterpretAsInts().lanewise(LSHR, 4).reinterpretAsBytes();
        // Column j of MDS has three distinct coefficients, the third in two rows (COEFF_ROWS).
        // Straight-line and branch-free on purpose: a Vector API call on a path C2 sees rarely
        // taken may be left uninlined ("low call site frequency") and box its vectors. One
        // coefficient at a time, its four products accumulated before the next.
        final int base = 4 * j;
        final byte keep = (byte) -Math.min(j, 1); // 0 for the first S-box: its products start the rows
        {
            ByteVector fl = ByteVector.fromArray(B, m, t + 0), fh = ByteVector.fromArray(B, m, t + 48);
            ByteVector px = pc.selectFrom(fl).lanewise(XOR, ph.selectFrom(fh));
            ByteVector qx = qc.selectFrom(fl).lanewise(XOR, qh.selectFrom(fh));
            ByteVector rx = rc.selectFrom(fl).lanewise(XOR, rh.selectFrom(fh));
            ByteVector ux = uc.selectFrom(fl).lanewise(XOR, uh.selectFrom(fh));
            int o0 = Z + 16 * COEFF_ROWS[base + 0];
            px.lanewise(XOR, ByteVector.fromArray(B, m, o0 + 0).and(keep)).reinterpretAsBytes().intoArray(m, o0 + 0);
            qx.lanewise(XOR, ByteVector.fromArray(B, m, o0 + 64).and(keep)).reinterpretAsBytes().intoArray(m, o0 + 64);
            rx.lanewise(XOR, ByteVector.fromArray(B, m, o0 + 128).and(keep)).reinterpretAsBytes().intoArray(m, o0 + 128);
            ux.lanewise(XOR, ByteVector.fromArray(B, m, o0 + 192).and(keep)).reinterpretAsBytes().intoArray(m, o0 + 192);
        }
        {
            ByteVector fl = ByteVector.fromArray(B, m, t + 16), fh = ByteVector.fromArray(B, m, t + 64);
            ByteVector px = pc.selectFrom(fl).lanewise(XOR, ph.selectFrom(fh));
            ByteVector qx = qc.selectFrom(fl).lanewise(XOR, qh.selectFrom(fh));
            ByteVector rx = rc.selectFrom(fl).lanewise(XOR, rh.selectFrom(fh));
            ByteVector ux = uc.selectFrom(fl).lanewise(XOR, uh.selectFrom(fh));
            int o1 = Z + 16 * COEFF_ROWS[base + 1];
            px.lanewise(XOR, ByteVector.fromArray(B, m, o1 + 0).and(keep)).reinterpretAsBytes().intoArray(m, o1 + 0);
            qx.lanewise(XOR, ByteVector.fromArray(B, m, o1 + 64).and(keep)).reinterpretAsBytes().intoArray(m, o1 + 64);
            rx.lanewise(XOR, ByteVector.fromArray(B, m, o1 + 128).and(keep)).reinterpretAsBytes().intoArray(m, o1 + 128);
            ux.lanewise(XOR, ByteVector.fromArray(B, m, o1 + 192).and(keep)).reinterpretAsBytes().intoArray(m, o1 + 192);
        }
        {
            ByteVector fl = ByteVector.fromArray(B, m, t + 32), fh = ByteVector.fromArray(B, m, t + 80);
            ByteVector px = pc.selectFrom(fl).lanewise(XOR, ph.selectFrom(fh));
            ByteVector qx = qc.selectFrom(fl).lanewise(XOR, qh.selectFrom(fh));
            ByteVector rx = rc.selectFrom(fl).lanewise(XOR, rh.selectFrom(fh));
            ByteVector ux = uc.selectFrom(fl).lanewise(XOR, uh.selectFrom(fh));
            int o2 = Z + 16 * COEFF_ROWS[base + 2];
            px.lanewise(XOR, ByteVector.fromArray(B, m, o2 + 0).and(keep)).reinterpretAsBytes().intoArray(m, o2 + 0);
            qx.lanewise(XOR, ByteVector.fromArray(B, m, o2 + 64).and(keep)).reinterpretAsBytes().intoArray(m, o2 + 64);
            rx.lanewise(XOR, ByteVector.fromArray(B, m, o2 + 128).and(keep)).reinterpretAsBytes().intoArray(m, o2 + 128);
            ux.lanewise(XOR, ByteVector.fromArray(B, m, o2 + 192).and(keep)).reinterpretAsBytes().intoArray(m, o2 + 192);
            int o3 = Z + 16 * COEFF_ROWS[base + 3];
            px.lanewise(XOR, ByteVector.fromArray(B, m, o3 + 0).and(keep)).reinterpretAsBytes().intoArray(m, o3 + 0);
            qx.lanewise(XOR, ByteVector.fromArray(B, m, o3 + 64).and(keep)).reinterpretAsBytes().intoArray(m, o3 + 64);
            rx.lanewise(XOR, ByteVector.fromArray(B, m, o3 + 128).and(keep)).reinterpretAsBytes().intoArray(m, o3 + 128);
            ux.lanewise(XOR, ByteVector.fromArray(B, m, o3 + 192).and(keep)).reinterpretAsBytes().intoArray(m, o3 + 192);
        }
    }
    // END GENERATED (mds)

    /**
     * Z's planes back to words g0, g1 (16 blocks each), then the PHT, subkeys and one-bit rotations
     * into words {@code ror} (x = ROR(x ^ F, 1)) and {@code rol} (x = ROL(x, 1) ^ F'), as in
     * {@link TwofishVec512}: F0 = g0 + g1, F1 = g0 + 2·g1; encryption ({@code inv} 0) gives F0 +
     * kRor to the ROR word and F1 + kRol to the ROL word, decryption ({@code inv} 1) F1 and F0.
     * Then the next round's planes of words {@code p} and {@code q} (none when {@code p} < 0),
     * inlined here by C2.
     */
    private void pht(int ror, int rol, int kRor, int kRol, int inv, int p, int q) {
        final byte[] m = mem;
        for (int g = Z; g < Z + 128 * GROUPS; g += 64) {
            IntVector z0 = ByteVector.fromArray(B, m, g).reinterpretAsInts();
            IntVector z1 = ByteVector.fromArray(B, m, g + 16).reinterpretAsInts();
            IntVector z2 = ByteVector.fromArray(B, m, g + 32).reinterpretAsInts();
            IntVector z3 = ByteVector.fromArray(B, m, g + 48).reinterpretAsInts();
            ShortVector c01 = z0.and(0xffff).or(z2.lanewise(LSHL, 16)).reinterpretAsShorts();
            ShortVector c23 = z0.lanewise(LSHR, 16).or(z2.and(0xffff0000)).reinterpretAsShorts();
            ShortVector d01 = z1.and(0xffff).or(z3.lanewise(LSHL, 16)).reinterpretAsShorts();
            ShortVector d23 = z1.lanewise(LSHR, 16).or(z3.and(0xffff0000)).reinterpretAsShorts();
            c01.and((short) 0x00ff).or(d01.lanewise(LSHL, 8)).reinterpretAsBytes().intoArray(m, g);
            c01.lanewise(LSHR, 8).or(d01.and((short) 0xff00)).reinterpretAsBytes().intoArray(m, g + 16);
            c23.and((short) 0x00ff).or(d23.lanewise(LSHL, 8)).reinterpretAsBytes().intoArray(m, g + 32);
            c23.lanewise(LSHR, 8).or(d23.and((short) 0xff00)).reinterpretAsBytes().intoArray(m, g + 48);
        }
        for (int o = 0; o < 4 * WAY; o += 16) {
            // Z holds, per group of 16 blocks, g0's words then g1's.
            int zo = Z + 2 * (o & ~63) + (o & 63);
            IntVector ga = ByteVector.fromArray(B, m, zo).reinterpretAsInts();
            IntVector gb = ByteVector.fromArray(B, m, zo + 64).reinterpretAsInts();
            // F0 = g0 + g1, F1 = F0 + g1: the extra g1 goes to the ROR word when decrypting
            // (inv = 1, mask -1) and to the ROL word when encrypting (constant shifts and masks
            // only: SSE has no variable vector shift).
            IntVector f = ga.add(gb);
            IntVector fRor = f.add(gb.and(-inv)).add(kRor);
            IntVector fRol = f.add(gb.and(inv - 1)).add(kRol);
            IntVector x = ByteVector.fromArray(B, m, ror + o).reinterpretAsInts().lanewise(XOR, fRor);
            x.lanewise(LSHR, 1).or(x.lanewise(LSHL, 31)).reinterpretAsBytes().intoArray(m, ror + o);
            IntVector y = ByteVector.fromArray(B, m, rol + o).reinterpretAsInts();
            y.lanewise(LSHL, 1).or(y.lanewise(LSHR, 31)).lanewise(XOR, fRol).reinterpretAsBytes().intoArray(m, rol + o);
        }
        if (p >= 0) {
            planes(p, q);
        }
    }
}
