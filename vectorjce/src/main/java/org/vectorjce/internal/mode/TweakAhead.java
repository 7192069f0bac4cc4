package org.vectorjce.internal.mode;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;

/**
 * XTS's first tweaks E(K2, i), made ahead when data units come one or a few per call with IVs that
 * count up as one 128-bit little-endian number: dm-crypt's {@code plain64} read sector by sector,
 * as a disk layer or a JCA caller with one {@code init} per sector reads. A kernel with batches
 * ({@link BlockKernel#batchBlocks}, the Serpent vector kernels) encrypts a lone block on its
 * scalar tail, at several times the cost of a block in a batch; XTS makes one of these only for
 * such a kernel.
 *
 * <p>When a call's first IV is the last call's last IV plus one, for the second call in a row, the
 * next batch of IVs is made and encrypted in one call, and later calls take their tweaks from
 * there for as long as their IVs are the ones made, compared byte for byte (IVs are public, so the
 * comparison may stop early). Anything else is encrypted as asked: a caller that jumps about pays
 * a comparison per call, and one whose runs end early a batch per run of three or more. The
 * tweaks are key material and are wiped with the key.
 */
final class TweakAhead {
    private static final int BLOCK = BlockKernel.BLOCK;

    /** Tweaks made at once: one batch of the tweak kernel. */
    private final int ahead;
    private final byte[] ivs;
    private final byte[] tweaks;
    /** {@code tweaks[pos .. count)} are still to be taken. */
    private int pos, count;
    /** The last IV of the last call, and that IV plus one. */
    private final byte[] last = new byte[BLOCK];
    private final byte[] next = new byte[BLOCK];
    private boolean lastValid;
    /** Calls in a row whose first IV was the IV after the call before's last. */
    private int run;

    /** Made ahead in batches of {@code ahead} blocks. */
    TweakAhead(int ahead) {
        this.ahead = ahead;
        this.ivs = new byte[BLOCK * ahead];
        this.tweaks = new byte[BLOCK * ahead];
    }

    /** {@code dst[16 u ..] = E(K2, src[16 u ..])} for {@code u < n}. */
    void encrypt(BlockKernel k2, byte[] src, int n, byte[] dst) {
        if (n == 0) {
            return;
        }
        run = lastValid && Arrays.equals(src, 0, BLOCK, next, 0, BLOCK) ? run + 1 : 0;
        if (n >= ahead || !take(src, n, dst)) {
            if (n < ahead && run >= 2 && made(src, n)) {
                k2.encryptBlocks(ivs, 0, tweaks, 0, ahead);
                count = ahead;
                take(src, n, dst);
            } else {
                k2.encryptBlocks(src, 0, dst, 0, n);
            }
        }
        System.arraycopy(src, BLOCK * (n - 1), last, 0, BLOCK);
        System.arraycopy(last, 0, next, 0, BLOCK);
        increment(next, 0);
        lastValid = true;
    }

    /** Copies the tweaks of {@code src}'s n IVs out when they are the next ones made. */
    private boolean take(byte[] src, int n, byte[] dst) {
        if (pos + n > count || !Arrays.equals(src, 0, BLOCK * n, ivs, BLOCK * pos, BLOCK * (pos + n))) {
            return false;
        }
        System.arraycopy(tweaks, BLOCK * pos, dst, 0, BLOCK * n);
        pos += n;
        return true;
    }

    /** Makes the {@code ahead} IVs that count up from {@code src}'s first; true when its n IVs are the first of them. */
    private boolean made(byte[] src, int n) {
        pos = count = 0;
        System.arraycopy(src, 0, ivs, 0, BLOCK);
        for (int u = 1; u < ahead; u++) {
            System.arraycopy(ivs, BLOCK * (u - 1), ivs, BLOCK * u, BLOCK);
            increment(ivs, BLOCK * u);
        }
        return Arrays.equals(src, 0, BLOCK * n, ivs, 0, BLOCK * n);
    }

    /** Adds one to the 128-bit little-endian number at {@code b[off]}, modulo 2^128. */
    private static void increment(byte[] b, int off) {
        for (int i = off; i < off + BLOCK && ++b[i] == 0; i++) {
            // carry into the next byte
        }
    }

    /** Forgets and wipes everything (the key changed or is destroyed). */
    void wipe() {
        Arrays.fill(tweaks, (byte) 0);
        Arrays.fill(ivs, (byte) 0);
        Arrays.fill(last, (byte) 0);
        Arrays.fill(next, (byte) 0);
        pos = count = run = 0;
        lastValid = false;
    }
}
