package org.vectorjce.volumes.bitlk;

import java.nio.CharBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

import javax.crypto.AEADBadTagException;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.bitlk.FveMetadata.Protection;
import org.vectorjce.volumes.bitlk.FveMetadata.Vmk;
import org.vectorjce.volumes.bitlk.FveMetadata.Wrapped;
import org.vectorjce.volumes.internal.AesCcm;
import org.vectorjce.volumes.internal.ImageSource;

/**
 * The secrets a BitLocker volume is opened with, and the protectors they open, as cryptsetup's
 * {@code lib/bitlk/bitlk.c} ({@code BITLK_get_volume_key}): each protector's key opens its VMK with
 * AES-CCM ({@link AesCcm}), the VMK opens the metadata's validation record (whose SHA-256 of the
 * metadata block must match) and the FVEK. {@link #wipe()} wipes every secret once.
 */
final class Protectors {
    private static final int OPEN_KEY_HEADER = 12;   // cryptsetup's BITLK_OPEN_KEY_METADATA_LEN

    char[] passphrase;
    char[] recovery;
    byte[] startupKey;
    byte[] volumeKey;
    String badPassphraseEncoding;
    /** The AES-CCM's provider, set by {@link #unlock}. */
    private VectorJceProvider provider;

    /** Wipes every secret given. */
    void wipe() {
        ImageSource.wipe(passphrase);
        ImageSource.wipe(recovery);
        ImageSource.wipe(startupKey);
        ImageSource.wipe(volumeKey);
    }

    /**
     * The recovery password's 16-byte key (8 little-endian 16-bit words, each group / 11), or null
     * with {@code why[0]} saying why it is not one (cryptsetup's {@code get_recovery_key}; a
     * trailing newline is dropped, as there).
     */
    static byte[] recoveryKey(CharSequence rp, String[] why) {
        int n = rp.length();
        if (n == 56 && rp.charAt(55) == '\n') {
            n = 55;
        }
        if (n != 55) {
            why[0] = "a recovery password is 48 digits in 8 groups of 6 joined by '-' (55 characters), not " + n;
            return null;
        }
        byte[] key = new byte[16];
        for (int g = 0; g < 8; g++) {
            int v = 0;
            for (int i = 0; i < 6; i++) {
                char ch = rp.charAt(7 * g + i);
                if (ch < '0' || ch > '9') {
                    why[0] = "group " + (g + 1) + " of the recovery password is not 6 digits";
                    Arrays.fill(key, (byte) 0);
                    return null;
                }
                v = v * 10 + (ch - '0');
            }
            if (g < 7 && rp.charAt(7 * g + 6) != '-') {
                why[0] = "the recovery password's groups are not joined by '-'";
                Arrays.fill(key, (byte) 0);
                return null;
            }
            if (v % 11 != 0 || v >= 720896) {
                why[0] = "group " + (g + 1) + " of the recovery password fails its check (divisible by 11, "
                        + "below 720896)";
                Arrays.fill(key, (byte) 0);
                return null;
            }
            key[2 * g] = (byte) (v / 11);
            key[2 * g + 1] = (byte) ((v / 11) >>> 8);
        }
        return key;
    }

