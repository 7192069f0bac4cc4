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
 * <p>Speed is bounded by the gathers: 128 eight-lane gathers per 8 blocks. Measured on the 2-core
 * AMD EPYC (AVX-512) build machine, 64 KiB in place, 256-bit key: ~240-270 MB/s, with or without
 * {@code -XX:UseAVX=2}, against ~190-200 for {@code twofish-table} and ~245-280 for
 * {@code twofish-table-2way} — here a vpgatherdd of 8 lanes costs ~8 cycles, so this layout only
 * matches the interleaved scalar code; CPUs with faster gathers gain more. Turning off the Vector
 * API's index bounds check ({@code -Djdk.incubator.vector.VECTOR_ACCESS_OOB_CHECK=0}) changed
 * nothing, and 16 blocks in flight (two independent 8-lane chains) ran no faster while making the
 * batch method too large for C1 (see {@link TwofishVec512} on why that matters).
 */
public final class TwofishVec256 extends BlockKernel {
    /** Registry name. */
    static final String NAME = "twofish-vec256-8way";

    /** Compile-time constant species: C2 intrinsifies only constant species. */
    private static final VectorSpecies<Integer> S = IntVector.SPECIES_256;

    /** Blocks per vector batch: one block per 32-bit lane. */
    private static final int WAY = 8;

    /**
     * Below this many blocks the scalar 2-way kernel does the whole call. Measured here (warmed,
     * one call at a time): one 8-block vector batch ~0.52-0.54 µs, 8 blocks of
     * {@code twofish-table-2way} ~0.52-0.55 µs, so the vector path starts at one full batch and a
     * tail of under 8 blocks stays scalar (padding it to a batch would cost a full batch).
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
    public int parallelBlocks() {
        return WAY;
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

    /** Reads 8 blocks into {@link #words}, word j of block i at {@code 8*j + i}. */
    private void load(byte[] in, int off) {
        int[] w = words;
        for (int i = 0; i < WAY; i++, off += 16) {
            w[i] = (int) LE.get(in, off);
            w[WAY + i] = (int) LE.get(in, off + 4);
            w[2 * WAY + i] = (int) LE.get(in, off + 8);
            w[3 * WAY + i] = (int) LE.get(in, off + 12);
        }
    }

    /** Writes {@link #words} back as 8 blocks. */
    private void store(byte[] out, int off) {
        int[] w = words;
        for (int i = 0; i < WAY; i++, off += 16) {
            LE.set(out, off, w[i]);
            LE.set(out, off + 4, w[WAY + i]);
            LE.set(out, off + 8, w[2 * WAY + i]);
            LE.set(out, off + 12, w[3 * WAY + i]);
        }
    }

    /*
     * The round bodies below are straight-line on purpose: a helper that takes or returns a vector
     * and is not inlined boxes it (the probes fell 6x and allocated per call), so g is
     * written out at every use. g0(x) = t0[x0] ^ t1[x1] ^ t2[x2] ^ t3[x3] with x0 the low byte;
     * g1(x) = g0(ROL(x, 8)), the rotation folded into which byte feeds which table.
     */

