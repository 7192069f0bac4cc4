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
import org.vectorjce.internal.kernel.Kernels;
import org.vectorjce.internal.mode.Mode;
import org.vectorjce.internal.kernel.Settings;
import org.vectorjce.internal.mode.ModeArithmetic;
import org.vectorjce.internal.mode.ModeArithmetics;
import org.vectorjce.internal.mode.XtsMode;
import org.vectorjce.internal.sector.IvGenerator;
import org.vectorjce.internal.sector.SectorProcessor;

/**
 * The one generic {@code CipherSpi} of the provider (layer 1): key and parameter checks, update
 * buffering, PKCS#5 padding and the JCA exceptions, for every algorithm × mode, so the JCA contract
 * is written once. Everything below it trusts its arguments (modes, kernels, and the
 * {@link SectorProcessor} that runs a {@link SectorParameterSpec}'s many sectors per call); every
 * check is here.
 *
 * <p>Semantics follow SunJCE: {@code update} in any pieces gives the bytes of one {@code doFinal};
 * after {@code doFinal} the cipher is back in the state right after {@code init} (same key and IV);
 * a {@link ShortBufferException} changes no state, so the call can be retried; input and output may
 * be the same array, overlapping in either direction.
 */
public final class VectorJceCipher extends CipherSpi {

    /** Modes this SPI implements, as listed in the provider's {@code SupportedModes}. */
    public enum ModeId { ECB, CBC, CTR, LRW, XTS }

    private static final int BLOCK = BlockKernel.BLOCK;

    private final String algorithm;
    /** The provider that made this SPI, named by the {@code AlgorithmParameters} it returns. */
    private final java.security.Provider provider;
    /** That provider's settings: the kernel, the constant-time policy, the mode arithmetic. */
    private final Settings settings;
    private ModeId modeId = ModeId.ECB;
    private boolean padding = true; // "AES" alone means AES/ECB/PKCS5Padding, as in SunJCE

    private Mode mode;
    /** What {@link #mode}'s key schedule was built from, so re-init with the same key reuses it. */
    private byte[] keyCopy;
    private KernelFactory keyFactory;
    /**
     * The key object of the last init: when the next init passes the same {@link SecretKeySpec}
     * (immutable), its bytes need not be copied and compared again.
     */
    private Key lastKey;
    /** XTS: the current key's halves are equal (decryption only). */
    private boolean xtsHalvesEqual;
    private boolean encrypt;
    /** The IV of the current message (valid when {@link #ivSet}); one array, reused by every init. */
    private final byte[] iv = new byte[BLOCK];
    private boolean ivSet;
    /** Input bytes not yet processed: a partial block, or blocks held back (padding, XTS). */
    private final byte[] buf = new byte[2 * BLOCK];
    /** Output of the last 16..31 bytes (XTS) or of the padded last block, before it is copied out. */
    private final byte[] tail = new byte[2 * BLOCK];
    private int buffered;
    /** XTS: bytes of the current data unit already processed. */
    private long unitBytes;
    /** XTS: the data unit passed 2^20 blocks; doFinal then fails. */
    private boolean unitTooLong;

