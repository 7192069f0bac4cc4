package org.vectorjce.volumes.tcrypt;


import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.internal.ImageIo;
import org.vectorjce.volumes.internal.ImageSource;
import org.vectorjce.volumes.internal.VolumeLifecycle;

/**
 * A TrueCrypt or VeraCrypt volume: cryptsetup's {@code --type tcrypt} ({@code tcryptDump},
 * {@code tcryptOpen}) in Java, read-only unless opened with {@link Builder#readWrite()}.
 *
 * <pre>
 * try (TcryptVolume v = TcryptVolume.at(image).passphrase(pw).keyFile(kf).pim(485).open()) {
 *     TcryptInfo info = v.info();
 *     SeekableByteChannel plain = v.payload();
 * }
 * </pre>
 *
 * <p>The header is found where the format puts it — at byte 0 (or its backup 128 KiB before the
 * end), a hidden volume's at 64 KiB (TrueCrypt before 6: 1536 bytes before the end; its backup 64
 * KiB before the end), a system drive's in sector 62 — and opened by trying every KDF row and
 * cipher chain of cryptsetup's tables ({@link Kdf}, {@link Chain}) that the hints allow, on all
 * cores ({@link HeaderSearch}): on the caller's thread and helper threads started for
 * {@link Builder#open()} and ended before it returns, or on the caller's
 * {@link Builder#executor(Executor) executor}. Nothing else runs in the background. The passphrase and the keyfiles make the password as TrueCrypt
 * does ({@link KeyfilePool}). Every chain of cryptsetup's table is read: AES, Twofish, Serpent and
 * their cascades, in XTS or (TrueCrypt 4.x) LRW, on the provider's kernels (the one given to
 * {@link Builder#provider(VectorJceProvider)}, else a {@code VectorJceProvider} of its own); VeraCrypt's
 * Camellia and Kuznyechik and their cascades with Bouncy Castle's engines under an XTS of this
 * module's; and TrueCrypt before 4.0, CBC with its sector IV and whitening ({@link LegacyCbc}:
 * AES, Twofish, Serpent, their outer-CBC cascades, Blowfish, CAST5, Triple DES and the Blowfish
 * cascades).
 *
 * <p>Errors: {@link WrongPassphraseException} when nothing opens ("no header opened with the
 * password, keyfiles and PIM given"; a wrong password, PIM, hint or keyfile cannot be told apart),
 * {@link UnsupportedVolumeException} for a {@code -h} or {@code -c} hint that names no row or chain (or a
 * provider without the sector API, key material too short for its chain),
 * {@link CorruptHeaderException} for an image too small for its header or a header whose payload
 * lies outside the image, {@code IOException} for the image itself. The header is never written;
 * the payload is written only through the channels of a volume opened with
 * {@link Builder#readWrite()} (XTS and LRW chains).
 * The passphrase, pool, derived keys and volume keys are wiped after use or on {@link #close()}.
 */
public final class TcryptVolume extends VolumeLifecycle implements Volume {
    /** Bytes of a keyfile that count (TrueCrypt and cryptsetup read the first 1 MiB). */
    public static final int KEYFILE_MAX = 1 << 20;
    static final long HIDDEN_OFFSET = 65536, HIDDEN_OFFSET_OLD = -1536, HIDDEN_OFFSET_BACKUP = -65536,
            BACKUP_OFFSET = -131072, SYSTEM_OFFSET = 31744;

    private final TcryptInfo info;
    private final Chain chain;
    private final byte[] keyArea;
    private final VectorJceProvider provider;
    private final boolean writable;

    private TcryptVolume(ImageSource.Images images, TcryptInfo info, Chain chain, byte[] keyArea,
            VectorJceProvider provider, boolean writable) {
        super(images);
        this.provider = provider;
        this.writable = writable;
        this.info = info;
        this.chain = chain;
        this.keyArea = keyArea;
    }

    /** A builder for the image file {@code image}, opened read-only. */
    public static Builder at(Path image) {
        return new Builder(ImageSource.at(image));
    }

