package org.vectorjce.internal.vector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec256-8way}: Twofish word-sliced over 8 blocks, as Linux {@code twofish-avx}
 * does it — one 256-bit {@link IntVector} per state word, lane {@code i} belonging to block
 * {@code i}. The rounds (Twofish paper §4.1) run lanewise: rotations, the pseudo-Hadamard
 * transform, subkey additions and whitening; each g (§4.2) is four gathers from the key-dependent
 * S-box×MDS tables of {@link TwofishTable} ({@code vpgatherdd}, AVX2).
 *
 * <p>The Vector API gathers from an {@code int[]} only through an index array, so each byte-index
 * vector is stored to a scratch {@code int[]} and gathered from there.
 *
 * <p><b>Not constant-time</b>: like the scalar kernels, the gathers index memory with bytes of the
 * secret state.
 *
 * <p>Batches of 8 blocks; the rest (fewer than 8) and calls below {@code MIN_BLOCKS} go to
 * {@code twofish-table-2way}, which this kernel keeps keyed as its fallback and whose tables it
 * gathers from.
 *
 * <p>Each F function is its own method ({@code half}), the state words passing through
 * {@link #words}: with a whole round pair per loop iteration of one method, C2 leaves the gathers
 * and lanewise operations boxed (allocating on every call) once any other vector kernel, e.g.
 * {@code aes-vec256-2lane}, has run in the JVM. Split, it allocates nothing in either case, at a
 * small cost in speed.
 *
 * <p>Speed is bounded by the gathers: 128 eight-lane gathers per 8 blocks. On the build machine's
 * Zen 4 an 8-lane vpgatherdd costs about as much as the eight loads it replaces, so this layout
 * only matches the interleaved scalar {@code twofish-table-2way} (docs/performance.md); CPUs with
 * faster gathers gain more. Turning off the Vector API's index bounds check
 * ({@code -Djdk.incubator.vector.VECTOR_ACCESS_OOB_CHECK=0}) does not help, and 16 blocks in flight
 * (two independent 8-lane chains) run no faster while making the batch method too large for C1
 * (see {@link TwofishVec512} on why that matters).
 */
public final class TwofishVec256 extends BlockKernel {
    /** Registry name. */
    static final String NAME = "twofish-vec256-8way";

    /** Compile-time constant species: C2 intrinsifies only constant species. */
    private static final VectorSpecies<Integer> S = IntVector.SPECIES_256;

    /** Blocks per vector batch: one block per 32-bit lane. */
    private static final int WAY = 8;

    /**
     * Below this many blocks the scalar 2-way kernel does the whole call. One 8-block vector batch
     * takes about as long as 8 blocks of {@code twofish-table-2way}, so the vector path starts at
     * one full batch and a tail of under 8 blocks stays scalar (padding it to a batch would cost a
     * full batch).
     */
    private static final int MIN_BLOCKS = WAY;

    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The scalar kernel for tails and short calls; its subkeys and tables are ours too. */
    private final TwofishTable fallback;
    private final int[] k;
    private final int[] t0, t1, t2, t3;
    /** Block words transposed to word-major order (8 lanes per word), in and out. */
    private final int[] words = new int[4 * WAY];
    /** Byte indices of one g: four runs of 8 lanes, one per table. */
    private final int[] idx = new int[4 * WAY];

    TwofishVec256(byte[] key) {
        super(NAME);
        fallback = TwofishTable.twoWay(key);
        k = fallback.subkeys();
        t0 = fallback.table(0);
        t1 = fallback.table(1);
        t2 = fallback.table(2);
        t3 = fallback.table(3);
    }

    /** Any key length: the scalar kernel's subkeys and tables (ours too) are overwritten in place. */
    @Override
    public boolean rekey(byte[] key) {
        Arrays.fill(words, 0); // the last batch's state words under the old key
        Arrays.fill(idx, 0);
        return fallback.rekey(key);
    }

    @Override
    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (blocks >= MIN_BLOCKS) {
            int n = blocks - blocks % WAY;
            encrypt8(in, inOff, out, outOff, n / WAY);
            inOff += 16 * n;
            outOff += 16 * n;
            blocks -= n;
        }
        if (blocks != 0) {
            fallback.encryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    @Override
    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (blocks >= MIN_BLOCKS) {
            int n = blocks - blocks % WAY;
            decrypt8(in, inOff, out, outOff, n / WAY);
            inOff += 16 * n;
            outOff += 16 * n;
            blocks -= n;
        }
        if (blocks != 0) {
            fallback.decryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    @Override
    public void destroy() {
        fallback.destroy(); // wipes k and t0..t3, which are its arrays
        Arrays.fill(words, 0);
        Arrays.fill(idx, 0);
    }

    /** Word offsets in {@link #words}: word j of the 8 blocks at {@code 8j}. */
    private static final int X0 = 0, X1 = WAY, X2 = 2 * WAY, X3 = 3 * WAY;

    /** Reads 8 blocks into {@link #words}, word j of block i at {@code 8*j + i}, xored with {@code k[kb + j]}. */
    private void load(byte[] in, int off, int kb) {
        final int[] w = words, k = this.k;
        final int k0 = k[kb], k1 = k[kb + 1], k2 = k[kb + 2], k3 = k[kb + 3];
        for (int i = 0; i < WAY; i++, off += 16) {
            w[i] = (int) LE.get(in, off) ^ k0;
            w[WAY + i] = (int) LE.get(in, off + 4) ^ k1;
            w[2 * WAY + i] = (int) LE.get(in, off + 8) ^ k2;
            w[3 * WAY + i] = (int) LE.get(in, off + 12) ^ k3;
        }
    }

    /** Writes 8 blocks: word j of block i is the word at {@code wj + i} ^ {@code k[kb + j]}. */
    private void store(byte[] out, int off, int w0, int w1, int w2, int w3, int kb) {
        final int[] w = words, k = this.k;
        final int k0 = k[kb], k1 = k[kb + 1], k2 = k[kb + 2], k3 = k[kb + 3];
        for (int i = 0; i < WAY; i++, off += 16) {
            LE.set(out, off, w[w0 + i] ^ k0);
            LE.set(out, off + 4, w[w1 + i] ^ k1);
            LE.set(out, off + 8, w[w2 + i] ^ k2);
            LE.set(out, off + 12, w[w3 + i] ^ k3);
        }
    }

    private void encrypt8(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k;
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            load(in, inOff, 0); // input whitening (§4)
            for (int r = 8; r < 40; r += 4) {
                half(X0, X1, X2, X3, k[r], k[r + 1], 0);
                half(X2, X3, X0, X1, k[r + 2], k[r + 3], 0);
            }
            store(out, outOff, X2, X3, X0, X1, 4); // output whitening undoes the last swap
        }
    }

    private void decrypt8(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k;
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            // C = (x2, x3, x0, x1) ^ K4..K7: the words land at X2, X3, X0, X1.
            loadDec(in, inOff);
            for (int r = 36; r >= 8; r -= 4) {
                half(X2, X3, X1, X0, k[r + 3], k[r + 2], 1);
                half(X0, X1, X3, X2, k[r + 1], k[r], 1);
            }
            store(out, outOff, X0, X1, X2, X3, 0);
        }
    }

    /** Ciphertext words into X2, X3, X0, X1, xored with K4..K7. */
    private void loadDec(byte[] in, int off) {
        final int[] w = words, k = this.k;
        final int k4 = k[4], k5 = k[5], k6 = k[6], k7 = k[7];
        for (int i = 0; i < WAY; i++, off += 16) {
            w[X2 + i] = (int) LE.get(in, off) ^ k4;
            w[X3 + i] = (int) LE.get(in, off + 4) ^ k5;
            w[X0 + i] = (int) LE.get(in, off + 8) ^ k6;
            w[X1 + i] = (int) LE.get(in, off + 12) ^ k7;
        }
    }

    /*
     * Half a round pair, one F function (§4.1), as its own method: with the whole round loop in
     * one method, once other kernels have profiled the Vector API's shared code, C2 runs out of
     * its inlining budget in it and leaves gathers and lanewise operations to their boxing Java
     * fallbacks, allocating on every call. No vector crosses the call: the state words live in
     * {@link #words}.
     *
     * a = g0(x_p), b = g1(x_q) (g1(x) = g0(ROL(x, 8)), the rotation folded into which byte feeds
     * which table), F0 = a + b, F1 = a + 2b; word ror = ROR(ror ^ (F + kRor), 1), word rol =
     * ROL(rol, 1) ^ (F' + kRol): encryption (inv 0) gives F0 to ror and F1 to rol, decryption
     * (inv 1) the other way round.
     */
    private void half(int p, int q, int ror, int rol, int kRor, int kRol, int inv) {
        final int[] w = this.words, ix = this.idx, t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
        IntVector xp = IntVector.fromArray(S, w, p);
        xp.and(0xff).intoArray(ix, 0);
        xp.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 8);
        xp.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 16);
        xp.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 24);
        IntVector a = IntVector.fromArray(S, t0, 0, ix, 0)
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
        IntVector xq = IntVector.fromArray(S, w, q);
        xq.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 0);
        xq.and(0xff).intoArray(ix, 8);
        xq.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 16);
        xq.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 24);
        IntVector b = IntVector.fromArray(S, t0, 0, ix, 0)
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
        IntVector f = a.add(b);
        IntVector x = IntVector.fromArray(S, w, ror).lanewise(VectorOperators.XOR, f.add(b.and(-inv)).add(kRor));
        x.lanewise(VectorOperators.ROR, 1).intoArray(w, ror);
        IntVector y = IntVector.fromArray(S, w, rol).lanewise(VectorOperators.ROL, 1);
        y.lanewise(VectorOperators.XOR, f.add(b.and(inv - 1)).add(kRol)).intoArray(w, rol);
    }
}