    /**
     * @param algorithm {@code AES} or {@code Twofish}
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
        try {
            modeId = ModeId.valueOf(m.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new NoSuchAlgorithmException("Unsupported mode " + m + "; supported: ECB, CBC, CTR, LRW, XTS");
        }
        if (modeId != ModeId.ECB && modeId != ModeId.CBC) {
            padding = false;
        }
    }

    @Override
    protected void engineSetPadding(String p) throws NoSuchPaddingException {
        if (p.equalsIgnoreCase("NoPadding")) {
            padding = false;
        } else if (p.equalsIgnoreCase("PKCS5Padding") || p.equalsIgnoreCase("PKCS7Padding")) {
            if (modeId != ModeId.ECB && modeId != ModeId.CBC) {
                throw new NoSuchPaddingException(modeId + " mode supports only NoPadding");
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
        return ivSet ? iv.clone() : null;
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (inSectors()) {
            return IvParameters.of(algorithm, sectors.spec(), provider);
        }
        if (!ivSet) {
            return null;
        }
        return IvParameters.of(algorithm, iv.clone(), provider);
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
                        + params.getClass().getName() + "; " + modeId + " takes an IvParameterSpec"
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
            if (enc && modeId == ModeId.XTS && xtsHalvesEqual) {
                throw xtsEqualHalves();
            }
            start(enc, newIv);
            return;
        }
        byte[] k = encodedKey(key);
        try {
            // IV first, so no key schedule is built for a call that fails.
            byte[] newIv = checkIv(ivBytes, enc, random, paramsGiven);
            checkKeyLength(k.length);
            boolean halvesEqual = modeId == ModeId.XTS
                    && ModeArithmetic.constantTimeEqual(k, 0, k, k.length / 2, k.length / 2);
            if (enc && halvesEqual) {
                // IEEE 1619-2018 §5.1 / FIPS: K1 == K2 is refused for encryption.
                throw xtsEqualHalves();
            }
            boolean sameLength = keyCopy != null && keyCopy.length == k.length;
            if (mode != null && keyFactory == factory && sameLength
                    && ModeArithmetic.constantTimeEqual(keyCopy, 0, k, 0, k.length)) {
                // Same key and kernel (e.g. sector-by-sector XTS with a new tweak per init): keep
                // the key schedule, only the IV changes.
            } else if (mode != null && keyFactory == factory && sameLength && mode.rekey(k, enc)) {
                // A new key of the same size: the schedule is overwritten in place, and the mode
                // keeps its buffers, tables and the kernel's SunJCE ciphers or native memory.
                System.arraycopy(k, 0, keyCopy, 0, k.length);
            } else {
                Mode m = Mode.create(modeId.name(), k, factory, ModeArithmetics.forSetting(settings.arithmetic()));
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
            xtsHalvesEqual = halvesEqual;
            lastKey = key;
            start(enc, newIv);
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
        return modeId == ModeId.XTS || modeId == ModeId.LRW || (modeId == ModeId.CBC && !padding);
    }

    private String transformation() {
        return algorithm + "/" + modeId + "/" + (padding ? "PKCS5Padding" : "NoPadding");
    }

    /** init with a {@link SectorParameterSpec}: checks it, keys the mode as usual, sets up the IVs. */
    private void initSectors(int opmode, Key key, SectorParameterSpec spec)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (!sectorCapable()) {
            throw new InvalidAlgorithmParameterException("A SectorParameterSpec is for AES|Twofish/XTS/NoPadding,"
                    + " LRW/NoPadding and CBC/NoPadding, not " + transformation());
        }
        int size = spec.getSectorSize();
        if (size != 512 && size != 1024 && size != 2048 && size != 4096) {
            throw new InvalidAlgorithmParameterException("Bad sector size " + size + ": 512, 1024, 2048 or 4096 bytes");
        }
        String[] allowed = IvGenerator.allowed(modeId.name());
        if (!Arrays.asList(allowed).contains(spec.getIvGenerator())) {
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
        ivSet = false; // no single IV: getIV() is null, getParameters() holds the spec
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
        if (needsInputCopy(in, inOff, len, out, outOff, sectors.outputLength(len), sectors.buffered())) {
            in = Arrays.copyOfRange(in, inOff, inOff + len);
            inOff = 0;
        }
        return sectors.update(mode, in, inOff, len, out, outOff);
    }

    /**
     * Same array, overlapping ranges, and output ({@code produce} bytes) not exactly aligned with
     * the input it comes from ({@code buffered} bytes are held back): the input must be copied so
     * no byte is overwritten before it is read.
     */
    private static boolean needsInputCopy(byte[] in, int inOff, int len, byte[] out, int outOff, int produce,
            int buffered) {
        return in == out && inOff < outOff + produce && outOff < inOff + len && (inOff != outOff || buffered != 0);
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
        checkOutput(out, outOff, (int) total);
        int n = sectorUpdate(in, inOff, len, out, outOff);
        sectors.restart();
        return n;
    }
    private void start(boolean enc, byte[] newIv) {
        encrypt = enc;
        if (newIv == null) {
            ivSet = false;
        } else {
            System.arraycopy(newIv, 0, iv, 0, BLOCK);
            ivSet = true;
        }
        mode.start(enc, ivSet ? iv : null);
        resetBuffer();
    }

