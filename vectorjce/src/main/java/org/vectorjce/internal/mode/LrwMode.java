package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import java.util.Arrays;
import java.util.List;

/**
 * LRW (IEEE P1619 draft "LRW-AES"; Linux {@code crypto/lrw.c}): C_j = E(K1, P_j ⊕ T_j) ⊕ T_j with
 * T_j = K2 ⊗ (I + j) in GF(2^128), big-endian bit order ("bbe"), I the 128-bit big-endian index of
 * the first block (the IV). Key = cipher key ‖ 16-byte K2.
 *
 * <p>One multiplication by 8-bit tables per message gives T_0 ({@link BlockPasses#lrwTweak}); after
 * that each tweak is one XOR with a precomputed K2 ⊗ (2^(k+1) − 1) (see
 * {@link BlockPasses#lrwXor}), as Linux does. Like XTS:
 * tweak XOR for a chunk, one multi-block ECB call, tweak XOR (the tweaks regenerated, not stored).
 */
final class LrwMode extends TweakedMode {
    /** The per-key table: see {@link BlockPasses#LRW_TABLE_LONGS}. */
    private final long[] mulinc;
    /** {tHi, tLo, iHi, iLo}: the current tweak and block index. */
    private final long[] state = new long[4];
    /**
     * The state {@link #start} computed last, {tHi, tLo, iHi, iLo}: after every doFinal the cipher
     * restarts with the same IV, and then T_0 is taken from here instead of multiplied again.
     */
    private final long[] startState = new long[4];
    private boolean startValid;
    /** The chunk's starting tweak state, for the second XOR pass. */
    private final long[] chunkStart = new long[4];

    /** Key = cipher key ‖ the 16-byte K2. */
    static final ModeRules RULES = new ModeRules("LRW") {
        @Override
        public List<String> ivGenerators() {
            return List.of("benbi", "plain64be", "null");
        }

        /**
         * Also {@code plain64}: dm-crypt's {@code lrw-plain64}, which gives plain64's bytes to
         * {@code lrw()} as its block index (QEMU and cryptsetup write it).
         */
        @Override
        public List<String> ivGeneratorsInSpecs() {
            return List.of("benbi", "plain64be", "null", "plain64");
        }

        @Override
        public Mode create(byte[] key, KernelFactory f, BlockPasses ops) {
            byte[] k1 = Arrays.copyOfRange(key, 0, key.length - BLOCK);
            byte[] k2 = Arrays.copyOfRange(key, key.length - BLOCK, key.length);
            try {
                return new LrwMode(f.create(k1), k2, ops);
            } finally {
                Arrays.fill(k1, (byte) 0);
                Arrays.fill(k2, (byte) 0);
            }
        }

        @Override
        int[] keyLengths() {
            return new int[] {32, 40, 48};
        }

        @Override
        String keyLayout(String algorithm) {
            return " (" + algorithm + " key ‖ 16-byte tweak key)";
        }

        @Override
        public String missingIv(boolean encrypt) {
            return "LRW needs the 16-byte big-endian block index as IV";
        }

        @Override
        public boolean takesSectors() {
            return true;
        }
    };

    LrwMode(BlockKernel kernel, byte[] k2, BlockPasses ops) {
        super(kernel, ops);
        mulinc = BlockPasses.lrwTable((long) BlockPasses.BE64.get(k2, 0), (long) BlockPasses.BE64.get(k2, 8));
    }

    /** {@code key} = cipher key ‖ K2: the kernel re-keyed and the K2 table rewritten in place. */
    @Override
    public boolean rekey(byte[] key, boolean encrypt) {
        int split = key.length - BLOCK;
        byte[] k1 = Arrays.copyOfRange(key, 0, split);
        try {
            startValid = false;
            Arrays.fill(startState, 0);
            Arrays.fill(chunkStart, 0);
            if (unitStates != null) {
                Arrays.fill(unitStates, 0);
            }
            wipeWork();
            BlockPasses.lrwTable((long) BlockPasses.BE64.get(key, split),
                    (long) BlockPasses.BE64.get(key, split + 8), mulinc);
            return kernel.rekey(k1);
        } finally {
            Arrays.fill(k1, (byte) 0);
        }
    }

    @Override
    public void start(boolean encrypt, byte[] iv) {
        this.encrypt = encrypt;
        long iHi = (long) BlockPasses.BE64.get(iv, 0);
        long iLo = (long) BlockPasses.BE64.get(iv, 8);
        if (!startValid || startState[2] != iHi || startState[3] != iLo) { // the IV is public
            BlockPasses.lrwTweak(mulinc, iHi, iLo, startState);
            startValid = true;
        }
        System.arraycopy(startState, 0, state, 0, 4);
    }

    @Override
    public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
        BlockPasses ops = ops();
        byte[] work = this.work = scratch(this.work, len);
        while (len > 0) {
            int n = Math.min(len, work.length);
            int blocks = n / BLOCK;
            System.arraycopy(state, 0, chunkStart, 0, 4);
            ops.lrwXor(state, mulinc, in, inOff, work, 0, blocks);
            if (encrypt) {
                kernel.encryptBlocks(work, 0, out, outOff, blocks);
            } else {
                kernel.decryptBlocks(work, 0, out, outOff, blocks);
            }
            // Second XOR pass: the same tweaks again, regenerated from the chunk's start.
            ops.lrwXor(chunkStart, mulinc, out, outOff, out, outOff, blocks);
            inOff += n;
            outOff += n;
            len -= n;
        }
    }

    /** Per-unit {T_0 state} for {@link TweakedMode#processUnits}: {tHi, tLo, iHi, iLo} each. */
    private long[] unitStates;
    private final long[] unitState = new long[4];

    /** T_0 = K2 ⊗ I of every unit of a batch, by the 8-bit tables. */
    @Override
    void unitTweaks(byte[] ivs, int count) {
        if (unitStates == null || unitStates.length < 4 * count) {
            unitStates = new long[4 * Math.max(count, 64)];
        }
        for (int u = 0; u < count; u++) {
            BlockPasses.lrwTweak(mulinc, (long) BlockPasses.BE64.get(ivs, BLOCK * u),
                    (long) BlockPasses.BE64.get(ivs, BLOCK * u + 8), unitState);
            System.arraycopy(unitState, 0, unitStates, 4 * u, 4);
        }
    }

    @Override
    void unitXor(int u, byte[] src, int srcOff, byte[] dst, int dstOff, int blocks, int chunkOff, boolean first) {
        System.arraycopy(unitStates, 4 * u, unitState, 0, 4);
        ops().lrwXor(unitState, mulinc, src, srcOff, dst, dstOff, blocks);
    }

    @Override
    public void destroy() {
        super.destroy();
        Arrays.fill(mulinc, 0);
        Arrays.fill(state, 0);
        Arrays.fill(chunkStart, 0);
        Arrays.fill(startState, 0);
        startValid = false;
        wipeWork();
        Arrays.fill(unitState, 0);
        if (unitStates != null) {
            Arrays.fill(unitStates, 0);
        }
    }
}
