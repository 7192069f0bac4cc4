package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalInt;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.internal.ImageSource;
import org.vectorjce.volumes.internal.VolumeLifecycle;

/**
 * A LUKS1 or LUKS2 volume, opened read-only with a passphrase, a key file or the volume key:
 *
 * <pre>{@code
 * try (LuksVolume v = LuksVolume.at(Path.of("disk.img")).passphrase(pw).open()) {
 *     System.out.println(v.info());
 *     SeekableByteChannel plain = v.payload();   // what cryptsetup open would show
 * }
 * }</pre>
 *
 * {@link #at(Path)} / {@link #of(SeekableByteChannel)} return a {@link Builder}: a passphrase
 * ({@code char[]}, encoded as UTF-8, or {@code byte[]}), a key file (its bytes, as cryptsetup reads
 * one) or the volume key; optionally one key slot and a detached header. The builder copies the
 * secrets it is given and wipes its copies when {@link Builder#open()} returns; the caller wipes its
 * own. {@link Builder#info()} reads the header without unlocking anything.
 *
 * <p>The header is parsed and validated whole before anything else (LUKS1 {@link Luks1Header};
 * LUKS2 {@link Luks2Header} and {@link Luks2Metadata}); every offset is checked against the
 * image's size. Images given as paths are opened for reading only and closed by {@link #close()};
 * channels given by the caller stay the caller's. {@link #close()} also wipes the volume key and
 * closes the payload channels. Errors: {@link WrongPassphraseException} when no key slot opens
 * ("no key slot opened with the passphrase given"), {@link CorruptHeaderException} naming the
 * field, {@link org.vectorjce.volumes.UnsupportedVolumeException} naming the feature.
 */
public final class LuksVolume extends VolumeLifecycle implements Volume {
    /** cryptsetup's default largest key file ({@code --keyfile-size} unset): 8 MiB. */
    public static final int MAX_KEY_FILE = 8 << 20;

    private final Image header, data;
    private Layout layout;
    private final byte[] volumeKey;
    private final int keySlot;
    private final Settings settings;

    private LuksVolume(ImageSource.Images images, Image header, Image data, Layout layout, byte[] volumeKey,
            int keySlot, Settings settings) {
        super(images);
        this.settings = settings;
        this.header = header;
        this.data = data;
        this.layout = layout;
        this.volumeKey = volumeKey;
        this.keySlot = keySlot;
    }

    /** A builder for the volume in the file {@code image}. */
    public static Builder at(Path image) {
        return new Builder(ImageSource.at(image));
    }

    /** A builder for the volume in {@code image} (read only; left open by {@link #close()}). */
    public static Builder of(SeekableByteChannel image) {
        return new Builder(ImageSource.of(image));
    }

    /** Whether the payload refuses writes: unless the images were opened for writing ({@link Builder#readWrite()}). */
    @Override
    public boolean readOnly() {
        return !isWritable();
    }

    /** The payload's sector size in bytes. */
    @Override
    public int sectorSize() {
        return layout.sectorSize();
    }

    /** The data image's {@code force(true)} when it was opened for writing; nothing otherwise. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (imagesWritable()) {
            data.force();
        }
    }

    /** Whether the images were opened for writing ({@link Builder#readWrite()}). */
    public boolean isWritable() {
        return imagesWritable();
    }

    /** The header's information. */
    @Override
    public LuksInfo info() {
        return layout.info();
    }

    /** The key slot that opened the volume, or empty when it was opened with the volume key. */
    public OptionalInt keySlot() {
        return keySlot < 0 ? OptionalInt.empty() : OptionalInt.of(keySlot);
    }

    /** A copy of the volume key (the caller wipes it). */
    @Override
    public byte[] volumeKey() {
        ensureOpen();
        return volumeKey.clone();
    }

    /** The payload's size in bytes. */
    @Override
    public long payloadSize() {
        return layout.payloadSize();
    }

    /**
     * A new channel over the plaintext payload, at position 0: what {@code cryptsetup open} shows.
     * Read-only ({@code write} and {@code truncate} throw {@link java.nio.channels.NonWritableChannelException})
     * unless the volume was opened with {@link Builder#readWrite()} (or {@link #of} a writable
     * channel with it): then writes at any position and length inside the payload are encrypted
     * in place, a sector only partly written keeping its other bytes; a write reaching past the
     * payload's end throws an {@code IOException} naming its size and writes nothing; the payload
     * never grows, and {@code truncate} throws an {@code IOException}. Each call returns a channel
     * of its own (its own cipher: one per thread); all are closed with the volume.
     */
    @Override
    public SeekableByteChannel payload() throws IOException, VolumeException {
        return handOut(plaintext());
    }

