package org.vectorjce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import javax.crypto.SecretKey;

/**
 * The plaintext of an encrypted disk image, read and written at any offset and length: what
 * Linux dm-crypt's plain mode shows of a device ({@code cryptsetup open --type plain}).
 *
 * <p>{@code cipherSpec} is cryptsetup's {@code --cipher}: {@code aes-xts-plain64},
 * {@code twofish-xts-plain64}, {@code aes-cbc-essiv:sha256}, {@code twofish-lrw-benbi}, … (cipher,
 * mode, IV generator; see {@link SectorParameterSpec} for which generator each mode takes). The
 * sector at byte {@code offset} of the channel has the IV of number
 * {@code ivOffset + (offset >> 9)}, as dm-crypt computes it ({@code iv_offset} in 512-byte units;
 * with {@code iv_large_sectors} that number is then counted in sectors): dm-crypt's
 * {@code --sector-size}, {@code --iv-large-sectors} and {@code --skip} are {@code sectorSize},
 * {@code ivLargeSectors} and {@link Builder#ivOffset} (or, as a sector count,
 * {@code firstSector}).
 *
 * <p><b>Positional and stream calls.</b> {@link #read(ByteBuffer, long)} and
 * {@link #write(ByteBuffer, long)} work at an offset, as {@code FileChannel}'s do, and leave the
 * position alone; the channel's own {@link #read(ByteBuffer)} and {@link #write(ByteBuffer)} are
 * those at {@link #position()}. Many threads may call the positional methods at once: each call
 * takes a cipher and work buffer of its own from a pool (a new one is keyed when every one is in
 * use), and on a {@code FileChannel} image reads and writes at absolute offsets without a lock;
 * other images are read and written under their own lock. The position is the stream calls' and
 * is used by one thread at a time.
 *
 * <p>Reads and writes of many sectors go through one cipher call per run of whole sectors (up to
 * 1 MiB), with no {@code Cipher.init}. A write that covers part of a sector reads, decrypts,
 * patches and re-encrypts that sector (not atomic against a concurrent writer of the same sector);
 * a write past the end first extends the image with encrypted zero sectors. The image's size is
 * always a whole number of sectors: {@link #size()} is the image's size, and {@link #truncate}
 * takes whole sectors only.
 *
 * <p><b>When the image channel fails mid-write</b>, its {@code IOException} reaches the caller, a
 * stream write leaves the position where it was, and nothing of the caller's buffer is consumed.
 * Every write this channel makes to the image starts and ends on sector boundaries, so as far as
 * the image channel's own writes are whole, each sector holds either its old or its new ciphertext
 * — never bytes that decrypt to neither — and the sectors not yet written keep their old contents.
 *
 * <p>{@link #builder} opens the other views a disk format needs: a window of the image (a LUKS
 * payload after its header: {@link Builder#window}, a fixed size that writes never pass), a
 * read-only view ({@link Builder#readOnly}), one that leaves the image open on close
 * ({@link Builder#keepImageOpen}: several channels over one image), and {@code essiv:HASH}
 * generators with hashes the JDK lacks ({@link Builder#essivHash}). {@link #over} runs the
 * same read-modify-write over sectors that are not one dm-crypt specification over one window (a
 * cipher cascade, remapped sectors): the caller gives the ciphertext's reads and writes and the
 * sector transform, this class does the rest.
 *
 * <p>{@link #close()} closes the image (unless {@link Builder#keepImageOpen}) and wipes this
 * channel's copy of the key, its work buffers and the ciphers' key schedules (a cipher in use by
 * a call still running is wiped when that call returns).
 */
public final class SectorChannel implements SeekableByteChannel {
    private final Sectors sectors;
    private final int sectorSize;
    /** The fixed size in bytes, or -1: the image's, growing with writes ({@link DmCryptSectors} only). */
    private final long length;
    private final boolean writable;
    /** The read-modify-write and its pool of ciphers and work buffers. */
    private final ReadModifyWrite rmw;
    private long position;
    private volatile boolean open = true;

