package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import java.util.Arrays;
import java.util.List;

/**
 * CBC (NIST SP 800-38A §6.2). Encryption is serial, one block per kernel call; decryption
 * decrypts a chunk of blocks in one call into scratch and XORs the previous ciphertext blocks
 * afterwards, walking backwards so that in-place operation never reads an overwritten block.
 */
final class CbcMode extends Mode {
    private final byte[] chain = new byte[BLOCK];
    /** Decrypted chunk before the chaining XOR; made on first use (not needed with a CBC engine). */
    private byte[] scratch;
    private final byte[] nextChain = new byte[BLOCK];
    /**
     * Set when the kernel runs CBC itself (aes-jdk: SunJCE's intrinsic), one per direction, made
     * on first use; {@link #chain} is then kept only to rewind a failed doFinal.
     */
    private BlockKernel.StreamEngine encEngine, decEngine;
    private boolean noEngine;

    static final ModeRules RULES = new ModeRules("CBC") {
        @Override
        public List<String> ivGenerators() {
            return List.of("essiv:sha256", "plain", "plain64", "null");
        }

        /**
         * Also BitLocker's {@code eboiv} and {@code elephant}, which cryptsetup maps as
         * {@code aes-cbc-eboiv} and {@code aes-cbc-elephant}: only the sector API takes them, since
         * they need the sector size the JCA's spec path does not hand over, and elephant also
         * transforms the data.
         */
        @Override
        public List<String> ivGeneratorsInSpecs() {
            return List.of("essiv:sha256", "plain", "plain64", "null", "eboiv", "elephant");
        }

        @Override
        public Mode create(byte[] key, KernelFactory f, BlockPasses ops) {
            return new CbcMode(f.create(key), ops);
        }

        @Override
        public boolean takesPadding() {
            return true;
        }

        @Override
        public boolean randomIvForEncryption() {
            return true;
        }

        @Override
        public boolean takesSectors() {
            return true;
        }
    };

    CbcMode(BlockKernel kernel, BlockPasses ops) {
        super(kernel, ops);
    }

    /**
     * The kernel re-keyed in place; its stream engine for {@code encrypt} re-keys itself at the
     * next start, and the other direction's engine, if one was made, is wiped and dropped (it would
     * otherwise keep the old key until used again).
     */
    @Override
    public boolean rekey(byte[] key, boolean encrypt) {
        if (!kernel.rekey(key)) {
            return false;
        }
        if (encrypt && decEngine != null) {
            decEngine.destroy();
            decEngine = null;
        } else if (!encrypt && encEngine != null) {
            encEngine.destroy();
            encEngine = null;
        }
        Arrays.fill(chain, (byte) 0);
        Arrays.fill(nextChain, (byte) 0);
        if (scratch != null) {
            Arrays.fill(scratch, (byte) 0); // the last chunk's D(C) under the old key
        }
        return true;
    }

    private BlockKernel.StreamEngine engine() {
        if (noEngine) {
            return null;
        }
        BlockKernel.StreamEngine e = encrypt ? encEngine : decEngine;
        if (e == null) {
            e = kernel.cbcEngine(encrypt);
            noEngine = e == null; // the kernel has none: never ask again
            if (encrypt) {
                encEngine = e;
            } else {
                decEngine = e;
            }
        }
        return e;
    }

    @Override
    public void start(boolean encrypt, byte[] iv) {
        this.encrypt = encrypt;
        System.arraycopy(iv, 0, chain, 0, BLOCK);
        BlockKernel.StreamEngine e = engine();
        if (e != null) {
            e.start(iv);
        }
    }

