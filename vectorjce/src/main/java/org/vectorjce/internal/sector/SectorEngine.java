package org.vectorjce.internal.sector;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.mode.BlockPasses;
import org.vectorjce.internal.mode.Mode;
import org.vectorjce.internal.mode.ModeRules;
import org.vectorjce.internal.registry.Kernels;
import org.vectorjce.internal.registry.Settings;

/**
 * Sectors below the JCA: one keyed mode and one dm-crypt IV generator, and the loop that runs n
 * whole sectors from sector s through them, the IVs of a batch of sectors made in one call and
 * the batch handed to {@link Mode#processUnits} (XTS and LRW: their bulk path). The public
 * {@code org.vectorjce.SectorCipher} and the {@code SectorParameterSpec} path of the
 * {@code CipherSpi} ({@link SectorProcessor}) both run {@link #run}; this class trusts its caller
 * (the spec, the key length and the lengths are checked there).
 */
public final class SectorEngine {
    private static final int BLOCK = BlockKernel.BLOCK;
    /** IVs of up to this many sectors are made at once. */
    static final int BATCH = 64;
    private static final byte[] ZERO_IV = new byte[BLOCK];

    private final Mode mode;
    /** Null for ECB (no IVs). */
    private final IvGenerator ivs;
    private final int size;
    /** The IV sector number step per sector: 1 with iv_large_sectors, else size / 512. */
    private final long step;
    private final String encryptionRefusal;
    private final String kernel;
    private final byte[] batchIvs = new byte[BLOCK * BATCH];
    /** The direction the mode was last started in; null before the first call. */
    private Boolean started;

    private SectorEngine(Mode mode, IvGenerator ivs, int size, boolean ivLargeSectors, String encryptionRefusal,
            String kernel) {
        this.mode = mode;
        this.ivs = ivs;
        this.size = size;
        this.step = ivLargeSectors ? 1 : size / 512;
        this.encryptionRefusal = encryptionRefusal;
        this.kernel = kernel;
    }

    /**
     * A keyed engine: {@code algorithm} AES, Twofish or Serpent, {@code modeName} XTS, LRW, CBC or ECB,
     * {@code ivName} a generator {@code ModeRules.ivGenerators()} gives for the mode (null for ECB),
     * {@code key} of a length the mode takes (the caller checked both, and wipes {@code key}).
     *
     * @throws IllegalArgumentException when the settings give no kernel (the message says why)
     */
    public static SectorEngine create(String algorithm, String modeName, String ivName, byte[] key, int sectorSize,
            boolean ivLargeSectors, Settings settings) {
        return create(algorithm, modeName, ivName, key, sectorSize, ivLargeSectors, settings, null);
    }

    /**
     * {@link #create(String, String, String, byte[], int, boolean, Settings)} with the ESSIV salt
     * for an {@code essiv:HASH} generator (HASH of the whole key; the engine wipes it), or null.
     */
    public static SectorEngine create(String algorithm, String modeName, String ivName, byte[] key, int sectorSize,
            boolean ivLargeSectors, Settings settings, byte[] essivSalt) {
        KernelFactory f = Kernels.select(algorithm, settings);
        BlockPasses ops = BlockPasses.forSetting(settings.arithmetic());
        ModeRules rules = ModeRules.of(modeName);
        // elephant: the mode takes the first half of the key, the generator the whole (its sector key is the second half)
        boolean split = ivName != null && IvGenerator.splitsKey(ivName);
        byte[] modeKey = split ? Arrays.copyOf(key, key.length / 2) : key;
        String refusal = rules.encryptionKeyProblem(modeKey);
        Mode m;
        try {
            m = rules.create(modeKey, f, ops);
        } finally {
            if (split) {
                Arrays.fill(modeKey, (byte) 0);
            }
        }
        IvGenerator g = null;
        try {
            if (ivName != null) {
                // ESSIV hashes the whole cipher key, EBOIV encrypts with it; the others take no key.
                g = IvGenerator.create(ivName, IvGenerator.needsKey(ivName) ? key : null, f, sectorSize, essivSalt);
            }
        } catch (RuntimeException e) {
            m.destroy();
            throw e;
        }
        return new SectorEngine(m, g, sectorSize, ivLargeSectors, refusal, f.name());
    }

    /** Why the mode refuses to encrypt under this key (XTS: equal halves); null when it does not. */
    public String encryptionRefusal() {
        return encryptionRefusal;
    }

    /** The kernel's registry name (never key material). */
    public String kernel() {
        return kernel;
    }

    /** Bytes per sector. */
    public int sectorSize() {
        return size;
    }

    /**
     * {@code count} whole sectors from {@code in} to {@code out} (disjoint or identical ranges),
     * the first being sector {@code sector} (unsigned, in units of the sector size).
     */
    public void crypt(boolean encrypt, long sector, byte[] in, int inOff, byte[] out, int outOff, int count) {
        cryptIv(encrypt, sector * step, in, inOff, out, outOff, count);
    }

    /**
     * {@code count} whole sectors as {@link #crypt}, the first having the IV of number {@code iv}
     * (unsigned; in 512-byte units, or in sectors with {@code iv_large_sectors}): dm-crypt's
     * {@code iv_offset + (offset >> 9)}, computed once by the caller from a byte offset.
     */
    public void cryptIv(boolean encrypt, long iv, byte[] in, int inOff, byte[] out, int outOff, int count) {
        if (started == null || started != encrypt) {
            mode.start(encrypt, ivs == null ? null : ZERO_IV);
            started = encrypt;
        }
        if (ivs == null) {
            // ECB: no IVs, the sectors are independent blocks anyway.
            mode.process(in, inOff, out, outOff, count * size);
            return;
        }
        if (ivs.transformsData()) {
            // elephant: the diffuser runs after CBC decryption and before CBC encryption, in out
            if (encrypt) {
                if (in != out || inOff != outOff) {
                    System.arraycopy(in, inOff, out, outOff, count * size);
                }
                ivs.beforeEncrypt(out, outOff, size, count, iv, step);
                run(mode, ivs, iv, step, size, batchIvs, out, outOff, out, outOff, count);
            } else {
                run(mode, ivs, iv, step, size, batchIvs, in, inOff, out, outOff, count);
                ivs.afterDecrypt(out, outOff, size, count, iv, step);
            }
            return;
        }
        run(mode, ivs, iv, step, size, batchIvs, in, inOff, out, outOff, count);
    }

    /**
     * The sector loop: {@code count} sectors, sector i with the IV of sector number
     * {@code n0 + i·step}, in batches of {@link #BATCH}; {@code batchIvs} holds a batch's IVs.
     */
    static void run(Mode mode, IvGenerator ivs, long n0, long step, int size, byte[] batchIvs, byte[] in, int inOff,
            byte[] out, int outOff, int count) {
        long n = n0;
        for (int i = 0; i < count; ) {
            int k = Math.min(count - i, BATCH);
            ivs.fill(n, step, k, batchIvs, 0);
            mode.processUnits(in, inOff, out, outOff, size, k, batchIvs);
            inOff += k * size;
            outOff += k * size;
            n += k * step;
            i += k;
        }
    }

    /** Wipes the key schedules and the generator's key material (ESSIV's salt schedule). */
    public void destroy() {
        mode.destroy();
        if (ivs != null) {
            ivs.destroy();
        }
        Arrays.fill(batchIvs, (byte) 0);
    }
}
