package org.vectorjce.volumes.luks;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;

import javax.crypto.Cipher;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * A volume's dm-crypt cipher specification in cryptsetup's syntax ({@code aes-xts-plain64}; LUKS1
 * stores it as name {@code aes} and mode {@code xts-plain64}), read by the provider's one parser
 * ({@code org.vectorjce.SectorCipher.parseSpec}) and bound to the provider that runs it: every one
 * runs on the provider's sector API (one call per run of sectors, no {@code Cipher.init}). What the
 * parser refuses, the volume refuses with its message.
 */
final class VolumeCipher {
    final String spec;       // e.g. aes-xts-plain64
    final String algorithm;  // AES | Twofish
    final String mode;       // XTS | CBC | LRW | ECB
    final String iv;         // the IV generator, null for ECB
    final VectorJceProvider provider; // whose ciphers run it; null until using()

    private VolumeCipher(String spec, String algorithm, String mode, String iv, VectorJceProvider provider) {
        this.provider = provider;
        this.spec = spec;
        this.algorithm = algorithm;
        this.mode = mode;
        this.iv = iv;
    }

    /** LUKS1's cipher name and mode, e.g. {@code aes} and {@code xts-plain64}. */
    static VolumeCipher parse(String name, String chainMode) throws UnsupportedVolumeException {
        return parse(name + "-" + chainMode);
    }

    /**
     * {@code aes-xts-plain64}, as LUKS2 and dm-crypt write it; not yet bound to a provider
     * ({@link #using}).
     */
    static VolumeCipher parse(String spec) throws UnsupportedVolumeException {
        org.vectorjce.SectorCipher.Spec parts;
        try {
            // The provider's one parser, with dm-crypt's own compatibility forms (an ecb
            // specification's IV generator is ignored, as dm-crypt and QEMU's ecb-plain64 need).
            parts = org.vectorjce.SectorCipher.parseSpec(spec);
        } catch (InvalidAlgorithmParameterException e) {
            throw new UnsupportedVolumeException(e.getMessage());
        }
        return new VolumeCipher(spec, parts.algorithm(), parts.mode(), parts.ivGenerator(), null);
    }

    /** This specification on {@code p}'s ciphers. */
    VolumeCipher using(VectorJceProvider p) {
        return p == provider ? this : new VolumeCipher(spec, algorithm, mode, iv, java.util.Objects.requireNonNull(p));
    }

    /** The cipher name LUKS1 stores, e.g. {@code aes}. */
    String luks1Name() {
        return algorithm.toLowerCase(java.util.Locale.ROOT);
    }

    /** The cipher mode LUKS1 stores, e.g. {@code xts-plain64} ({@code ecb} for ECB). */
    String luks1Mode() {
        String m = mode.toLowerCase(java.util.Locale.ROOT);
        return iv == null ? m : m + "-" + iv;
    }

    /**
     * A decryptor of whole sectors with {@code key} (copied): sector {@code s} of a run has the IV
     * of 512-byte sector {@code s × sectorSize / 512 + ivOffset} (dm-crypt without
     * {@code iv_large_sectors}, as LUKS uses it).
     */
    SectorRuns decryptor(byte[] key, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        return crypter(key, sectorSize, ivOffset, Cipher.DECRYPT_MODE);
    }

    /**
     * This specification for a key slot's material (a few hundred KiB once per unlock or write):
     * on {@code provider} configured with {@code arithmetic=scalar}. In a fresh JVM the vector mode
     * arithmetic runs slowly until C2 has compiled it, which costs more than such an area takes on
     * the scalar code, already compiled; the payload keeps the provider's own setting.
     */
    VolumeCipher forKeyMaterial() {
        if (!"scalar".equals(provider.settings().get("arithmetic"))) {
            return new VolumeCipher(spec, algorithm, mode, iv, provider.configure("arithmetic=scalar"));
        }
        return this;
    }

    /** As {@link #decryptor}, encrypting (for key material and a writable payload). */
    SectorRuns encryptor(byte[] key, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        return crypter(key, sectorSize, ivOffset, Cipher.ENCRYPT_MODE);
    }

