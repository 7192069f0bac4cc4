package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;

import org.vectorjce.RawKey;
import org.vectorjce.SectorChannel;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.internal.ImageSource;
import org.vectorjce.volumes.internal.KeyedVolume;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * A FileVault 2 volume (a Core Storage logical volume, macOS 10.7 to 10.12's full-disk encryption)
 * opened read-only: cryptsetup's {@code --type fvault2} ({@code fvault2Dump}, {@code open --type
 * fvault2 --readonly}) in Java.
 *
 * <pre>
 * try (Fvault2Volume v = Fvault2Volume.at(image).passphrase(pw).open()) {   // or .volumeKey(k)
 *     Fvault2Info info = v.info();
 *     SeekableByteChannel plain = v.payload();
 * }
 * </pre>
 *
 * <p>Opening reads and checks the Core Storage header and the encrypted metadata
 * ({@link CoreStorage}, {@link KeyBag}), then, as cryptsetup's {@code FVAULT2_get_volume_key}:
 * PBKDF2-SHA256 of the passphrase's bytes (UTF-8) with the key bag's salt and iterations gives a
 * 16-byte key; AES key unwrap (RFC 3394, the JDK's {@code AESWrap}) under it gives the KEK, and
 * under the KEK the volume key's first 16 bytes; the second 16 are the first half of SHA-256(first
 * half ‖ the family UUID's 16 bytes). A failed integrity check of the first unwrap is a wrong
 * passphrase ({@link WrongPassphraseException}); of the second, damaged metadata. Only the key
 * bag's first passphrase entry is tried, as cryptsetup does. {@link Builder#volumeKey} takes the
 * 32-byte volume key itself ({@code --volume-key-file}), checked only for its length, as
 * cryptsetup does.
 *
 * <p>The payload (the provider's {@code SectorChannel}) is the logical volume, {@code aes-xts-plain64} on the
 * provider's sector API with sectors numbered from the logical volume's start.
 *
 * <p>Errors: {@link WrongPassphraseException} when the passphrase does not open the key bag,
 * {@link CorruptHeaderException} for metadata that breaks the format or does
 * not fit the image (the message names the field), {@link UnsupportedVolumeException} for what
 * this library does not read, {@code IOException} for the image. The image is only ever read. The
 * passphrase, the derived key, the KEK and the volume key are wiped after use or on
 * {@link #close()}.
 */
public final class Fvault2Volume extends KeyedVolume<Fvault2Info> {
    /** Bytes of an XTS data unit: Core Storage's sectors. */
    static final int SECTOR = 512;
    private static final int HALF = 16;

    private Fvault2Volume(ImageSource.Images images, Fvault2Info info, byte[] key, String opener,
            VectorJceProvider provider) {
        super(images, info, key, opener, provider);
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
    public static Fvault2Info info(Path image) throws IOException, VolumeException {
        return ImageSource.read(image, Fvault2Volume::info);
    }

    /** The header's and metadata's fields of an image the caller keeps open. */
    public static Fvault2Info info(SeekableByteChannel image, String name) throws IOException, VolumeException {
        return info(CoreStorage.read(image, name, Volumes.defaultProvider()));
    }

    /**
     * Whether the first 512 bytes of {@code image} are a Core Storage header (its signature,
     * version and CRC-32C), without reading further.
     */
    public static boolean looksLikeFvault2(SeekableByteChannel image) throws IOException {
        if (image.size() < CoreStorage.HEADER) {
            return false;
        }
        byte[] h = new byte[CoreStorage.HEADER];
        try {
            CoreStorage.readFully(image, 0, h);
        } catch (VolumeException e) {
            return false;
        }
        return CoreStorage.looksLike(h);
    }

    private static Fvault2Info info(CoreStorage cs) {
        return new Fvault2Info(cs.physicalVolumeUuid, cs.logicalVolume.familyUuid(), cs.logicalVolumeOffset,
                cs.logicalVolume.size(), "aes", "xts-plain64", cs.keyBag.iterations(), cs.keyBag.salt().clone(),
                cs.blockSize, cs.imageSize);
    }


    /** The plaintext's size in bytes: the logical volume's, in whole 512-byte sectors. */
    @Override
    public long payloadSize() {
        return info.logicalVolumeSize() / SECTOR * SECTOR;
    }

    /**
     * The logical volume's plaintext, read-only, from position 0 (one channel per volume: a second
     * call returns a new one and closes the first). Closing the volume closes it.
     *
     * @throws VolumeException when the logical volume does not lie inside the image
     * @throws IOException when the image cannot be read
     */
    @Override
    public SeekableByteChannel payload() throws IOException, VolumeException {
        return handOut(plaintext());
    }

    /**
     * The logical volume's plaintext as a positional device, read-only, read at offsets by many
     * threads at once.
     *
     * @throws VolumeException as {@link #payload()}
     * @throws IOException when the image cannot be read
     */
    @Override
    public org.vectorjce.device.Device device() throws IOException, VolumeException {
        return handOutDevice(plaintext(), true, this::flush, info().format().typeName());
    }

    /**
     * As cryptsetup maps it ({@code lib/fvault2/fvault2.c}, {@code _activate}, and
     * {@code crypt_get_data_offset}): one {@code aes-xts-plain64} segment of {@code size / 512}
     * sectors whose ciphertext starts at the logical volume's offset in the image, with IV offset
     * 0, so the tweak of each 512-byte sector is its number from the logical volume's start (Core
     * Storage's sector numbering): the provider's {@code SectorChannel} over that window.
     */
    private SectorChannel plaintext() throws IOException, VolumeException {
        ensureOpen();
        String problem = info.activationProblem();
        if (problem != null) {
            throw new CorruptHeaderException(problem);
        }
        String spec = info.cipher() + "-" + info.mode();
        RawKey k = new RawKey("AES", key);
        try {
            return SectorChannel.builder(image, spec, k, SECTOR).provider(provider)
                    .window(info.logicalVolumeOffset(), payloadSize()).readOnly().keepImageOpen().open();
        } catch (java.security.GeneralSecurityException e) {
            throw new UnsupportedVolumeException(spec + ": the provider refused the " + key.length
                    + "-byte volume key: " + e.getMessage());
        } finally {
            k.destroy();
        }
    }


    @Override
    public String toString() {
        return "Fvault2Volume[" + info.cipher() + "-" + info.mode() + ", " + info.keyBits() + " bits, family "
                + info.familyUuid() + "]";
    }

    /** How to open a volume: the secret and the provider. Not thread-safe; single use. */
    public static final class Builder {
        private final ImageSource source;
        private byte[] passphrase;
        private byte[] volumeKey;
        private String badPassphraseEncoding;

        private Builder(ImageSource source) {
            this.source = source;
        }

        /** The passphrase (its UTF-8 bytes are what PBKDF2 takes); the caller wipes its array. */
        public Builder passphrase(char[] p) {
            ImageSource.wipe(passphrase);
            passphrase = null;
            badPassphraseEncoding = null;
            try {
                ByteBuffer b = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(p));
                passphrase = new byte[b.remaining()];
                b.get(passphrase);
                if (b.hasArray()) {
                    Arrays.fill(b.array(), (byte) 0);
                }
            } catch (CharacterCodingException e) {
                badPassphraseEncoding = "The passphrase has an unpaired surrogate: it has no UTF-8 form";
            }
            return this;
        }

        /** The passphrase as bytes (what the command reads; PBKDF2 takes them as they are); the caller wipes them. */
        public Builder passphrase(byte[] p) {
            ImageSource.wipe(passphrase);
            badPassphraseEncoding = null;
            passphrase = p.clone();
            return this;
        }

        /** The 32-byte volume key (as {@code --dump-volume-key} prints it) instead of the passphrase (copied). */
        public Builder volumeKey(byte[] k) {
            ImageSource.wipe(volumeKey);
            volumeKey = k.clone();
            return this;
        }

        /**
         * The provider of the metadata's AES-XTS and the payload's sector cipher, whose settings they follow (default:
         * {@link org.vectorjce.volumes.Volumes#defaultProvider()}).
         */
        public Builder provider(VectorJceProvider p) {
            source.provider(p);
            return this;
        }

        /** Opens the volume; the secrets given are wiped from this builder whatever happens. */
        public Fvault2Volume open() throws IOException, VolumeException {
            return source.open(false, images -> {
                CoreStorage cs = CoreStorage.read(images.data(), images.dataName(), source.provider());
                Fvault2Info info = info(cs);
                String[] opener = new String[1];
                byte[] k = unlock(cs, opener);
                return new Fvault2Volume(images, info, k, opener[0], source.provider());
            }, () -> {
                ImageSource.wipe(passphrase);
                ImageSource.wipe(volumeKey);
            });
        }

        private byte[] unlock(CoreStorage cs, String[] opener) throws VolumeException {
            if (volumeKey != null) {
                if (volumeKey.length != 2 * HALF) {
                    throw new VolumeException("The volume key is " + volumeKey.length * 8 + " bits; this volume's "
                            + "aes-xts-plain64 takes " + 2 * HALF * 8);
                }
                opener[0] = "volume key";
                return volumeKey.clone();
            }
            if (badPassphraseEncoding != null) {
                throw new VolumeException(badPassphraseEncoding);
            }
            if (passphrase == null) {
                throw new WrongPassphraseException("no passphrase given");
            }
            KeyBag.Passphrase kb = cs.keyBag;
            byte[] pk = Pbkdf2.derive(HashAlgorithm.SHA256, passphrase, kb.salt(), kb.iterations(), HALF);
            byte[] kek = null, half = null;
            try {
                kek = unwrap(pk, kb.wrappedKek());
                if (kek == null) {
                    throw new WrongPassphraseException("no key available with this passphrase");
                }
                half = unwrap(kek, kb.wrappedVolumeKey());
                if (half == null) {
                    throw new CorruptHeaderException("The passphrase opened the KEK, but the KEK does not unwrap the "
                            + "volume key (RFC 3394 integrity check failed): the key bag is damaged");
                }
                byte[] k = new byte[2 * HALF];
                System.arraycopy(half, 0, k, 0, HALF);
                MessageDigest d = MessageDigest.getInstance("SHA-256");
                d.update(half);
                d.update(cs.logicalVolume.familyUuidBytes());
                byte[] h = d.digest();
                System.arraycopy(h, 0, k, HALF, HALF);
                Arrays.fill(h, (byte) 0);
                opener[0] = "passphrase";
                return k;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            } finally {
                ImageSource.wipe(pk);
                ImageSource.wipe(kek);
                ImageSource.wipe(half);
            }
        }

        /**
         * RFC 3394 key unwrap of the 24-byte {@code wrapped} under the 16-byte {@code kek} with the
         * JDK's {@code AESWrap} (the default IV {@code A6A6A6A6A6A6A6A6}, checked); null when the
         * integrity check fails (the wrong key).
         */
        static byte[] unwrap(byte[] kek, byte[] wrapped) throws VolumeException {
            RawKey k = new RawKey("AES", kek);
            try {
                Cipher c = Cipher.getInstance("AESWrap");
                c.init(Cipher.DECRYPT_MODE, k);
                return c.doFinal(wrapped);
            } catch (BadPaddingException | IllegalBlockSizeException e) {
                // the input is always 24 bytes (KeyBag): JDK 17 reports the failed check as the first,
                // JDK 25 as the second ("Integrity check failed")
                return null;
            } catch (GeneralSecurityException e) {
                throw new UnsupportedVolumeException("The JDK's AESWrap failed: " + e.getMessage());
            } finally {
                k.destroy();
            }
        }
    }
}