    private void encrypt8(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k, t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
        final int[] w = this.words, ix = this.idx;
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            load(in, inOff);
            IntVector x0 = IntVector.fromArray(S, w, 0).lanewise(VectorOperators.XOR, k[0]);
            IntVector x1 = IntVector.fromArray(S, w, WAY).lanewise(VectorOperators.XOR, k[1]);
            IntVector x2 = IntVector.fromArray(S, w, 2 * WAY).lanewise(VectorOperators.XOR, k[2]);
            IntVector x3 = IntVector.fromArray(S, w, 3 * WAY).lanewise(VectorOperators.XOR, k[3]);
            for (int r = 8; r < 40; r += 4) {
                // a = g0(x0), b = g1(x1)
                x0.and(0xff).intoArray(ix, 0);
                x0.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 8);
                x0.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 16);
                x0.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 24);
                IntVector a = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                x1.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 0);
                x1.and(0xff).intoArray(ix, 8);
                x1.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 16);
                x1.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 24);
                IntVector b = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                // PHT, subkeys, one-bit rotations (§4.1)
                a = a.add(b);
                x2 = x2.lanewise(VectorOperators.XOR, a.add(k[r])).lanewise(VectorOperators.ROR, 1);
                x3 = x3.lanewise(VectorOperators.ROL, 1).lanewise(VectorOperators.XOR, a.add(b).add(k[r + 1]));

                // a = g0(x2), b = g1(x3)
                x2.and(0xff).intoArray(ix, 0);
                x2.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 8);
                x2.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 16);
                x2.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 24);
                a = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                x3.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 0);
                x3.and(0xff).intoArray(ix, 8);
                x3.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 16);
                x3.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 24);
                b = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                a = a.add(b);
                x0 = x0.lanewise(VectorOperators.XOR, a.add(k[r + 2])).lanewise(VectorOperators.ROR, 1);
                x1 = x1.lanewise(VectorOperators.ROL, 1).lanewise(VectorOperators.XOR, a.add(b).add(k[r + 3]));
            }
            // Output whitening undoes the last swap (§4): C = (x2, x3, x0, x1) ^ K4..K7.
            x2.lanewise(VectorOperators.XOR, k[4]).intoArray(w, 0);
            x3.lanewise(VectorOperators.XOR, k[5]).intoArray(w, WAY);
            x0.lanewise(VectorOperators.XOR, k[6]).intoArray(w, 2 * WAY);
            x1.lanewise(VectorOperators.XOR, k[7]).intoArray(w, 3 * WAY);
            store(out, outOff);
        }
    }

    private void decrypt8(byte[] in, int inOff, byte[] out, int outOff, int batches) {
        final int[] k = this.k, t0 = this.t0, t1 = this.t1, t2 = this.t2, t3 = this.t3;
        final int[] w = this.words, ix = this.idx;
        for (; batches > 0; batches--, inOff += 16 * WAY, outOff += 16 * WAY) {
            load(in, inOff);
            IntVector x2 = IntVector.fromArray(S, w, 0).lanewise(VectorOperators.XOR, k[4]);
            IntVector x3 = IntVector.fromArray(S, w, WAY).lanewise(VectorOperators.XOR, k[5]);
            IntVector x0 = IntVector.fromArray(S, w, 2 * WAY).lanewise(VectorOperators.XOR, k[6]);
            IntVector x1 = IntVector.fromArray(S, w, 3 * WAY).lanewise(VectorOperators.XOR, k[7]);
            for (int r = 36; r >= 8; r -= 4) {
                // a = g0(x2), b = g1(x3)
                x2.and(0xff).intoArray(ix, 0);
                x2.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 8);
                x2.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 16);
                x2.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 24);
                IntVector a = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                x3.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 0);
                x3.and(0xff).intoArray(ix, 8);
                x3.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 16);
                x3.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 24);
                IntVector b = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                // Inverse round: x1 = ROR(x1 ^ F1, 1), x0 = ROL(x0, 1) ^ F0.
                a = a.add(b);
                x1 = x1.lanewise(VectorOperators.XOR, a.add(b).add(k[r + 3])).lanewise(VectorOperators.ROR, 1);
                x0 = x0.lanewise(VectorOperators.ROL, 1).lanewise(VectorOperators.XOR, a.add(k[r + 2]));

                // a = g0(x0), b = g1(x1)
                x0.and(0xff).intoArray(ix, 0);
                x0.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 8);
                x0.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 16);
                x0.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 24);
                a = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                x1.lanewise(VectorOperators.LSHR, 24).intoArray(ix, 0);
                x1.and(0xff).intoArray(ix, 8);
                x1.lanewise(VectorOperators.LSHR, 8).and(0xff).intoArray(ix, 16);
                x1.lanewise(VectorOperators.LSHR, 16).and(0xff).intoArray(ix, 24);
                b = IntVector.fromArray(S, t0, 0, ix, 0)
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t1, 0, ix, 8))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t2, 0, ix, 16))
                        .lanewise(VectorOperators.XOR, IntVector.fromArray(S, t3, 0, ix, 24));
                a = a.add(b);
                x3 = x3.lanewise(VectorOperators.XOR, a.add(b).add(k[r + 1])).lanewise(VectorOperators.ROR, 1);
                x2 = x2.lanewise(VectorOperators.ROL, 1).lanewise(VectorOperators.XOR, a.add(k[r]));
            }
            x0.lanewise(VectorOperators.XOR, k[0]).intoArray(w, 0);
            x1.lanewise(VectorOperators.XOR, k[1]).intoArray(w, WAY);
            x2.lanewise(VectorOperators.XOR, k[2]).intoArray(w, 2 * WAY);
            x3.lanewise(VectorOperators.XOR, k[3]).intoArray(w, 3 * WAY);
            store(out, outOff);
        }
    }
}
