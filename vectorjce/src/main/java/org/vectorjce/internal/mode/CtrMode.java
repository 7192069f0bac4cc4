package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import java.util.Arrays;

/**
 * CTR (NIST SP 800-38A §6.5): the 16-byte IV is the first counter block, incremented as one
 * 128-bit big-endian integer kept as two longs, wrapping modulo 2^128 — as SunJCE, Bouncy Castle
 * ({@code SICBlockCipher}) and Linux {@code ctr()} do. A kernel that builds counters in its own
 * layout takes what it can ({@link BlockKernel#ctrXor}); for the rest, counter blocks for a chunk
 * are built by {@link BlockPasses#ctrBlocks} and encrypted in one kernel call. A partial last block keeps its
 * unused key stream for the next call.
 */
final class CtrMode extends Mode {
    private final long[] ctr = new long[2];
    /** Counter blocks and their key stream; made on first use (a kernel's CTR engine needs neither). */
    private byte[] scratch, keyStream;
    /** Unused key stream of the last partial block: bytes {@code ksPos..15} of {@code ks}. */
    private final byte[] ks = new byte[BLOCK];
    private int ksPos = BLOCK;

    /** Set when the kernel runs the whole CTR stream itself (aes-jdk: SunJCE's intrinsic). */
    private final BlockKernel.StreamEngine whole;

    /** A stream mode: any length, nothing held back (a partial block's key stream waits in {@link #ks}). */
    static final ModeRules RULES = new ModeRules("CTR") {
        @Override
        public Mode create(byte[] key, KernelFactory f, BlockPasses ops) {
            return new CtrMode(f.create(key), ops);
        }

        @Override
        public boolean randomIvForEncryption() {
            return true;
        }

        @Override
        public long heldBack(long n, boolean last) {
            return 0;
        }

        @Override
        public String lengthProblem(long total) {
            return null;
        }
    };

    CtrMode(BlockKernel kernel, BlockPasses ops) {
        super(kernel, ops);
        this.whole = kernel.ctrEngine();
    }

    @Override
    public void start(boolean encrypt, byte[] iv) {
        this.encrypt = encrypt;
        ctr[0] = (long) BlockPasses.BE64.get(iv, 0);
        ctr[1] = (long) BlockPasses.BE64.get(iv, 8);
        ksPos = BLOCK;
        Arrays.fill(ks, (byte) 0);
        if (whole != null) {
            whole.start(iv);
        }
    }

    @Override
    public void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len) {
        if (whole != null) {
            whole.processFinal(in, inOff, out, outOff, len);
        } else {
            process(in, inOff, out, outOff, len);
        }
    }

    @Override
    public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
        if (whole != null) {
            whole.process(in, inOff, out, outOff, len);
            return;
        }
        // Key stream left over from a previous partial block.
        while (len > 0 && ksPos < BLOCK) {
            out[outOff++] = (byte) (in[inOff++] ^ ks[ksPos++]);
            len--;
        }
        int full = len & ~(BLOCK - 1);
        if (full > 0) {
            int done = BLOCK * kernel.ctrXor(ctr, in, inOff, out, outOff, full / BLOCK);
            inOff += done;
            outOff += done;
            full -= done;
            len -= done;
        }
        if (len == 0) {
            return;
        }
        BlockPasses ops = ops();
        if (scratch == null || scratch.length < Math.min(len, CHUNK_BLOCKS * BLOCK)) {
            scratch = scratch(scratch, len);
            keyStream = scratch(keyStream, len);
        }
        while (full > 0) {
            int n = Math.min(full, scratch.length);
            ops.ctrBlocks(ctr, scratch, 0, n / BLOCK);
            kernel.encryptBlocks(scratch, 0, keyStream, 0, n / BLOCK);
            ops.xor(in, inOff, keyStream, 0, out, outOff, n);
            inOff += n;
            outOff += n;
            full -= n;
            len -= n;
        }
        if (len > 0) {
            ops.ctrBlocks(ctr, scratch, 0, 1);
            kernel.encryptBlocks(scratch, 0, ks, 0, 1);
            for (ksPos = 0; ksPos < len; ksPos++) {
                out[outOff + ksPos] = (byte) (in[inOff + ksPos] ^ ks[ksPos]);
            }
        }
    }

    /** The kernel re-keyed in place; key stream of the old key wiped. */
    @Override
    public boolean rekey(byte[] key, boolean encrypt) {
        if (scratch != null) {
            Arrays.fill(scratch, (byte) 0);
            Arrays.fill(keyStream, (byte) 0);
        }
        Arrays.fill(ks, (byte) 0);
        return kernel.rekey(key);
    }

    @Override
    public void destroy() {
        super.destroy();
        if (whole != null) {
            whole.destroy();
        }
        if (scratch != null) {
            Arrays.fill(scratch, (byte) 0);
            Arrays.fill(keyStream, (byte) 0);
        }
        Arrays.fill(ks, (byte) 0);
        ctr[0] = ctr[1] = 0;
    }
}
