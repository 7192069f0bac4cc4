package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;

import org.vectorjce.RawKey;
import org.vectorjce.SectorChannel;
import org.vectorjce.SectorCipher;
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
        SectorCipher.Spec parts;
        try {
            // The provider's one parser, with dm-crypt's own compatibility forms (an ecb
            // specification's IV generator is ignored, as dm-crypt and QEMU's ecb-plain64 need).
            parts = SectorCipher.parseSpec(spec);
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
     * Checks {@code keyBytes} and the sectors against this specification before any KDF runs: a
     * sector cipher keyed with zeros (for decryption: XTS encryption refuses the all-zero key,
     * whose halves are equal), made and closed.
     */
    void checkKey(int keyBytes, int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        firstSector(sectorSize, ivOffset);
        sectors(new byte[keyBytes], sectorSize, false).close();
    }

    /**
     * The payload {@code [offset, offset + size)} of {@code image}, whole sectors of
     * {@code sectorSize} bytes whose IVs count 512-byte sectors from {@code ivOffset} (dm-crypt
     * without {@code iv_large_sectors}, as LUKS uses it: {@code ivOffset + (offset >> 9)}), under {@code key} (copied): the
     * provider's {@code SectorChannel} over a window of the image, read-only unless
     * {@code writable}, leaving the image open on close.
     */
    SectorChannel payload(SeekableByteChannel image, byte[] key, long offset, long size, int sectorSize,
            long ivOffset, boolean writable) throws IOException, UnsupportedVolumeException {
        firstSector(sectorSize, ivOffset); // refuses an IV offset that is not whole sectors, as dm-crypt does
        RawKey k = new RawKey(algorithm, key);
        try {
            SectorChannel.Builder b = SectorChannel.builder(image, spec, k, sectorSize).ivOffset(ivOffset)
                    .provider(provider).essivHash(VolumeCipher::essivDigest).window(offset, size).keepImageOpen();
            return (writable ? b : b.readOnly()).open();
        } catch (InvalidKeyException e) {
            throw new UnsupportedVolumeException("A " + key.length * 8 + "-bit key is not valid for " + spec
                    + (writable ? " when writing: " + e.getMessage() : ""));
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException(spec + " with " + sectorSize + "-byte sectors: " + e.getMessage());
        } finally {
            k.destroy();
        }
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

    /**
     * A key slot's area cipher with {@code key} (copied): 512-byte sectors from 0, on
     * {@link #forKeyMaterial}'s provider; for encryption also refused where the key is (XTS with
     * equal halves). The caller closes it.
     */
    SectorCipher keyMaterial(byte[] key, boolean encrypt) throws UnsupportedVolumeException {
        return forKeyMaterial().sectors(key, 512, encrypt);
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

    private static long firstSector(int sectorSize, long ivOffset) throws UnsupportedVolumeException {
        int per = sectorSize / 512;
        if (per <= 0 || Long.remainderUnsigned(ivOffset, per) != 0) {
            throw new UnsupportedVolumeException("IV offset " + Long.toUnsignedString(ivOffset) + " is not a whole number of "
                    + sectorSize + "-byte sectors");
        }
        return Long.divideUnsigned(ivOffset, per);
    }

    private SectorCipher sectors(byte[] key, int sectorSize, boolean encrypt) throws UnsupportedVolumeException {
        try {
            SectorCipher c = SectorCipher.of(spec, key, sectorSize, false, provider, VolumeCipher::essivDigest);
            if (encrypt && c.encryptionRefusal() != null) {
                c.close(); // XTS with equal key halves: decryption only
                throw new InvalidKeyException("equal XTS key halves");
            }
            return c;
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
}