    /**
     * The FVEK: the volume key given, else the first VMK a secret opens (startup key, recovery
     * password, password), the clear key last; {@code opener[0]} says which opened it.
     */
    byte[] unlock(FveMetadata m, BitlkInfo info, String[] opener, VectorJceProvider provider)
            throws VolumeException {
        this.provider = provider;
        if (volumeKey != null) {
            if (volumeKey.length * 8 != info.keyBits()) {
                throw new VolumeException("The volume key is " + volumeKey.length * 8 + " bits; this volume's "
                        + info.cipher() + "-" + info.mode() + " takes " + info.keyBits());
            }
            opener[0] = "volume key";
            return volumeKey.clone();
        }
        if (badPassphraseEncoding != null) {
            throw new VolumeException(badPassphraseEncoding);
        }
        String notRecovery = null;
        if (startupKey != null) {
            for (Vmk v : m.vmks) {
                if (v.protection == Protection.STARTUP_KEY) {
                    byte[] k = startupKey(m, v, startupKey);
                    if (k != null) {
                        byte[] f = tryVmk(m, v, k);
                        if (f != null) {
                            opener[0] = "startup key " + v.guid;
                            return f;
                        }
                    }
                }
            }
        }
        char[] rp = recovery != null ? recovery : passphrase;
        if (rp != null) {
            String[] why = new String[1];
            byte[] rk = recoveryKey(CharBuffer.wrap(rp), why);
            if (rk == null && recovery != null) {
                throw new WrongPassphraseException("not a recovery password: " + why[0]);
            }
            if (rk != null) {
                try {
                    byte[] initial = sha256(rk);
                    try {
                        byte[] f = stretchAndTry(m, Protection.RECOVERY_PASSPHRASE, initial, opener,
                                "recovery password");
                        if (f != null) {
                            return f;
                        }
                    } finally {
                        Arrays.fill(initial, (byte) 0);
                    }
                } finally {
                    Arrays.fill(rk, (byte) 0);
                }
            } else {
                notRecovery = why[0];
            }
        }
        if (passphrase != null && recovery == null) {
            // UTF-16LE code units, as cryptsetup's crypt_utf8_to_utf16 gives them (Java's chars already are)
            int len = passphrase.length * 2;
            byte[] utf16 = new byte[len];
            for (int i = 0; i < passphrase.length; i++) {
                utf16[2 * i] = (byte) passphrase[i];
                utf16[2 * i + 1] = (byte) (passphrase[i] >>> 8);
            }
            try {
                MessageDigest d = MessageDigest.getInstance("SHA-256");
                d.update(utf16, 0, len);
                byte[] once = d.digest();
                byte[] initial = d.digest(once);
                Arrays.fill(once, (byte) 0);
                try {
                    byte[] f = stretchAndTry(m, Protection.PASSPHRASE, initial, opener, "password");
                    if (f != null) {
                        return f;
                    }
                } finally {
                    Arrays.fill(initial, (byte) 0);
                }
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            } finally {
                Arrays.fill(utf16, (byte) 0);
            }
        }
        // the clear key last: a secret given is checked first, so openedWith() names it when it opens
        for (Vmk v : m.vmks) {
            if (v.protection == Protection.CLEAR_KEY && v.clearKey != null) {
                byte[] f = tryVmk(m, v, v.clearKey.clone());
                if (f != null) {
                    opener[0] = "clear key " + v.guid;
                    return f;
                }
            }
        }
        throw new WrongPassphraseException(failure(m, notRecovery));
    }

    /** Why nothing opened, naming the protectors this library cannot use. */
    private String failure(FveMetadata m, String notRecovery) {
        Set<String> unusable = new LinkedHashSet<>();
        boolean hasRecovery = false;
        for (Vmk v : m.vmks) {
            if (!v.protection.usable()) {
                unusable.add(v.protection.text.replace("VMK protected with ", ""));
            }
            hasRecovery |= v.protection == Protection.RECOVERY_PASSPHRASE;
        }
        StringBuilder s = new StringBuilder();
        if (passphrase == null && recovery == null && startupKey == null) {
            s.append("no secret given and no clear key in the metadata");
        } else {
            s.append("no VMK opened with the ");
            s.append(startupKey != null ? (passphrase != null || recovery != null ? "startup key and passphrase"
                    : "startup key") : recovery != null ? "recovery password" : "passphrase").append(" given");
        }
        if (!unusable.isEmpty()) {
            s.append(" (this volume also has a VMK protected with ").append(String.join(", ", unusable))
                    .append(", which this library cannot use");
            s.append(hasRecovery ? ": give its recovery password instead)" : ")");
        }
        if (notRecovery != null && hasRecovery && recovery == null && passphrase != null
                && passphrase.length >= 50 && passphrase.length <= 56) {
            s.append("; tried as a password only: ").append(notRecovery);
        }
        return s.toString();
    }

    /** Stretches {@code initial} once per distinct salt and tries every VMK of protection {@code p}. */
    private byte[] stretchAndTry(FveMetadata m, Protection p, byte[] initial, String[] opener, String what)
            throws VolumeException {
        for (Vmk v : m.vmks) {
            if (v.protection == p) {
                byte[] k = Stretch.derive(initial, v.salt, Stretch.ROUNDS);
                byte[] f = tryVmk(m, v, k);
                if (f != null) {
                    opener[0] = what + " " + v.guid;
                    return f;
                }
            }
        }
        return null;
    }

