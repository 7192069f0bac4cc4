package org.vectorjce.internal.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.InvalidParameterSpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.mode.BlockPasses;
import org.vectorjce.internal.mode.Mode;
import org.vectorjce.internal.mode.ModeRules;
import org.vectorjce.internal.registry.Kernels;
import org.vectorjce.internal.registry.Settings;
import org.vectorjce.internal.sector.IvGenerator;
import org.vectorjce.internal.sector.SectorProcessor;

/**
 * The one generic {@code CipherSpi} of the provider (layer 1): the JCA contract's checks of keys,
 * parameters and ranges and the JCA exceptions, for every algorithm × mode, so the contract is
 * written once. A message's buffering and padding are {@link CipherCore}'s; what a mode demands
 * (IV, key layout, lengths) its {@link ModeRules} say, so nothing here branches on the mode.
 * Everything below trusts its arguments (modes, kernels, and the {@link SectorProcessor} that runs
 * a {@link SectorParameterSpec}'s many sectors per call).
 *
 * <p>Semantics follow SunJCE: {@code update} in any pieces gives the bytes of one {@code doFinal};
 * after {@code doFinal} the cipher is back in the state right after {@code init} (same key and IV);
 * a {@link ShortBufferException} changes no state, so the call can be retried; input and output may
 * be the same array, overlapping in either direction.
 */
public final class VectorJceCipher extends CipherSpi {

    private static final int BLOCK = BlockKernel.BLOCK;

    private final String algorithm;
    /** The provider that made this SPI, named by the {@code AlgorithmParameters} it returns. */
    private final java.security.Provider provider;
    /** That provider's settings: the kernel, the constant-time policy, the mode arithmetic. */
    private final Settings settings;
    private ModeRules rules = ModeRules.of("ECB");
    private boolean padding = true; // "AES" alone means AES/ECB/PKCS5Padding, as in SunJCE
    /** The current message's buffering and padding: made at the first init, when mode and padding are fixed. */
    private CipherCore core;

    private Mode mode;
    /** What {@link #mode}'s key schedule was built from, so re-init with the same key reuses it. */
    private byte[] keyCopy;
    private KernelFactory keyFactory;
    /**
     * The key object of the last init: when the next init passes the same {@link SecretKeySpec}
     * (immutable), its bytes need not be copied and compared again.
     */
    private Key lastKey;
    /** Why the current key may not encrypt in this mode (XTS: equal halves); null when it may. */
    private String encryptRefusal;

    /**
     * @param algorithm {@code AES}, {@code Twofish} or {@code Serpent}
     * @param settings the settings of the provider that made it
     * @param provider that provider, named by the {@code AlgorithmParameters} it returns
     */
    public VectorJceCipher(String algorithm, Settings settings, java.security.Provider provider) {
        this.algorithm = algorithm;
        this.settings = settings;
        this.provider = provider;
    }

    // ---------------------------------------------------------------- configuration

    @Override
    protected void engineSetMode(String m) throws NoSuchAlgorithmException {
        ModeRules r = ModeRules.of(m.toUpperCase(Locale.ROOT));
        if (r == null) {
            throw new NoSuchAlgorithmException("Unsupported mode " + m + "; supported: ECB, CBC, CTR, LRW, XTS");
        }
        rules = r;
        if (!r.takesPadding()) {
            padding = false;
        }
    }

    @Override
    protected void engineSetPadding(String p) throws NoSuchPaddingException {
        if (p.equalsIgnoreCase("NoPadding")) {
            padding = false;
        } else if (p.equalsIgnoreCase("PKCS5Padding") || p.equalsIgnoreCase("PKCS7Padding")) {
            if (!rules.takesPadding()) {
                throw new NoSuchPaddingException(rules.name() + " mode supports only NoPadding");
            }
            padding = true;
        } else {
            throw new NoSuchPaddingException("Unsupported padding " + p + "; supported: NoPadding, PKCS5Padding");
        }
    }

    @Override
    protected int engineGetBlockSize() {
        return BLOCK;
    }

