package org.vectorjce;

import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.vectorjce.internal.mode.ModeRules;
import org.vectorjce.internal.sector.IvGenerator;
import org.vectorjce.internal.sector.SectorEngine;

/**
 * Disk sectors below the JCA: a Linux dm-crypt cipher specification, a key and a sector size in;
 * out, encryption and decryption of {@code n} whole sectors from sector {@code s}, in place or
 * from one array to another, on {@code byte[]} and {@code ByteBuffer} — what a dm-crypt target
 * does with a bio, with no {@code Cipher.init} per call.
 *
 * <pre>{@code
 * try (SectorCipher c = SectorCipher.of("aes-xts-plain64", key, 512)) {
 *     c.decrypt(2048, buf, 0, buf.length);   // sectors 2048, 2049, ... in place
 * }
 * }</pre>
 *
 * <p><b>The specification</b> is cryptsetup's {@code --cipher} (dm-crypt's
 * {@code cipher-chainmode-ivmode}): cipher {@code aes}, {@code twofish} or {@code serpent}; chain mode {@code xts},
 * {@code lrw}, {@code cbc} or {@code ecb}; IV generator as {@link SectorParameterSpec} lists them
 * (XTS {@code plain}, {@code plain64}, {@code plain64be}, {@code null}; LRW {@code benbi},
 * {@code plain64be}, {@code plain64}, {@code null}; CBC {@code essiv:sha256}, {@code plain},
 * {@code plain64}, {@code null}, and here only, not through {@code SectorParameterSpec},
 * {@code eboiv}: BitLocker's encrypted byte offset, dm-crypt's {@code crypt_iv_eboiv_gen}, and
 * {@code elephant}: eboiv plus BitLocker's Elephant diffuser, AES only, the key being the CBC key ‖
 * the sector key of the same size). Here CBC and XTS also take {@code essiv:HASH} for any hash
 * whose digest is a key of the cipher: the JDK's {@code md5}, {@code sha256}, {@code sha3-256}, …
 * ({@code sha1}, {@code sha224}, {@code sha384} and {@code sha512} only where the cipher takes
 * their lengths, as in dm-crypt), and any other through an {@link EssivHash} given to
 * {@link #of(String, byte[], int, boolean, VectorJceProvider, EssivHash)}, e.g. {@code wp256},
 * Whirlpool cut to 256 bits. As in dm-crypt, {@code aes} alone and {@code aes-plain} mean
 * {@code aes-cbc-plain}, {@code ecb} takes no IV generator (one given is ignored, as QEMU's
 * {@code aes-ecb-plain64}), and any other mode without one is refused. Sector {@code s} has the
 * IV of sector number {@code s} when {@code ivLargeSectors}, else of {@code s × sectorSize / 512}
 * (dm-crypt's default); sector numbers are unsigned and wrap.
 *
 * <p><b>Keys</b>: the whole key in the mode's layout (XTS: K1 ‖ K2, 32, 48 or 64 bytes; LRW: the
 * cipher key ‖ the 16-byte tweak key, 32, 40 or 48 bytes; CBC and ECB: 16, 24 or 32 bytes),
 * copied at {@link #of}. An XTS key with equal halves can decrypt (old volumes stay readable) but
 * {@code encrypt} refuses it, as {@code Cipher.init} does.
 *
 * <p>The ciphers follow the settings of the provider given (kernels, the constant-time policy,
 * the mode arithmetic). {@link #close} wipes the key schedules. Not thread-safe: one instance per
 * thread (they are cheap to make).
 */
public final class SectorCipher implements AutoCloseable {
    /** Bytes per step for a direct {@code ByteBuffer} (copied through a heap array). */
    private static final int STEP = 64 << 10;

    private final String spec;
    private final String algorithm;
    private final String mode;
    private final String ivGenerator;
    private final int sectorSize;
    private final int keyLength;
    private final SectorEngine engine;
    private byte[] work;
    private boolean open = true;

