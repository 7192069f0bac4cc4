package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * Formats a LUKS1 volume into an existing file, as {@code cryptsetup luksFormat --type luks1}
 * lays it out (LUKS1 On-Disk Format Specification 1.2.3, section 4.1 "Initialization"; cryptsetup
 * {@code lib/luks1/keymanage.c} for the alignment): a random volume key, its PBKDF2 digest, key
 * slot 0 with the passphrase (the key AF-split into 4000 stripes, encrypted with the volume's
 * cipher under the PBKDF2 key), key material areas 4 KiB aligned from sector 8, the payload after
 * the eight areas aligned to 1 MiB.
 *
 * <p>Write order: the whole header region is zeroed, then slot 0's key material is written and
 * synced, then the phdr, then synced again: a crash before the phdr is written leaves no LUKS
 * header (nothing that opens to a wrong key); the key material the phdr points to is on disk
 * before the phdr is. The payload is not touched (as cryptsetup, the old data stays as ciphertext
 * noise). Not thread-safe.
 */
public final class Luks1Format {
    private String cipher = "aes-xts-plain64";
    private int keyBits; // 0: the cipher's default
    private HashAlgorithm hash = HashAlgorithm.SHA256;
    private long iterations = 0;
    private long iterTimeMs = 2000;
    private SecureRandom random;
    private org.vectorjce.VectorJceProvider provider;

    private Luks1Format() {
    }

    /** A LUKS1 format with cryptsetup's defaults: aes-xts-plain64, 512-bit key (256 for the other modes), sha256, 2 s of PBKDF2. */
    public static Luks1Format luks1() {
        return new Luks1Format();
    }

    /** The cipher in cryptsetup's syntax, e.g. {@code twofish-xts-plain64}. */
    public Luks1Format cipher(String cipher) {
        this.cipher = Objects.requireNonNull(cipher);
        return this;
    }

    /**
     * The volume key size in bits (cryptsetup's {@code --key-size}); by default 512 for XTS, 256
     * for the other modes, as cryptsetup 2.6 chooses.
     */
    public Luks1Format keySize(int bits) {
        this.keyBits = bits;
        return this;
    }

    /** The PBKDF2 and AF hash, e.g. {@code sha512}. */
    public Luks1Format hash(String name) throws VolumeException {
        this.hash = HashAlgorithm.forLuksName(name);
        return this;
    }

    /** Fixed PBKDF2 iterations for the key slot and the digest (cryptsetup's {@code --pbkdf-force-iterations}). */
    public Luks1Format iterations(long n) {
        if (n < 1000 || n > Pbkdf2.MAX_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations " + n + " outside 1000.." + Pbkdf2.MAX_ITERATIONS);
        }
        this.iterations = n;
        return this;
    }

    /** PBKDF2 calibrated to take about {@code ms} for the key slot (cryptsetup's {@code --iter-time}). */
    public Luks1Format iterTime(long ms) {
        if (ms < 1) {
            throw new IllegalArgumentException("iter-time " + ms);
        }
        this.iterTimeMs = ms;
        this.iterations = 0;
        return this;
    }

    /** The random source (default: a new {@code SecureRandom}). */
    public Luks1Format random(SecureRandom random) {
        this.random = random;
        return this;
    }

