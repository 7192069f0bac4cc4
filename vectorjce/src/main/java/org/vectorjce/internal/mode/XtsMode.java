package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.registry.Kernels;
import java.util.Arrays;
import java.util.List;

/**
 * XTS (IEEE 1619-2007; NIST SP 800-38E), shaped like Linux {@code crypto/xts.c}: for each chunk,
 * the tweaks T_j = E(K2, i)·α^j are generated, XORed in and saved by
 * {@link BlockPasses#xtsXorSave}, the whole chunk goes through one multi-block ECB call of the
 * data kernel, and the saved tweaks are XORed again. Any faster ECB kernel therefore speeds up XTS with no new code.
 * A kernel that makes the tweaks in its own layout (the Serpent vector kernels,
 * {@link BlockKernel#xts}) runs its whole batches itself, and these passes take what it leaves.
 *
 * <p>Key = K1 (data) ‖ K2 (tweak); IV = the 16-byte tweak i (dm-crypt {@code plain64}: the sector
 * number, little-endian). A partial last block uses ciphertext stealing (§5.3.2, §5.4.2) in
 * {@link #finish}; the {@code VectorJceCipher} holds back the last 16..31 bytes until doFinal so it can.
 */
public final class XtsMode extends TweakedMode {
    /** IEEE 1619-2007 §5.1: a data unit has at most 2^20 blocks. */
    public static final long MAX_DATA_UNIT_BYTES = (1L << 20) * BLOCK;

    private final BlockKernel tweakKernel;
    /** First tweaks made ahead for IVs that count up (sector by sector); null for a tweak kernel without batches. */
    private final TweakAhead ahead;
    private final long[] tweak = new long[2];
    /**
     * The IV and first tweak E(K2, i) of the last {@link #start}: after every doFinal the cipher
     * restarts with the same IV, and then the tweak is taken from here instead of encrypted again.
     */
    private final byte[] startIv = new byte[BLOCK];
    private final long[] startTweak = new long[2];
    private boolean startValid;
    private final byte[] tmp = new byte[2 * BLOCK];
    private final byte[] one = new byte[BLOCK];
    /** Stealing scratch: CC and PP of §5.3.2/§5.4.2 and the full output block. */
    private final byte[] cc = new byte[BLOCK];
    private final byte[] pp = new byte[BLOCK];
    private final byte[] full = new byte[BLOCK];

    /**
     * Key = K1 ‖ K2, two equal-size cipher keys; the tweak kernel encrypts one block per message,
     * so it gets the single-block kernel of the data kernel's algorithm. One message is one data
     * unit (IEEE 1619-2007 §5.1: 16 bytes to 2^20 blocks); a partial last block is stolen, so
     * until the unit ends the last full block and any partial one are held back.
     */
    static final ModeRules RULES = new ModeRules("XTS") {
        @Override
        public List<String> ivGenerators() {
            return List.of("plain", "plain64", "plain64be", "null");
        }

        @Override
        public Mode create(byte[] key, KernelFactory f, BlockPasses ops) {
            int half = key.length / 2;
            byte[] k1 = Arrays.copyOfRange(key, 0, half);
            byte[] k2 = Arrays.copyOfRange(key, half, key.length);
            try {
                return new XtsMode(f.create(k1), Kernels.forSingleBlocks(f).create(k2), ops);
            } finally {
                Arrays.fill(k1, (byte) 0);
                Arrays.fill(k2, (byte) 0);
            }
        }

        @Override
        int[] keyLengths() {
            return new int[] {32, 48, 64};
        }

        @Override
        String keyLayout(String algorithm) {
            return " (K1 ‖ K2, two equal-size " + algorithm + " keys)";
        }

        /** IEEE 1619-2018 §5.1 and FIPS refuse K1 == K2 for encryption; old volumes still decrypt. */
        @Override
        public String encryptionKeyProblem(byte[] key) {
            int half = key.length / 2;
            return BlockPasses.constantTimeEqual(key, 0, key, half, half)
                    ? "XTS key halves K1 and K2 are equal: refused for encryption (allowed for decryption only)"
                    : null;
        }

        @Override
        public String missingIv(boolean encrypt) {
            return "XTS needs the 16-byte tweak (e.g. the sector number, little-endian) as IV";
        }

        @Override
        public boolean takesSectors() {
            return true;
        }

        @Override
        public long maxMessageBytes() {
            return MAX_DATA_UNIT_BYTES;
        }

        @Override
        public long heldBack(long n, boolean last) {
            if (last) {
                return n % BLOCK == 0 ? 0 : BLOCK + n % BLOCK; // the stealing pair only
            }
            return n < 2 * BLOCK ? n : BLOCK + n % BLOCK;
        }

        @Override
        public String lengthProblem(long total) {
            if (total > MAX_DATA_UNIT_BYTES) {
                return "XTS data unit longer than 2^20 blocks (16 MiB) (IEEE 1619 §5.1); one doFinal is one data unit";
            }
            return total < BLOCK ? "XTS data unit shorter than 16 bytes: " + total + " bytes" : null;
        }
    };