    private SectorCipher(String spec, String algorithm, String mode, String ivGenerator, int sectorSize, int keyLength,
            SectorEngine engine) {
        this.spec = spec;
        this.algorithm = algorithm;
        this.mode = mode;
        this.ivGenerator = ivGenerator;
        this.sectorSize = sectorSize;
        this.keyLength = keyLength;
        this.engine = engine;
    }

    /**
     * {@link #of(String, byte[], int, boolean, VectorJceProvider)} with dm-crypt's default IV
     * counting and a provider with the default settings.
     *
     * @param cipherSpec the dm-crypt cipher specification, e.g. {@code aes-xts-plain64}
     * @param key the whole key in the mode's layout (copied)
     * @param sectorSize 512, 1024, 2048 or 4096
     * @return the keyed sector cipher
     * @throws InvalidAlgorithmParameterException for a specification or sector size it does not take
     * @throws InvalidKeyException for a key length the mode does not take
     */
    public static SectorCipher of(String cipherSpec, byte[] key, int sectorSize)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        return of(cipherSpec, key, sectorSize, false, new VectorJceProvider());
    }

    /**
     * A sector cipher for {@code cipherSpec} keyed with {@code key}.
     *
     * @param cipherSpec the dm-crypt cipher specification, e.g. {@code twofish-cbc-essiv:sha256}
     * @param key the whole key in the mode's layout (copied; the caller may wipe its array)
     * @param sectorSize 512, 1024, 2048 or 4096
     * @param ivLargeSectors dm-crypt's {@code iv_large_sectors}: IV sector numbers count units of
     *     {@code sectorSize}, not 512 bytes
     * @param provider the provider whose settings the ciphers follow
     * @return the keyed sector cipher
     * @throws InvalidAlgorithmParameterException for a specification or sector size it does not
     *     take (the message names the part)
     * @throws InvalidKeyException for a key length the mode does not take, or where the provider's
     *     settings give no kernel (the message says why)
     */
    public static SectorCipher of(String cipherSpec, byte[] key, int sectorSize, boolean ivLargeSectors,
            VectorJceProvider provider) throws InvalidAlgorithmParameterException, InvalidKeyException {
        return of(cipherSpec, key, sectorSize, ivLargeSectors, provider, null);
    }

    /**
     * A hash for {@code essiv:HASH} that the JDK does not have (dm-crypt names hashes as the
     * kernel's crypto API does: {@code wp256} is Whirlpool's first 256 bits).
     */
    @FunctionalInterface
    public interface EssivHash {
        /**
         * HASH of the whole cipher key.
         *
         * @param hash the name after {@code essiv:}, e.g. {@code wp256}
         * @param key the whole cipher key (read it, do not keep it)
         * @return the digest (the sector cipher wipes it), or null for a hash this function does not know
         */
        byte[] digest(String hash, byte[] key);
    }

    /**
     * {@link #of(String, byte[], int, boolean, VectorJceProvider)}, where an {@code essiv:HASH}
     * generator whose hash the JDK lacks takes its digest from {@code essivHash}.
     *
     * @param cipherSpec the dm-crypt cipher specification, e.g. {@code aes-xts-essiv:wp256}
     * @param key the whole key in the mode's layout (copied)
     * @param sectorSize 512, 1024, 2048 or 4096
     * @param ivLargeSectors as for {@link #of(String, byte[], int, boolean, VectorJceProvider)}
     * @param provider the provider whose settings the ciphers follow
     * @param essivHash the hashes beyond the JDK's, or null for none
     * @return the keyed sector cipher
     * @throws InvalidAlgorithmParameterException for a specification or sector size it does not
     *     take, or an ESSIV hash neither the JDK nor {@code essivHash} has
     * @throws InvalidKeyException for a key length the mode does not take, an ESSIV digest that is
     *     not a key of the cipher, or where the provider's settings give no kernel
     */
    public static SectorCipher of(String cipherSpec, byte[] key, int sectorSize, boolean ivLargeSectors,
            VectorJceProvider provider, EssivHash essivHash)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        String[] p = parse(cipherSpec);
        if (sectorSize != 512 && sectorSize != 1024 && sectorSize != 2048 && sectorSize != 4096) {
            throw new InvalidAlgorithmParameterException("Bad sector size " + sectorSize
                    + ": 512, 1024, 2048 or 4096 bytes");
        }
        if (key == null) {
            throw new InvalidKeyException("No key given");
        }
        if (p[2] != null && IvGenerator.splitsKey(p[2])) {
            // dm-crypt's elephant: AES only (its sector key is an ecb(aes) key), key = CBC key ‖ sector key
            if (!p[0].equals("AES")) {
                throw new InvalidAlgorithmParameterException("'" + cipherSpec + "': the elephant IV generator is "
                        + "AES-only, as in dm-crypt");
            }
            if (key.length % 2 != 0) {
                throw new InvalidKeyException("An elephant key is the CBC key and the sector key, of equal sizes: "
                        + key.length + " bytes");
            }
            checkKeyLength(p[0], p[1], key.length / 2);
        } else {
            checkKeyLength(p[0], p[1], key.length);
        }
        byte[] k = key.clone();
        byte[] salt = null;
        try {
            if (p[2] != null && p[2].startsWith("essiv:") && !p[2].equals("essiv:sha256")) {
                salt = essivSalt(cipherSpec, p[0], p[2].substring(6), k, essivHash);
            }
            SectorEngine e = SectorEngine.create(p[0], p[1], p[2], k, sectorSize, ivLargeSectors,
                    provider.internalSettings(), salt);
            return new SectorCipher(cipherSpec, p[0], p[1], p[2], sectorSize, key.length, e);
        } catch (IllegalArgumentException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        } finally {
            Arrays.fill(k, (byte) 0);
            if (salt != null) {
                Arrays.fill(salt, (byte) 0);
            }
        }
    }

    /** HASH(key) for essiv:HASH: the JDK's digest, else {@code extra}'s; checked to be a key of the cipher. */
    private static byte[] essivSalt(String cipherSpec, String algorithm, String hash, byte[] key, EssivHash extra)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        String jdk = IvGenerator.essivDigestName(hash);
        byte[] d = null;
        if (jdk != null) {
            try {
                d = java.security.MessageDigest.getInstance(jdk).digest(key);
            } catch (java.security.NoSuchAlgorithmException e) {
                d = null;
            }
        }
        if (d == null && extra != null) {
            d = extra.digest(hash, key);
        }
        if (d == null) {
            throw new InvalidAlgorithmParameterException("ESSIV hash '" + hash + "' in '" + cipherSpec + "' is not one the "
                    + "JDK has (md5, sha1, sha224, sha256, sha384, sha512, sha3-224, sha3-256, sha3-384, sha3-512)"
                    + (extra == null ? "" : " or the caller gave"));
        }
        String problem = ModeRules.of("ECB").keyLengthProblem(algorithm, d.length);
        if (problem != null) {
            Arrays.fill(d, (byte) 0);
            throw new InvalidKeyException("ESSIV hash '" + hash + "' in '" + cipherSpec + "' gives " + d.length * 8
                    + "-bit digests, which are no " + algorithm + " key: " + problem);
        }
        return d;
    }

    /**
     * A dm-crypt cipher specification's parts, as {@link #of} reads them.
     *
     * @param algorithm the provider's name of the cipher, e.g. {@code AES}
     * @param mode {@code XTS}, {@code LRW}, {@code CBC} or {@code ECB}
     * @param ivGenerator the IV generator as dm-crypt names it, e.g. {@code plain64}; null for ECB
     */
    public record Spec(String algorithm, String mode, String ivGenerator) {
    }

    /**
     * Reads a dm-crypt cipher specification without keying anything: what {@link #of} would run,
     * or the same exception it would throw for the specification.
     *
     * @param cipherSpec e.g. {@code aes-xts-plain64}, {@code twofish-cbc-essiv:sha256}
     * @return its parts
     * @throws InvalidAlgorithmParameterException naming what it does not take
     */
    public static Spec parseSpec(String cipherSpec) throws InvalidAlgorithmParameterException {
        String[] p = parse(cipherSpec);
        return new Spec(p[0], p[1], p[2]);
    }

    /**
     * The parts of a dm-crypt specification: {@code {AES|Twofish|Serpent, XTS|LRW|CBC|ECB, generator or
     * null}}.
     *
     * @param cipherSpec e.g. {@code aes-xts-plain64}
     * @return the algorithm, the mode and the IV generator (null for ECB)
     * @throws InvalidAlgorithmParameterException naming what it does not take
     */
    static String[] parse(String cipherSpec) throws InvalidAlgorithmParameterException {
        if (cipherSpec == null || cipherSpec.isBlank()) {
            throw new InvalidAlgorithmParameterException("No cipher specification given (e.g. aes-xts-plain64)");
        }
        String s = cipherSpec.trim();
        if (s.startsWith("capi:") || s.indexOf('(') >= 0) {
            throw new InvalidAlgorithmParameterException("Cipher '" + cipherSpec
                    + "': kernel crypto API (capi:) specifications are not supported");
        }
        String[] parts = s.split("-", 3);
        String alg = switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "aes" -> "AES";
            case "twofish" -> "Twofish";
            case "serpent" -> "Serpent";
            default -> throw new InvalidAlgorithmParameterException("Cipher '" + parts[0] + "' in '" + cipherSpec
                    + "': aes, twofish or serpent");
        };
        // dm-crypt's compatibility forms: "aes" and "aes-plain" are aes-cbc-plain.
        if (parts.length == 1 || (parts.length == 2 && parts[1].equals("plain"))) {
            return new String[] {alg, "CBC", "plain"};
        }
        String mode = parts[1].toUpperCase(Locale.ROOT);
        if (!mode.equals("XTS") && !mode.equals("LRW") && !mode.equals("CBC") && !mode.equals("ECB")) {
            throw new InvalidAlgorithmParameterException("Mode '" + parts[1] + "' in '" + cipherSpec
                    + "': xts, lrw, cbc or ecb");
        }
        if (mode.equals("ECB")) {
            return new String[] {alg, mode, null}; // dm-crypt ignores an IV generator for ecb
        }
        if (parts.length < 3 || parts[2].isEmpty()) {
            throw new InvalidAlgorithmParameterException("'" + cipherSpec + "' names no IV generator, which "
                    + parts[1] + " needs (e.g. " + parts[0] + "-" + parts[1] + "-"
                    + (mode.equals("LRW") ? "benbi" : mode.equals("CBC") ? "essiv:sha256" : "plain64") + ")");
        }
        String iv = parts[2].toLowerCase(Locale.ROOT);
        List<String> allowed = ModeRules.of(mode).ivGeneratorsInSpecs();
        if (iv.startsWith("essiv:") && (mode.equals("CBC") || mode.equals("XTS"))) {
            if (!iv.substring(6).matches("[a-z0-9][a-z0-9-]*")) {
                throw new InvalidAlgorithmParameterException("ESSIV hash '" + parts[2].substring(6) + "' in '"
                        + cipherSpec + "' is not a hash name (e.g. essiv:sha256)");
            }
            return new String[] {alg, mode, iv};
        }
        if (!allowed.contains(iv)) {
            throw new InvalidAlgorithmParameterException("IV generator '" + parts[2] + "' in '" + cipherSpec
                    + "' is not one " + parts[1] + " takes: " + String.join(", ", allowed));
        }
        return new String[] {alg, mode, iv};
    }

    private static void checkKeyLength(String algorithm, String mode, int len) throws InvalidKeyException {
        String problem = ModeRules.of(mode).keyLengthProblem(algorithm, len);
        if (problem != null) {
            throw new InvalidKeyException(problem);
        }
    }

    /**
     * Encrypts {@code len} bytes (whole sectors) of {@code buf} at {@code off} in place, the first
     * being sector {@code sector}.
     *
     * @param sector the first sector's number (unsigned, in units of the sector size)
     * @param buf the data
     * @param off where the first sector starts
     * @param len a whole number of sectors
     * @throws IllegalArgumentException if {@code len} is not a whole number of sectors, or the range
     *     is outside {@code buf}
     * @throws IllegalStateException after {@link #close}, or for an XTS key with equal halves
     */
    public void encrypt(long sector, byte[] buf, int off, int len) {
        crypt(true, sector, buf, off, buf, off, len);
    }

    /**
     * Decrypts {@code len} bytes (whole sectors) of {@code buf} at {@code off} in place.
     *
     * @param sector the first sector's number (unsigned, in units of the sector size)
     * @param buf the data
     * @param off where the first sector starts
     * @param len a whole number of sectors
     * @throws IllegalArgumentException if {@code len} is not a whole number of sectors, or the range
     *     is outside {@code buf}
     * @throws IllegalStateException after {@link #close}
     */
    public void decrypt(long sector, byte[] buf, int off, int len) {
        crypt(false, sector, buf, off, buf, off, len);
    }

    /**
     * Encrypts {@code len} bytes (whole sectors) from {@code in} into {@code out}; the ranges are
     * disjoint or the same.
     *
     * @param sector the first sector's number
     * @param in the plaintext
     * @param inOff where it starts
     * @param out where the ciphertext goes
     * @param outOff where in {@code out}
     * @param len a whole number of sectors
     * @throws IllegalArgumentException for a partial sector, a range outside an array, or ranges that
     *     overlap without being the same
     * @throws IllegalStateException after {@link #close}, or for an XTS key with equal halves
     */
    public void encrypt(long sector, byte[] in, int inOff, byte[] out, int outOff, int len) {
        crypt(true, sector, in, inOff, out, outOff, len);
    }

    /**
     * Decrypts {@code len} bytes (whole sectors) from {@code in} into {@code out}; the ranges are
     * disjoint or the same.
     *
     * @param sector the first sector's number
     * @param in the ciphertext
     * @param inOff where it starts
     * @param out where the plaintext goes
     * @param outOff where in {@code out}
     * @param len a whole number of sectors
     * @throws IllegalArgumentException for a partial sector, a range outside an array, or ranges that
     *     overlap without being the same
     * @throws IllegalStateException after {@link #close}
     */
    public void decrypt(long sector, byte[] in, int inOff, byte[] out, int outOff, int len) {
        crypt(false, sector, in, inOff, out, outOff, len);
    }

    /**
     * Encrypts the buffer's remaining bytes (whole sectors) in place; its position moves to its limit.
     *
     * @param sector the first sector's number
     * @param buf heap or direct; not read-only
     * @throws IllegalArgumentException for a partial sector
     * @throws java.nio.ReadOnlyBufferException for a read-only buffer
     * @throws IllegalStateException after {@link #close}, or for an XTS key with equal halves
     */
    public void encrypt(long sector, ByteBuffer buf) {
        crypt(true, sector, buf);
    }

    /**
     * Decrypts the buffer's remaining bytes (whole sectors) in place; its position moves to its limit.
     *
     * @param sector the first sector's number
     * @param buf heap or direct; not read-only
     * @throws IllegalArgumentException for a partial sector
     * @throws java.nio.ReadOnlyBufferException for a read-only buffer
     * @throws IllegalStateException after {@link #close}
     */
    public void decrypt(long sector, ByteBuffer buf) {
        crypt(false, sector, buf);
    }

    private void crypt(boolean encrypt, long sector, ByteBuffer buf) {
        int len = buf.remaining();
        checkState(encrypt);
        checkWhole(len);
        if (buf.isReadOnly()) {
            throw new java.nio.ReadOnlyBufferException();
        }
        if (buf.hasArray()) {
            int off = buf.arrayOffset() + buf.position();
            engine.crypt(encrypt, sector, buf.array(), off, buf.array(), off, len / sectorSize);
            buf.position(buf.limit());
            return;
        }
        if (work == null) {
            work = new byte[Math.max(STEP / sectorSize, 1) * sectorSize];
        }
        int pos = buf.position();
        try {
            for (int done = 0; done < len; ) {
                int n = Math.min(work.length, len - done);
                buf.get(pos + done, work, 0, n);
                engine.crypt(encrypt, sector + done / sectorSize, work, 0, work, 0, n / sectorSize);
                buf.put(pos + done, work, 0, n);
                done += n;
            }
        } finally {
            Arrays.fill(work, (byte) 0);
        }
        buf.position(buf.limit());
    }

    private void crypt(boolean encrypt, long sector, byte[] in, int inOff, byte[] out, int outOff, int len) {
        checkArgs(encrypt, in, inOff, out, outOff, len);
        engine.crypt(encrypt, sector, in, inOff, out, outOff, len / sectorSize);
    }

    /**
     * Whole sectors in place, the first with the IV of number {@code iv} (unsigned, in 512-byte
     * units, or in sectors with {@code ivLargeSectors}): {@link SectorChannel}'s
     * {@code iv_offset + (offset >> 9)}, the sector number taken once from the byte offset.
     */
    void cryptIv(boolean encrypt, long iv, byte[] buf, int off, int len) {
        checkArgs(encrypt, buf, off, buf, off, len);
        engine.cryptIv(encrypt, iv, buf, off, buf, off, len / sectorSize);
    }

    /** As {@link #cryptIv(boolean, long, byte[], int, int)}, from {@code in} to {@code out}. */
    void cryptIv(boolean encrypt, long iv, byte[] in, int inOff, byte[] out, int outOff, int len) {
        checkArgs(encrypt, in, inOff, out, outOff, len);
        engine.cryptIv(encrypt, iv, in, inOff, out, outOff, len / sectorSize);
    }

    private void checkArgs(boolean encrypt, byte[] in, int inOff, byte[] out, int outOff, int len) {
        checkState(encrypt);
        checkWhole(len);
        java.util.Objects.checkFromIndexSize(inOff, len, in.length);
        java.util.Objects.checkFromIndexSize(outOff, len, out.length);
        if (in == out && inOff != outOff && inOff < outOff + len && outOff < inOff + len) {
            throw new IllegalArgumentException("Input and output overlap without being the same range");
        }
    }

    private void checkState(boolean encrypt) {
        if (!open) {
            throw new IllegalStateException("The sector cipher is closed");
        }
        if (encrypt && engine.encryptionRefusal() != null) {
            throw new IllegalStateException(engine.encryptionRefusal());
        }
    }

    private void checkWhole(int len) {
        if (len < 0 || len % sectorSize != 0) {
            throw new IllegalArgumentException(len + " bytes is not a whole number of " + sectorSize + "-byte sectors");
        }
    }

    /**
     * Why {@code encrypt} refuses this key, though {@code decrypt} works with it; null when it
     * does not.
     *
     * @return for an XTS key with equal halves, a message saying so; otherwise null
     */
    public String encryptionRefusal() {
        return engine.encryptionRefusal();
    }

    /**
     * The specification.
     *
     * @return the specification as given, e.g. {@code aes-xts-plain64}
     */
    public String cipherSpec() {
        return spec;
    }

    /**
     * The block cipher.
     *
     * @return {@code AES}, {@code Twofish} or {@code Serpent}
     */
    public String algorithm() {
        return algorithm;
    }

    /**
     * The chain mode.
     *
     * @return {@code XTS}, {@code LRW}, {@code CBC} or {@code ECB}
     */
    public String mode() {
        return mode;
    }

    /**
     * The IV generator.
     *
     * @return e.g. {@code plain64}; null for ECB
     */
    public String ivGenerator() {
        return ivGenerator;
    }

    /**
     * Bytes per sector.
     *
     * @return 512, 1024, 2048 or 4096
     */
    public int sectorSize() {
        return sectorSize;
    }

    /**
     * The key's length.
     *
     * @return bytes
     */
    public int keyLength() {
        return keyLength;
    }

    /**
     * The kernel that computes the blocks.
     *
     * @return its registry name, e.g. {@code aes-jdk}
     */
    public String kernel() {
        return engine.kernel();
    }

    /** Wipes the key schedules; the instance cannot be used afterwards. Idempotent. */
    @Override
    public void close() {
        if (open) {
            open = false;
            engine.destroy();
            if (work != null) {
                Arrays.fill(work, (byte) 0);
            }
        }
    }

    /** The specification and sector size; never key material. */
    @Override
    public String toString() {
        return "SectorCipher[" + spec + ", " + sectorSize + "-byte sectors, " + engine.kernel() + "]";
    }
}
