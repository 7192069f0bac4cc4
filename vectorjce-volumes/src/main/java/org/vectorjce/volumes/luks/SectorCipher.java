package org.vectorjce.volumes.luks;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.util.Locale;
import java.util.Set;

import javax.crypto.Cipher;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;

/**
 * A dm-crypt cipher specification in cryptsetup's syntax ({@code aes-xts-plain64}; LUKS1 stores
 * it as name {@code aes} and mode {@code xts-plain64}) mapped onto the provider: AES or Twofish ×
 * {@code xts-plain64}, {@code xts-plain}, {@code xts-plain64be}, {@code cbc-essiv:sha256},
 * {@code cbc-plain64}, {@code cbc-plain}, {@code lrw-benbi}, {@code lrw-plain64},
 * {@code lrw-plain64be}, {@code ecb}. Every one runs on the provider's sector API
 * ({@code org.vectorjce.SectorCipher}: one call per run of sectors, no {@code Cipher.init}); this
 * class says what a volume may name, with a volume's error messages. Anything else is refused
 * naming it.
 */
final class SectorCipher {
    /** The provider a volume uses when its caller names none. */
    static final Provider DEFAULT_PROVIDER = new VectorJceProvider();
    private static final Set<String> SPEC_IVS = Set.of("xts:plain", "xts:plain64", "xts:plain64be",
            "cbc:essiv:sha256", "cbc:plain", "cbc:plain64", "lrw:benbi", "lrw:plain64be");

    final String spec;       // e.g. aes-xts-plain64
    final String algorithm;  // AES | Twofish
    final String mode;       // XTS | CBC | LRW | ECB
    final String iv;         // the IV generator, null for ECB
    final Provider provider; // whose ciphers run it

    private SectorCipher(String spec, String algorithm, String mode, String iv, Provider provider) {
        this.provider = provider;
        this.spec = spec;
        this.algorithm = algorithm;
        this.mode = mode;
        this.iv = iv;
    }

    /** {@code aes-xts-plain64}, as LUKS2 and dm-crypt write it. */
    static SectorCipher parse(String spec) throws UnsupportedVolumeException {
        int dash = spec.indexOf('-');
        if (dash < 0) {
            throw new UnsupportedVolumeException("Cipher '" + spec + "' is not cipher-mode[-iv] (e.g. aes-xts-plain64)");
        }
        return parse(spec.substring(0, dash), spec.substring(dash + 1));
    }

    /** LUKS1's cipher name and mode, e.g. {@code aes} and {@code xts-plain64}. */
    static SectorCipher parse(String name, String chainMode) throws UnsupportedVolumeException {
        String spec = name + "-" + chainMode;
        if (name.startsWith("capi:") || spec.indexOf('(') >= 0) {
            throw new UnsupportedVolumeException("Cipher '" + spec + "': kernel crypto API (capi:) specifications are not supported");
        }
        String alg = switch (name) {
            case "aes" -> "AES";
            case "twofish" -> "Twofish";
            default -> throw new UnsupportedVolumeException("Cipher '" + name + "' (in " + spec
                    + ") is not supported: aes or twofish");
        };
        // dm-crypt ignores the IV generator of a cipher without IVs ("Selected cipher does not
        // support IVs", crypt_ctr_ivmode), and QEMU writes ecb-plain64 for its ecb volumes.
        if (chainMode.equals("ecb") || chainMode.startsWith("ecb-") && Set.of("plain", "plain64", "plain64be",
                "null", "essiv:sha256", "benbi").contains(chainMode.substring(4))) {
            return new SectorCipher(spec, alg, "ECB", null, DEFAULT_PROVIDER);
        }
        int dash = chainMode.indexOf('-');
        String m = dash < 0 ? chainMode : chainMode.substring(0, dash);
        String iv = dash < 0 ? "" : chainMode.substring(dash + 1);
        if (!m.equals("xts") && !m.equals("cbc") && !m.equals("lrw")) {
            throw new UnsupportedVolumeException("Cipher mode '" + chainMode + "' (in " + spec
                    + ") is not supported: xts, cbc, lrw or ecb");
        }
        if (!SPEC_IVS.contains(m + ":" + iv) && !(m.equals("lrw") && iv.equals("plain64"))) {
            throw new UnsupportedVolumeException("IV generator '" + iv + "' for " + m + " (in " + spec
                    + ") is not supported: xts-plain64, xts-plain, cbc-essiv:sha256, cbc-plain64, cbc-plain, "
                    + "lrw-benbi, lrw-plain64, ecb");
        }
        return new SectorCipher(spec, alg, m.toUpperCase(Locale.ROOT), iv, DEFAULT_PROVIDER);
    }