    @Override
    protected byte[] engineGetIV() {
        return core == null ? null : core.iv();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (inSectors()) {
            return IvParameters.of(algorithm, sectors.spec(), provider);
        }
        byte[] current = core == null ? null : core.iv();
        return current == null ? null : IvParameters.of(algorithm, current, provider);
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        byte[] k = encodedKey(key);
        try {
            checkKeyLength(k.length);
            return k.length * 8;
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    // ---------------------------------------------------------------- init

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
        dropSectors();
        try {
            init(opmode, key, null, random, false);
        } catch (InvalidAlgorithmParameterException e) {
            // Only reached for a missing IV: JCA's init(key) reports that as a key problem.
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        byte[] ivBytes = null;
        if (params instanceof SectorParameterSpec sectors) {
            initSectors(opmode, key, sectors);
            return;
        }
        if (params != null) {
            if (!(params instanceof IvParameterSpec ivSpec)) {
                throw new InvalidAlgorithmParameterException("Wrong parameter type: "
                        + params.getClass().getName() + "; " + rules.name() + " takes an IvParameterSpec"
                        + (sectorCapable() ? " or a SectorParameterSpec" : ""));
            }
            ivBytes = ivSpec.getIV();
        }
        dropSectors();
        init(opmode, key, ivBytes, random, true);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        AlgorithmParameterSpec spec = null;
        if (params != null) {
            try {
                spec = params.getParameterSpec(SectorParameterSpec.class);
            } catch (InvalidParameterSpecException e) {
                spec = null; // an IV, then
            }
        }
        if (params != null && spec == null) {
            try {
                spec = params.getParameterSpec(IvParameterSpec.class);
            } catch (InvalidParameterSpecException e) {
                throw new InvalidAlgorithmParameterException("Parameters hold no IV: " + params.getAlgorithm(), e);
            }
        }
        engineInit(opmode, key, spec, random);
    }

    private void init(int opmode, Key key, byte[] ivBytes, SecureRandom random, boolean paramsGiven)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc = switch (opmode) {
            case Cipher.ENCRYPT_MODE, Cipher.WRAP_MODE -> true;
            case Cipher.DECRYPT_MODE, Cipher.UNWRAP_MODE -> false;
            default -> throw new InvalidAlgorithmParameterException("Unknown opmode " + opmode);
        };
        KernelFactory factory = factory();
        if (mode != null && key == lastKey && keyFactory == factory && key.getClass() == SecretKeySpec.class) {
            // The very SecretKeySpec of the last init (immutable: it copies its bytes in and out),
            // with the same kernel: the sector-by-sector pattern. Only the IV changes; no key copy
            // is made or compared.
            byte[] newIv = checkIv(ivBytes, enc, random, paramsGiven);
            if (enc && encryptRefusal != null) {
                throw new InvalidKeyException(encryptRefusal);
            }
            core.start(mode, enc, newIv);
            return;
        }
        byte[] k = encodedKey(key);
        try {
            // IV first, so no key schedule is built for a call that fails.
            byte[] newIv = checkIv(ivBytes, enc, random, paramsGiven);
            checkKeyLength(k.length);
            String refusal = rules.encryptionKeyProblem(k);
            if (enc && refusal != null) {
                throw new InvalidKeyException(refusal);
            }
            boolean sameLength = keyCopy != null && keyCopy.length == k.length;
            if (mode != null && keyFactory == factory && sameLength
                    && BlockPasses.constantTimeEqual(keyCopy, 0, k, 0, k.length)) {
                // Same key and kernel (e.g. sector-by-sector XTS with a new tweak per init): keep
                // the key schedule, only the IV changes.
            } else if (mode != null && keyFactory == factory && sameLength && mode.rekey(k, enc)) {
                // A new key of the same size: the schedule is overwritten in place, and the mode
                // keeps its buffers, tables and the kernel's SunJCE ciphers or native memory.
                System.arraycopy(k, 0, keyCopy, 0, k.length);
            } else {
                Mode m = rules.create(k, factory, BlockPasses.forSetting(settings.arithmetic()));
                if (mode != null) {
                    mode.destroy(); // re-key: wipe the old schedule
                }
                mode = m;
                keyFactory = factory;
                if (keyCopy != null) {
                    Arrays.fill(keyCopy, (byte) 0);
                }
                keyCopy = k.clone();
            }
            encryptRefusal = refusal;
            lastKey = key;
            if (core == null) {
                core = new CipherCore(rules, padding);
            }
            core.start(mode, enc, newIv);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    // ---------------------------------------------------------------- many sectors per call

    /**
     * The multi-sector path, made at the first {@link SectorParameterSpec} and kept for the next;
     * {@link SectorProcessor#active} while a spec is in force.
     */
    private SectorProcessor sectors;

    private boolean inSectors() {
        return sectors != null && sectors.active();
    }

    private boolean sectorCapable() {
        return rules.takesSectors() && !padding;
    }

    private String transformation() {
        return algorithm + "/" + rules.name() + "/" + (padding ? "PKCS5Padding" : "NoPadding");
    }

    /** init with a {@link SectorParameterSpec}: checks it, keys the mode as usual, sets up the IVs. */
    private void initSectors(int opmode, Key key, SectorParameterSpec spec)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (!sectorCapable()) {
            throw new InvalidAlgorithmParameterException("A SectorParameterSpec is for AES|Twofish|Serpent/XTS/NoPadding,"
                    + " LRW/NoPadding and CBC/NoPadding, not " + transformation());
        }
        int size = spec.getSectorSize();
        if (size != 512 && size != 1024 && size != 2048 && size != 4096) {
            throw new InvalidAlgorithmParameterException("Bad sector size " + size + ": 512, 1024, 2048 or 4096 bytes");
        }
        List<String> allowed = rules.ivGenerators();
        if (!allowed.contains(spec.getIvGenerator())) {
            throw new InvalidAlgorithmParameterException("IV generator '" + spec.getIvGenerator() + "' is not one "
                    + transformation() + " takes with a SectorParameterSpec: " + String.join(", ", allowed));
        }
        // Key set-up as for any init; the zero IV is only the mode's start, each sector gets its own.
        IvGenerator prev = inSectors() ? sectors.ivGenerator() : null;
        Key prevKey = lastKey;
        KernelFactory prevFactory = keyFactory;
        try {
            init(opmode, key, ZERO_IV, null, true);
        } catch (InvalidKeyException | InvalidAlgorithmParameterException | RuntimeException e) {
            dropSectors();
            throw e;
        }
        String name = spec.getIvGenerator();
        boolean essiv = name.startsWith("essiv");
        IvGenerator gen;
        if (prev != null && prev.name().equals(name) && (!essiv
                || (key == prevKey && key.getClass() == SecretKeySpec.class && keyFactory == prevFactory))) {
            gen = prev; // the same generator (for ESSIV: the same key object and kernel)
        } else {
            dropSectors(); // ESSIV's salt schedule of the old key
            if (essiv) {
                byte[] k = encodedKey(key);
                try {
                    gen = IvGenerator.create(name, k, keyFactory);
                } finally {
                    Arrays.fill(k, (byte) 0);
                }
            } else {
                gen = IvGenerator.create(name, null, keyFactory);
            }
        }
        core.clearIv(); // no single IV: getIV() is null, getParameters() holds the spec
        if (sectors == null) {
            sectors = new SectorProcessor();
        }
        sectors.begin(spec, gen);
    }

    private static final byte[] ZERO_IV = new byte[BLOCK];

    /** Leaves sector mode (an init with an IV or none): ESSIV's salt schedule is wiped. */
    private void dropSectors() {
        if (sectors != null) {
            sectors.end();
        }
    }

    /** update under a SectorParameterSpec: whole sectors out, a partial one kept. Output checked. */
    private int sectorUpdate(byte[] in, int inOff, int len, byte[] out, int outOff) {
        if (CipherCore.needsInputCopy(in, inOff, len, out, outOff, sectors.outputLength(len), sectors.buffered())) {
            in = Arrays.copyOfRange(in, inOff, inOff + len);
            inOff = 0;
        }
        return sectors.update(mode, in, inOff, len, out, outOff);
    }

    private int sectorDoFinal(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException {
        if (outOff < 0 || outOff > out.length) {
            throw new IllegalArgumentException("Bad output offset " + outOff + " for array length " + out.length);
        }
        int size = sectors.sectorSize();
        int held = sectors.buffered();
        long total = (long) held + len;
        if (total % size != 0) {
            // Nothing is consumed: the buffered bytes stay, the rest can follow.
            throw new IllegalBlockSizeException("Input is not a whole number of " + size + "-byte sectors: "
                    + total + " bytes" + (held > 0 ? " (" + held + " buffered)" : "")
                    + "; nothing was processed");
        }
        CipherCore.checkOutput(out, outOff, (int) total);
        int n = sectorUpdate(in, inOff, len, out, outOff);
        sectors.restart();
        return n;
    }
    private byte[] encodedKey(Key key) throws InvalidKeyException {
        if (key == null) {
            throw new InvalidKeyException("No key given");
        }
        if (!(key instanceof SecretKey)) {
            throw new InvalidKeyException(algorithm + " needs a SecretKey, got a " + key.getClass().getName());
        }
        if (((SecretKey) key).isDestroyed()) {
            throw new InvalidKeyException("The key has been destroyed");
        }
        String alg = key.getAlgorithm();
        boolean algOk = alg != null && (alg.equalsIgnoreCase(algorithm)
                || (algorithm.equals("AES") && alg.equalsIgnoreCase("Rijndael")));
        if (!algOk) {
            throw new InvalidKeyException("Wrong key algorithm " + alg + ": " + algorithm + " required");
        }
        if (!"RAW".equalsIgnoreCase(key.getFormat())) {
            throw new InvalidKeyException("Key format must be RAW, was " + key.getFormat());
        }
        byte[] k = key.getEncoded();
        if (k == null) {
            throw new InvalidKeyException("The key has no encoding");
        }
        return k;
    }

    /** Allowed total key lengths in bytes for the current mode. */
    private void checkKeyLength(int len) throws InvalidKeyException {
        String problem = rules.keyLengthProblem(algorithm, len);
        if (problem != null) {
            throw new InvalidKeyException(problem);
        }
    }

    private byte[] checkIv(byte[] ivBytes, boolean enc, SecureRandom random, boolean paramsGiven)
            throws InvalidAlgorithmParameterException {
        if (!rules.takesIv()) {
            if (ivBytes != null) {
                throw new InvalidAlgorithmParameterException(rules.name() + " mode does not use an IV");
            }
            return null;
        }
        if (ivBytes == null) {
            if (enc && rules.randomIvForEncryption()) {
                byte[] fresh = new byte[BLOCK];
                (random != null ? random : new SecureRandom()).nextBytes(fresh);
                return fresh;
            }
            throw new InvalidAlgorithmParameterException("Parameters missing: " + rules.missingIv(enc));
        }
        if (ivBytes.length != BLOCK) {
            throw new InvalidAlgorithmParameterException("Wrong IV length: " + rules.name() + " needs 16 bytes, got "
                    + ivBytes.length);
        }
        return ivBytes; // a copy already (IvParameterSpec.getIV), copied by CipherCore.start
    }

    /**
     * The kernel factory key set-up uses under the provider's settings: the same for every call on
     * this cipher (its settings are fixed and the registry's choice under them is made once per
     * JVM), so it is looked up once and kept; an {@code init} per sector then does not repeat it.
     */
    private KernelFactory factory() throws InvalidKeyException {
        KernelFactory f = selected;
        if (f == null) {
            try {
                selected = f = Kernels.select(algorithm, settings);
            } catch (IllegalArgumentException e) {
                throw new InvalidKeyException(e.getMessage(), e);
            }
        }
        return f;
    }

    /** {@link #factory()} once looked up. */
    private KernelFactory selected;

    // ---------------------------------------------------------------- sizes

    @Override
    protected int engineGetOutputSize(int inputLen) {
        if (inSectors()) {
            return (int) Math.min((long) sectors.buffered() + Math.max(inputLen, 0), Integer.MAX_VALUE);
        }
        return core == null ? Math.max(inputLen, 0) : core.outputSize(inputLen);
    }

    // ---------------------------------------------------------------- update

    private void checkInit() {
        if (mode == null) {
            throw new IllegalStateException("Cipher not initialized");
        }
    }

    private static void checkRange(byte[] a, int off, int len, String what) {
        if (a == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (off < 0 || len < 0 || off > a.length - len) {
            throw new IllegalArgumentException("Bad " + what + " range: offset " + off + ", length " + len
                    + ", array length " + a.length);
        }
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int inOff, int len) {
        checkInit();
        if (in == null) {
            in = new byte[0];
            inOff = len = 0;
        }
        checkRange(in, inOff, len, "Input");
        if (inSectors()) {
            byte[] out = new byte[sectors.outputLength(len)];
            sectorUpdate(in, inOff, len, out, 0);
            return out;
        }
        byte[] out = new byte[core.updateOutputLength(len)];
        int n = core.update(in, inOff, len, out, 0);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    @Override
    protected int engineUpdate(byte[] in, int inOff, int len, byte[] out, int outOff) throws ShortBufferException {
        checkInit();
        if (in == null) {
            in = new byte[0];
            inOff = len = 0;
        }
        checkRange(in, inOff, len, "Input");
        if (inSectors()) {
            CipherCore.checkOutput(out, outOff, sectors.outputLength(len));
            return sectorUpdate(in, inOff, len, out, outOff);
        }
        CipherCore.checkOutput(out, outOff, core.updateOutputLength(len));
        return core.update(in, inOff, len, out, outOff);
    }

    // ---------------------------------------------------------------- doFinal

    @Override
    protected byte[] engineDoFinal(byte[] in, int inOff, int len) throws IllegalBlockSizeException, BadPaddingException {
        checkInit();
        if (in == null) {
            in = new byte[0];
            inOff = len = 0;
        }
        checkRange(in, inOff, len, "Input");
        byte[] out = new byte[engineGetOutputSize(len)];
        try {
            int n = inSectors() ? sectorDoFinal(in, inOff, len, out, 0) : core.doFinal(in, inOff, len, out, 0);
            return n == out.length ? out : Arrays.copyOf(out, n);
        } catch (ShortBufferException e) {
            throw new AssertionError("output sized by engineGetOutputSize", e);
        }
    }

    @Override
    protected int engineDoFinal(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        checkInit();
        if (in == null) {
            in = new byte[0];
            inOff = len = 0;
        }
        checkRange(in, inOff, len, "Input");
        if (out == null) {
            throw new IllegalArgumentException("Output buffer is null");
        }
        if (inSectors()) {
            return sectorDoFinal(in, inOff, len, out, outOff);
        }
        return core.doFinal(in, inOff, len, out, outOff);
    }

    // ---------------------------------------------------------------- wrap / unwrap

    @Override
    protected byte[] engineWrap(Key key) throws IllegalBlockSizeException, InvalidKeyException {
        checkInit();
        byte[] encoded = key == null ? null : key.getEncoded();
        if (encoded == null) {
            throw new InvalidKeyException("Cannot wrap a key without an encoding");
        }
        try {
            return engineDoFinal(encoded, 0, encoded.length);
        } catch (BadPaddingException e) {
            throw new InvalidKeyException("Wrapping failed", e);
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
    }

    @Override
    protected Key engineUnwrap(byte[] wrapped, String alg, int type)
            throws InvalidKeyException, NoSuchAlgorithmException {
        checkInit();
        byte[] encoded;
        try {
            encoded = engineDoFinal(wrapped, 0, wrapped.length);
        } catch (IllegalBlockSizeException | BadPaddingException e) {
            throw new InvalidKeyException("Unwrapping failed: " + e.getMessage(), e);
        }
        try {
            switch (type) {
                case Cipher.SECRET_KEY:
                    return new SecretKeySpec(encoded, alg);
                case Cipher.PUBLIC_KEY:
                    return KeyFactory.getInstance(alg).generatePublic(new X509EncodedKeySpec(encoded));
                case Cipher.PRIVATE_KEY:
                    return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(encoded));
                default:
                    throw new InvalidKeyException("Unknown key type " + type);
            }
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException("Unwrapped bytes are not a valid " + alg + " key", e);
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "VectorJceCipher[" + transformation()
                + (mode == null ? "" : ", kernel " + mode.kernelName()) + "]";
    }
}