    /**
     * The plaintext payload as a positional device, read and written at offsets by many threads at
     * once (the provider's {@code SectorChannel}'s positional calls); writable as {@link #payload()}.
     */
    @Override
    public org.vectorjce.device.Device device() throws IOException, VolumeException {
        return handOutDevice(plaintext(), readOnly(), this::flush, info().format().typeName());
    }

    private org.vectorjce.SectorChannel plaintext() throws IOException, VolumeException {
        ensureOpen();
        return layout.payloadCipher(settings.provider()).payload(data.channel, volumeKey,
                layout.payloadOffset(), layout.payloadSize(), layout.sectorSize(), layout.ivOffset(), imagesWritable());
    }

    /**
     * Adds a key slot holding this volume's key under {@code newPassphrase} (cryptsetup's
     * {@code luksAddKey}), in {@code options}' key slot or the first free one, and returns its
     * number. The volume must be open for writing ({@link Builder#readWrite()}) with a passphrase,
     * key file or the volume key. Crash-safe: the key material is written and forced before the
     * header names it ({@link KeySlotWriter}); the header is read again and validated first.
     * The caller wipes {@code newPassphrase}.
     */
    public int addKeySlot(byte[] newPassphrase, KeySlotOptions options) throws IOException, VolumeException {
        ensureWritable();
        int slot = layout.addKeySlot(volumeKey, newPassphrase, options, settings);
        layout = layout(header, data);
        return slot;
    }