    XtsMode(BlockKernel dataKernel, BlockKernel tweakKernel, BlockPasses ops) {
        super(dataKernel, ops);
        this.tweakKernel = tweakKernel;
        this.ahead = tweakKernel.batchBlocks() > 1 ? new TweakAhead(tweakKernel.batchBlocks()) : null;
    }

    /** {@code key} = K1 ‖ K2; both kernels re-keyed in place, the cached first tweak forgotten. */
    @Override
    public boolean rekey(byte[] key, boolean encrypt) {
        int half = key.length / 2;
        byte[] k1 = Arrays.copyOfRange(key, 0, half);
        byte[] k2 = Arrays.copyOfRange(key, half, key.length);
        try {
            startValid = false;
            startTweak[0] = startTweak[1] = 0;
            unitTweak[0] = unitTweak[1] = 0;
            if (savedTweaks != null) {
                Arrays.fill(savedTweaks, (byte) 0);
            }
            if (unitTweaks != null) {
                Arrays.fill(unitTweaks, (byte) 0);
            }
            wipeWork();
            if (ahead != null) {
                ahead.wipe();
            }
            return kernel.rekey(k1) && tweakKernel.rekey(k2);
        } finally {
            Arrays.fill(k1, (byte) 0);
            Arrays.fill(k2, (byte) 0);
        }
    }

    @Override
    public void start(boolean encrypt, byte[] iv) {
        this.encrypt = encrypt;
        if (!startValid || !Arrays.equals(startIv, iv)) { // the IV (tweak) is public
            firstTweaks(iv, 1, tmp);
            startTweak[0] = (long) BlockPasses.LE64.get(tmp, 0);
            startTweak[1] = (long) BlockPasses.LE64.get(tmp, 8);
            Arrays.fill(tmp, (byte) 0);
            System.arraycopy(iv, 0, startIv, 0, BLOCK);
            startValid = true;
        }
        tweak[0] = startTweak[0];
        tweak[1] = startTweak[1];
    }

    @Override
    public void process(byte[] in, int inOff, byte[] out, int outOff, int len) {
        int inKernel = BLOCK * kernel.xts(encrypt, tweak, in, inOff, out, outOff, len / BLOCK);
        if (inKernel < len) {
            passes(tweak, in, inOff + inKernel, out, outOff + inKernel, len - inKernel);
        }
    }

