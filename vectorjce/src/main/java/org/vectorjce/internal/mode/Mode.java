package org.vectorjce.internal.mode;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;

/**
 * A mode of operation over a {@link BlockKernel}, written once for both ciphers (layer 2).
 *
 * <p>The {@code VectorJceCipher} above it (layer 1, {@code internal.jca}; for many sectors per call
 * with its {@code SectorProcessor}) does all buffering, padding and checking: {@link #process}
 * gets whole blocks only (CTR: any length), with input and output ranges disjoint or identical.
 * Every mode but CBC encryption hands the kernel many blocks per call.
 */
public abstract class Mode {
    static final int BLOCK = BlockKernel.BLOCK;
    /** Blocks per internal chunk: 16 KiB of scratch, which stays in a 32 KiB L1 next to the data. */
    static final int CHUNK_BLOCKS = 1024;

    final BlockKernel kernel;
    /** The XOR, counter and tweak passes, chosen with the kernel from the provider's settings. */
    private final BlockPasses ops;
    boolean encrypt;

    Mode(BlockKernel kernel, BlockPasses ops) {
        this.kernel = kernel;
        this.ops = ops;
    }

    /** The registry name of the kernel that computes this mode's blocks (never key material). */
    public final String kernelName() {
        return kernel.name();
    }

    /** The mode's arithmetic. */
    final BlockPasses ops() {
        return ops;
    }

    /**
     * A scratch array of at least {@code min(need, CHUNK_BLOCKS)} blocks, grown from {@code old}
     * (wiped and dropped) when it is smaller: a cipher used for 512-byte sectors keeps 512 bytes,
     * not a 16 KiB chunk.
     */
    static byte[] scratch(byte[] old, int need) {
        int n = Math.min(need, CHUNK_BLOCKS * BLOCK);
        if (old != null && old.length >= n) {
            return old;
        }
        if (old != null) {
            Arrays.fill(old, (byte) 0);
        }
        return new byte[Math.max(n, BLOCK)];
    }

    /**
     * Re-keys the mode in place with a key of the same layout (the caller checked it), for a
     * message in direction {@code encrypt} that {@link #start} begins next. The old key schedule
     * and key-derived state are overwritten. Returns false when a kernel cannot re-key in place;
     * the caller then builds a new mode and destroys this one.
     */
    public boolean rekey(byte[] key, boolean encrypt) {
        return kernel.rekey(key);
    }

    /** (Re)starts a message: after init and after every doFinal. {@code iv} is null for ECB. */
    public abstract void start(boolean encrypt, byte[] iv);

    /** Processes {@code len} bytes (a multiple of 16 except for CTR). */
    public abstract void process(byte[] in, int inOff, byte[] out, int outOff, int len);

    /**
     * {@link #process}, known to be the message's last call before the restart (doFinal without
     * padding, or the padding block): a kernel's stream engine can finish with its own doFinal,
     * which also rewinds it, so the restart then costs nothing.
     */
    public void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len) {
        process(in, inOff, out, outOff, len);
    }

    /** The IV of one message in the default {@link #processUnits}. */
    private final byte[] unitIv = new byte[BLOCK];

    /**
     * {@code count} independent messages of {@code unitLen} bytes each (disk sectors: whole
     * blocks), message {@code i} with the IV at {@code ivs[16 i ..]}: as {@link #start} and
     * {@link #processFinal} per message, which is what this default does. XTS and LRW override it
     * to run the whole request on their bulk path: all first tweaks at once, one kernel call per
     * chunk of messages. Leaves the mode in an unspecified state: the caller starts it again.
     */
    public void processUnits(byte[] in, int inOff, byte[] out, int outOff, int unitLen, int count, byte[] ivs) {
        byte[] iv = unitIv;
        for (int i = 0; i < count; i++) {
            System.arraycopy(ivs, BLOCK * i, iv, 0, BLOCK);
            start(encrypt, iv);
            processFinal(in, inOff + i * unitLen, out, outOff + i * unitLen, unitLen);
        }
    }

    /** A copy of the chaining state, so a failed doFinal can be undone; null when stateless. */
    public byte[] saveState() {
        return null;
    }

    public void restoreState(byte[] state) {
    }

    /** Wipes key schedules and key-derived state. */
    public void destroy() {
        kernel.destroy();
    }

    static final class Ecb extends Mode {
        static final ModeRules RULES = new ModeRules("ECB") {
            @Override
            public Mode create(byte[] key, KernelFactory f, BlockPasses ops) {
                return new Ecb(f.create(key), ops);
            }

            @Override
            public boolean takesPadding() {
                return true;
            }

            @Override
            public boolean takesIv() {
                return false;
            }
        };

        Ecb(BlockKernel kernel, BlockPasses ops) {
            super(kernel, ops);
        }

        @Override
        public void start(boolean encrypt, byte[] iv) {
            this.encrypt = encrypt;
        }

        @Override
        public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
            if (encrypt) {
                kernel.encryptBlocks(in, inOff, out, outOff, len / BLOCK);
            } else {
                kernel.decryptBlocks(in, inOff, out, outOff, len / BLOCK);
            }
        }
    }
}
