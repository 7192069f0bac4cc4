package org.vectorjce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import org.vectorjce.internal.jca.RawKey;

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
 * <p>Reads and writes of many sectors go through one cipher call per run of whole sectors (up to
 * 1 MiB). A write that covers part of a sector reads, decrypts, patches and re-encrypts that
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
 * <p>{@link #close()} closes the image and wipes this channel's copy of the key and the ciphers'
 * key schedules. Not thread-safe (like the channels it wraps).
 */
public final class SectorChannel implements SeekableByteChannel {
    /** Bytes per cipher call and image read/write: 1 MiB. */
    private static final int RUN = 1 << 20;

    private final SeekableByteChannel image;
    private final String algorithm;
    private final String ivGenerator;
    private final int sectorSize;
    private final long firstSector;
    private final boolean ivLargeSectors;
    private final RawKey key;
    private final Cipher enc, dec;
    private final byte[] work;
    private long position;
    private boolean open = true;

    private SectorChannel(SeekableByteChannel image, String algorithm, String mode, String ivGenerator,
            byte[] key, int sectorSize, long firstSector, boolean ivLargeSectors, VectorJceProvider p)
            throws GeneralSecurityException {
        this.image = image;
        this.algorithm = algorithm;
        this.ivGenerator = ivGenerator;
        this.sectorSize = sectorSize;
        this.firstSector = firstSector;
        this.ivLargeSectors = ivLargeSectors;
        this.key = new RawKey(algorithm, key.clone());
        this.enc = Cipher.getInstance(algorithm + "/" + mode + "/NoPadding", p);
        this.dec = Cipher.getInstance(algorithm + "/" + mode + "/NoPadding", p);
        // Checks the spec (generator, size, transformation) and the key once, here.
        enc.init(Cipher.ENCRYPT_MODE, this.key, spec(0));
        dec.init(Cipher.DECRYPT_MODE, this.key, spec(0));
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
        String[] c = parse(cipherSpec);
        long size = image.size();
        if (sectorSize > 0 && size % sectorSize != 0) {
            throw new IOException("The image is " + size + " bytes: not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        byte[] k = key.getEncoded();
        if (k == null) {
            throw new java.security.InvalidKeyException("The key has no encoding");
        }
        try {
            return new SectorChannel(image, c[0], c[1], c[2], k, sectorSize, firstSector, ivLargeSectors, provider);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    /** {@code aes-xts-plain64} → {"AES", "XTS", "plain64"}. */
    static String[] parse(String cipherSpec) throws InvalidAlgorithmParameterException {
        String[] parts = cipherSpec == null ? new String[0] : cipherSpec.split("-", 3);
        if (parts.length != 3) {
            throw new InvalidAlgorithmParameterException("Cipher specification '" + cipherSpec
                    + "' is not cipher-mode-ivgenerator (e.g. aes-xts-plain64)");
        }
        String alg = switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "aes" -> "AES";
            case "twofish" -> "Twofish";
            default -> throw new InvalidAlgorithmParameterException("Cipher '" + parts[0] + "' in '" + cipherSpec
                    + "': aes or twofish");
        };
        String mode = parts[1].toUpperCase(Locale.ROOT);
        if (!mode.equals("XTS") && !mode.equals("LRW") && !mode.equals("CBC")) {
            throw new InvalidAlgorithmParameterException("Mode '" + parts[1] + "' in '" + cipherSpec
                    + "': xts, lrw or cbc");
        }
        return new String[] {alg, mode, parts[2].toLowerCase(Locale.ROOT)};
    }

    private SectorParameterSpec spec(long imageSector) {
        return new SectorParameterSpec(ivGenerator, firstSector + imageSector, sectorSize, ivLargeSectors);
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        long size = image.size();
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
                crypt(dec, s, work, 0, dst.array(), dst.arrayOffset() + dst.position(), len);
                dst.position(dst.position() + len);
            } else {
                crypt(dec, s, work, len);
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
        int n = src.remaining();
        long size = image.size();
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
                long imageSize = image.size();
                // A sector only partly covered keeps its other bytes: read and decrypt it first.
                boolean headPartial = skip != 0;
                boolean tailPartial = (skip + take) % sectorSize != 0;
                if (headPartial || tailPartial) {
                    Arrays.fill(work, 0, len, (byte) 0);
                    if (headPartial && start < imageSize) {
                        readFully(start, work, sectorSize, 0);
                        crypt(dec, s, work, 0, sectorSize);
                    }
                    long lastStart = start + len - sectorSize;
                    if (tailPartial && lastStart < imageSize && (lastStart != start || !headPartial)) {
                        readFully(lastStart, work, sectorSize, len - sectorSize);
                        crypt(dec, s + sectors - 1, work, len - sectorSize, sectorSize);
                    }
                }
                used = Math.max(used, len);
                if (!headPartial && !tailPartial && src.hasArray()) {
                    // Whole sectors from a heap buffer: encrypt straight out of it (one copy less).
                    crypt(enc, s, src.array(), src.arrayOffset() + src.position(), work, 0, len);
                    src.position(src.position() + len);
                } else {
                    src.get(work, skip, take);
                    crypt(enc, s, work, len);
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
            crypt(enc, p / sectorSize, work, len);
            writeFully(p, work, len);
            p += len;
        }
    }

    private void crypt(Cipher c, long imageSector, byte[] buf, int len) throws IOException {
        crypt(c, imageSector, buf, 0, len);
    }

    private void crypt(Cipher c, long imageSector, byte[] buf, int off, int len) throws IOException {
        crypt(c, imageSector, buf, off, buf, off, len);
    }

    private void crypt(Cipher c, long imageSector, byte[] in, int inOff, byte[] out, int outOff, int len)
            throws IOException {
        try {
            c.init(c == enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, key, spec(imageSector));
            c.doFinal(in, inOff, len, out, outOff);
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // checked at open; not expected
        }
    }

    private void readFully(long at, byte[] buf, int len) throws IOException {
        readFully(at, buf, len, 0);
    }

    private void readFully(long at, byte[] buf, int len, int off) throws IOException {
        image.position(at);
        ByteBuffer b = ByteBuffer.wrap(buf, off, len);
        while (b.hasRemaining()) {
            if (image.read(b) < 0) {
                throw new IOException("The image ended inside a sector at byte " + (at + b.position() - off));
            }
        }
    }

    private void writeFully(long at, byte[] buf, int len) throws IOException {
        image.position(at);
        ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
        while (b.hasRemaining()) {
            image.write(b);
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

    /** The image's size: a whole number of sectors. */
    @Override
    public long size() throws IOException {
        ensureOpen();
        return image.size();
    }

    /** Truncates the image to {@code size}, which must be a whole number of sectors. */
    @Override
    public SectorChannel truncate(long size) throws IOException {
        ensureOpen();
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
            // Re-keying with a key of the same size overwrites the schedules in place; decryption
            // accepts the all-zero key even for XTS (equal halves).
            RawKey zero = new RawKey(algorithm, new byte[key.length()]);
            enc.init(Cipher.DECRYPT_MODE, zero, spec(0));
            dec.init(Cipher.DECRYPT_MODE, zero, spec(0));
        } catch (GeneralSecurityException e) {
            // the schedules go with the ciphers
        } finally {
            key.destroy();
            Arrays.fill(work, (byte) 0);
            image.close();
        }
    }

    @Override
    public String toString() {
        return "SectorChannel[" + algorithm + ", " + ivGenerator + ", " + sectorSize + "-byte sectors, first sector "
                + Long.toUnsignedString(firstSector) + (ivLargeSectors ? ", iv_large_sectors" : "") + "]";
    }
}
