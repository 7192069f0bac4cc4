// The blocks marked BEGIN GENERATED .. END GENERATED are written by src/main/gen/gen_twofish.py; the rest is edited here.
package org.vectorjce.internal.vector;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.ROL;
import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
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
 * <p>Two batch paths, chosen at key set-up by the provider's {@code twofish16.path} ({@link Twofish16Path}):
 * <ul>
 *   <li><b>split</b> (this class): a round is three calls ({@code sboxes01}, {@code sboxes23},
 *       {@code pht} with {@code planes}) that hand vectors on through {@code mem}, each small
 *       enough for C1's tier 3, so the kernel reaches C2 soon after its first calls. It pays a
 *       store and a load per vector between steps, and the segment accesses' checks.</li>
 *   <li><b>fused</b> ({@link TwofishVec512Fused}): the state in local vectors, four rounds per loop
 *       iteration, faster once C2 has it, but C1 refuses it at every tier, so it runs
 *       interpreted (a few MB/s) until C2 compiles it.</li>
 * </ul>
 * {@code auto} (the default) serves a kernel's first batches split and hands over to the fused
 * batch by count, after probing it into C2 ({@link #probe}, {@link Twofish16Path}).
 * No method of either takes or returns a vector: a helper that C2 does not inline boxes every
 * vector crossing its boundary. Its speed against {@code twofish-table-2way}: docs/performance.md.
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

    /*
     * Working memory: one native segment, 64-byte aligned so that no 64-byte vector access
     * straddles two cache lines (Java arrays give no alignment: their data starts 16 bytes into the
     * object). Every state and plane vector here is stored by one step and loaded by the next,
     * and the 48 table vectors are loaded every round. In a heap byte[] the kernel is no faster
     * and varies with where the GC placed the array.
     *
     *   TABLES  table (j, c) = c·s_j(x), x = 0..255, at 256 * (3j + c); c = 0, 1, 2 for 01, 5B, EF
     *   slot    state: words x0..x3 of group a at X0..X3 (16 lanes each, lane p = block p of the
     *           group), group b GROUP_B further; the round's four byte planes at PLANES; the
     *           S-boxes' partial output at PARTIAL
     */
    private static final int SLOTS = 2;
    private static final int TABLES = 0;
    private static final int SLOT0 = 12 * 256;
    private static final int SLOT = 1024;
    private static final int X0 = 0, X1 = 64, X2 = 128, X3 = 192, GROUP_B = 256, PLANES = 512, PARTIAL = 768;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final MemorySegment mem = Arena.ofAuto().allocate(SLOT0 + SLOTS * SLOT, 64);
    /** The batch slots of {@link #mem}, wiped on re-key (the tables are rewritten whole). */
    private final MemorySegment slots = mem.asSlice(SLOT0);
    /**
     * {@code padAll} under the constant-time policy: every call and tail shorter than a batch is
     * padded into one (a whole batch's time, even for one block), so no block ever reaches the
     * fallback's table lookups.
     */
    TwofishVec512(byte[] key, boolean padAll, int path) {
        this(key, padAll, path, Twofish16Path.PROBE_AT, Twofish16Path.HANDOVER_AT);
    }

    /**
     * With {@code path} {@link Twofish16Path#AUTO}: the split batch until this kernel has served
     * {@code handoverAt} batches in a direction, the fused batch after; it probes the fused batch
     * (see {@link #probe}) from {@code probeAt} batches on. The forced paths set both counts
     * themselves: {@code fused} hands over at 0, {@code split} never.
     */
    TwofishVec512(byte[] key, boolean padAll, int path, int probeAt, int handoverAt) {
        super(NAME, key, WAY, PAD_MIN_BLOCKS, padAll);
        this.probeAt = path == Twofish16Path.AUTO ? probeAt : NEVER;
        this.handoverAt = path == Twofish16Path.AUTO ? handoverAt
                : Twofish16Path.fused(path) ? 0 : NEVER;
        fillTables();
    }

    /**
     * Batches served by the split code in each direction (at most {@link #NEVER} − 1): the
     * per-kernel count {@link Twofish16Path#AUTO} switches on. Kept across {@link #rekey}, which
     * changes the key and not what HotSpot has compiled; zeroed by {@link #destroy}. Not secret.
     */
    private int encSplit, decSplit;
    /**
     * A count the batch counts never reach (they stop one below): the forced {@code split} path's
     * probe and hand-over points, so that it does not switch even after 2^31 batches.
     */
    private static final int NEVER = Integer.MAX_VALUE;
    /** {@link #probe}s made in each direction. */
    private int encProbes, decProbes;
    /** See the constructor: from {@code handoverAt} batches served in a direction the fused batch serves. */
    private final int probeAt, handoverAt;
    /** The one batch a probe runs: zeroes, wiped after each. */
    private final byte[] probe = new byte[16 * WAY];

    /** {@code "split"} or {@code "fused"}: the code this kernel's next batch in the direction runs. */
    public String servingBatch(boolean enc) {
        return (enc ? encSplit : decSplit) >= handoverAt ? "fused" : "split";
    }

    /**
     * The tables again in a heap array for {@link TwofishVec512Fused} (same layout as
     * {@code TABLES}); written with them at every key set-up, so either path can serve any call.
     */
    private final byte[] tab = new byte[TABLE_BYTES];
    private static final int TABLE_BYTES = 12 * 256;

    /**
     * Any key length: the scalar schedule is re-keyed in place ({@link #k} is its array) and the
     * byte tables are rewritten in the same native segment, so a new key allocates nothing here.
     */
    @Override
    public boolean rekey(byte[] key) {
        fallback.rekey(key);
        slots.fill((byte) 0); // the last batch's state and planes under the old key
        fillTables();
        return true;
    }

    /** The twelve c·s_j tables from the scalar kernel's S-box×MDS words, four bytes per store. */
    private void fillTables() {
        for (int j = 0; j < 4; j++) {
            int[] t = fallback.table(j);
            for (int c = 0; c < 3; c++) {
                int shift = 8 * ROW_OF[j][c];
                long base = TABLES + 256 * (3 * j + c);
                for (int x = 0; x < 256; x += 4) {
                    int w = (t[x] >>> shift & 0xff) | (t[x + 1] >>> shift & 0xff) << 8
                            | (t[x + 2] >>> shift & 0xff) << 16 | (t[x + 3] >>> shift & 0xff) << 24;
                    mem.set(INT_LE, base + x, w);
                }
            }
        }
        MemorySegment.copy(mem, ValueLayout.JAVA_BYTE, TABLES, tab, 0, TABLE_BYTES);
    }

    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public void destroy() {
        super.destroy(); // the fallback's schedule (k is its array) and the pad
        mem.fill((byte) 0);
        java.util.Arrays.fill(tab, (byte) 0);
        encSplit = decSplit = encProbes = decProbes = 0;
    }

    // BEGIN GENERATED by src/main/gen/gen_twofish.py (table offsets): edit the generator, not this block.
    /** Offsets of the c·s_j tables in {@link #mem}: 256 bytes each, loaded as four vectors. */
    private static final int T0x01 = TABLES, T0x5B = T0x01 + 256, T0xEF = T0x01 + 512;
    private static final int T1x01 = TABLES + 768, T1x5B = T1x01 + 256, T1xEF = T1x01 + 512;
    private static final int T2x01 = TABLES + 1536, T2x5B = T2x01 + 256, T2xEF = T2x01 + 512;
    private static final int T3x01 = TABLES + 2304, T3x5B = T3x01 + 256, T3xEF = T3x01 + 512;
    // END GENERATED (table offsets)

    /*
     * The batch loops run up to SLOTS independent batches side by side, one step of each in turn:
     * a round's steps form one dependency chain through all 32 blocks of a batch, so a second
     * batch gives the core independent work while the first waits on permute and store-to-load
     * latencies. The gain is small; four slots are no better than two.
     */

    /** Encrypts {@code batches} × 32 blocks. */
    @Override
    void encryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        if (encSplit >= handoverAt) {
            TwofishVec512Fused.encrypt(tab, k, in, inOff, out, outOff, batches);
            return;
        }
        splitEncrypt(in, inOff, out, outOff, batches);
        encSplit = (int) Math.min((long) encSplit + batches, NEVER - 1);
        if (encSplit >= probeAt) {
            encProbes = probe(true, encProbes);
        }
    }

    /** Decrypts {@code batches} × 32 blocks. */
    @Override
    void decryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        if (decSplit >= handoverAt) {
            TwofishVec512Fused.decrypt(tab, k, in, inOff, out, outOff, batches);
            return;
        }
        splitDecrypt(in, inOff, out, outOff, batches);
        decSplit = (int) Math.min((long) decSplit + batches, NEVER - 1);
        if (decSplit >= probeAt) {
            decProbes = probe(false, decProbes);
        }
    }

    /**
     * Calls the fused batch in one direction so that HotSpot compiles it while the split batch
     * serves: the first {@link Twofish16Path#PROBE_BURST} probes {@code PROBE_BURST / 32} at a time,
     * then one per call. A probe asks for no batch, except every 1024th, which runs one batch over
     * the zeroes of {@link #probe} (and wipes it): enough for the profile to hold the batch loop,
     * so that C2 compiles it rather than a trap. An empty call costs the interpreter well under a
     * microsecond; a real one, interpreted, about 0.1 ms (the forced fused batch's first second
     * runs at about 5 MB/s), some 150 compiled split batches.
     *
     * @return the probes made in this direction so far
     */
    private int probe(boolean enc, int done) {
        for (int n = done < Twofish16Path.PROBE_BURST ? Twofish16Path.PROBE_BURST / 32 : 1; n > 0; n--, done++) {
            int batches = (done & 1023) == 0 ? 1 : 0;
            if (enc) {
                TwofishVec512Fused.encrypt(tab, k, probe, 0, probe, 0, batches);
            } else {
                TwofishVec512Fused.decrypt(tab, k, probe, 0, probe, 0, batches);
            }
            if (batches != 0) {
                java.util.Arrays.fill(probe, (byte) 0);
            }
        }
        return done;
    }

    /** The split rounds: {@code batches} × 32 blocks. */
    private void splitEncrypt(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k;
        while (batches > 0) {
            int n = Math.min(batches, SLOTS);
            // Input whitening (§4): (x0, x1, x2, x3) = P ^ K0..K3.
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                load(in, inOff + 16 * WAY * i, s, X0, X1, X2, X3, 0);
            }
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                planes(s, X0, X1);
            }
            // BEGIN GENERATED by src/main/gen/gen_twofish.py (split encryption rounds): edit the generator, not this block.
            for (int r = 8; r < 40; r += 4) {
                // Round (§4.1): x2 = ROR(x2 ^ F0, 1), x3 = ROL(x3, 1) ^ F1 with F from g0(x0),
                // g1(x1); the next round with the halves swapped. Each pht step also lays out the
                // next round's planes (after the last round, needlessly).
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes01(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes23(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    pht(s, X2, X3, k[r], k[r + 1], 0, X2, X3);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes01(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes23(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    pht(s, X0, X1, k[r + 2], k[r + 3], 0, X0, X1);
                }
            }
            // END GENERATED (split encryption rounds)
            // Output whitening undoes the last swap (§4): C = (x2, x3, x0, x1) ^ K4..K7.
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                store(out, outOff + 16 * WAY * i, s, X2, X3, X0, X1, 4);
            }
            batches -= n;
            inOff += 16 * WAY * n;
            outOff += 16 * WAY * n;
        }
    }

    /** The split rounds of {@link #splitEncrypt} in reverse. */
    private void splitDecrypt(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k;
        while (batches > 0) {
            int n = Math.min(batches, SLOTS);
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                load(in, inOff + 16 * WAY * i, s, X2, X3, X0, X1, 4);
            }
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                planes(s, X2, X3);
            }
            // BEGIN GENERATED by src/main/gen/gen_twofish.py (split decryption rounds): edit the generator, not this block.
            for (int r = 36; r >= 8; r -= 4) {
                // Inverse round: x1 = ROR(x1 ^ F1, 1), x0 = ROL(x0, 1) ^ F0 with F from g0(x2),
                // g1(x3); then x3, x2 from g0(x0), g1(x1).
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes01(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes23(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    pht(s, X1, X0, k[r + 3], k[r + 2], 1, X0, X1);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes01(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    sboxes23(s);
                }
                for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                    pht(s, X3, X2, k[r + 1], k[r], 1, X2, X3);
                }
            }
            // END GENERATED (split decryption rounds)
            for (int i = 0, s = SLOT0; i < n; i++, s += SLOT) {
                store(out, outOff + 16 * WAY * i, s, X0, X1, X2, X3, 0);
            }
            batches -= n;
            inOff += 16 * WAY * n;
            outOff += 16 * WAY * n;
        }
    }

    /**
     * Loads 32 blocks into the slot at {@code s}: word j of each block, xored with {@code k[kb + j]},
     * to the word at {@code s + wj}. Blocks come four to a vector (lane 4b + w = word w of block b);
     * two steps of two-vector permutes gather one word of 16 blocks per vector.
     */
    private void load(byte[] in, int off, int s, int w0, int w1, int w2, int w3, int kb) {
        final MemorySegment m = mem;
        final int[] k = this.k;
        for (int g = s; g <= s + GROUP_B; g += GROUP_B, off += 256) {
            IntVector l0 = ByteVector.fromArray(B, in, off).reinterpretAsInts();
            IntVector l1 = ByteVector.fromArray(B, in, off + 64).reinterpretAsInts();
            IntVector l2 = ByteVector.fromArray(B, in, off + 128).reinterpretAsInts();
            IntVector l3 = ByteVector.fromArray(B, in, off + 192).reinterpretAsInts();
            IntVector m0 = LD1_LO.selectFrom(l0, l1), m1 = LD1_HI.selectFrom(l0, l1);
            IntVector m2 = LD1_LO.selectFrom(l2, l3), m3 = LD1_HI.selectFrom(l2, l3);
            LD2_LO.selectFrom(m0, m2).lanewise(XOR, k[kb]).intoMemorySegment(m, g + w0, LE);
            LD2_HI.selectFrom(m0, m2).lanewise(XOR, k[kb + 1]).intoMemorySegment(m, g + w1, LE);
            LD2_LO.selectFrom(m1, m3).lanewise(XOR, k[kb + 2]).intoMemorySegment(m, g + w2, LE);
            LD2_HI.selectFrom(m1, m3).lanewise(XOR, k[kb + 3]).intoMemorySegment(m, g + w3, LE);
        }
    }

    /** The inverse of {@link #load}: word j of each block is the word at {@code s + wj} ^ {@code k[kb + j]}. */
    private void store(byte[] out, int off, int s, int w0, int w1, int w2, int w3, int kb) {
        final MemorySegment m = mem;
        final int[] k = this.k;
        for (int g = s; g <= s + GROUP_B; g += GROUP_B, off += 256) {
            IntVector c0 = IntVector.fromMemorySegment(I, m, g + w0, LE).lanewise(XOR, k[kb]);
            IntVector c1 = IntVector.fromMemorySegment(I, m, g + w1, LE).lanewise(XOR, k[kb + 1]);
            IntVector c2 = IntVector.fromMemorySegment(I, m, g + w2, LE).lanewise(XOR, k[kb + 2]);
            IntVector c3 = IntVector.fromMemorySegment(I, m, g + w3, LE).lanewise(XOR, k[kb + 3]);
            IntVector n0 = ST1_LO.selectFrom(c0, c1), n1 = ST1_HI.selectFrom(c0, c1);
            IntVector n2 = ST1_LO.selectFrom(c2, c3), n3 = ST1_HI.selectFrom(c2, c3);
            ST2_LO.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, off);
            ST2_HI.selectFrom(n0, n2).reinterpretAsBytes().intoArray(out, off + 64);
            ST2_LO.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, off + 128);
            ST2_HI.selectFrom(n1, n3).reinterpretAsBytes().intoArray(out, off + 192);
        }
    }

    /*
     * A round (§4.1) on both groups of the slot at s: planes (g's input words to byte planes),
     * sboxes01 and sboxes23 (S-boxes and MDS on the planes, §4.2), pht (planes back to words, PHT,
     * subkeys, rotations, then the next round's planes). Split there because C1 compiles each of
     * these at tier 3 but not two of them together (see the class comment).
     */

    /**
     * g0 of word {@code p} and g1 of word {@code q}: the four words as byte planes at
     * {@code s + PLANES}. Plane i_j holds byte j of a.p | ROL(a.q, 8) | b.p | ROL(b.q, 8), 16 lanes
     * each (g1(x) = g0(ROL(x, 8)): the rotation is folded into IN1).
     */
    private void planes(int s, int p, int q) {
        final MemorySegment m = mem;
        ByteVector ap = ByteVector.fromMemorySegment(B, m, s + p, LE);
        ByteVector aq = ByteVector.fromMemorySegment(B, m, s + q, LE);
        ByteVector bp = ByteVector.fromMemorySegment(B, m, s + GROUP_B + p, LE);
        ByteVector bq = ByteVector.fromMemorySegment(B, m, s + GROUP_B + q, LE);
        ByteVector u0 = IN1_LO.selectFrom(ap, aq), u1 = IN1_HI.selectFrom(ap, aq);
        ByteVector v0 = IN1_LO.selectFrom(bp, bq), v1 = IN1_HI.selectFrom(bp, bq);
        IN2_LO.selectFrom(u0, v0).intoMemorySegment(m, s + PLANES, LE);
        IN2_HI.selectFrom(u0, v0).intoMemorySegment(m, s + PLANES + 64, LE);
        IN2_LO.selectFrom(u1, v1).intoMemorySegment(m, s + PLANES + 128, LE);
        IN2_HI.selectFrom(u1, v1).intoMemorySegment(m, s + PLANES + 192, LE);
    }

    // BEGIN GENERATED by src/main/gen/gen_twofish.py (sboxes): edit the generator, not this block.
    /*
     * S-boxes and MDS (§4.2) on the planes at s + PLANES, in two steps (C1 again: all four S-boxes
     * in one method are too large for it). sJxC = C·s_J(i_J) is a 256-entry table held as four
     * vectors, looked up as two 128-entry two-vector permutes (selectFrom wraps the index modulo
     * 128) blended on the index's top bit. Output plane z_i is the xor over j of MDS[i][j]·s_j,
     * MDS = [01 EF 5B 5B; 5B EF EF 01; EF 5B 01 EF; EF 01 EF 5B].
     */

    /** S-boxes 0 and 1 on planes i0, i1: their part of z0..z3 to {@code s + PARTIAL}. */
    private void sboxes01(int s) {
        final MemorySegment m = mem;
        final int pl = s + PLANES, zp = s + PARTIAL;
        ByteVector i0 = ByteVector.fromMemorySegment(B, m, pl + 0, LE);
        VectorMask<Byte> h0 = i0.lt((byte) 0);
        ByteVector s0x01 = i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0x01, LE), ByteVector.fromMemorySegment(B, m, T0x01 + 64, LE))
                .blend(i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0x01 + 128, LE), ByteVector.fromMemorySegment(B, m, T0x01 + 192, LE)), h0);
        ByteVector s0x5B = i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0x5B, LE), ByteVector.fromMemorySegment(B, m, T0x5B + 64, LE))
                .blend(i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0x5B + 128, LE), ByteVector.fromMemorySegment(B, m, T0x5B + 192, LE)), h0);
        ByteVector s0xEF = i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0xEF, LE), ByteVector.fromMemorySegment(B, m, T0xEF + 64, LE))
                .blend(i0.selectFrom(ByteVector.fromMemorySegment(B, m, T0xEF + 128, LE), ByteVector.fromMemorySegment(B, m, T0xEF + 192, LE)), h0);
        ByteVector i1 = ByteVector.fromMemorySegment(B, m, pl + 64, LE);
        VectorMask<Byte> h1 = i1.lt((byte) 0);
        ByteVector s1x01 = i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1x01, LE), ByteVector.fromMemorySegment(B, m, T1x01 + 64, LE))
                .blend(i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1x01 + 128, LE), ByteVector.fromMemorySegment(B, m, T1x01 + 192, LE)), h1);
        ByteVector s1x5B = i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1x5B, LE), ByteVector.fromMemorySegment(B, m, T1x5B + 64, LE))
                .blend(i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1x5B + 128, LE), ByteVector.fromMemorySegment(B, m, T1x5B + 192, LE)), h1);
        ByteVector s1xEF = i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1xEF, LE), ByteVector.fromMemorySegment(B, m, T1xEF + 64, LE))
                .blend(i1.selectFrom(ByteVector.fromMemorySegment(B, m, T1xEF + 128, LE), ByteVector.fromMemorySegment(B, m, T1xEF + 192, LE)), h1);
        s0x01.lanewise(XOR, s1xEF).intoMemorySegment(m, zp, LE);
        s0x5B.lanewise(XOR, s1xEF).intoMemorySegment(m, zp + 64, LE);
        s0xEF.lanewise(XOR, s1x5B).intoMemorySegment(m, zp + 128, LE);
        s0xEF.lanewise(XOR, s1x01).intoMemorySegment(m, zp + 192, LE);
    }

    /** S-boxes 2 and 3 on planes i2, i3, plus the part from {@link #sboxes01}: z0..z3 to {@code s + PLANES}. */
    private void sboxes23(int s) {
        final MemorySegment m = mem;
        final int pl = s + PLANES, zp = s + PARTIAL;
        ByteVector i2 = ByteVector.fromMemorySegment(B, m, pl + 128, LE);
        VectorMask<Byte> h2 = i2.lt((byte) 0);
        ByteVector s2x01 = i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2x01, LE), ByteVector.fromMemorySegment(B, m, T2x01 + 64, LE))
                .blend(i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2x01 + 128, LE), ByteVector.fromMemorySegment(B, m, T2x01 + 192, LE)), h2);
        ByteVector s2x5B = i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2x5B, LE), ByteVector.fromMemorySegment(B, m, T2x5B + 64, LE))
                .blend(i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2x5B + 128, LE), ByteVector.fromMemorySegment(B, m, T2x5B + 192, LE)), h2);
        ByteVector s2xEF = i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2xEF, LE), ByteVector.fromMemorySegment(B, m, T2xEF + 64, LE))
                .blend(i2.selectFrom(ByteVector.fromMemorySegment(B, m, T2xEF + 128, LE), ByteVector.fromMemorySegment(B, m, T2xEF + 192, LE)), h2);
        ByteVector i3 = ByteVector.fromMemorySegment(B, m, pl + 192, LE);
        VectorMask<Byte> h3 = i3.lt((byte) 0);
        ByteVector s3x01 = i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3x01, LE), ByteVector.fromMemorySegment(B, m, T3x01 + 64, LE))
                .blend(i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3x01 + 128, LE), ByteVector.fromMemorySegment(B, m, T3x01 + 192, LE)), h3);
        ByteVector s3x5B = i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3x5B, LE), ByteVector.fromMemorySegment(B, m, T3x5B + 64, LE))
                .blend(i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3x5B + 128, LE), ByteVector.fromMemorySegment(B, m, T3x5B + 192, LE)), h3);
        ByteVector s3xEF = i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3xEF, LE), ByteVector.fromMemorySegment(B, m, T3xEF + 64, LE))
                .blend(i3.selectFrom(ByteVector.fromMemorySegment(B, m, T3xEF + 128, LE), ByteVector.fromMemorySegment(B, m, T3xEF + 192, LE)), h3);
        s2x5B.lanewise(XOR, s3x5B).lanewise(XOR, ByteVector.fromMemorySegment(B, m, zp, LE)).intoMemorySegment(m, pl, LE);
        s2xEF.lanewise(XOR, s3x01).lanewise(XOR, ByteVector.fromMemorySegment(B, m, zp + 64, LE)).intoMemorySegment(m, pl + 64, LE);
        s2x01.lanewise(XOR, s3xEF).lanewise(XOR, ByteVector.fromMemorySegment(B, m, zp + 128, LE)).intoMemorySegment(m, pl + 128, LE);
        s2xEF.lanewise(XOR, s3x5B).lanewise(XOR, ByteVector.fromMemorySegment(B, m, zp + 192, LE)).intoMemorySegment(m, pl + 192, LE);
    }
    // END GENERATED (sboxes)

    /**
     * The output planes at {@code s + PLANES} back to words g0(a.p), g1(a.q), g0(b.p), g1(b.q),
     * then the PHT, the subkeys and the one-bit rotations into words {@code ror}
     * (x = ROR(x ^ F, 1)) and {@code rol} (x = ROL(x, 1) ^ F'). F0 = g0 + g1, F1 = g0 + 2·g1:
     * encryption ({@code inv} 0) gives F0 + kRor to the ROR word and F1 + kRol to the ROL word,
     * decryption ({@code inv} 1) F1 and F0 — the shift by {@code inv} below picks which. Then the
     * next round's planes, of words {@code p} and {@code q}.
     */
    private void pht(int s, int ror, int rol, int kRor, int kRol, int inv, int p, int q) {
        final MemorySegment m = mem;
        final int pl = s + PLANES;
        ByteVector z0 = ByteVector.fromMemorySegment(B, m, pl, LE);
        ByteVector z1 = ByteVector.fromMemorySegment(B, m, pl + 64, LE);
        ByteVector z2 = ByteVector.fromMemorySegment(B, m, pl + 128, LE);
        ByteVector z3 = ByteVector.fromMemorySegment(B, m, pl + 192, LE);
        ByteVector y01a = OUT1_A.selectFrom(z0, z1), y01b = OUT1_B.selectFrom(z0, z1);
        ByteVector y23a = OUT1_A.selectFrom(z2, z3), y23b = OUT1_B.selectFrom(z2, z3);
        IntVector ga0 = OUT2_LO.selectFrom(y01a, y23a).reinterpretAsInts();
        IntVector ga1 = OUT2_HI.selectFrom(y01a, y23a).reinterpretAsInts();
        IntVector gb0 = OUT2_LO.selectFrom(y01b, y23b).reinterpretAsInts();
        IntVector gb1 = OUT2_HI.selectFrom(y01b, y23b).reinterpretAsInts();
        IntVector fa = ga0.add(ga1.lanewise(LSHL, inv)).add(kRor);
        IntVector fa2 = ga0.add(ga1.lanewise(LSHL, 1 - inv)).add(kRol);
        IntVector fb = gb0.add(gb1.lanewise(LSHL, inv)).add(kRor);
        IntVector fb2 = gb0.add(gb1.lanewise(LSHL, 1 - inv)).add(kRol);
        ror += s;
        rol += s;
        IntVector.fromMemorySegment(I, m, ror, LE).lanewise(XOR, fa).lanewise(ROR, 1).intoMemorySegment(m, ror, LE);
        IntVector.fromMemorySegment(I, m, rol, LE).lanewise(ROL, 1).lanewise(XOR, fa2).intoMemorySegment(m, rol, LE);
        ror += GROUP_B;
        rol += GROUP_B;
        IntVector.fromMemorySegment(I, m, ror, LE).lanewise(XOR, fb).lanewise(ROR, 1).intoMemorySegment(m, ror, LE);
        IntVector.fromMemorySegment(I, m, rol, LE).lanewise(ROL, 1).lanewise(XOR, fb2).intoMemorySegment(m, rol, LE);
        planes(s, p, q);
    }
}