    private static InvalidKeyException xtsEqualHalves() {
        return new InvalidKeyException("XTS key halves K1 and K2 are equal: refused for encryption"
                + " (allowed for decryption only)");
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
        String problem = Mode.keyLengthProblem(algorithm, modeId.name(), len);
        if (problem != null) {
            throw new InvalidKeyException(problem);
        }
    }

    private byte[] checkIv(byte[] ivBytes, boolean enc, SecureRandom random, boolean paramsGiven)
            throws InvalidAlgorithmParameterException {
        if (modeId == ModeId.ECB) {
            if (ivBytes != null) {
                throw new InvalidAlgorithmParameterException("ECB mode does not use an IV");
            }
            return null;
        }
        if (ivBytes == null) {
            if (enc && (modeId == ModeId.CBC || modeId == ModeId.CTR)) {
                byte[] fresh = new byte[BLOCK];
                (random != null ? random : new SecureRandom()).nextBytes(fresh);
                return fresh;
            }
            String what = switch (modeId) {
                case XTS -> "XTS needs the 16-byte tweak (e.g. the sector number, little-endian) as IV";
                case LRW -> "LRW needs the 16-byte big-endian block index as IV";
                default -> modeId + " decryption needs the 16-byte IV used for encryption";
            };
            throw new InvalidAlgorithmParameterException("Parameters missing: " + what);
        }
        if (ivBytes.length != BLOCK) {
            throw new InvalidAlgorithmParameterException("Wrong IV length: " + modeId + " needs 16 bytes, got "
                    + ivBytes.length);
        }
        return ivBytes; // a copy already (IvParameterSpec.getIV), copied into iv by start
    }

