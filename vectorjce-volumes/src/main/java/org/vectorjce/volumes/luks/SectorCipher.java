package org.vectorjce.volumes.luks;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.util.Locale;
import java.util.Set;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;

import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.RawKey;

/**
 * A dm-crypt cipher specification in cryptsetup's syntax ({@code aes-xts-plain64}; LUKS1 stores
 * it as name {@code aes} and mode {@code xts-plain64}) mapped onto the provider: AES or Twofish ×
 * {@code xts-plain64}, {@code xts-plain}, {@code xts-plain64be}, {@code cbc-essiv:sha256},
 * {@code cbc-plain64}, {@code cbc-plain}, {@code lrw-benbi}, {@code lrw-plain64},
 * {@code lrw-plain64be}, {@code ecb}. The modes {@link SectorParameterSpec} takes go through it, as
 * does {@code ecb} (no IV), a run of sectors per provider call; {@code lrw-plain64} (dm-crypt's
 * plain64 IV given to Linux {@code lrw()} as its block index) is run one sector per provider call.
 * Anything else is refused naming it.
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

    /** Whether {@code SectorParameterSpec} takes this mode and IV. */
    boolean viaSectorSpec() {
        return iv != null && SPEC_IVS.contains(mode.toLowerCase(Locale.ROOT) + ":" + iv);
    }

    /**
     * A decryptor of whole sectors with {@code key} (copied): sector {@code s} of a run has the IV
     * of 512-byte sector {@code s × sectorSize / 512 + ivOffset} (dm-crypt without
     * {@code iv_large_sectors}, as LUKS uses it).
     */
    Decryptor decryptor(byte[] key, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        return crypter(key, sectorSize, ivOffset, Cipher.DECRYPT_MODE);
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
        RawKey k = new RawKey(algorithm, key);
        try {
            Cipher c = Cipher.getInstance(algorithm + "/" + mode + "/NoPadding", provider);
            Decryptor d = new Decryptor(this, c, k, sectorSize, Long.divideUnsigned(ivOffset, per), opmode);
            d.init(0); // checks the key and parameters once, here
            return d;
        } catch (InvalidKeyException e) {
            k.destroy();
            throw new UnsupportedVolumeException("A " + key.length * 8 + "-bit key is not valid for " + spec);
        } catch (GeneralSecurityException e) {
            k.destroy();
            throw new UnsupportedVolumeException(spec + " with " + sectorSize + "-byte sectors: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return spec;
    }

    /** Decrypts (or, made by {@link #encryptor}, encrypts) runs of whole sectors in place. Not thread-safe. */
    static final class Decryptor implements AutoCloseable {
        private final SectorCipher sc;
        private final Cipher cipher;
        private final RawKey key;
        private final int sectorSize;
        private final long firstSector;
        private final int opmode;

        private Decryptor(SectorCipher sc, Cipher cipher, RawKey key, int sectorSize, long firstSector, int opmode) {
            this.opmode = opmode;
            this.sc = sc;
            this.cipher = cipher;
            this.key = key;
            this.sectorSize = sectorSize;
            this.firstSector = firstSector;
        }

        int sectorSize() {
            return sectorSize;
        }

        private void init(long sector) throws GeneralSecurityException {
            if (sc.iv == null) {
                cipher.init(opmode, key);
            } else if (sc.viaSectorSpec()) {
                cipher.init(opmode, key, new SectorParameterSpec(sc.iv, firstSector + sector, sectorSize));
            } else { // lrw-plain64: the 64-bit little-endian 512-byte sector number as LRW's index
                long n = (firstSector + sector) * (sectorSize / 512);
                byte[] t = new byte[16];
                for (int i = 0; i < 8; i++) {
                    t[i] = (byte) (n >>> (8 * i));
                }
                cipher.init(opmode, key, new IvParameterSpec(t));
            }
        }

        /** Decrypts {@code len} bytes (whole sectors) at {@code off}, the run's first sector being {@code sector}. */
        void decrypt(byte[] buf, int off, int len, long sector) throws GeneralSecurityException {
            if (len % sectorSize != 0) {
                throw new IllegalArgumentException(len + " bytes: not whole sectors");
            }
            if (sc.iv == null || sc.viaSectorSpec()) {
                init(sector);
                cipher.doFinal(buf, off, len, buf, off);
                return;
            }
            for (int done = 0; done < len; done += sectorSize, sector++) {
                init(sector);
                cipher.doFinal(buf, off + done, sectorSize, buf, off + done);
            }
        }

        /** Wipes the key and re-keys the cipher with zeros (overwriting its schedule). */
        @Override
        public void close() {
            try {
                RawKey zero = new RawKey(sc.algorithm, new byte[key.length()]);
                if (sc.iv == null) {
                    cipher.init(Cipher.DECRYPT_MODE, zero);
                } else if (sc.viaSectorSpec()) {
                    cipher.init(Cipher.DECRYPT_MODE, zero, new SectorParameterSpec(sc.iv, 0, sectorSize));
                } else {
                    cipher.init(Cipher.DECRYPT_MODE, zero, new IvParameterSpec(new byte[16]));
                }
            } catch (GeneralSecurityException e) {
                // the schedule goes with the cipher
            } finally {
                key.destroy();
            }
        }
    }
}
