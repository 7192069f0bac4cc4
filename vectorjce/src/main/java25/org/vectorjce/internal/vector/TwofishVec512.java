package org.vectorjce.internal.vector;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec512-16way}: Twofish word-sliced over 16 blocks per 512-bit vector, two such
 * groups (32 blocks) in flight, with g evaluated on byte planes by register-resident byte permutes.
 *
 * <p>The state is one {@link IntVector} per word and group, lane {@code i} belonging to block
 * {@code i} of the group; the round (Twofish paper §4.1) runs lanewise: one-bit rotations, the
 * pseudo-Hadamard transform, subkey additions and whitening. For the two g's of a round (§4.2) the
 * four words they read — g0's and g1's input in both groups — are transposed into four 64-byte
 * planes, plane {@code j} holding every byte that goes through S-box {@code j} (eight two-vector
 * byte permutes; the ROL by 8 of g1 is folded into them). The key-dependent S-box {@code s_j}
 * followed by each MDS coefficient {@code c} in {01, 5B, EF} is a 256-byte table {@code c·s_j(x)},
 * built at key set-up from {@link TwofishTable}'s S-box×MDS tables and held as four vectors; a
 * lookup is two two-vector permutes of 128 entries each ({@code ByteVector.selectFrom(v1, v2)},
 * one {@code vpermi2b} with AVX-512 VBMI) blended on the index's top bit. The MDS product is then
 * xors of planes, and eight more permutes turn the planes back into words.
 *
 * <p><b>Free of secret-indexed memory access</b> on its vector path: the S-box lookups are
 * permutes of tables held in registers (each loaded whole, from a fixed address), and every other
 * step is lanewise arithmetic or a fixed permute, so cache timing does not see the data. Blocks that
 * go to the scalar fallback ({@code twofish-table-2way}: calls and tails shorter than
 * {@code PAD_MIN_BLOCKS}) do index memory with secret bytes, and so does the key set-up.
 *
 * <p>Needs single-instruction byte permutes (AVX-512 VBMI): without them {@code selectFrom} on
 * bytes is emulated and far slower, so the factory declines.
 *
 * <p>The batch itself is {@link TwofishVec512Rounds}: the 32 blocks' state in local vectors, one
 * round per loop iteration, so nothing goes through memory between rounds and the method is small
 * enough for C2 to compile it from the loop (on-stack) within the first thousand batches.
 * Its speed against {@code twofish-table-2way}: docs/performance.md.
 */
public final class TwofishVec512 extends TwofishBatchKernel {
    /** Registry name. */
    static final String NAME = "twofish-vec512-16way";

    /** Compile-time constant species: C2 intrinsifies only constant species. */
    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_512;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_512;

    /**
     * Blocks per vector batch: 16 per vector (one per 32-bit lane) and two groups, because a byte
     * plane of 64 lanes is filled by the 4 words g reads in one round only when 2 × 16 blocks are
     * in flight (one group would leave every permute and blend half idle).
     */
    private static final int WAY = 32;

    /**
     * A tail of at least this many blocks (fewer than {@link #WAY}) is run as one padded vector
     * batch through a scratch buffer; shorter tails, and calls, go to the scalar fallback. A padded
     * 32-block batch takes the same time whatever the tail's length, about as long as this many
     * blocks on {@code twofish-table-2way}.
     */
    static final int PAD_MIN_BLOCKS = 11;

    // ---- fixed permutes (index vectors); lane layouts are described where they are used ----

    /** Words to planes, step 1: bytes 0,1 (LO) or 2,3 (HI) of p and of ROL(q, 8), 16 lanes each. */
    static final ByteVector IN1_LO, IN1_HI;
    /** Words to planes, step 2: plane 0 or 2 (LO), 1 or 3 (HI) from the halves of group a and b. */
    static final ByteVector IN2_LO, IN2_HI;
    /** Planes to words, step 1: bytes 0,1 (or 2,3) of each word of group a (A) or b (B), paired. */
    static final ByteVector OUT1_A, OUT1_B;
    /** Planes to words, step 2: g0's words (LO) or g1's (HI). */
    static final ByteVector OUT2_LO, OUT2_HI;
    /** Blocks to words and back; see {@link #load} and {@link #store}. */
    static final IntVector LD1_LO, LD1_HI, LD2_LO, LD2_HI, ST1_LO, ST1_HI, ST2_LO, ST2_HI;

