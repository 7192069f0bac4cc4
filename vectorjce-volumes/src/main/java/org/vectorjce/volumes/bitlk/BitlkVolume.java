package org.vectorjce.volumes.bitlk;


import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import javax.crypto.AEADBadTagException;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.bitlk.FveMetadata.Protection;
import org.vectorjce.volumes.bitlk.FveMetadata.Vmk;
import org.vectorjce.volumes.bitlk.FveMetadata.Wrapped;
import org.vectorjce.volumes.internal.AesCcm;
import org.vectorjce.volumes.internal.ImageSource;
import org.vectorjce.volumes.internal.VolumeLifecycle;

/**
 * A BitLocker volume (Windows 7 and later, and BitLocker To Go) opened read-only: cryptsetup's
 * {@code --type bitlk} ({@code bitlkDump}, {@code bitlkOpen --readonly}) in Java.
 *
 * <pre>
 * try (BitlkVolume v = BitlkVolume.at(image).passphrase(pw).open()) {   // or .recoveryPassword(rp),
 *     BitlkInfo info = v.info();                                        // .startupKey(bek), .volumeKey(k),
 *     SeekableByteChannel plain = v.payload();                          // or nothing: a clear key
 * }
 * </pre>
 *
 * <p>Opening reads and checks the FVE metadata ({@link FveMetadata}), then tries the VMK
 * protectors the secrets given can open, in this order (cryptsetup's {@code BITLK_get_volume_key}
 * tries them in the metadata's order; this order runs the 2^20-round stretch only for a secret
 * that can match): a startup key ({@code .BEK} file) whose GUID names the VMK; a recovery password
 * (48 digits in 8 groups, each divisible by 11 and below 720,896; a passphrase of that form is tried
 * as one first); the password (UTF-16LE, SHA-256 twice, then {@link Stretch}); last a clear key
 * (a volume whose protection is suspended or that is being decrypted), which needs no secret. Each protector's key opens the VMK with AES-CCM ({@link AesCcm}); the VMK then
 * opens the metadata's validation record, whose SHA-256 of the metadata block must match, and
 * the FVEK. TPM, TPM+PIN and smart-card protectors cannot be used here: when nothing opened, the
 * message names them and points to the recovery password. {@link Builder#volumeKey} takes the
 * FVEK itself (cryptsetup's {@code --volume-key-file}), checked only for its length, as cryptsetup
 * does.
 *
 * <p>The payload ({@link BitlkSectors}) is laid out as cryptsetup maps the volume: AES-XTS
 * ({@code aes-xts-plain64}), AES-CBC with dm-crypt's {@code eboiv}, or AES-CBC with the Elephant
 * diffuser (Windows Vista and 7, {@code aes-cbc-elephant}), on the provider's sector API.
 * A volume whose encryption or decryption was paused (conversion state 5, which cryptsetup does not
 * activate) is read as Windows shows it: decrypted up to the metadata's encrypted size, the image's bytes
 * as stored past it ({@link BitlkInfo#plaintextFrom}). {@link #payload()} refuses by name, saying why
 * ({@link BitlkInfo#activationProblem}), encrypt-on-write ("used space only") volumes, whose map of
 * encrypted blocks this library does not read, a conversion caught running, and unknown states; they
 * still open and give their key.
 *
 * <p>Errors: {@link WrongPassphraseException} when no protector opened, {@link CorruptHeaderException}
 * for metadata that breaks the format or does not fit the image (the message names the field),
 * {@link UnsupportedVolumeException} for what this library does not read, {@code IOException} for
 * the image. The image is only ever read. Passwords, derived keys, the VMK and the FVEK are wiped
 * after use or on {@link #close()}.
 */
public final class BitlkVolume extends VolumeLifecycle implements Volume {
    /** The largest {@code .BEK} file read (real ones are under 200 bytes). */
    public static final int STARTUP_KEY_MAX = 64 * 1024;
    private static final int OPEN_KEY_HEADER = 12;   // cryptsetup's BITLK_OPEN_KEY_METADATA_LEN

    private final BitlkInfo info;
    private final FveMetadata meta;
    private final byte[] fvek;
    private final String opener;
    private final VectorJceProvider provider;

    private BitlkVolume(ImageSource.Images images, FveMetadata meta, BitlkInfo info, byte[] fvek,
            String opener, VectorJceProvider provider) {
        super(images);
        this.meta = meta;
        this.info = info;
        this.fvek = fvek;
        this.opener = opener;
        this.provider = provider;
    }

    /** A builder for the image file {@code image}, opened read-only. */
    public static Builder at(Path image) {
        return new Builder(new ImageSource(image, null));
    }

