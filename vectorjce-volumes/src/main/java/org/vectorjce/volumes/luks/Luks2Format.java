package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * Formats a LUKS2 volume into an existing file, laid out as {@code cryptsetup luksFormat --type
 * luks2} 2.6 lays it out by default: two 16 KiB metadata copies, the keyslots area after them up
 * to the payload at 16 MiB, the segment {@code "dynamic"} (to the end of the image), key slot 0
 * with the passphrase (Argon2id unless told otherwise, its area the first 4 KiB-aligned stretch of
 * the keyslots area), and a PBKDF2 digest of the volume key (iterations for 125 ms, at least 1000;
 * 1000 when the key slot's cost is forced, as cryptsetup's benchmark-free mode).
 *
 * <pre>{@code
 * Luks2Format.luks2().cipher("aes-xts-plain64").keySize(512).sectorSize(4096)
 *         .keySlot(KeySlotOptions.defaults().pbkdf("argon2id").iterTime(2000))
 *         .format(Path.of("disk.img"), passphrase);
 * }</pre>
 *
 * <p>Write order: the header region (to the payload) is zeroed, key slot 0's material is written
 * and forced, then the secondary metadata copy, forced, then the primary, forced: until the
 * primary is on disk there is no primary LUKS magic, and what the copies name is already written.
 * The payload is not touched. Not thread-safe.
 */
public final class Luks2Format {
    /** cryptsetup's default data offset and metadata size. */
    static final long DATA_OFFSET = 16L << 20, METADATA = 16L << 10;

    private String cipher = "aes-xts-plain64";
    private int keyBits; // 0: the cipher's default
    private int sectorSize;
    private String label = "";
    private KeySlotOptions slot = KeySlotOptions.defaults();
    private SecureRandom random;
    private org.vectorjce.VectorJceProvider provider;
    private java.util.concurrent.Executor executor;
    private org.vectorjce.volumes.Argon2Compression argon2 = org.vectorjce.volumes.Argon2Compression.DEFAULT;

    private Luks2Format() {
    }

    /** cryptsetup 2.6's defaults: aes-xts-plain64, 512-bit key (256 for the other modes), sha256, argon2id for 2 s, sector size 4096. */
    public static Luks2Format luks2() {
        return new Luks2Format();
    }

    /** The cipher in cryptsetup's syntax, e.g. {@code twofish-xts-plain64}. */
    public Luks2Format cipher(String cipher) {
        this.cipher = Objects.requireNonNull(cipher);
        return this;
    }

    /**
     * The volume key size in bits (cryptsetup's {@code --key-size}); by default 512 for XTS, 256
     * for the other modes, as cryptsetup 2.6 chooses.
     */
    public Luks2Format keySize(int bits) {
        this.keyBits = bits;
        return this;
    }

    /**
     * The encryption sector size, 512..4096, a power of two. Default: 4096 when the payload is a
     * whole number of 4096-byte sectors (what cryptsetup 2.6 picks for an image file), else 512.
     */
    public Luks2Format sectorSize(int bytes) throws VolumeException {
        if (bytes < 512 || bytes > 4096 || Integer.bitCount(bytes) != 1) {
            throw new VolumeException("Sector size " + bytes + " is not 512, 1024, 2048 or 4096");
        }
        this.sectorSize = bytes;
        return this;
    }

    /** The header's label (at most 47 bytes). */
    public Luks2Format label(String label) {
        this.label = Objects.requireNonNull(label);
        return this;
    }

    /** Key slot 0's KDF and hash ({@code hash} is also the digest's and the AF hash). */
    public Luks2Format keySlot(KeySlotOptions options) {
        this.slot = Objects.requireNonNull(options);
        return this;
    }

    /** The random source (default: a new {@code SecureRandom}). */
    public Luks2Format random(SecureRandom random) {
        this.random = random;
        return this;
    }

    /**
     * The provider of the key slot's cipher (default: {@link org.vectorjce.volumes.Volumes#defaultProvider()}), whose
     * settings it follows.
     */
    public Luks2Format provider(org.vectorjce.VectorJceProvider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
        return this;
    }

    /**
     * Runs Argon2's helper lanes, for the calibration and key slot 0, on {@code executor}, as
     * {@link LuksVolume.Builder#executor} does when a key slot is added (null, the default:
     * threads started for each derivation and ended before it returns).
     */
    public Luks2Format executor(java.util.concurrent.Executor executor) {
        this.executor = executor;
        return this;
    }

    /** Which Argon2 compression the calibration and key slot 0 run (default {@link org.vectorjce.volumes.Argon2Compression#DEFAULT}). */
    public Luks2Format argon2Compression(org.vectorjce.volumes.Argon2Compression c) {
        this.argon2 = Objects.requireNonNull(c, "compression");
        return this;
    }