    /** Whole blocks from {@code tweak} (left at the next one) in passes around the kernel's ECB. */
    private void passes(long[] tweak, byte[] in, int inOff, byte[] out, int outOff, int len) {
        // Linux xts.c shape: tweak XOR, one multi-block ECB call, tweak XOR. The first pass
        // generates the tweaks (in vector lanes) and saves them; the second reads them back,
        // which is faster than generating them again, most of all for one sector per init.
        BlockPasses ops = ops();
        byte[] work = this.work = scratch(this.work, len);
        byte[] tw = savedTweaks = scratch(savedTweaks, len);
        while (len > 0) {
            int n = Math.min(len, work.length);
            int blocks = n / BLOCK;
            ops.xtsXorSave(tweak, in, inOff, work, 0, blocks, tw, 0);
            if (encrypt) {
                kernel.encryptBlocks(work, 0, out, outOff, blocks);
            } else {
                kernel.decryptBlocks(work, 0, out, outOff, blocks);
            }
            ops.xor(out, outOff, tw, 0, out, outOff, n);
            inOff += n;
            outOff += n;
            len -= n;
        }
    }

    /** The tweaks of the current chunk, from the first XOR pass for the second (sized like {@link #work}). */
    private byte[] savedTweaks;

    /** The first tweaks E(K2, i) of a batch of data units (see {@link TweakedMode#processUnits}). */
    private byte[] unitTweaks;
    private final long[] unitTweak = new long[2];

    /** All first tweaks E(K2, i) of a batch in one kernel call (or made ahead, {@link TweakAhead}). */
    @Override
    void unitTweaks(byte[] ivs, int count) {
        if (unitTweaks == null || unitTweaks.length < BLOCK * count) {
            unitTweaks = new byte[BLOCK * Math.max(count, 64)];
        }
        firstTweaks(ivs, count, unitTweaks);
    }

    private void firstTweaks(byte[] ivs, int count, byte[] dst) {
        if (ahead != null) {
            ahead.encrypt(tweakKernel, ivs, count, dst);
        } else {
            tweakKernel.encryptBlocks(ivs, 0, dst, 0, count);
        }
    }

    /**
     * Units whose blocks are whole batches of a kernel that runs XTS itself ({@link BlockKernel#xts}):
     * one kernel call per unit from its first tweak, with no pass over memory for the tweaks.
     * Otherwise the passes run, and they save a chunk of units' tweaks.
     */
    @Override
    boolean unitsInKernel(byte[] in, int inOff, byte[] out, int outOff, int unitLen, int count) {
        int blocks = unitLen / BLOCK, batch = kernel.batchBlocks();
        if (batch == 1 || blocks % batch != 0) {
            savedTweaks = scratch(savedTweaks, CHUNK_BLOCKS * BLOCK);
            return false;
        }
        for (int u = 0; u < count; u++, inOff += unitLen, outOff += unitLen) {
            setUnitTweak(u);
            int done = kernel.xts(encrypt, unitTweak, in, inOff, out, outOff, blocks);
            if (done < blocks) { // a kernel may stop short; the passes finish the unit
                int at = BLOCK * done;
                passes(unitTweak, in, inOff + at, out, outOff + at, unitLen - at);
            }
        }
        return true;
    }

    /** First pass: XOR and save the tweaks at the unit's place in the chunk; see {@link #secondPass}. */
    @Override
    void unitXor(int u, byte[] src, int srcOff, byte[] dst, int dstOff, int blocks, int chunkOff, boolean first) {
        setUnitTweak(u);
        ops().xtsXorSave(unitTweak, src, srcOff, dst, dstOff, blocks, savedTweaks, chunkOff);
    }

    /** Second pass: the saved tweaks of the whole chunk, one XOR call. */
    @Override
    void secondPass(int u, int n, int unitLen, byte[] out, int outOff) {
        ops().xor(out, outOff, savedTweaks, 0, out, outOff, n * unitLen);
    }

    private void setUnitTweak(int u) {
        unitTweak[0] = (long) BlockPasses.LE64.get(unitTweaks, BLOCK * u);
        unitTweak[1] = (long) BlockPasses.LE64.get(unitTweaks, BLOCK * u + 8);
    }

    /**
     * The end of the data unit: any length of 16 bytes or more, a partial last block stolen from
     * the one before it (§5.3.2, §5.4.2).
     */
    @Override
    public void processFinal(byte[] in, int inOff, byte[] out, int outOff, int len) {
        int r = len % BLOCK;
        if (r == 0) {
            process(in, inOff, out, outOff, len);
            return;
        }
        int bulk = len - BLOCK - r;
        if (bulk > 0) {
            process(in, inOff, out, outOff, bulk);
        }
        finish(in, inOff + bulk, out, outOff + bulk, BLOCK + r);
    }