    /** This specification on {@code p}'s ciphers ({@link #parse} gives {@link #DEFAULT_PROVIDER}'s). */
    SectorCipher using(Provider p) {
        return p == provider ? this : new SectorCipher(spec, algorithm, mode, iv, p);
    }

    /**
     * A decryptor of whole sectors with {@code key} (copied): sector {@code s} of a run has the IV
     * of 512-byte sector {@code s × sectorSize / 512 + ivOffset} (dm-crypt without
     * {@code iv_large_sectors}, as LUKS uses it).
     */
    Decryptor decryptor(byte[] key, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        return crypter(key, sectorSize, ivOffset, Cipher.DECRYPT_MODE);
    }

    /**
     * This specification for a key slot's material (a few hundred KiB once per unlock or write):
     * on {@code provider} configured with {@code arithmetic=scalar}. In a fresh JVM the vector mode
     * arithmetic runs slowly until C2 has compiled it, which costs more than such an area takes on
     * the scalar code, already compiled; the payload keeps the provider's own setting.
     */
    SectorCipher forKeyMaterial() {
        if (provider instanceof VectorJceProvider p && !"scalar".equals(p.settings().get("arithmetic"))) {
            return new SectorCipher(spec, algorithm, mode, iv, p.configure("arithmetic=scalar"));
        }
        return this;
    }

    /** As {@link #decryptor}, encrypting (for key material and a writable payload). */
    Decryptor encryptor(byte[] key, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        return crypter(key, sectorSize, ivOffset, Cipher.ENCRYPT_MODE);
    }

    private Decryptor crypter(byte[] key, int sectorSize, long ivOffset, int opmode) throws UnsupportedVolumeException {
        int per = sectorSize / 512;
        if (Long.remainderUnsigned(ivOffset, per) != 0) {
            throw new UnsupportedVolumeException("IV offset " + Long.toUnsignedString(ivOffset) + " is not a whole number of "
                    + sectorSize + "-byte sectors");
        }
        if (!(provider instanceof VectorJceProvider p)) {
            throw new UnsupportedVolumeException(spec + ": the provider " + provider.getName() + " has no sector API");
        }
        try {
            org.vectorjce.SectorCipher c = org.vectorjce.SectorCipher.of(spec, key, sectorSize, false, p);
            if (opmode == Cipher.ENCRYPT_MODE && c.encryptionRefusal() != null) {
                c.close(); // XTS with equal key halves: decryption only
                throw new InvalidKeyException("equal XTS key halves");
            }
            return new Decryptor(c, Long.divideUnsigned(ivOffset, per), opmode == Cipher.ENCRYPT_MODE);
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
     * Decrypts (or, made by {@link #encryptor}, encrypts) runs of whole sectors in place, on the
     * provider's sector API (no {@code Cipher.init} per run). Not thread-safe.
     */
    static final class Decryptor implements AutoCloseable {
        private final org.vectorjce.SectorCipher cipher;
        private final long firstSector;
        private final boolean encrypt;

        private Decryptor(org.vectorjce.SectorCipher cipher, long firstSector, boolean encrypt) {
            this.cipher = cipher;
            this.firstSector = firstSector;
            this.encrypt = encrypt;
        }

        int sectorSize() {
            return cipher.sectorSize();
        }

        /** Decrypts {@code len} bytes (whole sectors) at {@code off}, the run's first sector being {@code sector}. */
        void decrypt(byte[] buf, int off, int len, long sector) throws GeneralSecurityException {
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