    /**
     * The ESSIV hashes this module has beyond the JDK's, for {@code essiv:HASH}: Linux's
     * {@code wp256}, {@code wp384} and {@code wp512} (Whirlpool's first 32, 48 and 64 bytes, as the
     * kernel's {@code crypto/wp512.c} registers them) and the LUKS hash names of
     * {@link HashAlgorithm}; null for any other name.
     */
    static byte[] essivDigest(String hash, byte[] key) {
        int cut = switch (hash) {
            case "wp256" -> 32;
            case "wp384" -> 48;
            case "wp512" -> 64;
            default -> 0;
        };
        HashAlgorithm h;
        if (cut > 0) {
            h = HashAlgorithm.WHIRLPOOL;
        } else {
            try {
                h = HashAlgorithm.forLuksName(hash);
            } catch (UnsupportedVolumeException e) {
                return null;
            }
        }
        HashAlgorithm.HashFunction f = h.newHash();
        f.update(key, 0, key.length);
        byte[] d = new byte[h.length()];
        f.doFinal(d, 0);
        if (cut == 0 || cut == d.length) {
            return d;
        }
        byte[] c = java.util.Arrays.copyOf(d, cut);
        java.util.Arrays.fill(d, (byte) 0);
        return c;
    }

    private SectorRuns crypter(byte[] key, int sectorSize, long ivOffset, int opmode) throws UnsupportedVolumeException {
        int per = sectorSize / 512;
        if (Long.remainderUnsigned(ivOffset, per) != 0) {
            throw new UnsupportedVolumeException("IV offset " + Long.toUnsignedString(ivOffset) + " is not a whole number of "
                    + sectorSize + "-byte sectors");
        }
        try {
            org.vectorjce.SectorCipher c = org.vectorjce.SectorCipher.of(spec, key, sectorSize, false, provider,
                    VolumeCipher::essivDigest);
            if (opmode == Cipher.ENCRYPT_MODE && c.encryptionRefusal() != null) {
                c.close(); // XTS with equal key halves: decryption only
                throw new InvalidKeyException("equal XTS key halves");
            }
            return new SectorRuns(c, Long.divideUnsigned(ivOffset, per), opmode == Cipher.ENCRYPT_MODE);
        } catch (InvalidKeyException e) {
            throw new UnsupportedVolumeException("A " + key.length * 8 + "-bit key is not valid for " + spec);
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException(spec + " with " + sectorSize + "-byte sectors: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return spec;
    }

    /**
     * Runs of whole sectors in place, in the one direction it was made for ({@link #decryptor} or
     * {@link #encryptor}), on the provider's sector API (no {@code Cipher.init} per run). Not
     * thread-safe.
     */
    static final class SectorRuns implements AutoCloseable {
        private final org.vectorjce.SectorCipher cipher;
        private final long firstSector;
        private final boolean encrypt;

        private SectorRuns(org.vectorjce.SectorCipher cipher, long firstSector, boolean encrypt) {
            this.cipher = cipher;
            this.firstSector = firstSector;
            this.encrypt = encrypt;
        }

        int sectorSize() {
            return cipher.sectorSize();
        }

        /**
         * Decrypts or encrypts {@code len} bytes (whole sectors) at {@code off}, the run's first
         * sector being {@code sector}.
         */
        void apply(byte[] buf, int off, int len, long sector) throws GeneralSecurityException {
            if (len % cipher.sectorSize() != 0) {
                throw new IllegalArgumentException(len + " bytes: not whole sectors");
            }
            if (encrypt) {
                if (cipher.encryptionRefusal() != null) {
                    throw new InvalidKeyException(cipher.encryptionRefusal());
                }
                cipher.encrypt(firstSector + sector, buf, off, len);
            } else {
                cipher.decrypt(firstSector + sector, buf, off, len);
            }
        }

        /** Wipes the key schedules. */
        @Override
        public void close() {
            cipher.close();
        }
    }
}