    /**
     * The ciphertext under a {@link SectorChannel} and the transform of its sectors, for a format
     * whose sectors are not one dm-crypt specification over one window of an image (a cipher
     * cascade, sectors remapped or stored in plain). Offsets are bytes of the channel's plaintext,
     * always on sector boundaries; lengths are whole sectors. The channel reads ciphertext from
     * several threads at once, so {@link #read} and {@link #write} must allow that; each
     * {@link Transform} is used by one thread at a time.
     */
    public interface Sectors {
        /**
         * Reads exactly {@code dst.remaining()} bytes of ciphertext (whole sectors) at {@code offset}.
         *
         * @param offset the byte offset of the first sector in the plaintext
         * @param dst where the ciphertext goes
         * @throws IOException when the image cannot be read or ends first
         */
        void read(long offset, ByteBuffer dst) throws IOException;

        /**
         * Writes all of {@code src}, ciphertext of whole sectors, at {@code offset}; refuses by default.
         *
         * @param offset the byte offset of the first sector in the plaintext
         * @param src the ciphertext
         * @throws IOException when the image cannot be written
         */
        default void write(long offset, ByteBuffer src) throws IOException {
            throw new NonWritableChannelException();
        }

        /**
         * A new transform with its own key schedules, used by one thread at a time; the channel
         * closes it.
         *
         * @return the transform
         * @throws GeneralSecurityException when the key or cipher is refused
         */
        Transform transform() throws GeneralSecurityException;

        /**
         * Wipes what it keeps to make transforms (the key); called once, by the channel's close.
         *
         * @throws IOException when releasing the image fails
         */
        default void close() throws IOException {
        }
    }

    /** The sector cipher of a {@link Sectors}: runs of whole sectors in place, named by byte offset. */
    public interface Transform {
        /**
         * Decrypts {@code len} bytes of whole sectors in place, the first at byte {@code offset} of
         * the plaintext.
         *
         * @param offset the byte offset of the first sector
         * @param b the buffer
         * @param off where the first sector starts in {@code b}
         * @param len bytes, whole sectors
         * @throws GeneralSecurityException when the cipher refuses
         */
        void decrypt(long offset, byte[] b, int off, int len) throws GeneralSecurityException;

        /**
         * Encrypts in place, as {@link #decrypt} decrypts; refuses by default.
         *
         * @param offset the byte offset of the first sector
         * @param b the buffer
         * @param off where the first sector starts in {@code b}
         * @param len bytes, whole sectors
         * @throws GeneralSecurityException when the cipher refuses (a key it only decrypts with)
         */
        default void encrypt(long offset, byte[] b, int off, int len) throws GeneralSecurityException {
            throw new NonWritableChannelException();
        }

        /** Wipes the key schedules. */
        void close();
    }

    private SectorChannel(Sectors sectors, int sectorSize, long length, boolean writable, Transform first) {
        this.sectors = sectors;
        this.sectorSize = sectorSize;
        this.length = length;
        this.writable = writable;
        this.rmw = new ReadModifyWrite(sectors, sectorSize, first);
    }