    /** A builder for an image the caller keeps open (and closes). */
    public static Builder of(SeekableByteChannel image) {
        return new Builder(ImageSource.of(image));
    }

    /** The header's fields, the row and chain that opened it, and the payload's place. */
    @Override
    public TcryptInfo info() {
        return info;
    }

    /** A copy of the volume key as {@code tcryptDump --dump-volume-key} prints it; the caller wipes it. */
    @Override
    public byte[] volumeKey() {
        ensureOpen();
        return chain.volumeKey(keyArea);
    }

    /** The plaintext's size in bytes. */
    @Override
    public long payloadSize() {
        return info.payloadSize();
    }

    /** Whether the payload refuses writes: unless the volume was opened with {@link Builder#readWrite()}. */
    @Override
    public boolean readOnly() {
        return !writable;
    }

    /** Forces the image's writes to storage ({@code force(true)}) when it is a file opened for writing. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (writable && image instanceof FileChannel fc) {
            fc.force(true);
        }
    }

    /**
     * A new channel over the plaintext payload, from position 0, writable when the volume was
     * opened with {@link Builder#readWrite()}; each channel is independent (one per reader or
     * thread). Closing the volume closes them.
     *
     * @throws UnsupportedVolumeException for a writable payload of a pre-4.0 CBC volume
     */
    @Override
    public SeekableByteChannel payload() throws UnsupportedVolumeException {
        return handOut(plaintext());
    }

    /**
     * The plaintext payload as a positional device, read (and written, as {@link #payload()}) at
     * offsets by many threads at once.
     *
     * @throws UnsupportedVolumeException as {@link #payload()}
     * @throws IOException when the image cannot be read
     */
    @Override
    public org.vectorjce.device.Device device() throws IOException, UnsupportedVolumeException {
        return handOutDevice(plaintext(), readOnly(), this::flush, info().format().typeName());
    }

    private org.vectorjce.SectorChannel plaintext() throws UnsupportedVolumeException {
        ensureOpen();
        return new TcryptSectors(image, chain, keyArea, info.payloadOffset(), info.payloadSize(), info.ivOffset(),
                provider, writable).channel();
    }

    /** The keys, wiped by the first {@code close()}. */
    @Override
    protected void wipe() {
        Arrays.fill(keyArea, (byte) 0);
    }

    @Override
    public String toString() {
        return "TcryptVolume[" + info.chain() + "-" + info.mode() + ", " + info.headerKind() + "]";
    }

    /** How to open a volume: the secrets, where the header is, hints. Not thread-safe; single use. */
    public static final class Builder {
        private final ImageSource source;
        private byte[] passphrase = new byte[0];
        private final KeyfilePool keyfiles = new KeyfilePool();
        private int pim;
        private boolean hidden, system, backup, readWrite, veracrypt = true;
        private String hash, cipher;
        private int threads = Runtime.getRuntime().availableProcessors();
        private Executor executor;
        private Argon2Compression argon2 = Argon2Compression.DEFAULT;

        private Builder(ImageSource source) {
            this.source = source;
            source.headerReadOnly(); // never written
        }

        /** The password, as UTF-8 (VeraCrypt's encoding); the array is the caller's to wipe. */
        public Builder passphrase(char[] p) {
            ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(p));
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            if (b.hasArray()) {
                Arrays.fill(b.array(), (byte) 0);
            }
            Arrays.fill(passphrase, (byte) 0);
            passphrase = bytes;
            return this;
        }

        /** The password's bytes (copied). */
        public Builder passphrase(byte[] p) {
            Arrays.fill(passphrase, (byte) 0);
            passphrase = p.clone();
            return this;
        }