    /** The kernel factory key set-up uses under the provider's settings. */
    private KernelFactory factory() throws InvalidKeyException {
        try {
            return Kernels.select(algorithm, settings);
        } catch (IllegalArgumentException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- sizes

    /** Bytes an update of {@code len} more input bytes writes now. */
    private int updateOutputLength(int len) {
        return processableLength(len, false);
    }

    /**
     * Bytes of buffered + {@code len} input that can go through the mode now; {@code last} when
     * no more input follows (doFinal): XTS then holds back only a stealing tail.
     */
    private int processableLength(int len, boolean last) {
        long n = (long) buffered + len;
        if (modeId == ModeId.CTR) {
            return (int) Math.min(n, Integer.MAX_VALUE);
        }
        long keep;
        if (modeId == ModeId.XTS) {
            // Hold back the last full block and any partial one (16..31 bytes) for ciphertext stealing.
            if (last) {
                keep = n % BLOCK == 0 ? 0 : BLOCK + n % BLOCK; // the stealing pair only
            } else {
                keep = n < 2 * BLOCK ? n : BLOCK + n % BLOCK;
            }
        } else if (padding && !encrypt) {
            // Hold back the last block: it carries the padding.
            keep = n % BLOCK == 0 ? Math.min(n, BLOCK) : n % BLOCK;
        } else {
            keep = n % BLOCK;
        }
        return (int) (n - keep);
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        if (inSectors()) {
            return (int) Math.min((long) sectors.buffered() + Math.max(inputLen, 0), Integer.MAX_VALUE);
        }
        long n = (long) buffered + Math.max(inputLen, 0);
        if (padding && encrypt) {
            n = (n / BLOCK + 1) * BLOCK;
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
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

    private static void checkOutput(byte[] out, int outOff, int needed) throws ShortBufferException {
        if (out == null) {
            throw new IllegalArgumentException("Output buffer is null");
        }
        if (outOff < 0 || outOff > out.length) {
            throw new IllegalArgumentException("Bad output offset " + outOff + " for array length " + out.length);
        }
        if (out.length - outOff < needed) {
            throw new ShortBufferException("Output buffer too short: " + needed + " bytes needed, "
                    + (out.length - outOff) + " available");
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
        byte[] out = new byte[updateOutputLength(len)];
        int n = update(in, inOff, len, out, 0);
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
            checkOutput(out, outOff, sectors.outputLength(len));
            return sectorUpdate(in, inOff, len, out, outOff);
        }
        checkOutput(out, outOff, updateOutputLength(len));
        return update(in, inOff, len, out, outOff);
    }

    /** Processes what can be processed now; the caller checked the output space. */
    private int update(byte[] in, int inOff, int len, byte[] out, int outOff) {
        return update(in, inOff, len, out, outOff, false);
    }

    private int update(byte[] in, int inOff, int len, byte[] out, int outOff, boolean last) {
        int p = processableLength(len, last);
        // The mode's last call of the message: doFinal without padding takes everything here
        // (the lengths were checked); XTS may still steal, padded modes have a block to go.
        boolean finalCall = last && !padding && modeId != ModeId.XTS;
        if (modeId == ModeId.XTS && !last) { // doFinal checked the whole unit's length already
            unitBytes += p;
            if (unitBytes + BLOCK > XtsMode.MAX_DATA_UNIT_BYTES) {
                // Past 2^20 blocks nothing more is output; doFinal reports the error.
                unitBytes -= p;
                unitTooLong = true;
                return 0;
            }
        }
        if (p == 0) {
            if (modeId == ModeId.CTR) {
                return 0;
            }
            System.arraycopy(in, inOff, buf, buffered, len);
            buffered += len;
            return 0;
        }
        if (needsInputCopy(in, inOff, len, out, outOff, p, buffered)) {
            in = Arrays.copyOfRange(in, inOff, inOff + len);
            inOff = 0;
        }
        int done = 0;
        if (buffered > 0) {
            int take = Math.min(len, (BLOCK - buffered % BLOCK) % BLOCK);
            System.arraycopy(in, inOff, buf, buffered, take);
            buffered += take;
            inOff += take;
            len -= take;
            int fromBuf = Math.min(p, buffered & ~(BLOCK - 1));
            if (finalCall && fromBuf == p) {
                mode.processFinal(buf, 0, out, outOff, fromBuf);
            } else {
                mode.process(buf, 0, out, outOff, fromBuf);
            }
            buffered -= fromBuf;
            System.arraycopy(buf, fromBuf, buf, 0, buffered);
            done = fromBuf;
        }
        int direct = p - done;
        if (direct > 0) {
            if (finalCall) {
                mode.processFinal(in, inOff, out, outOff + done, direct);
            } else {
                mode.process(in, inOff, out, outOff + done, direct);
            }
            inOff += direct;
            len -= direct;
        }
        if (len > 0) {
            System.arraycopy(in, inOff, buf, buffered, len);
            buffered += len;
        }
        return p;
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
            int n = inSectors() ? sectorDoFinal(in, inOff, len, out, 0) : doFinal(in, inOff, len, out, 0);
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
        return doFinal(in, inOff, len, out, outOff);
    }

    private int doFinal(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        if (outOff < 0 || outOff > out.length) {
            // Checked before anything else so a bad call changes no state.
            throw new IllegalArgumentException("Bad output offset " + outOff + " for array length " + out.length);
        }
        long n = (long) buffered + len;
        // Errors in the input itself: the message is over; reset so the cipher can be reused.
        try {
            checkFinalLength(n);
        } catch (IllegalBlockSizeException e) {
            restart();
            throw e;
        }
        int space = out.length - outOff;
        if (padding && !encrypt && space < n) {
            // The plaintext may still fit once the padding is removed: decrypt into a buffer of
            // our own, and undo everything if it does not.
            return doFinalViaCopy(in, inOff, len, out, outOff);
        }
        checkOutput(out, outOff, engineGetOutputSize(len));
        try {
            return finish(in, inOff, len, out, outOff);
        } finally {
            restart();
        }
    }

    private void checkFinalLength(long n) throws IllegalBlockSizeException {
        switch (modeId) {
            case CTR:
                return;
            case XTS:
                if (unitTooLong || unitBytes + n > XtsMode.MAX_DATA_UNIT_BYTES) {
                    throw new IllegalBlockSizeException("XTS data unit longer than 2^20 blocks (16 MiB)"
                            + " (IEEE 1619 §5.1); one doFinal is one data unit");
                }
                if (unitBytes + n < BLOCK) {
                    throw new IllegalBlockSizeException("XTS data unit shorter than 16 bytes: "
                            + (unitBytes + n) + " bytes");
                }
                return;
            default:
                if (padding && encrypt) {
                    return;
                }
                if (n % BLOCK != 0) {
                    throw new IllegalBlockSizeException(padding
                            ? "Input length " + n + " not a multiple of 16 bytes when decrypting with padding"
                            : "Input length " + n + " not a multiple of 16 bytes (" + modeId + "/NoPadding)");
                }
                if (padding && n == 0) {
                    throw new IllegalBlockSizeException("No input to decrypt: a padded message has at least one block");
                }
        }
    }

    private int doFinalViaCopy(byte[] in, int inOff, int len, byte[] out, int outOff)
            throws ShortBufferException, BadPaddingException {
        byte[] savedBuf = buf.clone();
        int savedBuffered = buffered;
        byte[] savedState = mode.saveState();
        byte[] tmp = new byte[buffered + len];
        int n;
        try {
            n = finish(in, inOff, len, tmp, 0);
        } catch (BadPaddingException e) {
            Arrays.fill(tmp, (byte) 0);
            restart();
            throw e;
        }
        if (out.length - outOff < n) {
            Arrays.fill(tmp, (byte) 0);
            System.arraycopy(savedBuf, 0, buf, 0, buf.length);
            buffered = savedBuffered;
            mode.restoreState(savedState);
            throw new ShortBufferException("Output buffer too short: " + n + " bytes needed, "
                    + (out.length - outOff) + " available");
        }
        System.arraycopy(tmp, 0, out, outOff, n);
        Arrays.fill(tmp, (byte) 0);
        restart();
        return n;
    }

    /** Processes the whole rest of the message; lengths were checked. */
    private int finish(byte[] in, int inOff, int len, byte[] out, int outOff) throws BadPaddingException {
        int w = update(in, inOff, len, out, outOff, true);
        int o = outOff + w;
        switch (modeId) {
            case CTR:
                return w;
            case XTS: {
                // buffered is 0 (whole blocks) or 17..31: a full block and a partial one to steal.
                if (buffered == 0) {
                    return w;
                }
                int n = buffered;
                ((XtsMode) mode).finish(buf, 0, tail, 0, n);
                System.arraycopy(tail, 0, out, o, n);
                Arrays.fill(tail, (byte) 0);
                return w + n;
            }
            default:
                break;
        }
        if (!padding) {
            return w; // buffered == 0: the length was a multiple of 16
        }
        if (encrypt) {
            int pad = BLOCK - buffered;
            Arrays.fill(buf, buffered, BLOCK, (byte) pad);
            mode.processFinal(buf, 0, out, o, BLOCK);
            return w + BLOCK;
        }
        // Decrypt: buffered == 16, the last block. Padding check without an early exit or a
        // data-dependent branch per byte: (d | -d) >>> 31 is 1 exactly when d != 0. The only
        // branch is on the verdict; an unauthenticated CBC decryption is a padding oracle through
        // its exception anyway (authenticate the ciphertext first).
        byte[] last = tail;
        mode.processFinal(buf, 0, last, 0, BLOCK);
        int pad = last[BLOCK - 1] & 0xff;
        int bad = ((pad - 1) >>> 31) | ((BLOCK - pad) >>> 31); // pad == 0 or pad > 16
        for (int i = 0; i < BLOCK; i++) {
            int inPad = (BLOCK - 1 - i - pad) >>> 31; // 1 when i >= 16 - pad
            int d = (last[i] & 0xff) ^ pad;
            bad |= inPad & ((d | -d) >>> 31);
        }
        if (bad != 0) {
            Arrays.fill(last, (byte) 0);
            Arrays.fill(out, outOff, o, (byte) 0); // never hand out plaintext of a message that failed
            throw new BadPaddingException("Given final block not properly padded (PKCS#5)");
        }
        System.arraycopy(last, 0, out, o, BLOCK - pad);
        Arrays.fill(last, (byte) 0);
        return w + BLOCK - pad;
    }

    /** Back to the state right after init: same key and IV, nothing buffered. */
    private void restart() {
        mode.start(encrypt, ivSet ? iv : null);
        resetBuffer();
    }

    private void resetBuffer() {
        Arrays.fill(buf, (byte) 0);
        buffered = 0;
        unitBytes = 0;
        unitTooLong = false;
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