    /**
     * A channel over {@code sectors}: their ciphertext read, decrypted and written back by this
     * class's one read-modify-write. The first transform is keyed here, so a refused key fails now.
     * Closing the channel closes {@code sectors}.
     *
     * @param sectors the ciphertext and its transform
     * @param size bytes of plaintext, fixed: a write never passes it
     * @param sectorSize bytes per sector: a power of two that divides 1 MiB
     * @param writable whether the channel takes writes ({@link Sectors#write} and
     *     {@link Transform#encrypt} then must)
     * @return the channel, at position 0
     * @throws GeneralSecurityException when {@link Sectors#transform()} refuses
     */
    public static SectorChannel over(Sectors sectors, long size, int sectorSize, boolean writable)
            throws GeneralSecurityException {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size " + size);
        }
        if (sectorSize <= 0 || ReadModifyWrite.RUN % sectorSize != 0) {
            throw new IllegalArgumentException("Sector size " + sectorSize);
        }
        return new SectorChannel(sectors, sectorSize, size, writable, sectors.transform());
    }

    /**
     * Opens the plaintext view of {@code image}.
     *
     * @param image         the encrypted image, read and written in place; {@link #close()} closes it
     * @param cipherSpec    cryptsetup's cipher specification, e.g. {@code aes-xts-plain64}
     * @param key           the whole key in the mode's layout (XTS: K1 ‖ K2; LRW: key ‖ 16-byte
     *                      tweak key), RAW-encoded; its algorithm name is not checked
     * @param sectorSize    512, 1024, 2048 or 4096
     * @param firstSector   the sector number of the image's first sector, in units of
     *                      {@code sectorSize} (unsigned)
     * @param ivLargeSectors dm-crypt's {@code iv_large_sectors}
     * @return the channel, at position 0
     * @throws IOException if the image's size is not a whole number of sectors, or it cannot be read
     * @throws GeneralSecurityException for an unknown cipher specification, an IV generator the mode
     *     does not take or another sector size ({@code InvalidAlgorithmParameterException}), or a
     *     key the mode does not take ({@code InvalidKeyException})
     */
    public static SectorChannel open(SeekableByteChannel image, String cipherSpec, SecretKey key, int sectorSize,
            long firstSector, boolean ivLargeSectors) throws IOException, GeneralSecurityException {
        return open(image, cipherSpec, key, sectorSize, firstSector, ivLargeSectors, new VectorJceProvider());
    }

    /**
     * {@link #open(SeekableByteChannel, String, SecretKey, int, long, boolean)} with the ciphers of
     * {@code provider}, so its settings (kernels, the constant-time policy) apply.
     *
     * @param image         the encrypted image, read and written in place; {@link #close()} closes it
     * @param cipherSpec    cryptsetup's cipher specification, e.g. {@code aes-xts-plain64}
     * @param key           the whole key in the mode's layout, RAW-encoded
     * @param sectorSize    512, 1024, 2048 or 4096
     * @param firstSector   the sector number of the image's first sector, in units of {@code sectorSize}
     * @param ivLargeSectors dm-crypt's {@code iv_large_sectors}
     * @param provider the provider whose settings the channel's ciphers follow
     * @return the channel, at position 0
     * @throws IOException as the other {@code open}
     * @throws GeneralSecurityException as the other {@code open}
     */
    public static SectorChannel open(SeekableByteChannel image, String cipherSpec, SecretKey key, int sectorSize,
            long firstSector, boolean ivLargeSectors, VectorJceProvider provider)
            throws IOException, GeneralSecurityException {
        return builder(image, cipherSpec, key, sectorSize).firstSector(firstSector).ivLargeSectors(ivLargeSectors)
                .provider(provider).open();
    }

    /**
     * A builder of a channel over {@code image}, for the options beyond {@code open}'s: a window of
     * the image, a read-only view, the image left open on close, ESSIV hashes beyond the JDK's.
     *
     * @param image      the encrypted image
     * @param cipherSpec cryptsetup's cipher specification, e.g. {@code aes-xts-plain64}
     * @param key        the whole key in the mode's layout, RAW-encoded (read at {@link Builder#open})
     * @param sectorSize 512, 1024, 2048 or 4096
     * @return the builder: first sector 0, no {@code iv_large_sectors}, the whole image, writable,
     *     the image closed with the channel, a new {@code VectorJceProvider}'s ciphers
     */
    public static Builder builder(SeekableByteChannel image, String cipherSpec, SecretKey key, int sectorSize) {
        return new Builder(image, cipherSpec, key, sectorSize);
    }

    /** How to open a {@link SectorChannel}; single use, not thread-safe. */
    public static final class Builder {
        final SeekableByteChannel image;
        final String cipherSpec;
        private final SecretKey key;
        final int sectorSize;
        long firstSector;
        /** dm-crypt's iv_offset in 512-byte units, or -1: {@link #firstSector} gives it. */
        long ivOffset = -1;
        boolean ivLargeSectors;
        VectorJceProvider provider;
        SectorCipher.EssivHash essivHash;
        long offset;
        long length = -1;
        boolean readOnly;
        boolean keepImageOpen;

        private Builder(SeekableByteChannel image, String cipherSpec, SecretKey key, int sectorSize) {
            this.image = java.util.Objects.requireNonNull(image, "image");
            this.cipherSpec = cipherSpec;
            this.key = java.util.Objects.requireNonNull(key, "key");
            this.sectorSize = sectorSize;
        }

        /**
         * The sector number of the channel's first sector, in units of the sector size (unsigned):
         * dm-crypt's {@code --skip} as a sector count.
         *
         * @param sector the first sector's number
         * @return this builder
         */
        public Builder firstSector(long sector) {
            this.firstSector = sector;
            this.ivOffset = -1;
            return this;
        }

        /**
         * dm-crypt's {@code iv_offset} (LUKS2's {@code iv_tweak}): the IV number of the channel's
         * first byte, in 512-byte units (unsigned), whatever the sector size; a whole number of
         * sectors (checked at {@link #open}).
         *
         * @param sectors512 the IV offset
         * @return this builder
         */
        public Builder ivOffset(long sectors512) {
            this.ivOffset = sectors512;
            return this;
        }

        /**
         * dm-crypt's {@code iv_large_sectors}: IVs count sectors of the sector size, not of 512 bytes.
         *
         * @param large whether they do
         * @return this builder
         */
        public Builder ivLargeSectors(boolean large) {
            this.ivLargeSectors = large;
            return this;
        }

        /**
         * The provider whose settings (kernels, the constant-time policy) the ciphers follow.
         *
         * @param provider the provider
         * @return this builder
         */
        public Builder provider(VectorJceProvider provider) {
            this.provider = java.util.Objects.requireNonNull(provider, "provider");
            return this;
        }

        /**
         * The digests of {@code essiv:HASH} generators whose hash the JDK does not have, as
         * {@link SectorCipher#of(String, byte[], int, boolean, VectorJceProvider, SectorCipher.EssivHash)}.
         *
         * @param hash the hashes beyond the JDK's
         * @return this builder
         */
        public Builder essivHash(SectorCipher.EssivHash hash) {
            this.essivHash = hash;
            return this;
        }

        /**
         * Only bytes {@code [offset, offset + length)} of the image, both whole sectors: a disk
         * format's payload. The channel's position 0 is the image's byte {@code offset}, its size
         * is {@code length}, fixed (a write that would reach past it throws an {@code IOException}
         * naming the payload's size and writes nothing; {@code truncate} throws an
         * {@code IOException}).
         *
         * @param offset the window's first byte in the image
         * @param length the window's length
         * @return this builder
         */
        public Builder window(long offset, long length) {
            if (offset < 0 || length < 0) {
                throw new IllegalArgumentException("Window at " + offset + " of " + length + " bytes");
            }
            this.offset = offset;
            this.length = length;
            return this;
        }

        /**
         * A read-only channel: {@code write} and {@code truncate} throw
         * {@link NonWritableChannelException}, and an XTS key with equal halves, which is refused
         * for encryption, opens it.
         *
         * @return this builder
         */
        public Builder readOnly() {
            this.readOnly = true;
            return this;
        }

        /**
         * {@link SectorChannel#close()} leaves the image open, for several channels over one image;
         * the caller closes it.
         *
         * @return this builder
         */
        public Builder keepImageOpen() {
            this.keepImageOpen = true;
            return this;
        }

        /**
         * Opens the channel, at position 0.
         *
         * @return the channel
         * @throws IOException if the image's size, or the window, is not a whole number of sectors,
         *     the window lies outside the image, or the image cannot be read
         * @throws GeneralSecurityException for an unknown cipher specification, an IV generator the
         *     mode does not take or another sector size ({@code InvalidAlgorithmParameterException}),
         *     or a key the mode does not take ({@code InvalidKeyException})
         */
        public SectorChannel open() throws IOException, GeneralSecurityException {
            SectorCipher.parse(cipherSpec); // the specification first, before the image is read
            long size = image.size();
            if (length < 0) {
                if (sectorSize > 0 && size % sectorSize != 0) {
                    throw new IOException("The image is " + size + " bytes: not a whole number of " + sectorSize
                            + "-byte sectors");
                }
            } else {
                if (sectorSize > 0 && (offset % sectorSize != 0 || length % sectorSize != 0)) {
                    throw new IOException("The window of " + length + " bytes at byte " + offset
                            + " is not whole " + sectorSize + "-byte sectors");
                }
                if (offset > size || length > size - offset) {
                    throw new IOException("The window of " + length + " bytes at byte " + offset + " reaches past the "
                            + size + "-byte image");
                }
            }
            byte[] k = key.getEncoded();
            if (k == null) {
                throw new java.security.InvalidKeyException("The key has no encoding");
            }
            DmCryptSectors s = new DmCryptSectors(this, k); // keeps k, wiped on close
            Transform first;
            try {
                first = s.firstTransform(!readOnly);
            } catch (GeneralSecurityException | RuntimeException e) {
                s.wipeKey(); // the image stays open: the caller's, as the channel never opened
                throw e;
            }
            return new SectorChannel(s, sectorSize, length, !readOnly, first);
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code offset}, as {@code FileChannel}'s
     * positional read: the position does not move, and many threads may read at once.
     *
     * @param dst where the plaintext goes
     * @param offset the byte offset to read at (not negative)
     * @return the bytes read, or -1 when {@code offset} is at or past the end and {@code dst} has room
     * @throws IOException when the image cannot be read
     */
    public int read(ByteBuffer dst, long offset) throws IOException {
        ensureOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("Negative position " + offset);
        }
        long size = size();
        if (offset >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - offset);
        if (n == 0) {
            return 0;
        }
        rmw.read(offset, dst.slice().limit(n), size);
        dst.position(dst.position() + n);
        return n;
    }

    /**
     * Writes all of {@code src} at {@code offset}, as {@code FileChannel}'s positional write: the
     * position does not move. A channel without a window first extends the image to
     * {@code offset} (writes that grow the image are made by one thread at a time); a window
     * refuses a write that would pass its end.
     *
     * @param src the plaintext
     * @param offset the byte offset to write at (not negative)
     * @return the bytes written: all of {@code src}
     * @throws NonWritableChannelException when the channel is read-only
     * @throws IOException when the write would pass a window's end (nothing is written), or the
     *     image cannot be read or written (nothing of {@code src} is consumed)
     */
    public int write(ByteBuffer src, long offset) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (offset < 0) {
            throw new IllegalArgumentException("Negative position " + offset);
        }
        int n = src.remaining();
        long size = size();
        if (length >= 0 && (offset > size || n > size - offset)) {
            throw new IOException("A write of " + n + " bytes at " + offset + " goes past the end of the " + size
                    + "-byte payload");
        }
        rmw.write(offset, src, this::size);
        return n;
    }

    /** {@link #read(ByteBuffer, long)} at the position, which moves past what was read. */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    /**
     * {@link #write(ByteBuffer, long)} at the position, which moves past what was written (and
     * stays where it was when the write fails).
     */
    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = write(src, position);
        position += n;
        return n;
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SectorChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("Negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /** The image's size, or the window's: a whole number of sectors. */
    @Override
    public long size() throws IOException {
        ensureOpen();
        return length >= 0 ? length : ((DmCryptSectors) sectors).imageSize();
    }

    /**
     * Truncates the image to {@code size}, which must be a whole number of sectors; refused for a
     * read-only channel ({@link NonWritableChannelException}) and a window ({@code IOException}).
     */
    @Override
    public SectorChannel truncate(long size) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (length >= 0) {
            throw new IOException("The payload's size is fixed at " + length + " bytes: truncate is not supported");
        }
        if (size < 0) {
            throw new IllegalArgumentException("Negative size " + size);
        }
        if (size % sectorSize != 0) {
            throw new IOException("Cannot truncate to " + size + " bytes: not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        ((DmCryptSectors) sectors).truncate(size);
        if (position > size) {
            position = size;
        }
        return this;
    }

    /**
     * The sector size: writes that start and end on a multiple of it are whole-sector writes.
     *
     * @return the sector size in bytes
     */
    public int sectorSize() {
        return sectorSize;
    }

    @Override
    public boolean isOpen() {
        return open && (!(sectors instanceof DmCryptSectors d) || d.imageOpen());
    }

    /**
     * Closes the image (unless kept open) and wipes the key, the work buffers and the ciphers' key
     * schedules (re-keyed with zeros). Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        try {
            rmw.close();
        } finally {
            sectors.close();
        }
    }

    @Override
    public String toString() {
        return "SectorChannel[" + sectors + "]";
    }
}