        /**
         * Adds a keyfile, or every keyfile of a folder (repeatable; the order does not matter to the
         * pool's sums); the first 1 MiB of each counts. A folder is used as VeraCrypt uses one
         * ({@code Keyfile::ApplyListToPassword}): its regular files (links followed), not its
         * subfolders nor the files whose names start with {@code .}.
         *
         * @throws VolumeException when {@code f} is a folder without such a file
         */
        public Builder keyFile(Path f) throws IOException, VolumeException {
            if (Files.isDirectory(f)) {
                List<Path> files = KeyfilePool.folder(f);
                if (files.isEmpty()) {
                    throw new VolumeException("The keyfile folder " + f + " holds no keyfile (VeraCrypt uses its"
                            + " regular files whose names do not start with '.')");
                }
                for (Path p : files) {
                    addKeyfile(p);
                }
            } else {
                addKeyfile(f);
            }
            return this;
        }

        private void addKeyfile(Path f) throws IOException {
            byte[] k = null;
            try (InputStream in = Files.newInputStream(f)) {
                k = in.readNBytes(KEYFILE_MAX);
                keyfiles.add(k);
            } finally {
                if (k != null) {
                    Arrays.fill(k, (byte) 0);
                }
            }
        }

        /** VeraCrypt's PIM (1 and up; 0 means none): only VeraCrypt rows are then tried, at the PIM's cost. */
        public Builder pim(int pim) {
            if (pim < 0) {
                throw new IllegalArgumentException("PIM " + pim + ": must be positive (0: none)");
            }
            this.pim = pim;
            return this;
        }

        /**
         * Opens the image for writing, so that the payload takes writes (XTS and LRW chains; the
         * header is never written). As with VeraCrypt without hidden-volume protection, writing
         * the outer volume can overwrite a hidden volume inside it.
         */
        public Builder readWrite() {
            readWrite = true;
            return this;
        }

        /** Opens the hidden volume's header ({@code --tcrypt-hidden}). */
        public Builder hidden(boolean h) {
            hidden = h;
            return this;
        }

        /** Opens a system-encryption header in sector 62 of a drive image ({@code --tcrypt-system}). */
        public Builder system(boolean s) {
            system = s;
            return this;
        }

        /** Opens the backup header instead ({@code --tcrypt-backup}). */
        public Builder backupHeader(boolean b) {
            backup = b;
            return this;
        }

        /** Whether VeraCrypt headers are tried too (default yes; cryptsetup's {@code --disable-veracrypt}). */
        public Builder veracrypt(boolean v) {
            veracrypt = v;
            return this;
        }

        /** Tries only KDF rows whose hash name contains {@code h} ({@code -h}; e.g. sha512, argon2id). */
        public Builder hash(String h) {
            hash = h == null ? null : h.toLowerCase(Locale.ROOT);
            return this;
        }

        /** Tries only chains whose name contains {@code c} ({@code -c}; e.g. aes, twofish-aes). */
        public Builder cipher(String c) {
            cipher = c == null ? null : c.toLowerCase(Locale.ROOT);
            return this;
        }

        /** Reads the header from another file ({@code --header}). */
        public Builder header(Path h) {
            source.header(h);
            return this;
        }

        /** Reads the header from a channel the caller keeps open. */
        public Builder header(SeekableByteChannel h) {
            source.header(h);
            return this;
        }

