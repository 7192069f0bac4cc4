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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.SectorChannel;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.bitlk.FveMetadata.Vmk;
import org.vectorjce.volumes.internal.AesCcm;
import org.vectorjce.volumes.internal.ImageSource;
import org.vectorjce.volumes.internal.KeyedVolume;

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
public final class BitlkVolume extends KeyedVolume<BitlkInfo> {
    /** The largest {@code .BEK} file read (real ones are under 200 bytes). */
    public static final int STARTUP_KEY_MAX = 64 * 1024;

    private final FveMetadata meta;

    private BitlkVolume(ImageSource.Images images, FveMetadata meta, BitlkInfo info, byte[] fvek,
            String opener, VectorJceProvider provider) {
        super(images, info, fvek, opener, provider);
        this.meta = meta;
    }

    /** A builder for the image file {@code image}, opened read-only. */
    public static Builder at(Path image) {
        return new Builder(ImageSource.at(image));
    }

    /** A builder for an image the caller keeps open (and closes). */
    public static Builder of(SeekableByteChannel image) {
        return new Builder(ImageSource.of(image));
    }

    /** The header's and metadata's fields, without unlocking anything. */
    public static BitlkInfo info(Path image) throws IOException, VolumeException {
        return ImageSource.read(image, BitlkVolume::info);
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

    private SectorChannel plaintext() throws UnsupportedVolumeException {
        ensureOpen();
        String problem = info.activationProblem();
        if (problem != null) {
            throw new UnsupportedVolumeException(problem);
        }
        try {
            return SectorChannel.over(new BitlkSectors(image, info.sectorSize(), info.cipher() + "-" + info.mode(),
                    key, provider, meta.zeroAreas(), meta.volumeHeaderOffset, meta.volumeHeaderSize,
                    info.plaintextFrom()), info.payloadSize(), info.sectorSize(), false);
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException(e.getMessage());
        }
    }

    /** The keys, wiped by the first {@code close()}. */
    @Override
    protected void wipe() {
        super.wipe();
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

    /** How to open a volume: the secrets and the provider. Not thread-safe; single use. */
    public static final class Builder {
        private final ImageSource source;
        private final Protectors secrets = new Protectors();

        private Builder(ImageSource source) {
            this.source = source;
        }

        /** The password, or the recovery password (tried as one when it has its form); the caller wipes its array. */
        public Builder passphrase(char[] p) {
            ImageSource.wipe(secrets.passphrase);
            secrets.passphrase = p.clone();
            return this;
        }

        /** The password as UTF-8 bytes (what the command reads); the caller wipes its array. */
        public Builder passphrase(byte[] p) {
            ImageSource.wipe(secrets.passphrase);
            secrets.passphrase = null;
            try {
                CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(p));
                secrets.passphrase = new char[c.remaining()];
                c.get(secrets.passphrase);
                if (c.hasArray()) {
                    Arrays.fill(c.array(), '\0');
                }
            } catch (CharacterCodingException e) {
                secrets.badPassphraseEncoding = "The passphrase is not valid UTF-8";
            }
            return this;
        }

        /** A recovery password only (the password protectors are not tried); the caller wipes its array. */
        public Builder recoveryPassword(char[] rp) {
            ImageSource.wipe(secrets.recovery);
            secrets.recovery = rp.clone();
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
                ImageSource.wipe(secrets.startupKey);
                secrets.startupKey = b;
            }
            return this;
        }

        /** A startup key: the {@code .BEK} file's bytes (copied). */
        public Builder startupKey(byte[] bek) {
            ImageSource.wipe(secrets.startupKey);
            secrets.startupKey = bek.clone();
            return this;
        }

        /** The volume key (the FVEK, as {@code --dump-volume-key} prints it) instead of a protector (copied). */
        public Builder volumeKey(byte[] key) {
            ImageSource.wipe(secrets.volumeKey);
            secrets.volumeKey = key.clone();
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
                byte[] fvek = secrets.unlock(m, info, opener, source.provider());
                return new BitlkVolume(images, m, info, fvek, opener[0], source.provider());
            }, secrets::wipe);
        }
    }
}