    /**
     * {@link #addKeySlot(byte[], KeySlotOptions)} with the passphrase's UTF-8 bytes (wiped here; the
     * caller wipes its array), as {@link Builder#passphrase(char[])} reads one.
     */
    public int addKeySlot(char[] newPassphrase, KeySlotOptions options) throws IOException, VolumeException {
        byte[] p = utf8(newPassphrase);
        try {
            return addKeySlot(p, options);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }

    /**
     * Removes key slot {@code slot} (cryptsetup's {@code luksKillSlot}; {@code luksRemoveKey} is
     * this with {@link #keySlot()}): the header stops naming it first, then its key material is
     * overwritten with random bytes. Removing the last key slot is allowed here (the caller asks);
     * the volume then opens only with its volume key.
     */
    public void removeKeySlot(int slot) throws IOException, VolumeException {
        ensureWritable();
        layout.removeKeySlot(slot, new java.security.SecureRandom());
        layout = layout(header, data);
    }

    /**
     * Replaces key slot {@code slot}'s passphrase by {@code newPassphrase} (cryptsetup's
     * {@code luksChangeKey}) and returns the slot that now holds it: LUKS2 keeps the slot's number
     * (new key material in a free stretch of the keyslots area, one metadata update, then the old
     * area wiped); LUKS1 moves it to a free slot ({@code options}' key slot or the first) and then
     * removes the old one. Refused when there is no room for the new key material beside the old.
     */
    public int changeKeySlot(int slot, byte[] newPassphrase, KeySlotOptions options)
            throws IOException, VolumeException {
        ensureWritable();
        int s = layout.changeKeySlot(slot, volumeKey, newPassphrase, options, settings);
        layout = layout(header, data);
        return s;
    }

    /**
     * {@link #changeKeySlot(int, byte[], KeySlotOptions)} with the passphrase's UTF-8 bytes (wiped
     * here; the caller wipes its array).
     */
    public int changeKeySlot(int slot, char[] newPassphrase, KeySlotOptions options)
            throws IOException, VolumeException {
        byte[] p = utf8(newPassphrase);
        try {
            return changeKeySlot(slot, p, options);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }

    /** {@code passphrase} as UTF-8 bytes in a new array (the encoder's own buffer wiped): the one rule for secrets given as text. */
    static byte[] utf8(char[] passphrase) {
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(passphrase));
        byte[] p = new byte[b.remaining()];
        b.get(p);
        if (b.hasArray()) {
            Arrays.fill(b.array(), (byte) 0);
        }
        return p;
    }

    private void ensureWritable() throws VolumeException {
        ensureOpen();
        if (!imagesWritable()) {
            throw new VolumeException("The volume was opened for reading only (LuksVolume.Builder.readWrite())");
        }
    }

    /** The volume key, wiped by the first {@code close()}. */
    @Override
    protected void wipe() {
        Arrays.fill(volumeKey, (byte) 0);
    }

    @Override
    public String toString() {
        return "LuksVolume[LUKS" + layout.info().version() + ", " + layout.info().cipher() + ", "
                + layout.info().keyBits() + "-bit key" + (isClosed() ? ", closed" : "") + "]";
    }

    /** Reads and validates the header of {@code header} (data in {@code data}). */
    static Layout layout(Image header, Image data) throws IOException, VolumeException {
        byte[] first = header.size >= 8 ? header.read("LUKS magic", 0, 8) : new byte[0];
        if (Luks1Header.isLuks(first, 1)) {
            return new Luks1Layout(Luks1Header.read(header, data), header, data);
        }
        if (first.length == 8 && Arrays.equals(first, 0, 6, Luks1Header.MAGIC, 0, 6) && !Luks2Header.isLuks2(first)) {
            throw new org.vectorjce.volumes.UnsupportedVolumeException("LUKS version " + ((first[6] & 0xff) << 8
                    | (first[7] & 0xff)) + " is not supported (1 or 2)");
        }
        if (Luks2Header.isLuks2(first) || header.size >= 16384) {
            // A primary with a bad magic may still have a good secondary: LUKS2 looks for it.
            Luks2Header h;
            try {
                h = Luks2Header.read(header);
            } catch (CorruptHeaderException e) {
                if (!Luks2Header.isLuks2(first)) {
                    throw new CorruptHeaderException(header.name + " is not a LUKS volume (no LUKS magic)");
                }
                throw e;
            }
            Luks2Metadata m;
            try {
                m = Luks2Metadata.parse(h, header.size, data.size, header != data);
            } catch (CorruptHeaderException e) {
                if (h.other == null) {
                    throw e;
                }
                Luks2Header o = h.other;
                try {
                    m = Luks2Metadata.parse(o, header.size, data.size, header != data);
                } catch (CorruptHeaderException | org.vectorjce.volumes.UnsupportedVolumeException ignored) {
                    throw e;
                }
                h = o.withWarning("The " + h.which() + " LUKS2 header's metadata is invalid (" + e.getMessage()
                        + "): using the " + o.which() + " header");
            }
            return new Luks2Layout(h, m, header, data);
        }
        throw new CorruptHeaderException(header.name + " is not a LUKS volume (no LUKS magic)");
    }

    /** How to open a volume: the secret, the key slot, a detached header. */
    public static final class Builder {
        private final ImageSource source;
        private byte[] passphrase;
        private byte[] volumeKey;
        private Integer keySlot;
        private boolean readWrite;
        private java.util.concurrent.Executor executor;
        private Argon2Compression argon2 =
                Argon2Compression.DEFAULT;

        private Builder(ImageSource source) {
            this.source = source;
        }

        /** The passphrase, encoded as UTF-8 (copied; wiped by {@link #open()}). */
        public Builder passphrase(char[] passphrase) {
            return setPassphrase(utf8(passphrase));
        }

        /** The passphrase as bytes (copied; wiped by {@link #open()}). */
        public Builder passphrase(byte[] passphrase) {
            return setPassphrase(passphrase.clone());
        }

        /** The whole content of {@code keyFile} as the passphrase, as cryptsetup's {@code --key-file}. */
        public Builder keyFile(Path keyFile) throws IOException {
            long size = Files.size(keyFile);
            if (size > MAX_KEY_FILE) {
                throw new IOException("Key file " + keyFile + " is " + size + " bytes: larger than " + MAX_KEY_FILE);
            }
            try (InputStream in = Files.newInputStream(keyFile)) {
                byte[] k = in.readNBytes(MAX_KEY_FILE + 1);
                if (k.length > MAX_KEY_FILE) {
                    Arrays.fill(k, (byte) 0);
                    throw new IOException("Key file " + keyFile + " is larger than " + MAX_KEY_FILE + " bytes");
                }
                return setPassphrase(k);
            }
        }

        /** The volume key itself (checked against the header's digest; copied). */
        public Builder volumeKey(byte[] key) {
            if (volumeKey != null) {
                Arrays.fill(volumeKey, (byte) 0);
            }
            volumeKey = key.clone();
            return this;
        }

        /** Try only key slot {@code slot} (cryptsetup's {@code --key-slot}). */
        public Builder keySlot(int slot) {
            keySlot = slot;
            return this;
        }

        /** The header is in {@code header}, not at the start of the image (cryptsetup's {@code --header}). */
        public Builder header(Path header) {
            source.header(header);
            return this;
        }

        /** The header is in {@code header} (read only; left open). */
        public Builder header(SeekableByteChannel header) {
            source.header(header);
            return this;
        }

        /**
         * Opens the image (and a detached header given as a path) for reading and writing, for a
         * writable payload or key-slot changes. Without it, paths are opened for reading only.
         * Channels given by the caller are used as they are.
         */
        public Builder readWrite() {
            readWrite = true;
            return this;
        }

        /**
         * The provider of the payload's and the key slots' ciphers, whose settings (kernels, the
         * constant-time policy) they follow (default: {@link org.vectorjce.volumes.Volumes#defaultProvider()}).
         */
        public Builder provider(VectorJceProvider provider) {
            source.provider(provider);
            return this;
        }

        /**
         * Runs Argon2's helper lanes (a LUKS2 argon2 key slot with more than one lane, on more than
         * one processor) on {@code executor} instead of threads started for each derivation and
         * ended before it returns (null: those threads again). The caller's thread works beside
         * them, so a busy executor slows the derivation but never stalls it.
         */
        public Builder executor(java.util.concurrent.Executor executor) {
            this.executor = executor;
            return this;
        }

        /** Which Argon2 compression the key slots run (default {@link Argon2Compression#DEFAULT}). */
        public Builder argon2Compression(Argon2Compression c) {
            this.argon2 = Objects.requireNonNull(c, "compression");
            return this;
        }

        private Builder setPassphrase(byte[] p) {
            if (passphrase != null) {
                Arrays.fill(passphrase, (byte) 0);
            }
            passphrase = p;
            return this;
        }

        /** The detached header's image, or {@code data} itself: the layout checks tell the two cases apart by identity. */
        private static Image headerImage(ImageSource.Images o, Image data) throws IOException {
            return o.header() == o.data() ? data : new Image(o.header(), o.headerName());
        }

        /** The header's information, without unlocking (no secret needed). */
        public LuksInfo info() throws IOException, VolumeException {
            try (ImageSource.Images o = source.open(false)) { // never for writing
                Image data = new Image(o.data(), o.dataName());
                return layout(headerImage(o, data), data).info();
            }
        }

        /**
         * Opens the volume: with the volume key when one was given, else by trying the key slots
         * (only {@link #keySlot} if set) with the passphrase or key file. Wipes the builder's copies
         * of the secrets, whatever the outcome.
         */
        public LuksVolume open() throws IOException, VolumeException {
            Settings settings = Settings.of(source.provider(), executor, argon2);
            return source.open(readWrite, o -> {
                Image data = new Image(o.data(), o.dataName()), header = headerImage(o, data);
                Layout layout = layout(header, data);
                layout.payloadCipher(settings.provider()); // refuses an unsupported cipher before any KDF runs
                int slot = -1;
                byte[] vk;
                if (volumeKey != null) {
                    if (!layout.isVolumeKey(volumeKey)) {
                        throw new WrongPassphraseException("The volume key given does not match the volume's digest");
                    }
                    vk = volumeKey.clone();
                } else {
                    if (passphrase == null) {
                        throw new VolumeException("No passphrase, key file or volume key given");
                    }
                    vk = null;
                    for (int s : layout.slotsToTry(keySlot)) {
                        vk = layout.unlock(s, passphrase, settings);
                        if (vk != null) {
                            slot = s;
                            break;
                        }
                    }
                    if (vk == null) {
                        throw new WrongPassphraseException("No key slot opened with the passphrase given");
                    }
                }
                return new LuksVolume(o, header, data, layout, vk, slot, settings);
            }, this::wipe);
        }

        private void wipe() {
            if (passphrase != null) {
                Arrays.fill(passphrase, (byte) 0);
                passphrase = null;
            }
            if (volumeKey != null) {
                Arrays.fill(volumeKey, (byte) 0);
                volumeKey = null;
            }
        }
    }
}
