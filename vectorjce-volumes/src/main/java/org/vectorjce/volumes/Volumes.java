package org.vectorjce.volumes;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.Executor;
import org.vectorjce.VectorJceProvider;

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
 * <p>Each format is a {@link VolumeDriver} (probe the header, read its facts, open with the secrets),
 * the drivers one table ({@link #drivers()}) probed in the formats' order, as cryptsetup's
 * {@code crypt_load(type)} and qemu's block-driver table. The builder takes every format's secrets
 * and options into one {@link Secrets}; {@link Builder#open()} hands it to the found format's
 * driver, after refusing the options that format does not take by name
 * ({@link UnsupportedVolumeException}: a PIM for a LUKS volume, a startup key for VeraCrypt).
 * What only one format has (a LUKS key slot, VeraCrypt's hash or cipher hint, ...) is on that
 * format's builder: {@code LuksVolume.at(path)} and so on.
 */
public final class Volumes {
    private Volumes() {
    }

    /** The drivers, loaded once, in the order of their first format. */
    private static final class Table {
        static final List<VolumeDriver> DRIVERS = load();

        private static List<VolumeDriver> load() {
            List<VolumeDriver> l = new ArrayList<>();
            ServiceLoader.load(VolumeDriver.class, Volumes.class.getClassLoader()).forEach(l::add);
            l.sort(Comparator.comparing(d -> Collections.min(d.formats())));
            return List.copyOf(l);
        }
    }

    /**
     * Every format's driver, in the order {@link #detect(Path)} probes them: LUKS, TrueCrypt/VeraCrypt
     * (which has no signature), BitLocker, FileVault 2.
     *
     * @return the drivers (an unmodifiable list)
     */
    public static List<VolumeDriver> drivers() {
        return Table.DRIVERS;
    }

    /**
     * The driver of {@code format}.
     *
     * @param format the format
     * @return its driver
     * @throws IllegalStateException when none is on the class or module path (a jar split apart)
     */
    public static VolumeDriver driver(VolumeFormat format) {
        for (VolumeDriver d : Table.DRIVERS) {
            if (d.formats().contains(format)) {
                return d;
            }
        }
        throw new IllegalStateException("No driver for " + format + " volumes: META-INF/services lists none");
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
            for (VolumeDriver d : Table.DRIVERS) {
                VolumeFormat f = d.probe(c, name);
                if (f != null) {
                    return f;
                }
            }
            return null;
        } finally {
            c.position(pos);
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
        private final Secrets secrets = new Secrets();

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
            secrets.passphrase(passphrase);
            return this;
        }

        /** The passphrase as bytes, as a key file or standard input gives it (copied). */
        public Builder passphrase(byte[] passphrase) {
            secrets.passphrase(passphrase);
            return this;
        }

        /** A key file: LUKS's whole-file passphrase (one), TrueCrypt/VeraCrypt's keyfiles (any number, or folders). */
        public Builder keyFile(Path keyFile) {
            secrets.keyFile(Objects.requireNonNull(keyFile, "keyFile"));
            return this;
        }

        /** VeraCrypt's PIM. */
        public Builder pim(int pim) {
            secrets.pim(pim);
            return this;
        }

        /** A BitLocker recovery password (copied). */
        public Builder recoveryPassword(char[] recoveryPassword) {
            secrets.recoveryPassword(recoveryPassword);
            return this;
        }

        /** A BitLocker startup key, the {@code .BEK} file. */
        public Builder startupKey(Path bek) {
            secrets.startupKey(Objects.requireNonNull(bek, "bek"));
            return this;
        }

        /** A BitLocker startup key, the {@code .BEK} file's content (copied). */
        public Builder startupKey(byte[] bek) {
            secrets.startupKey(bek);
            return this;
        }

        /** The volume key itself, instead of a secret that unlocks it (LUKS, BitLocker's FVEK, FileVault 2) (copied). */
        public Builder volumeKey(byte[] key) {
            secrets.volumeKey(key);
            return this;
        }

        /** A detached header: LUKS's header file, or a TrueCrypt/VeraCrypt header backup file. */
        public Builder header(Path header) {
            secrets.header(Objects.requireNonNull(header, "header"));
            return this;
        }

        /** TrueCrypt/VeraCrypt: the hidden volume's header. */
        public Builder hidden() {
            secrets.setHidden();
            return this;
        }

        /** TrueCrypt/VeraCrypt: system encryption's header (the image is the whole disk or its partition). */
        public Builder system() {
            secrets.setSystem();
            return this;
        }

        /** Opens the payload for writing: LUKS and TrueCrypt/VeraCrypt (XTS and LRW chains). */
        public Builder readWrite() {
            secrets.setReadWrite();
            return this;
        }

        /** Where the key derivation's parallel work runs (Argon2's lanes, TrueCrypt's trials); default: threads of the call's own. */
        public Builder executor(Executor executor) {
            secrets.executor(Objects.requireNonNull(executor, "executor"));
            return this;
        }

        /** The VectorJCE provider the payload's ciphers come from (default: {@link Volumes#defaultProvider()}). */
        public Builder provider(VectorJceProvider provider) {
            secrets.provider(Objects.requireNonNull(provider, "provider"));
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
                VolumeDriver d = driver(f);
                only(f, d.takes(f));
                return d.open(f, imagePath, imageChannel, secrets);
            } finally {
                secrets.wipe();
            }
        }

        private String name() {
            return imagePath != null ? imagePath.toString() : "the image";
        }

        private VolumeFormat detected() throws IOException, VolumeException {
            Path header = secrets.header();
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
        private void only(VolumeFormat f, Set<String> takes) throws UnsupportedVolumeException {
            for (String g : secrets.given()) {
                if (!takes.contains(g)) {
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
    }
}