    /**
     * {@link #format(Path, byte[])} with the passphrase's UTF-8 bytes (wiped here; the caller wipes
     * its array), as {@link LuksVolume.Builder#passphrase(char[])} reads one.
     */
    public LuksInfo format(Path image, char[] passphrase) throws IOException, VolumeException {
        byte[] p = LuksVolume.utf8(passphrase);
        try {
            return format(image, p);
        } finally {
            java.util.Arrays.fill(p, (byte) 0);
        }
    }

    /**
     * Formats {@code image} (an existing file of at least 16 MiB and one sector) with
     * {@code passphrase} in key slot 0, and returns its header information.
     */
    public LuksInfo format(Path image, byte[] passphrase) throws IOException, VolumeException {
        SecureRandom rnd = random != null ? random : slot.rng();
        VolumeCipher parsed = VolumeCipher.parse(cipher);
        int bits = keyBits != 0 ? keyBits : parsed.mode.equals("XTS") ? 512 : 256;
        if (bits % 8 != 0 || bits < 8 || bits > 4096) {
            throw new VolumeException("Key size " + bits + " bits is not a whole number of bytes up to 4096 bits");
        }
        int keyBytes = bits / 8;
        if (label.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 47) {
            throw new VolumeException("The label is longer than 47 bytes");
        }
        Settings settings = Settings.of(provider, executor, argon2);
        VolumeCipher sc = parsed.using(settings.provider());
        sc.checkKey(keyBytes, 512, 0); // the key size against the cipher, before anything
        HashAlgorithm hash = HashAlgorithm.forLuksName(slot.hash);
        byte[] vk = new byte[keyBytes];
        byte[] material = null;
        try (FileChannel f = FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            Image img = new Image(f, image.toString());
            long size = f.size();
            int sector = sectorSize != 0 ? sectorSize : (size - DATA_OFFSET) % 4096 == 0 ? 4096 : 512;
            if (size < DATA_OFFSET + sector) {
                throw new VolumeException(image + " is " + size + " bytes: a LUKS2 volume with a 16 MiB data offset"
                        + " needs " + (DATA_OFFSET + sector) + " bytes or more");
            }
            if ((size - DATA_OFFSET) % sector != 0) {
                throw new VolumeException(image + " is " + size + " bytes: its payload is not a whole number of "
                        + sector + "-byte sectors");
            }
            rnd.nextBytes(vk);
            KdfCost.Cost cost = KdfCost.luks2(slot, keyBytes, settings);
            long digestIterations = slot.forceIterations > 0 ? KdfCost.MIN_PBKDF2_ITERATIONS
                    : Math.max(KdfCost.MIN_PBKDF2_ITERATIONS, Luks1Format.calibrate(hash, 125, keyBytes));
            byte[] dSalt = new byte[32];
            rnd.nextBytes(dSalt);
            byte[] digest = Pbkdf2.derive(hash, vk, dSalt, digestIterations, hash.length());
            long keyslotsSize = DATA_OFFSET - 2 * METADATA;
            long[] area = {2 * METADATA, ((long) keyBytes * 4000 + 4095) / 4096 * 4096};
            Luks2Layout.Stored st = Luks2Layout.newKeySlot(vk, passphrase, cipher, slot.hash, cost, area, rnd,
                    settings);
            material = st.material();
            Base64.Encoder b64 = Base64.getEncoder();
            String json = "{\"keyslots\":{\"0\":" + st.json() + "},\"tokens\":{},\"segments\":{\"0\":{\"type\":\"crypt\","
                    + "\"offset\":\"" + DATA_OFFSET + "\",\"size\":\"dynamic\",\"iv_tweak\":\"0\",\"encryption\":"
                    + JsonSplice.quote(cipher) + ",\"sector_size\":" + sector + "}},\"digests\":{\"0\":{\"type\":"
                    + "\"pbkdf2\",\"keyslots\":[\"0\"],\"segments\":[\"0\"],\"hash\":" + JsonSplice.quote(slot.hash)
                    + ",\"iterations\":" + digestIterations + ",\"salt\":\"" + b64.encodeToString(dSalt)
                    + "\",\"digest\":\"" + b64.encodeToString(digest) + "\"}},\"config\":{\"json_size\":\""
                    + (METADATA - Luks2Header.BINARY) + "\",\"keyslots_size\":\"" + keyslotsSize + "\"}}";
            byte[][] salts = {new byte[64], new byte[64]};
            rnd.nextBytes(salts[0]);
            rnd.nextBytes(salts[1]);
            // Checked before anything is written, as the writer checks it again.
            Luks2Metadata.parse(Luks2Header.of(METADATA, 1, json), size, size, false);

            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < DATA_OFFSET; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), DATA_OFFSET - at));
                while (zeros.hasRemaining()) {
                    at += f.write(zeros, at);
                }
            }
            img.writeFully(area[0], ByteBuffer.wrap(material));
            img.force();
            Luks2Writer.write(img, METADATA, 1, label, "sha256", UUID.randomUUID().toString(), "", salts, json, size,
                    false);
        } finally {
            Arrays.fill(vk, (byte) 0);
            if (material != null) {
                Arrays.fill(material, (byte) 0);
            }
        }
        return LuksVolume.at(image).info();
    }
}