    /**
     * The provider of the key slot's cipher (default: {@link org.vectorjce.volumes.Volumes#defaultProvider()}), whose
     * settings it follows.
     */
    public Luks1Format provider(org.vectorjce.VectorJceProvider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
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
     * Formats {@code image} (an existing file, large enough for the header and one payload sector)
     * with {@code passphrase} in key slot 0, and returns its header information.
     */
    public LuksInfo format(Path image, byte[] passphrase) throws IOException, VolumeException {
        SecureRandom rnd = random != null ? random : new SecureRandom();
        VolumeCipher parsed = VolumeCipher.parse(cipher);
        int bits = keyBits != 0 ? keyBits : parsed.mode.equals("XTS") ? 512 : 256;
        if (bits % 8 != 0 || bits < 8 || bits > 4096) {
            throw new VolumeException("Key size " + bits + " bits is not a whole number of bytes up to 4096 bits");
        }
        int keyBytes = bits / 8;
        VolumeCipher sc = parsed.using(provider != null ? provider : org.vectorjce.volumes.Volumes.defaultProvider());
        String name = sc.luks1Name(), mode = sc.luks1Mode(); // the header's two fields
        sc.checkKey(keyBytes, 512, 0); // the key size against the cipher, before anything

        // Layout as cryptsetup's LUKS_generate_phdr: areas of ceil(keyBytes * 4000 / 512) sectors,
        // each aligned to 8 sectors (4 KiB), from sector 8; the payload aligned to 2048 sectors.
        long areaSectors = ((long) keyBytes * Luks1Header.STRIPES + 511) / 512;
        long alignedArea = (areaSectors + 7) / 8 * 8;
        long firstArea = 8;
        long payloadSectors = (firstArea + Luks1Header.SLOTS * alignedArea + 2047) / 2048 * 2048;

        byte[] vk = new byte[keyBytes];
        byte[] derived = null, material = null;
        try (FileChannel f = FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = f.size();
            if (size < payloadSectors * 512 + 512) {
                throw new VolumeException(image + " is " + size + " bytes: a LUKS1 header with " + bits
                        + "-bit keys needs " + (payloadSectors * 512 + 512) + " bytes or more");
            }
            if (size % 512 != 0) {
                throw new VolumeException(image + " is " + size + " bytes: not a whole number of 512-byte sectors");
            }
            rnd.nextBytes(vk);
            long slotIterations = iterations > 0 ? iterations : calibrate(hash, iterTimeMs, keyBytes);
            // cryptsetup: the digest gets an eighth of the key slot's time, at least 1000 iterations
            long digestIterations = iterations > 0 ? iterations : Math.max(1000, slotIterations / 8);
            byte[] mkSalt = new byte[32], slotSalt = new byte[32];
            rnd.nextBytes(mkSalt);
            rnd.nextBytes(slotSalt);
            byte[] mkDigest = Pbkdf2.derive(hash, vk, mkSalt, digestIterations, 20);

            derived = Pbkdf2.derive(hash, passphrase, slotSalt, slotIterations, keyBytes);
            byte[] split = AfSplitter.split(vk, Luks1Header.STRIPES, hash, rnd);
            material = Arrays.copyOf(split, (int) (areaSectors * 512));
            Arrays.fill(split, (byte) 0);
            try (org.vectorjce.SectorCipher e = sc.keyMaterial(derived, true)) {
                e.encrypt(0, material, 0, material.length);
            }

            ByteBuffer phdr = ByteBuffer.allocate(Luks1Header.SIZE);
            phdr.put(Luks1Header.MAGIC).putShort((short) 1);
            putText(phdr, 8, 32, name);
            putText(phdr, 40, 32, mode);
            putText(phdr, 72, 32, hash.luksName());
            phdr.putInt(104, (int) payloadSectors).putInt(108, keyBytes);
            phdr.position(112);
            phdr.put(mkDigest).put(mkSalt).putInt((int) digestIterations);
            putText(phdr, 168, 40, UUID.randomUUID().toString());
            for (int i = 0; i < Luks1Header.SLOTS; i++) {
                int o = 208 + 48 * i;
                phdr.putInt(o, i == 0 ? Luks1Header.ACTIVE : Luks1Header.INACTIVE);
                phdr.putInt(o + 4, i == 0 ? (int) slotIterations : 0);
                if (i == 0) {
                    phdr.position(o + 8);
                    phdr.put(slotSalt);
                }
                phdr.putInt(o + 40, (int) (firstArea + i * alignedArea));
                phdr.putInt(o + 44, Luks1Header.STRIPES);
            }

            // 1. the header region zeroed (old key slots gone), 2. key material, synced, 3. phdr, synced
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < payloadSectors * 512; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), payloadSectors * 512 - at));
                while (zeros.hasRemaining()) {
                    at += f.write(zeros, at);
                }
            }
            writeFully(f, ByteBuffer.wrap(material), firstArea * 512);
            f.force(true);
            writeFully(f, phdr.clear(), 0);
            f.force(true);
        } finally {
            Arrays.fill(vk, (byte) 0);
            if (derived != null) {
                Arrays.fill(derived, (byte) 0);
            }
            if (material != null) {
                Arrays.fill(material, (byte) 0);
            }
        }
        return LuksVolume.at(image).info();
    }

    private static void writeFully(FileChannel f, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            at += f.write(b, at);
        }
    }

    private static void putText(ByteBuffer b, int off, int len, String s) {
        byte[] t = s.getBytes(StandardCharsets.US_ASCII);
        if (t.length >= len) {
            throw new IllegalArgumentException(s + " is longer than " + (len - 1) + " bytes");
        }
        for (int i = 0; i < t.length; i++) {
            b.put(off + i, t[i]);
        }
    }

    /**
     * PBKDF2 iterations that take about {@code ms} here for a {@code keyBytes} key (at least 1000):
     * the JIT warmed by 200 ms of PBKDF2 first, then the iterations doubled until one run takes
     * 250 ms, the fastest rate of three such runs kept (a cold or disturbed run counts too few).
     */
    static long calibrate(HashAlgorithm hash, long ms, int keyBytes) {
        byte[] pw = new byte[8], salt = new byte[32];
        int len = Math.min(keyBytes, hash.length());
        for (long warm = System.nanoTime() + 200_000_000L; System.nanoTime() < warm; ) {
            Pbkdf2.derive(hash, pw, salt, 20_000, len);
        }
        long n = 1000, ns;
        while (true) {
            long t = System.nanoTime();
            Pbkdf2.derive(hash, pw, salt, n, len);
            ns = System.nanoTime() - t;
            if (ns > 250_000_000L || n > (1L << 31)) {
                break;
            }
            n *= 2;
        }
        for (int i = 0; i < 2; i++) {
            long t = System.nanoTime();
            Pbkdf2.derive(hash, pw, salt, n, len);
            ns = Math.min(ns, System.nanoTime() - t);
        }
        int blocks = (keyBytes + hash.length() - 1) / hash.length();
        double perMs = n / (ns / 1e6);
        return Math.max(1000, Math.min(Pbkdf2.MAX_ITERATIONS, (long) (perMs * ms / blocks)));
    }
}