    /** A builder for an image the caller keeps open (and closes). */
    public static Builder of(SeekableByteChannel image) {
        return new Builder(new ImageSource(null, image));
    }

    /** The header's and metadata's fields, without unlocking anything. */
    public static BitlkInfo info(Path image) throws IOException, VolumeException {
        return ImageSource.read(image, c -> info(c, image.toString()));
    }

    /** The header's and metadata's fields of an image the caller keeps open. */
    public static BitlkInfo info(SeekableByteChannel image, String name) throws IOException, VolumeException {
        FveMetadata m = FveMetadata.read(image, name);
        return info(m, image.size());
    }

    private static BitlkInfo info(FveMetadata m, long size) throws UnsupportedVolumeException {
        Object[] c = m.cipher();
        List<BitlkInfo.Protector> ps = new ArrayList<>();
        for (Vmk v : m.vmks) {
            ps.add(new BitlkInfo.Protector(v.guid, v.protection.text, v.name, v.salt.clone(),
                    v.wrapped.stream().map(w -> w.data().length).toList()));
        }
        return new BitlkInfo(m.togo, m.version, m.guid, m.sectorSize, m.volumeSize, m.creationTime,
                m.description == null ? "(null)" : m.description, (String) c[0], (String) c[1], (int) c[2],
                m.eow ? "encrypt-on-write" : m.typeKnown ? "normal" : "unknown", m.currState, m.nextState,
                List.copyOf(ps), m.fvek.data().length,
                List.of(m.metadataOffset[0], m.metadataOffset[1], m.metadataOffset[2]), m.volumeHeaderOffset,
                m.volumeHeaderSize, size, List.copyOf(m.warnings), m.convertSize,
                m.eow && !m.togo ? List.of(m.eowOffsets[0], m.eowOffsets[1]) : List.of(),
                m.eowFound[0] || m.eowFound[1]);
    }

    /** The header's fields, the protectors, where the payload's parts lie. */
    @Override
    public BitlkInfo info() {
        return info;
    }

    /**
     * Which protector opened the volume: {@code password}, {@code recovery password},
     * {@code startup key}, {@code clear key} (with the VMK's GUID), or {@code volume key}.
     */
    public String openedWith() {
        return opener;
    }

    /** A copy of the volume key (the FVEK as cryptsetup maps it and dumps it); the caller wipes it. */
    @Override
    public byte[] volumeKey() {
        ensureOpen();
        return fvek.clone();
    }

    /** The plaintext's size in bytes: the image's, as cryptsetup maps it. */
    @Override
    public long payloadSize() {
        return info.payloadSize();
    }

    /**
     * The plaintext device, read-only, from position 0 (one channel per volume: a second call returns
     * a new one and closes the first). Closing the volume closes it.
     *
     * @throws UnsupportedVolumeException for an encrypt-on-write volume, a conversion caught running, an
     *     unknown type or state, or an encrypted size outside the volume (the message names the case and why)
     */
    @Override
    public SeekableByteChannel payload() throws UnsupportedVolumeException {
        return handOut(plaintext());
    }

    /**
     * The plaintext as a positional device, read-only, read at offsets by many threads at once.
     *
     * @throws UnsupportedVolumeException as {@link #payload()}
     * @throws IOException when the image cannot be read
     */
    @Override
    public org.vectorjce.device.Device device() throws IOException, UnsupportedVolumeException {
        return handOutDevice(plaintext(), true, this::flush, info().format().typeName());
    }

    private org.vectorjce.SectorChannel plaintext() throws UnsupportedVolumeException {
        ensureOpen();
        String problem = info.activationProblem();
        if (problem != null) {
            throw new UnsupportedVolumeException(problem);
        }
        try {
            return org.vectorjce.SectorChannel.over(new BitlkSectors(image, info.payloadSize(), info.sectorSize(),
                    info.cipher() + "-" + info.mode(), fvek, provider, meta.zeroAreas(), meta.volumeHeaderOffset,
                    meta.volumeHeaderSize, info.plaintextFrom()));
        } catch (java.security.GeneralSecurityException e) {
            throw new UnsupportedVolumeException(e.getMessage());
        }
    }

    /** The keys, wiped by the first {@code close()}. */
    @Override
    protected void wipe() {
        Arrays.fill(fvek, (byte) 0);
        for (Vmk v : meta.vmks) {
            if (v.clearKey != null) {
                Arrays.fill(v.clearKey, (byte) 0);   // stored unprotected on the disk, still key material here
            }
        }
    }