    /**
     * Opens VMK {@code v} with {@code key} (wiped here), checks the metadata's validation record and
     * opens the FVEK; null when the key does not open the VMK.
     */
    private byte[] tryVmk(FveMetadata m, Vmk v, byte[] key) throws VolumeException {
        byte[] vmk = null;
        try {
            if (v.wrapped.isEmpty()) {
                throw new CorruptHeaderException("VMK " + v.guid + " (" + v.protection.text
                        + ") holds no encrypted key");
            }
            vmk = openKey(key, v.wrapped.get(0), "VMK " + v.guid);
            if (vmk == null) {
                return null;
            }
            checkValidation(m, vmk);
            byte[] f = openKey(vmk, m.fvek, "FVEK");
            if (f == null) {
                throw new CorruptHeaderException("The VMK " + v.guid + " opened but does not open the FVEK"
                        + " (AES-CCM tag mismatch)");
            }
            return fvek(m, f);
        } finally {
            Arrays.fill(key, (byte) 0);
            if (vmk != null) {
                Arrays.fill(vmk, (byte) 0);
            }
        }
    }

    /**
     * Decrypts a wrapped key with AES-CCM under {@code key}: its key data (cryptsetup's
     * {@code decrypt_key}: a 2-byte size that must be the data's length, 10 bytes of header, the key);
     * null for a tag mismatch (a wrong key).
     */
    private byte[] openKey(byte[] key, Wrapped w, String what) throws VolumeException {
        if (key.length != 16 && key.length != 24 && key.length != 32) {
            throw new CorruptHeaderException("The key that opens the " + what + " is " + key.length
                    + " bytes (16, 24 or 32)");
        }
        byte[] pt = null;
        try (AesCcm ccm = new AesCcm(provider, key)) {
            pt = ccm.decrypt(w.nonce(), new byte[0], w.data(), 0, w.data().length, w.tag());
            int size = FveMetadata.u16(pt, 0);
            if (pt.length <= OPEN_KEY_HEADER || size != pt.length) {
                throw new CorruptHeaderException("The " + what + " decrypts to " + pt.length
                        + " bytes of key data that give their size as " + size);
            }
            return Arrays.copyOfRange(pt, OPEN_KEY_HEADER, pt.length);
        } catch (AEADBadTagException e) {
            return null;
        } catch (GeneralSecurityException e) {
            throw ccmFailed(e);
        } finally {
            ImageSource.wipe(pt);
        }
    }

    /** The validation record under the VMK: role 0, type 1, SHA-256 (0x2005) of the metadata block. */
    private void checkValidation(FveMetadata m, byte[] vmk) throws VolumeException {
        byte[] d = null;
        try (AesCcm ccm = new AesCcm(provider, vmk)) {
            Wrapped w = m.validation;
            d = ccm.decrypt(w.nonce(), new byte[0], w.data(), 0, w.data().length, w.tag());
            if (FveMetadata.u16(d, 2) != 0 || FveMetadata.u16(d, 4) != 1 || FveMetadata.u16(d, 8) != 0x2005) {
                throw new UnsupportedVolumeException(String.format("The FVE metadata's validation record holds"
                        + " role %d, type %d, hash type 0x%04x (0, 1, 0x2005: SHA-256 expected)",
                        FveMetadata.u16(d, 2), FveMetadata.u16(d, 4), FveMetadata.u16(d, 8)));
            }
            if (!MessageDigest.isEqual(Arrays.copyOfRange(d, 12, 44), m.blockSha256)) {
                throw new CorruptHeaderException("The FVE metadata block does not match the SHA-256 its "
                        + "validation record holds: the metadata was changed");
            }
        } catch (AEADBadTagException e) {
            throw new CorruptHeaderException("The FVE metadata's validation record does not open under the VMK"
                    + " (AES-CCM tag mismatch)");
        } catch (GeneralSecurityException e) {
            throw ccmFailed(e);
        } finally {
            ImageSource.wipe(d);
        }
    }