        /** Trial threads (default: the processor count). */
        public Builder threads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("threads " + n);
            }
            threads = n;
            return this;
        }

        /**
         * Runs the trials' helpers on {@code executor} instead of threads started for {@link #open()}
         * (null: those threads again). The caller's thread works beside them, so a busy executor
         * slows the search but never stalls it; no task of the search runs after {@code open} returns.
         */
        public Builder executor(Executor executor) {
            this.executor = executor;
            return this;
        }

        /**
         * The provider of the AES, Twofish and Serpent ciphers, for the header trials and the
         * payload, whose settings they follow (default: {@link org.vectorjce.volumes.Volumes#defaultProvider()}).
         */
        public Builder provider(VectorJceProvider provider) {
            source.provider(provider);
            return this;
        }

        /** Which Argon2 compression VeraCrypt's Argon2id rows run (default {@link Argon2Compression#DEFAULT}). */
        public Builder argon2Compression(Argon2Compression c) {
            this.argon2 = Objects.requireNonNull(c, "compression");
            return this;
        }

        /** Opens the volume; the secrets given are wiped from this builder whatever happens. */
        public TcryptVolume open() throws IOException, VolumeException {
            return source.open(readWrite, images -> {
                try {
                    return open(images);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new VolumeException("Interrupted while trying the headers");
                } finally {
                    images.closeHeader(); // read while unlocking only
                }
            }, () -> {
                Arrays.fill(passphrase, (byte) 0);
                keyfiles.wipe();
            });
        }

        private String name() {
            return source.name();
        }

        private TcryptVolume open(ImageSource.Images images) throws IOException, VolumeException, InterruptedException {
            SeekableByteChannel img = images.data(), hdr = images.header();
            List<Kdf> kdfs = Kdf.select(hash, veracrypt, pim, system);
            if (kdfs.isEmpty()) {
                throw new UnsupportedVolumeException("--hash " + hash + " names no TrueCrypt/VeraCrypt PRF"
                        + (pim > 0 ? " with a PIM" : "") + " (" + Kdf.ROWS.stream().map(Kdf::hashName).distinct()
                        .collect(Collectors.joining(", ")) + ")");
            }
            List<Chain> chains = Chain.ROWS.stream().filter(c -> c.matches(cipher)).toList();
            if (chains.isEmpty()) {
                throw new UnsupportedVolumeException("--cipher " + cipher + " names no TrueCrypt/VeraCrypt cipher chain ("
                        + Chain.ROWS.stream().map(Chain::name).distinct().collect(Collectors.joining(", ")) + ")");
            }
            int max = veracrypt && passphrase.length > KeyfilePool.TC_POOL ? KeyfilePool.VC_POOL : KeyfilePool.TC_POOL;
            if (passphrase.length > max) {
                throw new VolumeException("The passphrase is " + passphrase.length + " bytes: more than "
                        + (veracrypt ? "VeraCrypt's " : "TrueCrypt's ") + max);
            }
            long hsize = hdr.size();
            List<long[]> where = new ArrayList<>(); // {offset, kind}
            if (system) {
                where.add(new long[] {SYSTEM_OFFSET, 4});
            } else if (hidden) {
                if (backup) {
                    where.add(new long[] {hsize + HIDDEN_OFFSET_BACKUP, 3});
                } else {
                    where.add(new long[] {HIDDEN_OFFSET, 2});
                    where.add(new long[] {hsize + HIDDEN_OFFSET_OLD, 2});
                }
            } else {
                where.add(new long[] {backup ? hsize + BACKUP_OFFSET : 0, backup ? 1 : 0});
            }
            byte[] pw = keyfiles.password(passphrase, max);
            boolean tried = false;
            List<Long> zeros = new ArrayList<>();
            try {
                if (where.stream().noneMatch(w -> w[0] >= 0 && w[0] <= hsize - 512)) {
                    throw new CorruptHeaderException("The " + hsize + "-byte image " + name() + " is too small for a "
                            + KINDS[(int) where.get(0)[1]] + " TrueCrypt/VeraCrypt header at byte " + where.get(0)[0]);
                }
                for (int i = 0; i < where.size(); i++) {
                    long at = where.get(i)[0];
                    if (at < 0 || at > hsize - 512) {
                        continue; // TrueCrypt before 6 put a hidden header 1536 bytes before the end instead
                    }
                    byte[] sector = new byte[512];
                    ImageIo.readFully(hdr, at, ByteBuffer.wrap(sector));
                    if (allZero(sector)) {
                        zeros.add(at); // a header is never all zeros (its salt is random)
                        continue;
                    }
                    tried = true;
                    HeaderSearch.Match m = HeaderSearch.search(sector, pw, kdfs, pim, chains, veracrypt, threads,
                            source.provider(), executor, argon2);
                    if (m != null) {
                        return opened(images, hdr != img, m, at, KINDS[(int) where.get(i)[1]]);
                    }
                }
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
            if (!tried) {
                throw new CorruptHeaderException("No TrueCrypt/VeraCrypt header in " + name() + ": the sector at byte "
                        + zeros.stream().map(String::valueOf).collect(Collectors.joining(" and at byte ")) + " is all zeros");
            }
            throw new WrongPassphraseException("no header opened with the password, keyfiles and PIM given");
        }

        private static final String[] KINDS = {"normal", "backup", "hidden", "hidden backup", "system"};

        private TcryptVolume opened(ImageSource.Images images, boolean separateHeader, HeaderSearch.Match m, long at,
                String kind)
                throws IOException, VolumeException {
            TcryptHeader h = m.header();
            try {
                Chain c = m.chain();
                if (h.sectorSize < 512 || h.sectorSize > 4096 || Integer.bitCount(h.sectorSize) != 1) {
                    throw new CorruptHeaderException("Sector size " + Integer.toUnsignedString(h.sectorSize)
                            + " in the " + kind + " header: not a power of two from 512 to 4096");
                }
                long isize = images.data().size();
                long offset, size, iv;
                boolean xts = c.mode() == Chain.Mode.XTS;
                if (system && separateHeader) {
                    // The header from the drive (--header), the image a copy of the encrypted
                    // partition: the header's data offset is the partition's place on the drive, so
                    // the image starts there and its data units count from it (cryptsetup's "one
                    // partition image, header is the original partition").
                    offset = 0;
                    size = h.volumeSize;
                } else if (system) {
                    // A whole drive image: the header's data offset and size are the encrypted area's
                    // place on the drive, and the data units count from the drive's start (cryptsetup
                    // maps "the whole encrypted area" when it knows no partition).
                    offset = h.dataOffset;
                    size = h.volumeSize;
                } else if (hidden) {
                    offset = xts && h.version > 3 ? h.dataOffset
                            : isize - h.hiddenVolumeSize + HIDDEN_OFFSET_OLD;
                    size = h.hiddenVolumeSize;
                } else {
                    offset = xts && h.version < 3 ? 512 : h.dataOffset;
                    size = h.volumeSize;
                }
                if (size == 0 && !hidden) {
                    size = isize - offset; // TrueCrypt 4 headers leave the size 0: the rest of the image
                }
                // TCRYPT_get_iv_offset: XTS counts from the data's start, LRW from 0, the CBC of
                // TrueCrypt before 4.0 from the header's data offset (the sectors of the image)
                iv = c.mode().legacy() ? h.dataOffset / 512 : !xts ? 0 : system ? h.dataOffset / 512 : offset / 512;
                if (offset % 512 != 0 || size % 512 != 0 || size <= 0) {
                    throw new CorruptHeaderException("The " + kind + " header's payload (offset " + offset + ", "
                            + size + " bytes) is not a whole number of 512-byte sectors");
                }
                if (offset < 0 || offset > isize || size > isize - offset) {
                    throw new CorruptHeaderException("The " + kind + " header's payload (offset "
                            + Long.toUnsignedString(offset) + ", " + Long.toUnsignedString(size) + " bytes) lies outside the "
                            + isize + "-byte image " + name());
                }
                Kdf k = m.kdf();
                TcryptInfo info = new TcryptInfo(h.veracrypt, kind, at, h.version, h.requiredVersion, h.flags,
                        h.sectorSize, h.dataOffset, h.volumeSize, h.hiddenVolumeSize, k.name(), k.hashName(),
                        k.argon2() ? m.argon2Cost()[0] : m.iterations(), k.argon2() ? m.argon2Cost()[1] : 0,
                        c.name(), c.mode().cryptsetupName, c.keySize() * 8, offset, size, iv);
                if (readWrite && c.mode().legacy()) {
                    throw new UnsupportedVolumeException(c.name() + "-" + c.mode().cryptsetupName
                            + ": TrueCrypt's pre-4.0 CBC volumes are read-only here");
                }
                return new TcryptVolume(images, info, c, h.keys.clone(), source.provider(), readWrite);
            } finally {
                h.wipe(); // the volume holds its own copy of the key area
            }
        }

        private static boolean allZero(byte[] b) {
            int acc = 0;
            for (byte x : b) {
                acc |= x;
            }
            return acc == 0;
        }
    }
}
