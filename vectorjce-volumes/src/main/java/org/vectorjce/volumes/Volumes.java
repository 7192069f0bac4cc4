package org.vectorjce.volumes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.bitlk.BitlkVolume;
import org.vectorjce.volumes.fvault2.Fvault2Volume;
import org.vectorjce.volumes.luks.LuksVolume;
import org.vectorjce.volumes.tcrypt.TcryptVolume;

/**
 * Opens a volume of any format, as cryptsetup's {@code open} does: the format is found from the
 * header's signature (LUKS's magic, BitLocker's {@code -FVE-FS-} or To Go's {@code MSWIN4.1} with
 * FVE metadata, FileVault 2's Core Storage header), or named with {@link Builder#type}.
 * TrueCrypt/VeraCrypt headers are indistinguishable from random data until decrypted, so that
 * format is tried only when named ({@code type(VolumeFormat.TCRYPT)}), as cryptsetup asks for
 * {@code --type tcrypt}.
 *
 * <pre>{@code
 * try (Volume v = Volumes.open(Path.of("disk.img")).passphrase(password).open();
 *      SeekableByteChannel plain = v.payload()) {
 *     ...
 * }
 * }</pre>
 *
 * <p>The builder takes every format's secrets and options; {@link Builder#open()} hands those the
 * found format takes to that format's own builder, and refuses the others by name
 * ({@link UnsupportedVolumeException}: a PIM for a LUKS volume, a startup key for VeraCrypt).
 * What only one format has (a LUKS key slot, VeraCrypt's hash or cipher hint, ...) is on that
 * format's builder: {@code LuksVolume.at(path)} and so on.
 */
public final class Volumes {
    private static final byte[] LUKS_MAGIC = {'L', 'U', 'K', 'S', (byte) 0xba, (byte) 0xbe};

    private Volumes() {
    }

    /**
     * A builder for the volume in the image file {@code image}.
     *
     * @param image the image (a file or a block device's path)
     * @return the builder; nothing is read until {@link Builder#open()}
     */
    public static Builder open(Path image) {
        return new Builder(Objects.requireNonNull(image, "image"), null);
    }

    /**
     * A builder for the volume in {@code image}, which stays the caller's: closing the volume leaves it
     * open. Opening for writing needs a writable channel.
     *
     * @param image the image, read at absolute positions (its position is kept)
     * @return the builder; nothing is read until {@link Builder#open()}
     */
    public static Builder open(SeekableByteChannel image) {
        return new Builder(null, Objects.requireNonNull(image, "image"));
    }

    /**
     * The provider a volume's ciphers come from when its builder is given none: a new
     * {@code VectorJceProvider} with {@code arithmetic=scalar} where the system properties leave the
     * arithmetic at {@code auto}, else as they set it. A volume's work is whole images and requests
     * of a served device, most of it in a fresh JVM's first seconds, where the vector mode arithmetic
     * runs slowly until C2 has compiled it. The scalar passes reach C2 at once; once both are
     * compiled they are about 15 % slower on AES-XTS alone, which makes up the vector passes' slow
     * start only after some 7 GiB (figures: {@code docs/performance.md}, "The mode arithmetic from
     * the first call"). {@code -Dvectorjce.arithmetic=auto} counts as not set.
     *
     * @return a new provider instance
     */
    public static VectorJceProvider defaultProvider() {
        VectorJceProvider p = new VectorJceProvider();
        return "auto".equals(p.settings().get("arithmetic")) ? p.configure("arithmetic=scalar") : p;
    }

    /**
     * The format the header of {@code image} shows by its signature, or {@code null} when it shows
     * none (TrueCrypt/VeraCrypt, or not a volume).
     *
     * @param image the image file
     * @return LUKS1, LUKS2, BITLK, FVAULT2 or {@code null}
     * @throws IOException when the file cannot be read
     */
    public static VolumeFormat detect(Path image) throws IOException {
        try (FileChannel c = FileChannel.open(image, StandardOpenOption.READ)) {
            return detect(c, image.toString());
        }
    }

    /**
     * The format the header in {@code image} shows by its signature, or {@code null}; the channel's
     * position is kept.
     *
     * @param image the image
     * @return LUKS1, LUKS2, BITLK, FVAULT2 or {@code null}
     * @throws IOException when the channel cannot be read
     */
    public static VolumeFormat detect(SeekableByteChannel image) throws IOException {
        return detect(image, "the image");
    }