    @Override
    public String toString() {
        return "BitlkVolume[" + info.cipher() + "-" + info.mode() + ", " + info.keyBits() + " bits, " + info.guid()
                + "]";
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

    /** How to open a volume: the secrets and the provider. Not thread-safe; single use. */
    public static final class Builder {
        private final ImageSource source;
        private char[] passphrase;
        private char[] recovery;
        private byte[] startupKey;
        private byte[] volumeKey;
        private String badPassphraseEncoding;

        private Builder(ImageSource source) {
            this.source = source;
        }

        /** The password, or the recovery password (tried as one when it has its form); the caller wipes its array. */
        public Builder passphrase(char[] p) {
            ImageSource.wipe(passphrase);
            passphrase = p.clone();
            return this;
        }

        /** The password as UTF-8 bytes (what the command reads); the caller wipes its array. */
        public Builder passphrase(byte[] p) {
            ImageSource.wipe(passphrase);
            passphrase = null;
            try {
                CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(p));
                passphrase = new char[c.remaining()];
                c.get(passphrase);
                if (c.hasArray()) {
                    Arrays.fill(c.array(), '\0');
                }
            } catch (CharacterCodingException e) {
                badPassphraseEncoding = "The passphrase is not valid UTF-8";
            }
            return this;
        }

        /** A recovery password only (the password protectors are not tried); the caller wipes its array. */
        public Builder recoveryPassword(char[] rp) {
            ImageSource.wipe(recovery);
            recovery = rp.clone();
            return this;
        }

        /** A startup key: the {@code .BEK} file (at most {@link #STARTUP_KEY_MAX} bytes). */
        public Builder startupKey(Path bek) throws IOException, VolumeException {
            try (InputStream in = Files.newInputStream(bek)) {
                byte[] b = in.readNBytes(STARTUP_KEY_MAX + 1);
                if (b.length > STARTUP_KEY_MAX) {
                    Arrays.fill(b, (byte) 0);
                    throw new VolumeException("The startup key file " + bek + " is larger than " + STARTUP_KEY_MAX
                            + " bytes: not a BitLocker .BEK file");
                }
                ImageSource.wipe(startupKey);
                startupKey = b;
            }
            return this;
        }

        /** A startup key: the {@code .BEK} file's bytes (copied). */
        public Builder startupKey(byte[] bek) {
            ImageSource.wipe(startupKey);
            startupKey = bek.clone();
            return this;
        }

        /** The volume key (the FVEK, as {@code --dump-volume-key} prints it) instead of a protector (copied). */
        public Builder volumeKey(byte[] key) {
            ImageSource.wipe(volumeKey);
            volumeKey = key.clone();
            return this;
        }

        /**
         * The provider of the AES (AES-CCM) and the payload's sector cipher, whose settings they follow (default:
         * {@link org.vectorjce.volumes.Volumes#defaultProvider()}).
         */
        public Builder provider(VectorJceProvider p) {
            source.provider(p);
            return this;
        }

        /** Opens the volume; the secrets given are wiped from this builder whatever happens. */
        public BitlkVolume open() throws IOException, VolumeException {
            return source.open(false, images -> {
                FveMetadata m = FveMetadata.read(images.data(), images.dataName());
                BitlkInfo info = info(m, images.data().size());
                String[] opener = new String[1];
                byte[] fvek = unlock(m, info, opener);
                return new BitlkVolume(images, m, info, fvek, opener[0], source.provider());
            }, this::wipeSecrets);
        }

        private void wipeSecrets() {
            ImageSource.wipe(passphrase);
            ImageSource.wipe(recovery);
            ImageSource.wipe(startupKey);
            ImageSource.wipe(volumeKey);
        }

        private byte[] unlock(FveMetadata m, BitlkInfo info, String[] opener) throws VolumeException {
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
            try (AesCcm ccm = new AesCcm(source.provider(), key)) {
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
                throw new UnsupportedVolumeException("AES-CCM on the provider " + source.provider().getName() + " failed: "
                        + e.getMessage());
            } finally {
                if (pt != null) {
                    Arrays.fill(pt, (byte) 0);
                }
            }
        }

        /** The validation record under the VMK: role 0, type 1, SHA-256 (0x2005) of the metadata block. */
        private void checkValidation(FveMetadata m, byte[] vmk) throws VolumeException {
            byte[] d = null;
            try (AesCcm ccm = new AesCcm(source.provider(), vmk)) {
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
                throw new UnsupportedVolumeException("AES-CCM on the provider " + source.provider().getName() + " failed: "
                        + e.getMessage());
            } finally {
                if (d != null) {
                    Arrays.fill(d, (byte) 0);
                }
            }
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
}
