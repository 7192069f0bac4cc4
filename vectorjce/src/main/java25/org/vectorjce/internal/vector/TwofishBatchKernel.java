package org.vectorjce.internal.vector;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * What the Twofish batch kernels ({@code twofish-vec512-16way}, {@code twofish-vec128-ct}) share:
 * whole batches to the vector code, a tail of at least {@code padMin} blocks padded into one more
 * batch, shorter tails and calls to the scalar {@code twofish-table-2way} kernel they keep keyed
 * as their fallback (its subkeys are theirs too) — unless the constant-time policy asked for every
 * block to go through a padded batch, so that none reaches the fallback's table lookups.
 */
abstract class TwofishBatchKernel extends BlockKernel {
    /** The scalar kernel for short calls and tails. */
    final TwofishTable fallback;
    /** K0..K39: the fallback's live array. */
    final int[] k;
    /** Under the constant-time policy: pad every call and tail shorter than a batch. */
    final boolean padAll;
    private final int way, padMin;
    /** One padded batch for a tail; zeroed after use. */
    private final byte[] pad;

    TwofishBatchKernel(String name, byte[] key, int way, int padMin, boolean padAll) {
        super(name);
        this.way = way;
        this.padMin = padMin;
        this.padAll = padAll;
        this.pad = new byte[16 * way];
        fallback = TwofishTable.twoWay(key);
        k = fallback.subkeys();
    }

    /** Encrypts {@code batches} whole batches. */
    abstract void encryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches);

    /** Decrypts {@code batches} whole batches. */
    abstract void decryptBatches(byte[] in, int inOff, byte[] out, int outOff, int batches);

    @Override
    public final void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        run(true, in, inOff, out, outOff, blocks);
    }

    @Override
    public final void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        run(false, in, inOff, out, outOff, blocks);
    }

    private void run(boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        int n = blocks - blocks % way;
        if (n != 0) {
            batches(enc, in, inOff, out, outOff, n / way);
            inOff += 16 * n;
            outOff += 16 * n;
            blocks -= n;
        }
        if (blocks >= padMin || (padAll && blocks != 0)) {
            System.arraycopy(in, inOff, pad, 0, 16 * blocks);
            batches(enc, pad, 0, pad, 0, 1);
            System.arraycopy(pad, 0, out, outOff, 16 * blocks);
            Arrays.fill(pad, (byte) 0);
        } else if (blocks != 0) {
            if (enc) {
                fallback.encryptBlocks(in, inOff, out, outOff, blocks);
            } else {
                fallback.decryptBlocks(in, inOff, out, outOff, blocks);
            }
        }
    }

    private void batches(boolean enc, byte[] in, int inOff, byte[] out, int outOff, int batches) {
        if (enc) {
            encryptBatches(in, inOff, out, outOff, batches);
        } else {
            decryptBatches(in, inOff, out, outOff, batches);
        }
    }

    /** Wipes the fallback's schedule (and so {@link #k}) and the pad; subclasses wipe their own. */
    @Override
    public void destroy() {
        fallback.destroy();
        Arrays.fill(pad, (byte) 0);
    }
}