    /**
     * The last 16..31 bytes of the data unit: one plain block, or a full block and a partial one
     * with ciphertext stealing. Every byte of {@code in} is read before {@code out} is written, so
     * the ranges may be the same.
     */
    private void finish(byte[] in, int inOff, byte[] out, int outOff, int len) {
        if (len == BLOCK) {
            process(in, inOff, out, outOff, BLOCK);
            return;
        }
        int r = len - BLOCK; // 1..15 bytes in the partial block
        byte[] t = tmp;      // t[0..16) = T_(m-1), t[16..32) = T_m
        ops().xtsTweaks(tweak, t, 0, 2);
        if (encrypt) {
            // §5.3.2: CC = E(P_(m-1) ^ T_(m-1)) ^ T_(m-1); C_m = first r bytes of CC;
            // PP = P_m ‖ CC[r..16); C_(m-1) = E(PP ^ T_m) ^ T_m.
            cryptBlock(in, inOff, t, 0, cc);
            System.arraycopy(in, inOff + BLOCK, pp, 0, r);
            System.arraycopy(cc, r, pp, r, BLOCK - r);
            cryptBlock(pp, 0, t, BLOCK, full);
            System.arraycopy(full, 0, out, outOff, BLOCK);
            System.arraycopy(cc, 0, out, outOff + BLOCK, r);
        } else {
            // §5.4.2: PP = D(C_(m-1) ^ T_m) ^ T_m; P_m = first r bytes of PP;
            // CC = C_m ‖ PP[r..16); P_(m-1) = D(CC ^ T_(m-1)) ^ T_(m-1).
            cryptBlock(in, inOff, t, BLOCK, pp);
            System.arraycopy(in, inOff + BLOCK, cc, 0, r);
            System.arraycopy(pp, r, cc, r, BLOCK - r);
            cryptBlock(cc, 0, t, 0, full);
            System.arraycopy(full, 0, out, outOff, BLOCK);
            System.arraycopy(pp, 0, out, outOff + BLOCK, r);
        }
        Arrays.fill(cc, (byte) 0);
        Arrays.fill(pp, (byte) 0);
        Arrays.fill(full, (byte) 0);
        Arrays.fill(t, (byte) 0);
    }

    /** dst = Cipher(src ^ T) ^ T for one block, with T at {@code t[tOff..tOff+16)}. */
    private void cryptBlock(byte[] src, int srcOff, byte[] t, int tOff, byte[] dst) {
        BlockPasses ops = ops();
        ops.xor(src, srcOff, t, tOff, one, 0, BLOCK);
        if (encrypt) {
            kernel.encryptBlocks(one, 0, dst, 0, 1);
        } else {
            kernel.decryptBlocks(one, 0, dst, 0, 1);
        }
        ops.xor(dst, 0, t, tOff, dst, 0, BLOCK);
    }

    @Override
    public void destroy() {
        super.destroy();
        tweakKernel.destroy();
        if (ahead != null) {
            ahead.wipe();
        }
        tweak[0] = tweak[1] = 0;
        startTweak[0] = startTweak[1] = 0;
        startValid = false;
        Arrays.fill(startIv, (byte) 0);
        wipeWork();
        unitTweak[0] = unitTweak[1] = 0;
        if (savedTweaks != null) {
            Arrays.fill(savedTweaks, (byte) 0);
        }
        if (unitTweaks != null) {
            Arrays.fill(unitTweaks, (byte) 0);
        }
        Arrays.fill(tmp, (byte) 0);
        Arrays.fill(one, (byte) 0);
        Arrays.fill(cc, (byte) 0);
        Arrays.fill(pp, (byte) 0);
        Arrays.fill(full, (byte) 0);
    }
}