    @Override
    public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
        process(in, inOff, out, outOff, len, false);
    }

    @Override
    public void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len) {
        process(in, inOff, out, outOff, len, true);
    }

    private void process(byte[] in, int inOff, byte[] out, int outOff, int len, boolean last) {
        BlockKernel.StreamEngine e = encrypt ? encEngine : decEngine;
        if (e != null) {
            if (len == 0) {
                return;
            }
            if (!encrypt) { // the next chaining value is the last ciphertext block: read it first
                System.arraycopy(in, inOff + len - BLOCK, chain, 0, BLOCK);
            }
            if (last) {
                e.processFinal(in, inOff, out, outOff, len);
            } else {
                e.process(in, inOff, out, outOff, len);
            }
            if (encrypt) {
                System.arraycopy(out, outOff + len - BLOCK, chain, 0, BLOCK);
            }
            return;
        }
        if (encrypt) {
            encrypt(in, inOff, out, outOff, len);
        } else {
            decrypt(in, inOff, out, outOff, len);
        }
    }

    private void encrypt(byte[] in, int inOff, byte[] out, int outOff, int len) {
        BlockPasses ops = ops();
        byte[] c = chain;
        for (int i = 0; i < len; i += BLOCK) {
            ops.xor(in, inOff + i, c, 0, out, outOff + i, BLOCK);
            kernel.encryptBlocks(out, outOff + i, out, outOff + i, 1);
            System.arraycopy(out, outOff + i, c, 0, BLOCK);
        }
    }

    private void decrypt(byte[] in, int inOff, byte[] out, int outOff, int len) {
        BlockPasses ops = ops();
        byte[] scratch = this.scratch = scratch(this.scratch, len);
        while (len > 0) {
            int n = Math.min(len, scratch.length);
            System.arraycopy(in, inOff + n - BLOCK, nextChain, 0, BLOCK);
            kernel.decryptBlocks(in, inOff, scratch, 0, n / BLOCK);
            // Backwards: out block j overwrites in block j (in place) only after block j+1,
            // which needed it, is done.
            if (n > BLOCK) {
                for (int j = n - BLOCK; j > 0; j -= BLOCK) {
                    ops.xor(scratch, j, in, inOff + j - BLOCK, out, outOff + j, BLOCK);
                }
            }
            ops.xor(scratch, 0, chain, 0, out, outOff, BLOCK);
            System.arraycopy(nextChain, 0, chain, 0, BLOCK);
            inOff += n;
            outOff += n;
            len -= n;
        }
    }

    /**
     * Decryption of many units (disk sectors): a unit's plaintext block j is D(C_j) ⊕ C_(j-1), the
     * unit's IV for j = 0, and no unit depends on another, so a chunk of whole units is one
     * multi-block decryption into scratch, then per unit two XOR passes there (the ciphertext
     * shifted by a block, the IV) and one copy out; in place, each ciphertext block is read before
     * it is overwritten. Rather than one kernel stream per unit (SunJCE's CBC, for aes-jdk, copies
     * every in-place unit it is given). Encryption is serial within a unit: unit by unit, as the
     * default.
     */
    @Override
    public void processUnits(byte[] in, int inOff, byte[] out, int outOff, int unitLen, int count, byte[] ivs) {
        int perChunk = CHUNK_BLOCKS * BLOCK / unitLen;
        if (encrypt || perChunk == 0) {
            super.processUnits(in, inOff, out, outOff, unitLen, count, ivs);
            return;
        }
        BlockPasses ops = ops();
        byte[] s = this.scratch = scratch(this.scratch, Math.min(count, perChunk) * unitLen);
        for (int u = 0; u < count; ) {
            int n = Math.min(perChunk, count - u);
            kernel.decryptBlocks(in, inOff, s, 0, n * unitLen / BLOCK);
            for (int i = 0; i < n; i++) {
                int o = i * unitLen;
                ops.xor(s, o + BLOCK, in, inOff + o, s, o + BLOCK, unitLen - BLOCK);
                ops.xor(s, o, ivs, BLOCK * (u + i), s, o, BLOCK);
            }
            System.arraycopy(s, 0, out, outOff, n * unitLen);
            inOff += n * unitLen;
            outOff += n * unitLen;
            u += n;
        }
    }

    @Override
    public byte[] saveState() {
        return chain.clone();
    }

    @Override
    public void restoreState(byte[] state) {
        System.arraycopy(state, 0, chain, 0, BLOCK);
        BlockKernel.StreamEngine e = encrypt ? encEngine : decEngine;
        if (e != null) {
            e.start(state); // rewind the kernel's stream to the saved chaining value
        }
    }

    @Override
    public void destroy() {
        super.destroy();
        if (encEngine != null) {
            encEngine.destroy();
        }
        if (decEngine != null) {
            decEngine.destroy();
        }
        Arrays.fill(chain, (byte) 0);
        if (scratch != null) {
            Arrays.fill(scratch, (byte) 0);
        }
        Arrays.fill(nextChain, (byte) 0);
    }
}
