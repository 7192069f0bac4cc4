package org.vectorjce.internal.mode;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;

/**
 * What XTS and LRW share, as Linux's {@code crypto/xts.c} and {@code lrw.c} templates do: tweak
 * XOR into a work buffer, one multi-block ECB call of the kernel, tweak XOR again. This class
 * holds the work buffer and runs many independent units (disk sectors) that way, each from its own
 * first tweak: {@link #processUnits}.
 */
abstract class TweakedMode extends Mode {
    /**
     * Input ⊕ tweaks, so the kernel call is out of place (the JDK kernel copies in-place input);
     * sized by use, up to one chunk (see {@link Mode#scratch}).
     */
    byte[] work;

    TweakedMode(BlockKernel kernel, BlockPasses ops) {
        super(kernel, ops);
    }

    /** Computes the first tweak of each of {@code count} units from their IVs ({@code ivs[16 u ..]}). */
    abstract void unitTweaks(byte[] ivs, int count);

    /**
     * The tweak XOR of unit {@code u}'s {@code blocks} blocks, from {@code src} into {@code dst};
     * {@code chunkOff} is the unit's byte offset in its chunk, {@code first} whether this is the
     * first pass (a mode may save the tweaks there for {@link #secondPass}).
     */
    abstract void unitXor(int u, byte[] src, int srcOff, byte[] dst, int dstOff, int blocks, int chunkOff, boolean first);

    /**
     * The second tweak XOR of a chunk of {@code n} units from unit {@code u}, in place in
     * {@code out}: by default unit by unit again.
     */
    void secondPass(int u, int n, int unitLen, byte[] out, int outOff) {
        for (int i = 0; i < n; i++) {
            unitXor(u + i, out, outOff + i * unitLen, out, outOff + i * unitLen, unitLen / BLOCK, i * unitLen, false);
        }
    }

    /**
     * Many units (sectors), each with its own tweak sequence: all first tweaks at once, then per
     * chunk of whole units the tweak XOR of every unit, one kernel call for the chunk, and the
     * second XOR — a 1 MiB request of 512-byte sectors makes ~64 kernel calls instead of ~4,000.
     */
    @Override
    public final void processUnits(byte[] in, int inOff, byte[] out, int outOff, int unitLen, int count, byte[] ivs) {
        unitTweaks(ivs, count);
        if (unitsInKernel(in, inOff, out, outOff, unitLen, count)) {
            return;
        }
        int perChunk = Math.max(1, CHUNK_BLOCKS * BLOCK / unitLen);
        byte[] work = this.work = scratch(this.work, Math.min(count, perChunk) * unitLen);
        int unitBlocks = unitLen / BLOCK;
        for (int u = 0; u < count; ) {
            int n = Math.min(perChunk, count - u);
            for (int i = 0; i < n; i++) {
                unitXor(u + i, in, inOff + i * unitLen, work, i * unitLen, unitBlocks, i * unitLen, true);
            }
            if (encrypt) {
                kernel.encryptBlocks(work, 0, out, outOff, n * unitBlocks);
            } else {
                kernel.decryptBlocks(work, 0, out, outOff, n * unitBlocks);
            }
            secondPass(u, n, unitLen, out, outOff);
            inOff += n * unitLen;
            outOff += n * unitLen;
            u += n;
        }
    }

    /**
     * Runs all {@code count} units (their first tweaks made) in the kernel itself when it can, and
     * returns true; false, the default, leaves them to the passes of {@link #processUnits}.
     */
    boolean unitsInKernel(byte[] in, int inOff, byte[] out, int outOff, int unitLen, int count) {
        return false;
    }

    /** Wipes the work buffer (it held P ⊕ T). */
    void wipeWork() {
        if (work != null) {
            Arrays.fill(work, (byte) 0);
        }
    }
}