    static {
        byte[] in1lo = new byte[64], in1hi = new byte[64], in2lo = new byte[64], in2hi = new byte[64];
        byte[] out1a = new byte[64], out1b = new byte[64], out2lo = new byte[64], out2hi = new byte[64];
        for (int l = 0; l < 16; l++) {
            // Byte b of ROL(q, 8) is byte (b + 3) % 4 of q; indices 64.. select from the second vector.
            in1lo[l] = (byte) (4 * l);
            in1lo[16 + l] = (byte) (64 + 4 * l + 3);
            in1lo[32 + l] = (byte) (4 * l + 1);
            in1lo[48 + l] = (byte) (64 + 4 * l);
            in1hi[l] = (byte) (4 * l + 2);
            in1hi[16 + l] = (byte) (64 + 4 * l + 1);
            in1hi[32 + l] = (byte) (4 * l + 3);
            in1hi[48 + l] = (byte) (64 + 4 * l + 2);
        }
        for (int x = 0; x < 64; x++) {
            in2lo[x] = (byte) (x < 32 ? x : x + 32);
            in2hi[x] = (byte) (x < 32 ? x + 32 : x + 64);
            int l = x >> 1, e = x & 1; // pair (z_2e'.., z_2e'+1) of plane lane l
            out1a[x] = (byte) (l + 64 * e);
            out1b[x] = (byte) (32 + l + 64 * e);
            int w = x >> 2, i = x & 3; // byte i of word w
            out2lo[x] = (byte) (i < 2 ? 2 * w + i : 64 + 2 * w + i - 2);
            out2hi[x] = (byte) (i < 2 ? 32 + 2 * w + i : 96 + 2 * w + i - 2);
        }
        IN1_LO = ByteVector.fromArray(B, in1lo, 0);
        IN1_HI = ByteVector.fromArray(B, in1hi, 0);
        IN2_LO = ByteVector.fromArray(B, in2lo, 0);
        IN2_HI = ByteVector.fromArray(B, in2hi, 0);
        OUT1_A = ByteVector.fromArray(B, out1a, 0);
        OUT1_B = ByteVector.fromArray(B, out1b, 0);
        OUT2_LO = ByteVector.fromArray(B, out2lo, 0);
        OUT2_HI = ByteVector.fromArray(B, out2hi, 0);

        int[] ld1lo = new int[16], ld1hi = new int[16], ld2lo = new int[16], ld2hi = new int[16];
        int[] st1lo = new int[16], st1hi = new int[16], st2lo = new int[16], st2hi = new int[16];
        for (int p = 0; p < 16; p++) {
            // Load step 1: words 0,1 (LO) or 2,3 (HI) of 8 blocks from two 4-block vectors.
            ld1lo[p] = 4 * (p % 8) + p / 8;
            ld1hi[p] = 4 * (p % 8) + 2 + p / 8;
            // Load step 2: one word of 16 blocks from the 8-block halves.
            ld2lo[p] = p < 8 ? p : p + 8;
            ld2hi[p] = p < 8 ? p + 8 : p + 16;
            // Store step 1: word pairs (c0, c1) or (c2, c3) of blocks 0..7 (LO) or 8..15 (HI).
            st1lo[p] = p / 2 + 16 * (p % 2);
            st1hi[p] = 8 + p / 2 + 16 * (p % 2);
            // Store step 2: four whole blocks, 0..3 (LO) or 4..7 (HI) of the 8-block pairs.
            int b = p / 4, w = p % 4;
            st2lo[p] = w < 2 ? 2 * b + w : 16 + 2 * b + w - 2;
            st2hi[p] = w < 2 ? 8 + 2 * b + w : 24 + 2 * b + w - 2;
        }
        LD1_LO = IntVector.fromArray(I, ld1lo, 0);
        LD1_HI = IntVector.fromArray(I, ld1hi, 0);
        LD2_LO = IntVector.fromArray(I, ld2lo, 0);
        LD2_HI = IntVector.fromArray(I, ld2hi, 0);
        ST1_LO = IntVector.fromArray(I, st1lo, 0);
        ST1_HI = IntVector.fromArray(I, st1hi, 0);
        ST2_LO = IntVector.fromArray(I, st2lo, 0);
        ST2_HI = IntVector.fromArray(I, st2hi, 0);
    }

    /**
     * Row of the MDS matrix (§4.2) that holds coefficient 01, 5B, EF in column j; byte ROW of
     * {@code TwofishTable.table(j)[x]} is then that coefficient times s_j(x).
     * MDS = [01 EF 5B 5B; 5B EF EF 01; EF 5B 01 EF; EF 01 EF 5B].
     */
    private static final int[][] ROW_OF = {{0, 1, 2}, {3, 2, 0}, {2, 0, 1}, {1, 0, 2}};

    /** The twelve {@code c·s_j} tables: table (j, c) at {@code 256 * (3j + c)}, c = 0, 1, 2 for 01, 5B, EF. */
    private final byte[] tab = new byte[12 * 256];

    /**
     * {@code padAll} under the constant-time policy: every call and tail shorter than a batch is
     * padded into one (a whole batch's time, even for one block), so no block ever reaches the
     * fallback's table lookups.
     */
    TwofishVec512(byte[] key, boolean padAll) {
        super(NAME, key, WAY, PAD_MIN_BLOCKS, padAll);
        fillTables();
    }

    /**
     * Any key length: the scalar schedule is re-keyed in place ({@link #k} is its array) and the
     * byte tables are rewritten in place, so a new key allocates nothing here.
     */
    @Override
    public boolean rekey(byte[] key) {
        fallback.rekey(key);
        fillTables();
        return true;
    }

    /** The twelve c·s_j tables from the scalar kernel's S-box×MDS words. */
    private void fillTables() {
        for (int j = 0; j < 4; j++) {
            int[] t = fallback.table(j);
            for (int c = 0; c < 3; c++) {
                int shift = 8 * ROW_OF[j][c];
                int base = 256 * (3 * j + c);
                for (int x = 0; x < 256; x++) {
                    tab[base + x] = (byte) (t[x] >>> shift);
                }
            }
        }
    }

    @Override
    public void destroy() {
        super.destroy(); // the fallback's schedule (k is its array) and the pad
        java.util.Arrays.fill(tab, (byte) 0);
    }

    /** Encrypts {@code batches} × 32 blocks. */
    @Override
    void encryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        TwofishVec512Rounds.encrypt(tab, k, in, inOff, out, outOff, batches);
    }

    /** Decrypts {@code batches} × 32 blocks. */
    @Override
    void decryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        TwofishVec512Rounds.decrypt(tab, k, in, inOff, out, outOff, batches);
    }
}