    private UnsupportedVolumeException ccmFailed(GeneralSecurityException e) {
        return new UnsupportedVolumeException("AES-CCM on the provider " + provider.getName() + " failed: "
                + e.getMessage());
    }

    /**
     * The FVEK's key data as the volume key cryptsetup maps: for 128-bit Elephant the data is
     * 16 bytes of CBC key, 16 empty, 16 of Elephant key, 16 empty, and the two keys are joined.
     */
    private static byte[] fvek(FveMetadata m, byte[] f) throws VolumeException {
        int bytes = (int) m.cipher()[2] / 8;
        byte[] k = f;
        if (m.encryption == 0x8000 && f.length == 64) {
            k = new byte[32];
            System.arraycopy(f, 0, k, 0, 16);
            System.arraycopy(f, 32, k, 16, 16);
            Arrays.fill(f, (byte) 0);
        }
        if (k.length != bytes) {
            Arrays.fill(k, (byte) 0);
            throw new CorruptHeaderException("The FVEK is " + k.length + " bytes; the encryption method 0x"
                    + Integer.toHexString(m.encryption) + " takes " + bytes);
        }
        return k;
    }

    /**
     * The startup key in a {@code .BEK} file for VMK {@code v}, or null when the file is for
     * another VMK (cryptsetup's {@code get_startup_key} and {@code parse_external_key_entry}).
     */
    private static byte[] startupKey(FveMetadata m, Vmk v, byte[] b) throws VolumeException {
        if (b.length < 48 + 8) {
            throw new VolumeException("The startup key file is " + b.length + " bytes: not a BitLocker .BEK file");
        }
        if (!FveMetadata.guid(b, 16).equals(v.guid)) {
            return null;
        }
        if (FveMetadata.u32(b, 4) != 1) {
            throw new UnsupportedVolumeException("Unsupported BEK metadata version " + FveMetadata.u32(b, 4));
        }
        if (FveMetadata.u32(b, 0) != b.length) {
            throw new VolumeException("The BEK metadata size " + FveMetadata.u32(b, 0)
                    + " does not match the file's length " + b.length);
        }
        int size = FveMetadata.u16(b, 48), type = FveMetadata.u16(b, 50), value = FveMetadata.u16(b, 52);
        if (size < 8 || type != FveMetadata.TYPE_STARTUP_KEY || value != FveMetadata.VALUE_EXTERNAL_KEY) {
            throw new VolumeException("Unexpected metadata entry in the startup key file (size " + size
                    + ", type " + type + ", value " + value + ")");
        }
        byte[] key = null;
        for (int start = 48 + 8 + 24, end = b.length; end - start >= 6; ) {
            int es = FveMetadata.u16(b, start), et = FveMetadata.u16(b, start + 2),
                    ev = FveMetadata.u16(b, start + 4);
            if (es == 0) {
                break;
            }
            if (es < 8 || es > end - start) {
                throw new VolumeException("Entry of size " + es + " in the startup key file (8 to the "
                        + (end - start) + " bytes left)");
            }
            if (et != FveMetadata.TYPE_PROPERTY && et != FveMetadata.TYPE_VOLUME_GUID) {
                throw new VolumeException("Unexpected metadata entry type " + et + " in the startup key file");
            }
            if (ev == FveMetadata.VALUE_KEY) {
                if (es <= 12) {
                    throw new VolumeException("Key entry of " + es + " bytes in the startup key file");
                }
                key = Arrays.copyOfRange(b, start + 12, start + es);
                break;
            } else if (ev == FveMetadata.VALUE_GUID) {
                if (es < 8 + 16) {
                    throw new VolumeException("GUID entry of " + es + " bytes in the startup key file");
                }
                String g = FveMetadata.guid(b, start + 8);
                if (!g.equals(m.guid)) {
                    throw new VolumeException("BEK file GUID '" + g + "' does not match GUID of the volume.");
                }
            } else if (ev != FveMetadata.VALUE_STRING) {
                throw new VolumeException("Unexpected metadata value type " + ev + " in the startup key file");
            }
            start += es;
        }
        if (key == null) {
            throw new VolumeException("The startup key file for VMK " + v.guid + " holds no key");
        }
        return key;
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
