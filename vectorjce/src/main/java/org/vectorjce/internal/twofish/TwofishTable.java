package org.vectorjce.internal.twofish;

import org.vectorjce.internal.kernel.BlockKernel;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Twofish on fully key-dependent 32-bit tables: the portable scalar kernels {@code twofish-table}
 * (one block at a time) and {@code twofish-table-2way} (two blocks interleaved).
 *
 * <p>Specification: B. Schneier, J. Kelsey, D. Whiting, D. Wagner, C. Hall, N. Ferguson,
 * <i>Twofish: A 128-Bit Block Cipher</i>, 15 June 1998 (AES submission). Section numbers are that
 * paper's:
 * <ul>
 *   <li>§4: the 16-round Feistel structure with input and output whitening; plaintext, key and
 *       ciphertext bytes are taken as little-endian 32-bit words;</li>
 *   <li>§4.1: the function F (two g's, the pseudo-Hadamard transform, two round subkeys) and the
 *       one-bit rotations around it;</li>
 *   <li>§4.2: the function g: four key-dependent S-boxes, then the MDS matrix over GF(2^8) with the
 *       primitive polynomial x^8+x^6+x^5+x^3+1 (0x169);</li>
 *   <li>§4.3: the key schedule: the words Me and Mo and the S-box key S from the Reed-Solomon code
 *       (RS matrix over GF(2^8) with x^8+x^6+x^3+x^2+1, 0x14D); §4.3.2 the function h; §4.3.3 the
 *       key-dependent S-boxes; §4.3.4 the 40 expanded key words K0..K39; §4.3.5 the fixed
 *       permutations q0 and q1.</li>
 * </ul>
 * q0 and q1 are literal tables, as in the submission's reference code; the internals test rebuilds
 * them from the nibble tables t0..t3 of §4.3.5.
 *
 * <p>Key set-up builds four {@code int[256]} tables, each a key-dependent S-box followed by its MDS
 * column (the paper's "full keying"), so g is four lookups and three xors. That is 4 KiB of tables
 * per key.
 *
 * <p><b>Not constant-time</b>: every round indexes the tables with bytes of the secret state, and
 * the tables themselves are derived from the key, so cache timing can leak key material to a
 * co-located attacker.
 */
public sealed class TwofishTable extends BlockKernel permits TwofishTable.TwoWay {

    /** {@code twofish-table-2way} or {@code twofish-table}, for the registry. */
    public static BlockKernel create(byte[] key, boolean twoWay) {
        return twoWay ? twoWay(key) : oneWay(key);
    }

    /** {@code twofish-table}: one block per loop iteration. */
    public static TwofishTable oneWay(byte[] key) {
        return new TwofishTable("twofish-table", key);
    }

    /**
     * {@code twofish-table-2way}: two blocks per loop iteration with independent dependency chains
     * (as Linux {@code twofish-x86_64-3way} does with three), so the table loads of one block
     * overlap the adds and rotations of the other. Two, not three: two blocks already need 8 state
     * words, 4 g results and the table and subkey bases, about all of x86-64's 16 general
     * registers, and three blocks run slower than two (spills).
     */
    public static TwofishTable twoWay(byte[] key) {
        return new TwoWay("twofish-table-2way", key);
    }

    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** q0 (§4.3.5). */
    private static final int[] Q0 = {
        0xA9, 0x67, 0xB3, 0xE8, 0x04, 0xFD, 0xA3, 0x76, 0x9A, 0x92, 0x80, 0x78, 0xE4, 0xDD, 0xD1, 0x38,
        0x0D, 0xC6, 0x35, 0x98, 0x18, 0xF7, 0xEC, 0x6C, 0x43, 0x75, 0x37, 0x26, 0xFA, 0x13, 0x94, 0x48,
        0xF2, 0xD0, 0x8B, 0x30, 0x84, 0x54, 0xDF, 0x23, 0x19, 0x5B, 0x3D, 0x59, 0xF3, 0xAE, 0xA2, 0x82,
        0x63, 0x01, 0x83, 0x2E, 0xD9, 0x51, 0x9B, 0x7C, 0xA6, 0xEB, 0xA5, 0xBE, 0x16, 0x0C, 0xE3, 0x61,
        0xC0, 0x8C, 0x3A, 0xF5, 0x73, 0x2C, 0x25, 0x0B, 0xBB, 0x4E, 0x89, 0x6B, 0x53, 0x6A, 0xB4, 0xF1,
        0xE1, 0xE6, 0xBD, 0x45, 0xE2, 0xF4, 0xB6, 0x66, 0xCC, 0x95, 0x03, 0x56, 0xD4, 0x1C, 0x1E, 0xD7,
        0xFB, 0xC3, 0x8E, 0xB5, 0xE9, 0xCF, 0xBF, 0xBA, 0xEA, 0x77, 0x39, 0xAF, 0x33, 0xC9, 0x62, 0x71,
        0x81, 0x79, 0x09, 0xAD, 0x24, 0xCD, 0xF9, 0xD8, 0xE5, 0xC5, 0xB9, 0x4D, 0x44, 0x08, 0x86, 0xE7,
        0xA1, 0x1D, 0xAA, 0xED, 0x06, 0x70, 0xB2, 0xD2, 0x41, 0x7B, 0xA0, 0x11, 0x31, 0xC2, 0x27, 0x90,
        0x20, 0xF6, 0x60, 0xFF, 0x96, 0x5C, 0xB1, 0xAB, 0x9E, 0x9C, 0x52, 0x1B, 0x5F, 0x93, 0x0A, 0xEF,
        0x91, 0x85, 0x49, 0xEE, 0x2D, 0x4F, 0x8F, 0x3B, 0x47, 0x87, 0x6D, 0x46, 0xD6, 0x3E, 0x69, 0x64,
        0x2A, 0xCE, 0xCB, 0x2F, 0xFC, 0x97, 0x05, 0x7A, 0xAC, 0x7F, 0xD5, 0x1A, 0x4B, 0x0E, 0xA7, 0x5A,
        0x28, 0x14, 0x3F, 0x29, 0x88, 0x3C, 0x4C, 0x02, 0xB8, 0xDA, 0xB0, 0x17, 0x55, 0x1F, 0x8A, 0x7D,
        0x57, 0xC7, 0x8D, 0x74, 0xB7, 0xC4, 0x9F, 0x72, 0x7E, 0x15, 0x22, 0x12, 0x58, 0x07, 0x99, 0x34,
        0x6E, 0x50, 0xDE, 0x68, 0x65, 0xBC, 0xDB, 0xF8, 0xC8, 0xA8, 0x2B, 0x40, 0xDC, 0xFE, 0x32, 0xA4,
        0xCA, 0x10, 0x21, 0xF0, 0xD3, 0x5D, 0x0F, 0x00, 0x6F, 0x9D, 0x36, 0x42, 0x4A, 0x5E, 0xC1, 0xE0,
    };

    /** q1 (§4.3.5). */
    private static final int[] Q1 = {
        0x75, 0xF3, 0xC6, 0xF4, 0xDB, 0x7B, 0xFB, 0xC8, 0x4A, 0xD3, 0xE6, 0x6B, 0x45, 0x7D, 0xE8, 0x4B,
        0xD6, 0x32, 0xD8, 0xFD, 0x37, 0x71, 0xF1, 0xE1, 0x30, 0x0F, 0xF8, 0x1B, 0x87, 0xFA, 0x06, 0x3F,
        0x5E, 0xBA, 0xAE, 0x5B, 0x8A, 0x00, 0xBC, 0x9D, 0x6D, 0xC1, 0xB1, 0x0E, 0x80, 0x5D, 0xD2, 0xD5,
        0xA0, 0x84, 0x07, 0x14, 0xB5, 0x90, 0x2C, 0xA3, 0xB2, 0x73, 0x4C, 0x54, 0x92, 0x74, 0x36, 0x51,
        0x38, 0xB0, 0xBD, 0x5A, 0xFC, 0x60, 0x62, 0x96, 0x6C, 0x42, 0xF7, 0x10, 0x7C, 0x28, 0x27, 0x8C,
        0x13, 0x95, 0x9C, 0xC7, 0x24, 0x46, 0x3B, 0x70, 0xCA, 0xE3, 0x85, 0xCB, 0x11, 0xD0, 0x93, 0xB8,
        0xA6, 0x83, 0x20, 0xFF, 0x9F, 0x77, 0xC3, 0xCC, 0x03, 0x6F, 0x08, 0xBF, 0x40, 0xE7, 0x2B, 0xE2,
        0x79, 0x0C, 0xAA, 0x82, 0x41, 0x3A, 0xEA, 0xB9, 0xE4, 0x9A, 0xA4, 0x97, 0x7E, 0xDA, 0x7A, 0x17,
        0x66, 0x94, 0xA1, 0x1D, 0x3D, 0xF0, 0xDE, 0xB3, 0x0B, 0x72, 0xA7, 0x1C, 0xEF, 0xD1, 0x53, 0x3E,
        0x8F, 0x33, 0x26, 0x5F, 0xEC, 0x76, 0x2A, 0x49, 0x81, 0x88, 0xEE, 0x21, 0xC4, 0x1A, 0xEB, 0xD9,
        0xC5, 0x39, 0x99, 0xCD, 0xAD, 0x31, 0x8B, 0x01, 0x18, 0x23, 0xDD, 0x1F, 0x4E, 0x2D, 0xF9, 0x48,
        0x4F, 0xF2, 0x65, 0x8E, 0x78, 0x5C, 0x58, 0x19, 0x8D, 0xE5, 0x98, 0x57, 0x67, 0x7F, 0x05, 0x64,
        0xAF, 0x63, 0xB6, 0xFE, 0xF5, 0xB7, 0x3C, 0xA5, 0xCE, 0xE9, 0x68, 0x44, 0xE0, 0x4D, 0x43, 0x69,
        0x29, 0x2E, 0xAC, 0x15, 0x59, 0xA8, 0x0A, 0x9E, 0x6E, 0x47, 0xDF, 0x34, 0x35, 0x6A, 0xCF, 0xDC,
        0x22, 0xC9, 0xC0, 0x9B, 0x89, 0xD4, 0xED, 0xAB, 0x12, 0xA2, 0x0D, 0x52, 0xBB, 0x02, 0x2F, 0xA9,
        0xD7, 0x61, 0x1E, 0xB4, 0x50, 0x04, 0xF6, 0xC2, 0x16, 0x25, 0x86, 0x56, 0x55, 0x09, 0xBE, 0x91,
    };

    /** ρ = 2^24 + 2^16 + 2^8 + 2^0 (§4.3.4): a byte repeated in all four byte positions. */
    private static final int RHO = 0x01010101;

    /** Products by the MDS matrix entries 0x5B and 0xEF (§4.2), polynomial 0x169. */
    private static final int[] MUL_5B = new int[256];
    private static final int[] MUL_EF = new int[256];

    /** The RS matrix (§4.3), row by row; polynomial 0x14D. */
    private static final int[][] RS = {
        {0x01, 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E},
        {0xA4, 0x56, 0x82, 0xF3, 0x1E, 0xC6, 0x68, 0xE5},
        {0x02, 0xA1, 0xFC, 0xC1, 0x47, 0xAE, 0x3D, 0x19},
        {0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E, 0x03},
    };

    /** MDS column j (§4.2) after the last q-permutation of byte lane j in {@link #sboxes}. */
    private static final int[] MQ0 = new int[256], MQ1 = new int[256], MQ2 = new int[256], MQ3 = new int[256];

    static {
        for (int x = 0; x < 256; x++) {
            MUL_5B[x] = gfMul(x, 0x5B, 0x169);
            MUL_EF[x] = gfMul(x, 0xEF, 0x169);
        }
        for (int z = 0; z < 256; z++) {
            MQ0[z] = mdsColumn0(Q1[z]);
            MQ1[z] = mdsColumn1(Q0[z]);
            MQ2[z] = mdsColumn2(Q1[z]);
            MQ3[z] = mdsColumn3(Q0[z]);
        }
    }

    /** K0..K39: input whitening K0..K3, output whitening K4..K7, round subkeys K8..K39. */
    final int[] k = new int[40];
    /** Key-dependent S-box j followed by MDS column j: g(X) = t0[x0] ^ t1[x1] ^ t2[x2] ^ t3[x3]. */
    final int[] t0 = new int[256];
    final int[] t1 = new int[256];
    final int[] t2 = new int[256];
    final int[] t3 = new int[256];

    TwofishTable(String name, byte[] key) {
        super(name);
        setKey(key);
    }

    /** Any key length: the subkeys and tables are the same arrays, overwritten. */
    @Override
    public boolean rekey(byte[] key) {
        setKey(key);
        return true;
    }

    private void setKey(byte[] key) {
        int n = key.length / 8; // the paper's k = N/64: 2, 3 or 4
        int[] me = new int[n];
        int[] mo = new int[n];
        int[] s = new int[n];
        for (int i = 0; i < n; i++) {
            me[i] = (int) LE.get(key, 8 * i);
            mo[i] = (int) LE.get(key, 8 * i + 4);
            s[n - 1 - i] = rsEncode(key, 8 * i); // S = (S_{k-1}, ..., S_0)
        }
        for (int i = 0; i < 20; i++) { // §4.3.4
            int a = hRho(2 * i, me, n);
            int b = Integer.rotateLeft(hRho(2 * i + 1, mo, n), 8);
            k[2 * i] = a + b;
            k[2 * i + 1] = Integer.rotateLeft(a + 2 * b, 9);
        }
        // §4.3.3 with the MDS multiply of §4.2 folded in: byte lane j of sboxes(x·ρ, S), its last
        // q-permutation and MDS column j as one static table (MQ0..MQ3), one lane at a time with
        // the key bytes hoisted: ~4 loads per entry where sboxes + mdsColumn take ~30, and these
        // tables are most of a key set-up's work.
        int l2 = n >= 3 ? s[2] : 0, l3 = n == 4 ? s[3] : 0, a = s[1], b = s[0];
        lane(t0, MQ0, Q1, Q1, Q0, Q0, n, l3, l2, a, b, 0);
        lane(t1, MQ1, Q0, Q1, Q1, Q0, n, l3, l2, a, b, 8);
        lane(t2, MQ2, Q0, Q0, Q0, Q1, n, l3, l2, a, b, 16);
        lane(t3, MQ3, Q1, Q0, Q1, Q1, n, l3, l2, a, b, 24);
        Arrays.fill(me, 0);
        Arrays.fill(mo, 0);
        Arrays.fill(s, 0);
    }

    /** h(x·ρ, L) (§4.3.2) for a byte x, by the lanes of {@link #lane}: what the subkeys need. */
    private static int hRho(int x, int[] l, int n) {
        int l2 = n >= 3 ? l[2] : 0, l3 = n == 4 ? l[3] : 0;
        return laneAt(x, MQ0, Q1, Q1, Q0, Q0, n, l3, l2, l[1], l[0], 0)
                ^ laneAt(x, MQ1, Q0, Q1, Q1, Q0, n, l3, l2, l[1], l[0], 8)
                ^ laneAt(x, MQ2, Q0, Q0, Q0, Q1, n, l3, l2, l[1], l[0], 16)
                ^ laneAt(x, MQ3, Q1, Q0, Q1, Q1, n, l3, l2, l[1], l[0], 24);
    }

    private static int laneAt(int x, int[] mq, int[] q4, int[] q3, int[] qi, int[] qm, int n,
            int l3, int l2, int a, int b, int shift) {
        int y = x;
        if (n == 4) {
            y = q4[y] ^ ((l3 >>> shift) & 0xff);
        }
        if (n >= 3) {
            y = q3[y] ^ ((l2 >>> shift) & 0xff);
        }
        return mq[qm[qi[y] ^ ((a >>> shift) & 0xff)] ^ ((b >>> shift) & 0xff)];
    }

    /**
     * One S-box × MDS table: t[x] = mq[qm[qi[y] ^ a_j] ^ b_j] with y = x through the stages of
     * the longer keys ({@code q4}, {@code q3}), {@code a_j}, {@code b_j} the byte {@code shift}/8
     * of L1, L0 (the order of {@link #sboxes}).
     */
    private static void lane(int[] t, int[] mq, int[] q4, int[] q3, int[] qi, int[] qm, int n,
            int l3, int l2, int a, int b, int shift) {
        int k3 = (l3 >>> shift) & 0xff, k2 = (l2 >>> shift) & 0xff;
        int ka = (a >>> shift) & 0xff, kb = (b >>> shift) & 0xff;
        for (int x = 0; x < 256; x++) {
            int y = x;
            if (n == 4) {
                y = q4[y] ^ k3;
            }
            if (n >= 3) {
                y = q3[y] ^ k2;
            }
            t[x] = mq[qm[qi[y] ^ ka] ^ kb];
        }
    }

    // ---- GF(2^8), RS, q, h, MDS (key set-up only; package-private for the internals test) ----

    /** a·b in GF(2^8) modulo the degree-8 polynomial {@code poly}. */
    static int gfMul(int a, int b, int poly) {
        int r = 0;
        while (b != 0) {
            if ((b & 1) != 0) {
                r ^= a;
            }
            a <<= 1;
            if ((a & 0x100) != 0) {
                a ^= poly;
            }
            b >>>= 1;
        }
        return r;
    }

    static int q0(int x) {
        return Q0[x];
    }

    static int q1(int x) {
        return Q1[x];
    }

    /**
     * S_i = RS · (m_{8i}, ..., m_{8i+7}) of {@code key} (§4.3), the key material of the S-boxes: for
     * {@code twofish-vec128-ct}, which builds its nibble tables from it. Table-based, as all key
     * set-up here.
     */
    public static int sboxKey(byte[] key, int i) {
        return rsEncode(key, 8 * i);
    }

    /** S_i = RS · (m_{8i}, ..., m_{8i+7}) as a little-endian word (§4.3). */
    static int rsEncode(byte[] key, int off) {
        int w = 0;
        for (int col = 0; col < 8; col++) {
            w ^= RS_COLUMN[col][key[off + col] & 0xff];
        }
        return w;
    }

    /**
     * Column {@code col} of the RS matrix times v, rows as the bytes of a little-endian word: 8
     * lookups per 8 key bytes instead of 32 bit-serial multiplications, which would be a large part
     * of a key set-up.
     */
    private static final int[][] RS_COLUMN = new int[8][256];

    static {
        for (int col = 0; col < 8; col++) {
            for (int v = 0; v < 256; v++) {
                int w = 0;
                for (int row = 0; row < 4; row++) {
                    w |= gfMul(RS[row][col], v, 0x14D) << (8 * row);
                }
                RS_COLUMN[col][v] = w;
            }
        }
    }

    // Column j of the MDS matrix (§4.2) times the byte v, as a little-endian word (z0 lowest).
    // MDS = [01 EF 5B 5B; 5B EF EF 01; EF 5B 01 EF; EF 01 EF 5B].
    private static int mdsColumn0(int v) {
        return v | MUL_5B[v] << 8 | MUL_EF[v] << 16 | MUL_EF[v] << 24;
    }

    private static int mdsColumn1(int v) {
        return MUL_EF[v] | MUL_EF[v] << 8 | MUL_5B[v] << 16 | v << 24;
    }

    private static int mdsColumn2(int v) {
        return MUL_5B[v] | MUL_EF[v] << 8 | v << 16 | MUL_EF[v] << 24;
    }

    private static int mdsColumn3(int v) {
        return MUL_5B[v] | v << 8 | MUL_EF[v] << 16 | MUL_5B[v] << 24;
    }

    /** MDS · (y0, y1, y2, y3), bytes of {@code y} little-endian in and out (§4.2). */
    static int mdsMultiply(int y) {
        return mdsColumn0(y & 0xff) ^ mdsColumn1((y >>> 8) & 0xff)
                ^ mdsColumn2((y >>> 16) & 0xff) ^ mdsColumn3(y >>> 24);
    }

    /**
     * The S-box stages of h (§4.3.2) without the MDS multiply: the four bytes of {@code x} through
     * q0/q1 and the bytes of L = (L0, ..., L_{k-1}), k = {@code l.length}.
     */
    static int sboxes(int x, int[] l) {
        int y0 = x & 0xff;
        int y1 = (x >>> 8) & 0xff;
        int y2 = (x >>> 16) & 0xff;
        int y3 = x >>> 24;
        int n = l.length;
        if (n == 4) {
            int w = l[3];
            y0 = Q1[y0] ^ (w & 0xff);
            y1 = Q0[y1] ^ ((w >>> 8) & 0xff);
            y2 = Q0[y2] ^ ((w >>> 16) & 0xff);
            y3 = Q1[y3] ^ (w >>> 24);
        }
        if (n >= 3) {
            int w = l[2];
            y0 = Q1[y0] ^ (w & 0xff);
            y1 = Q1[y1] ^ ((w >>> 8) & 0xff);
            y2 = Q0[y2] ^ ((w >>> 16) & 0xff);
            y3 = Q0[y3] ^ (w >>> 24);
        }
        int a = l[1];
        int b = l[0];
        y0 = Q1[Q0[Q0[y0] ^ (a & 0xff)] ^ (b & 0xff)];
        y1 = Q0[Q0[Q1[y1] ^ ((a >>> 8) & 0xff)] ^ ((b >>> 8) & 0xff)];
        y2 = Q1[Q1[Q0[y2] ^ ((a >>> 16) & 0xff)] ^ ((b >>> 16) & 0xff)];
        y3 = Q0[Q1[Q1[y3] ^ (a >>> 24)] ^ (b >>> 24)];
        return y0 | y1 << 8 | y2 << 16 | y3 << 24;
    }

    /** h(X, L) (§4.3.2). */
    static int h(int x, int[] l) {
        return mdsMultiply(sboxes(x, l));
    }

    // ---- for the vector kernels (org.vectorjce.internal.vector), which key this class as their
    // scalar fallback and build their own layouts from its schedule. Public only because that is
    // another package; org.vectorjce.internal is not exported by the module. Live arrays, not
    // copies: destroy() wipes them, so the caller's destroy() must call ours.

    /** K0..K39 of this key (the live array). */
    public final int[] subkeys() {
        return k;
    }

    /** The live S-box×MDS table {@code j} (0..3): g(X) = t0[x0] ^ t1[x1] ^ t2[x2] ^ t3[x3] (§4.2). */
    public final int[] table(int j) {
        return switch (j) {
            case 0 -> t0;
            case 1 -> t1;
            case 2 -> t2;
            default -> t3;
        };
    }

    // ---- block encryption ----

    @Override
    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        int[] k = this.k;
        int[] t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
        for (int i = 0; i < blocks; i++) {
            encrypt1(in, inOff + 16 * i, out, outOff + 16 * i, k, t0, t1, t2, t3);
        }
    }

    @Override
    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        int[] k = this.k;
        int[] t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
        for (int i = 0; i < blocks; i++) {
            decrypt1(in, inOff + 16 * i, out, outOff + 16 * i, k, t0, t1, t2, t3);
        }
    }

    @Override
    public void destroy() {
        Arrays.fill(k, 0);
        Arrays.fill(t0, 0);
        Arrays.fill(t1, 0);
        Arrays.fill(t2, 0);
        Arrays.fill(t3, 0);
    }

    /*
     * The round (§4.1) on words x0..x3, two rounds per loop step so the halves trade places in the
     * variable names instead of by moves:
     *   F0 = g(x0) + g(ROL(x1, 8)) + K[2r+8],  F1 = g(x0) + 2·g(ROL(x1, 8)) + K[2r+9],
     *   x2 = ROR(x2 ^ F0, 1),  x3 = ROL(x3, 1) ^ F1.
     * g0 is g; g1(x) = g(ROL(x, 8)), with the rotation folded into the byte selection.
     */

    private static int g0(int x, int[] t0, int[] t1, int[] t2, int[] t3) {
        return t0[x & 0xff] ^ t1[(x >>> 8) & 0xff] ^ t2[(x >>> 16) & 0xff] ^ t3[x >>> 24];
    }

    private static int g1(int x, int[] t0, int[] t1, int[] t2, int[] t3) {
        return t0[x >>> 24] ^ t1[x & 0xff] ^ t2[(x >>> 8) & 0xff] ^ t3[(x >>> 16) & 0xff];
    }

    private static void encrypt1(byte[] in, int inOff, byte[] out, int outOff,
                                 int[] k, int[] t0, int[] t1, int[] t2, int[] t3) {
        int x0 = (int) LE.get(in, inOff) ^ k[0];
        int x1 = (int) LE.get(in, inOff + 4) ^ k[1];
        int x2 = (int) LE.get(in, inOff + 8) ^ k[2];
        int x3 = (int) LE.get(in, inOff + 12) ^ k[3];
        for (int r = 8; r < 40; r += 4) {
            int a = g0(x0, t0, t1, t2, t3);
            int b = g1(x1, t0, t1, t2, t3);
            x2 = Integer.rotateRight(x2 ^ (a + b + k[r]), 1);
            x3 = Integer.rotateLeft(x3, 1) ^ (a + 2 * b + k[r + 1]);
            a = g0(x2, t0, t1, t2, t3);
            b = g1(x3, t0, t1, t2, t3);
            x0 = Integer.rotateRight(x0 ^ (a + b + k[r + 2]), 1);
            x1 = Integer.rotateLeft(x1, 1) ^ (a + 2 * b + k[r + 3]);
        }
        // Output whitening undoes the last round's swap (§4): C = (x2, x3, x0, x1) ^ K4..K7.
        LE.set(out, outOff, x2 ^ k[4]);
        LE.set(out, outOff + 4, x3 ^ k[5]);
        LE.set(out, outOff + 8, x0 ^ k[6]);
        LE.set(out, outOff + 12, x1 ^ k[7]);
    }

    private static void decrypt1(byte[] in, int inOff, byte[] out, int outOff,
                                 int[] k, int[] t0, int[] t1, int[] t2, int[] t3) {
        int x2 = (int) LE.get(in, inOff) ^ k[4];
        int x3 = (int) LE.get(in, inOff + 4) ^ k[5];
        int x0 = (int) LE.get(in, inOff + 8) ^ k[6];
        int x1 = (int) LE.get(in, inOff + 12) ^ k[7];
        for (int r = 36; r >= 8; r -= 4) {
            int a = g0(x2, t0, t1, t2, t3);
            int b = g1(x3, t0, t1, t2, t3);
            x1 = Integer.rotateRight(x1 ^ (a + 2 * b + k[r + 3]), 1);
            x0 = Integer.rotateLeft(x0, 1) ^ (a + b + k[r + 2]);
            a = g0(x0, t0, t1, t2, t3);
            b = g1(x1, t0, t1, t2, t3);
            x3 = Integer.rotateRight(x3 ^ (a + 2 * b + k[r + 1]), 1);
            x2 = Integer.rotateLeft(x2, 1) ^ (a + b + k[r]);
        }
        LE.set(out, outOff, x0 ^ k[0]);
        LE.set(out, outOff + 4, x1 ^ k[1]);
        LE.set(out, outOff + 8, x2 ^ k[2]);
        LE.set(out, outOff + 12, x3 ^ k[3]);
    }

    /** {@code twofish-table-2way}: pairs of blocks interleaved, then a single-block tail. */
    static final class TwoWay extends TwofishTable {

        TwoWay(String name, byte[] key) {
            super(name, key);
        }

        @Override
        public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
            int[] k = this.k;
            int[] t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
            for (; blocks >= 2; blocks -= 2, inOff += 32, outOff += 32) {
                int p = inOff + 16;
                int x0 = (int) LE.get(in, inOff) ^ k[0];
                int x1 = (int) LE.get(in, inOff + 4) ^ k[1];
                int x2 = (int) LE.get(in, inOff + 8) ^ k[2];
                int x3 = (int) LE.get(in, inOff + 12) ^ k[3];
                int y0 = (int) LE.get(in, p) ^ k[0];
                int y1 = (int) LE.get(in, p + 4) ^ k[1];
                int y2 = (int) LE.get(in, p + 8) ^ k[2];
                int y3 = (int) LE.get(in, p + 12) ^ k[3];
                for (int r = 8; r < 40; r += 4) {
                    int a = g0(x0, t0, t1, t2, t3);
                    int c = g0(y0, t0, t1, t2, t3);
                    int b = g1(x1, t0, t1, t2, t3);
                    int d = g1(y1, t0, t1, t2, t3);
                    int k0 = k[r], k1 = k[r + 1];
                    x2 = Integer.rotateRight(x2 ^ (a + b + k0), 1);
                    y2 = Integer.rotateRight(y2 ^ (c + d + k0), 1);
                    x3 = Integer.rotateLeft(x3, 1) ^ (a + 2 * b + k1);
                    y3 = Integer.rotateLeft(y3, 1) ^ (c + 2 * d + k1);
                    a = g0(x2, t0, t1, t2, t3);
                    c = g0(y2, t0, t1, t2, t3);
                    b = g1(x3, t0, t1, t2, t3);
                    d = g1(y3, t0, t1, t2, t3);
                    k0 = k[r + 2];
                    k1 = k[r + 3];
                    x0 = Integer.rotateRight(x0 ^ (a + b + k0), 1);
                    y0 = Integer.rotateRight(y0 ^ (c + d + k0), 1);
                    x1 = Integer.rotateLeft(x1, 1) ^ (a + 2 * b + k1);
                    y1 = Integer.rotateLeft(y1, 1) ^ (c + 2 * d + k1);
                }
                int q = outOff + 16;
                LE.set(out, outOff, x2 ^ k[4]);
                LE.set(out, outOff + 4, x3 ^ k[5]);
                LE.set(out, outOff + 8, x0 ^ k[6]);
                LE.set(out, outOff + 12, x1 ^ k[7]);
                LE.set(out, q, y2 ^ k[4]);
                LE.set(out, q + 4, y3 ^ k[5]);
                LE.set(out, q + 8, y0 ^ k[6]);
                LE.set(out, q + 12, y1 ^ k[7]);
            }
            if (blocks != 0) {
                encrypt1(in, inOff, out, outOff, k, t0, t1, t2, t3);
            }
        }

        @Override
        public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
            int[] k = this.k;
            int[] t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
            for (; blocks >= 2; blocks -= 2, inOff += 32, outOff += 32) {
                int p = inOff + 16;
                int x2 = (int) LE.get(in, inOff) ^ k[4];
                int x3 = (int) LE.get(in, inOff + 4) ^ k[5];
                int x0 = (int) LE.get(in, inOff + 8) ^ k[6];
                int x1 = (int) LE.get(in, inOff + 12) ^ k[7];
                int y2 = (int) LE.get(in, p) ^ k[4];
                int y3 = (int) LE.get(in, p + 4) ^ k[5];
                int y0 = (int) LE.get(in, p + 8) ^ k[6];
                int y1 = (int) LE.get(in, p + 12) ^ k[7];
                for (int r = 36; r >= 8; r -= 4) {
                    int a = g0(x2, t0, t1, t2, t3);
                    int c = g0(y2, t0, t1, t2, t3);
                    int b = g1(x3, t0, t1, t2, t3);
                    int d = g1(y3, t0, t1, t2, t3);
                    int k2 = k[r + 2], k3 = k[r + 3];
                    x1 = Integer.rotateRight(x1 ^ (a + 2 * b + k3), 1);
                    y1 = Integer.rotateRight(y1 ^ (c + 2 * d + k3), 1);
                    x0 = Integer.rotateLeft(x0, 1) ^ (a + b + k2);
                    y0 = Integer.rotateLeft(y0, 1) ^ (c + d + k2);
                    a = g0(x0, t0, t1, t2, t3);
                    c = g0(y0, t0, t1, t2, t3);
                    b = g1(x1, t0, t1, t2, t3);
                    d = g1(y1, t0, t1, t2, t3);
                    int k0 = k[r], k1 = k[r + 1];
                    x3 = Integer.rotateRight(x3 ^ (a + 2 * b + k1), 1);
                    y3 = Integer.rotateRight(y3 ^ (c + 2 * d + k1), 1);
                    x2 = Integer.rotateLeft(x2, 1) ^ (a + b + k0);
                    y2 = Integer.rotateLeft(y2, 1) ^ (c + d + k0);
                }
                int q = outOff + 16;
                LE.set(out, outOff, x0 ^ k[0]);
                LE.set(out, outOff + 4, x1 ^ k[1]);
                LE.set(out, outOff + 8, x2 ^ k[2]);
                LE.set(out, outOff + 12, x3 ^ k[3]);
                LE.set(out, q, y0 ^ k[0]);
                LE.set(out, q + 4, y1 ^ k[1]);
                LE.set(out, q + 8, y2 ^ k[2]);
                LE.set(out, q + 12, y3 ^ k[3]);
            }
            if (blocks != 0) {
                decrypt1(in, inOff, out, outOff, k, t0, t1, t2, t3);
            }
        }
    }
}