    private static VolumeFormat detect(SeekableByteChannel c, String name) throws IOException {
        long pos = c.position();
        try {
            byte[] h = new byte[11];
            c.position(0);
            ByteBuffer b = ByteBuffer.wrap(h);
            while (b.hasRemaining() && c.read(b) > 0) {
                // fill
            }
            if (b.position() >= 8 && Arrays.equals(h, 0, 6, LUKS_MAGIC, 0, 6)) {
                int version = (h[6] & 0xff) << 8 | h[7] & 0xff;
                return version == 1 ? VolumeFormat.LUKS1 : version == 2 ? VolumeFormat.LUKS2 : null;
            }
            if (!b.hasRemaining()) {
                String sig = new String(h, 3, 8, StandardCharsets.ISO_8859_1);
                if (sig.equals("-FVE-FS-")) {
                    return VolumeFormat.BITLK;
                }
                if (sig.equals("MSWIN4.1") && hasFveMetadata(c, name)) {
                    return VolumeFormat.BITLK; // BitLocker To Go; any other FAT volume has none
                }
            }
            return Fvault2Volume.looksLikeFvault2(c) ? VolumeFormat.FVAULT2 : null;
        } finally {
            c.position(pos);
        }
    }

    private static boolean hasFveMetadata(SeekableByteChannel c, String name) throws IOException {
        try {
            BitlkVolume.info(c, name);
            return true;
        } catch (VolumeException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The secrets and options of one open. Secrets are copied when given and wiped by
     * {@link #open()}, whatever it returns or throws; the caller wipes its own arrays.
     */
    public static final class Builder {
        private final Path imagePath;
        private final SeekableByteChannel imageChannel;
        private VolumeFormat type;
        private char[] passphraseChars;
        private byte[] passphraseBytes;
        private final List<Path> keyFiles = new ArrayList<>();
        private Integer pim;
        private char[] recoveryPassword;
        private Path startupKey;
        private byte[] startupKeyBytes;
        private byte[] volumeKey;
        private Path header;
        private boolean hidden, system, readWrite;
        private Executor executor;
        private VectorJceProvider provider;
        /** The options given, by name, in the order given: what a format that lacks one is refused with. */
        private final Set<String> given = new LinkedHashSet<>();

        private Builder(Path imagePath, SeekableByteChannel imageChannel) {
            this.imagePath = imagePath;
            this.imageChannel = imageChannel;
        }

        /** The format, instead of detecting it; needed for TrueCrypt/VeraCrypt, which has no signature. */
        public Builder type(VolumeFormat format) {
            type = Objects.requireNonNull(format, "format");
            return this;
        }

        /** The passphrase (copied). Every format takes it (BitLocker: also a recovery password in its form). */
        public Builder passphrase(char[] passphrase) {
            wipe();
            passphraseChars = passphrase.clone();
            given.add("passphrase");
            return this;
        }

        /** The passphrase as bytes, as a key file or standard input gives it (copied). */
        public Builder passphrase(byte[] passphrase) {
            wipe();
            passphraseBytes = passphrase.clone();
            given.add("passphrase");
            return this;
        }

        private void wipe() {
            if (passphraseChars != null) {
                Arrays.fill(passphraseChars, '\0');
                passphraseChars = null;
            }
            if (passphraseBytes != null) {
                Arrays.fill(passphraseBytes, (byte) 0);
                passphraseBytes = null;
            }
        }

        /** A key file: LUKS's whole-file passphrase (one), TrueCrypt/VeraCrypt's keyfiles (any number, or folders). */
        public Builder keyFile(Path keyFile) {
            keyFiles.add(Objects.requireNonNull(keyFile, "keyFile"));
            given.add("key file");
            return this;
        }

        /** VeraCrypt's PIM. */
        public Builder pim(int pim) {
            this.pim = pim;
            given.add("PIM");
            return this;
        }

        /** A BitLocker recovery password (copied). */
        public Builder recoveryPassword(char[] recoveryPassword) {
            if (this.recoveryPassword != null) {
                Arrays.fill(this.recoveryPassword, '\0');
            }
            this.recoveryPassword = recoveryPassword.clone();
            given.add("recovery password");
            return this;
        }

        /** A BitLocker startup key, the {@code .BEK} file. */
        public Builder startupKey(Path bek) {
            startupKey = Objects.requireNonNull(bek, "bek");
            given.add("startup key");
            return this;
        }

        /** A BitLocker startup key, the {@code .BEK} file's content (copied). */
        public Builder startupKey(byte[] bek) {
            if (startupKeyBytes != null) {
                Arrays.fill(startupKeyBytes, (byte) 0);
            }
            startupKeyBytes = bek.clone();
            given.add("startup key");
            return this;
        }

        /** The volume key itself, instead of a secret that unlocks it (LUKS, BitLocker's FVEK, FileVault 2) (copied). */
        public Builder volumeKey(byte[] key) {
            if (volumeKey != null) {
                Arrays.fill(volumeKey, (byte) 0);
            }
            volumeKey = key.clone();
            given.add("volume key");
            return this;
        }

        /** A detached header: LUKS's header file, or a TrueCrypt/VeraCrypt header backup file. */
        public Builder header(Path header) {
            this.header = Objects.requireNonNull(header, "header");
            given.add("header");
            return this;
        }

        /** TrueCrypt/VeraCrypt: the hidden volume's header. */
        public Builder hidden() {
            hidden = true;
            given.add("hidden");
            return this;
        }

        /** TrueCrypt/VeraCrypt: system encryption's header (the image is the whole disk or its partition). */
        public Builder system() {
            system = true;
            given.add("system");
            return this;
        }

        /** Opens the payload for writing: LUKS and TrueCrypt/VeraCrypt (XTS and LRW chains). */
        public Builder readWrite() {
            readWrite = true;
            given.add("read-write");
            return this;
        }

        /** Where the key derivation's parallel work runs (Argon2's lanes, TrueCrypt's trials); default: threads of the call's own. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            given.add("executor");
            return this;
        }

        /** The VectorJCE provider the payload's ciphers come from (default: {@link Volumes#defaultProvider()}). */
        public Builder provider(VectorJceProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /**
         * Detects the format (unless {@link #type} named it), then opens the volume with the secrets
         * given. Wipes this builder's copies of the secrets, whatever the outcome.
         *
         * @return the open volume; {@link Volume#info()} tells its format
         * @throws UnsupportedVolumeException when the image shows no signature and no type was named,
         *     when the format does not take an option given (the message names both), or when the
         *     LUKS version named is not the header's (checked before anything is unlocked)
         * @throws VolumeException when the secret is wrong or the header is corrupt (its subclasses)
         * @throws IOException when the image, a key file or the header cannot be read
         */
        public Volume open() throws IOException, VolumeException {
            try {
                VolumeFormat f = type != null ? type : detected();
                return switch (f) {
                    case LUKS1, LUKS2 -> luks(f);
                    case TCRYPT -> tcrypt();
                    case BITLK -> bitlk();
                    case FVAULT2 -> fvault2();
                };
            } finally {
                wipe();
                if (recoveryPassword != null) {
                    Arrays.fill(recoveryPassword, '\0');
                }
                if (volumeKey != null) {
                    Arrays.fill(volumeKey, (byte) 0);
                }
                if (startupKeyBytes != null) {
                    Arrays.fill(startupKeyBytes, (byte) 0);
                }
            }
        }

        private String name() {
            return imagePath != null ? imagePath.toString() : "the image";
        }

        private VolumeFormat detected() throws IOException, VolumeException {
            VolumeFormat f;
            if (header != null) {
                f = detect(header); // a detached LUKS header has the signature, not the image
            } else if (imagePath != null) {
                f = detect(imagePath);
            } else {
                f = detect(imageChannel);
            }
            if (f == null) {
                throw new UnsupportedVolumeException("No LUKS, BitLocker or FileVault 2 header in "
                        + (header != null ? header : name()) + "; a TrueCrypt/VeraCrypt volume has no signature:"
                        + " name its type (VolumeFormat.TCRYPT, the command's --type tcrypt)");
            }
            return f;
        }

        /** Refuses every option given that {@code takes} does not list. */
        private void only(VolumeFormat f, String... takes) throws UnsupportedVolumeException {
            List<String> ok = List.of(takes);
            for (String g : given) {
                if (!ok.contains(g)) {
                    throw new UnsupportedVolumeException(
                            "A " + describe(f) + " volume takes no " + g + " (" + name() + ")");
                }
            }
        }

        private static String describe(VolumeFormat f) {
            return switch (f) {
                case LUKS1 -> "LUKS1";
                case LUKS2 -> "LUKS2";
                case TCRYPT -> "TrueCrypt/VeraCrypt";
                case BITLK -> "BitLocker";
                case FVAULT2 -> "FileVault 2";
            };
        }

        private Volume luks(VolumeFormat f) throws IOException, VolumeException {
            only(f, "passphrase", "key file", "volume key", "header", "read-write", "executor");
            if (keyFiles.size() > 1) {
                throw new UnsupportedVolumeException("A LUKS volume takes one key file, not " + keyFiles.size());
            }
            LuksVolume.Builder b = imagePath != null ? LuksVolume.at(imagePath) : LuksVolume.of(imageChannel);
            if (passphraseChars != null) {
                b.passphrase(passphraseChars);
            } else if (passphraseBytes != null) {
                b.passphrase(passphraseBytes);
            }
            if (!keyFiles.isEmpty()) {
                b.keyFile(keyFiles.get(0));
            }
            if (volumeKey != null) {
                b.volumeKey(volumeKey);
            }
            if (header != null) {
                b.header(header);
            }
            if (readWrite) {
                b.readWrite();
            }
            if (executor != null) {
                b.executor(executor);
            }
            if (provider != null) {
                b.provider(provider);
            }
            if (type != null) {
                VolumeFormat is = header != null ? detect(header) : imagePath != null ? detect(imagePath) : detect(imageChannel);
                if ((is == VolumeFormat.LUKS1 || is == VolumeFormat.LUKS2) && is != f) {
                    throw new UnsupportedVolumeException((header != null ? header.toString() : name()) + " is a "
                            + describe(is) + " header, not " + describe(f));
                }
            }
            return b.open();
        }

        private Volume tcrypt() throws IOException, VolumeException {
            only(VolumeFormat.TCRYPT, "passphrase", "key file", "PIM", "header", "hidden", "system", "executor",
                    "read-write");
            TcryptVolume.Builder b = imagePath != null ? TcryptVolume.at(imagePath) : TcryptVolume.of(imageChannel);
            if (passphraseChars != null) {
                b.passphrase(passphraseChars);
            } else if (passphraseBytes != null) {
                b.passphrase(passphraseBytes);
            }
            for (Path k : keyFiles) {
                b.keyFile(k);
            }
            if (pim != null) {
                b.pim(pim);
            }
            if (header != null) {
                b.header(header);
            }
            b.hidden(hidden).system(system);
            if (readWrite) {
                b.readWrite();
            }
            if (executor != null) {
                b.executor(executor);
            }
            if (provider != null) {
                b.provider(provider);
            }
            return b.open();
        }

        private Volume bitlk() throws IOException, VolumeException {
            only(VolumeFormat.BITLK, "passphrase", "recovery password", "startup key", "volume key");
            BitlkVolume.Builder b = imagePath != null ? BitlkVolume.at(imagePath) : BitlkVolume.of(imageChannel);
            if (passphraseChars != null) {
                b.passphrase(passphraseChars);
            } else if (passphraseBytes != null) {
                b.passphrase(passphraseBytes);
            }
            if (recoveryPassword != null) {
                b.recoveryPassword(recoveryPassword);
            }
            if (startupKey != null) {
                b.startupKey(startupKey);
            }
            if (startupKeyBytes != null) {
                b.startupKey(startupKeyBytes);
            }
            if (volumeKey != null) {
                b.volumeKey(volumeKey);
            }
            if (provider != null) {
                b.provider(provider);
            }
            return b.open();
        }

        private Volume fvault2() throws IOException, VolumeException {
            only(VolumeFormat.FVAULT2, "passphrase", "volume key");
            Fvault2Volume.Builder b = imagePath != null ? Fvault2Volume.at(imagePath) : Fvault2Volume.of(imageChannel);
            if (passphraseChars != null) {
                b.passphrase(passphraseChars);
            } else if (passphraseBytes != null) {
                b.passphrase(passphraseBytes);
            }
            if (volumeKey != null) {
                b.volumeKey(volumeKey);
            }
            if (provider != null) {
                b.provider(provider);
            }
            return b.open();
        }
    }
}
