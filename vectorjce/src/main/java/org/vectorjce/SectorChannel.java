package org.vectorjce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * The plaintext of an encrypted disk image, read and written at any position and length: what
 * Linux dm-crypt's plain mode shows of a device ({@code cryptsetup open --type plain}).
 *
 * <p>{@code cipherSpec} is cryptsetup's {@code --cipher}: {@code aes-xts-plain64},
 * {@code twofish-xts-plain64}, {@code aes-cbc-essiv:sha256}, {@code twofish-lrw-benbi}, … (cipher,
 * mode, IV generator; see {@link SectorParameterSpec} for which generator each mode takes). Sector
 * {@code s} of the image (counting from 0) is encrypted as sector {@code firstSector + s} of a
 * {@link SectorParameterSpec} with {@code sectorSize} and {@code ivLargeSectors}: dm-crypt's
 * {@code --sector-size}, {@code --iv-large-sectors} and (as a sector count) {@code --skip}.
 *
 * <p>Reads and writes of many sectors go through one {@link SectorCipher} call per run of whole
 * sectors (up to 1 MiB), with no {@code Cipher.init}. A write that covers part of a sector reads, decrypts, patches and re-encrypts that
 * sector; a write past the end first extends the image with encrypted zero sectors. The image's
 * size is always a whole number of sectors: {@link #size()} is the image's size, and
 * {@link #truncate} takes whole sectors only.
 *
 * <p><b>When the image channel fails mid-write</b>, its {@code IOException} reaches the caller
 * and this channel's position does not move. Every write this channel makes to the image starts
 * and ends on sector boundaries, so as far as the image channel's own writes are whole, each
 * sector holds either its old or its new ciphertext — never bytes that decrypt to neither — and
 * the sectors not yet written keep their old contents. What a failure in the middle of one of the
 * image channel's own writes leaves is up to that channel (and the storage below it).
 *
 * <p>{@link #builder} opens the other views a disk format needs: a window of the image (a LUKS
 * payload after its header: {@link Builder#window}, a fixed size that writes never pass), a
 * read-only view ({@link Builder#readOnly}), one that leaves the image open on close
 * ({@link Builder#keepImageOpen}: several channels over one image), and {@code essiv:HASH}
 * generators with hashes the JDK lacks ({@link Builder#essivHash}). On a {@code FileChannel} the
 * channel reads and writes at absolute positions, so channels of one file may run on different
 * threads (each channel itself is used by one thread at a time); other images are read and written
 * under their own lock.
 *
 * <p>{@link #close()} closes the image (unless {@link Builder#keepImageOpen}) and wipes this
 * channel's copy of the key and the ciphers' key schedules. Not thread-safe.
 */
public final class SectorChannel implements SeekableByteChannel {
    /** Bytes per cipher call and image read/write: 1 MiB. */
    private static final int RUN = 1 << 20;

    private final SeekableByteChannel image;
    private final int sectorSize;
    private final long firstSector;
    private final boolean ivLargeSectors;
    /** Encrypts and decrypts the image's sectors; holds the key schedules. */
    private final SectorCipher cipher;
    /** Byte offset of the channel's first sector in the image. */
    private final long offset;
    /** The window's length in bytes, or -1: to the image's end, growing with writes. */
    private final long length;
    private final boolean writable;
    private final boolean closeImage;
    private final byte[] work;
    private long position;
    private boolean open = true;

    private SectorChannel(Builder b, SectorCipher cipher) {
        this.image = b.image;
        this.cipher = cipher;
        this.sectorSize = cipher.sectorSize();
        this.firstSector = b.firstSector;
        this.ivLargeSectors = b.ivLargeSectors;
        this.offset = b.offset;
        this.length = b.length;
        this.writable = !b.readOnly;
        this.closeImage = !b.keepImageOpen;
        this.work = new byte[RUN];
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
        private final SeekableByteChannel image;
        private final String cipherSpec;
        private final SecretKey key;
        private final int sectorSize;
        private long firstSector;
        private boolean ivLargeSectors;
        private VectorJceProvider provider;
        private SectorCipher.EssivHash essivHash;
        private long offset;
        private long length = -1;
        private boolean readOnly;
        private boolean keepImageOpen;

        private Builder(SeekableByteChannel image, String cipherSpec, SecretKey key, int sectorSize) {
            this.image = java.util.Objects.requireNonNull(image, "image");
            this.cipherSpec = cipherSpec;
            this.key = java.util.Objects.requireNonNull(key, "key");
            this.sectorSize = sectorSize;
        }

        /**
         * The sector number of the channel's first sector, in units of the sector size (unsigned):
         * dm-crypt's {@code --skip} as a sector count, LUKS2's {@code iv_tweak}.
         *
         * @param sector the first sector's number
         * @return this builder
         */
        public Builder firstSector(long sector) {
            this.firstSector = sector;
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
            SectorCipher c;
            try {
                c = SectorCipher.of(cipherSpec, k, sectorSize, ivLargeSectors,
                        provider != null ? provider : new VectorJceProvider(), essivHash);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
            String refusal = c.encryptionRefusal();
            if (refusal != null && !readOnly) {
                c.close();
                throw new java.security.InvalidKeyException(refusal + ", and a SectorChannel writes");
            }
            return new SectorChannel(this, c);
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        long size = size();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        int done = 0, used = 0;
        while (done < n) {
            long p = position + done;
            long s = p / sectorSize;
            int skip = (int) (p - s * sectorSize);
            // Whole sectors covering as much of the rest as one run holds.
            int want = Math.min(n - done + skip, RUN);
            int sectors = (want + sectorSize - 1) / sectorSize;
            int len = sectors * sectorSize;
            readFully(s * sectorSize, work, len);
            int take = Math.min(len - skip, n - done);
            if (skip == 0 && take == len && dst.hasArray()) {
                // Whole sectors into a heap buffer: decrypt straight into it (one copy less).
                crypt(false, s, work, 0, dst.array(), dst.arrayOffset() + dst.position(), len);
                dst.position(dst.position() + len);
            } else {
                crypt(false, s, work, len);
                dst.put(work, skip, take);
            }
            done += take;
            used = Math.max(used, len);
        }
        Arrays.fill(work, 0, used, (byte) 0); // plaintext: wiped, as far as it was used
        position += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        long size = size();
        if (length >= 0 && (position > size || n > size - position)) {
            throw new IOException("A write of " + n + " bytes at " + position + " goes past the end of the " + size
                    + "-byte payload");
        }
        if (position > size) {
            extendWithZeros(size, position);
        }
        int done = 0, used = 0;
        int srcStart = src.position();
        try {
            while (done < n) {
                long p = position + done;
                long s = p / sectorSize;
                int skip = (int) (p - s * sectorSize);
                int want = Math.min(n - done + skip, RUN);
                int sectors = (want + sectorSize - 1) / sectorSize;
                int len = sectors * sectorSize;
                int take = Math.min(len - skip, n - done);
                long start = s * sectorSize;
                long imageSize = size();
                // A sector only partly covered keeps its other bytes: read and decrypt it first.
                boolean headPartial = skip != 0;
                boolean tailPartial = (skip + take) % sectorSize != 0;
                if (headPartial || tailPartial) {
                    Arrays.fill(work, 0, len, (byte) 0);
                    if (headPartial && start < imageSize) {
                        readFully(start, work, sectorSize, 0);
                        crypt(false, s, work, 0, sectorSize);
                    }
                    long lastStart = start + len - sectorSize;
                    if (tailPartial && lastStart < imageSize && (lastStart != start || !headPartial)) {
                        readFully(lastStart, work, sectorSize, len - sectorSize);
                        crypt(false, s + sectors - 1, work, len - sectorSize, sectorSize);
                    }
                }
                used = Math.max(used, len);
                if (!headPartial && !tailPartial && src.hasArray()) {
                    // Whole sectors from a heap buffer: encrypt straight out of it (one copy less).
                    crypt(true, s, src.array(), src.arrayOffset() + src.position(), work, 0, len);
                    src.position(src.position() + len);
                } else {
                    src.get(work, skip, take);
                    crypt(true, s, work, len);
                }
                writeFully(start, work, len);
                done += take;
            }
        } finally {
            Arrays.fill(work, 0, used, (byte) 0);
            if (done < n) {
                src.position(srcStart); // a failed write consumes nothing of src, moves nothing
            }
        }
        position += n;
        return n;
    }

    /** Encrypted zero sectors from {@code from} (a sector boundary) up to the sector holding {@code to}. */
    private void extendWithZeros(long from, long to) throws IOException {
        long end = (to + sectorSize - 1) / sectorSize * sectorSize;
        for (long p = from; p < end; ) {
            int len = (int) Math.min(RUN, end - p);
            Arrays.fill(work, 0, len, (byte) 0);
            crypt(true, p / sectorSize, work, len);
            writeFully(p, work, len);
            p += len;
        }
    }

    private void crypt(boolean encrypt, long imageSector, byte[] buf, int len) {
        crypt(encrypt, imageSector, buf, 0, len);
    }

    private void crypt(boolean encrypt, long imageSector, byte[] buf, int off, int len) {
        crypt(encrypt, imageSector, buf, off, buf, off, len);
    }

    /** Whole sectors, the first being the image's sector {@code imageSector}. */
    private void crypt(boolean encrypt, long imageSector, byte[] in, int inOff, byte[] out, int outOff, int len) {
        if (encrypt) {
            cipher.encrypt(firstSector + imageSector, in, inOff, out, outOff, len);
        } else {
            cipher.decrypt(firstSector + imageSector, in, inOff, out, outOff, len);
        }
    }

    private void readFully(long at, byte[] buf, int len) throws IOException {
        readFully(at, buf, len, 0);
    }

    private void readFully(long at, byte[] buf, int len, int off) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buf, off, len);
        long from = offset + at;
        if (image instanceof FileChannel fc) {
            while (b.hasRemaining()) {
                if (fc.read(b, from + b.position() - off) < 0) {
                    throw new IOException("The image ended inside a sector at byte " + (from + b.position() - off));
                }
            }
            return;
        }
        synchronized (image) {
            image.position(from);
            while (b.hasRemaining()) {
                if (image.read(b) < 0) {
                    throw new IOException("The image ended inside a sector at byte " + (from + b.position() - off));
                }
            }
        }
    }

    private void writeFully(long at, byte[] buf, int len) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
        long to = offset + at;
        if (image instanceof FileChannel fc) {
            while (b.hasRemaining()) {
                fc.write(b, to + b.position());
            }
            return;
        }
        synchronized (image) {
            image.position(to);
            while (b.hasRemaining()) {
                image.write(b);
            }
        }
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
        return length >= 0 ? length : image.size();
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
        image.truncate(size);
        if (position > size) {
            position = size;
        }
        return this;
    }

    @Override
    public boolean isOpen() {
        return open && image.isOpen();
    }

    /** Closes the image, and wipes the key and the ciphers' key schedules (re-keyed with zeros). */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        try {
            cipher.close();
            Arrays.fill(work, (byte) 0);
        } finally {
            if (closeImage) {
                image.close();
            }
        }
    }

    @Override
    public String toString() {
        return "SectorChannel[" + cipher.cipherSpec() + ", " + sectorSize + "-byte sectors, first sector "
                + Long.toUnsignedString(firstSector) + (ivLargeSectors ? ", iv_large_sectors" : "") + "]";
    }
}
