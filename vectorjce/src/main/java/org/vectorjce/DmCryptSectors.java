package org.vectorjce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.util.Arrays;

/**
 * {@link SectorChannel.Builder#open}'s sectors: one dm-crypt cipher specification over a window of
 * an image (or the whole image, which then grows with writes). The IV of the sector at byte
 * {@code p} of the window is number {@code ivOffset + (p >> 9)} (dm-crypt's {@code crypt_convert}
 * with {@code cc_sector = bio sector + iv_offset}, 512-byte units), or with
 * {@code iv_large_sectors} that number counted in sectors ({@code >> sector_shift}): computed once
 * per run from the byte offset, and handed to the engine as it is. Ciphertext is read and written
 * at absolute positions on a {@code FileChannel} (several threads at once), else under the image's
 * lock. Keeps a copy of the key to key one cipher per concurrent caller; {@link #close} wipes it.
 */
final class DmCryptSectors implements SectorChannel.Sectors {
    private final SeekableByteChannel image;
    private final String spec;
    private final byte[] key;
    private final int sectorSize;
    private final boolean ivLargeSectors;
    private final VectorJceProvider provider;
    private final SectorCipher.EssivHash essivHash;
    private final long offset;
    private final boolean closeImage;
    /** The IV number of the window's first byte, in units of 1 << ivShift bytes. */
    private final long ivBase;
    /** log2 of the bytes one IV number counts: 9, or the sector size's with iv_large_sectors. */
    private final int ivShift;
    private final long firstSector;

    /** Over {@code b}'s image, keyed with {@code key}, which this object keeps and wipes on close. */
    DmCryptSectors(SectorChannel.Builder b, byte[] key) {
        this.image = b.image;
        this.spec = b.cipherSpec;
        this.key = key;
        this.sectorSize = b.sectorSize;
        this.ivLargeSectors = b.ivLargeSectors;
        this.provider = b.provider != null ? b.provider : new VectorJceProvider();
        this.essivHash = b.essivHash;
        this.offset = b.offset;
        this.closeImage = !b.keepImageOpen;
        int per = Math.max(sectorSize / 512, 1);
        long first = b.ivOffset < 0 ? b.firstSector : Long.divideUnsigned(b.ivOffset, per);
        this.firstSector = first;
        if (ivLargeSectors) {
            this.ivShift = Integer.numberOfTrailingZeros(Math.max(sectorSize, 1));
            this.ivBase = first;
        } else {
            this.ivShift = 9;
            this.ivBase = b.ivOffset < 0 ? b.firstSector * per : b.ivOffset;
        }
    }

    /** The first cipher, keyed at open so that a refused key or specification fails there. */
    SectorChannel.Transform firstTransform(boolean writes) throws GeneralSecurityException {
        SectorCipher c = cipher();
        String refusal = c.encryptionRefusal();
        if (refusal != null && writes) {
            c.close();
            throw new InvalidKeyException(refusal + ", and a SectorChannel writes");
        }
        return transform(c);
    }

    private SectorCipher cipher() throws GeneralSecurityException {
        return SectorCipher.of(spec, key, sectorSize, ivLargeSectors, provider, essivHash);
    }

    @Override
    public SectorChannel.Transform transform() throws GeneralSecurityException {
        return transform(cipher());
    }

    private SectorChannel.Transform transform(SectorCipher c) {
        return new SectorChannel.Transform() {
            @Override
            public void decrypt(long p, byte[] b, int off, int len) {
                c.cryptIv(false, ivBase + (p >>> ivShift), b, off, len);
            }

            @Override
            public void encrypt(long p, byte[] b, int off, int len) {
                c.cryptIv(true, ivBase + (p >>> ivShift), b, off, len);
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    long imageSize() throws IOException {
        return image.size();
    }

    void truncate(long size) throws IOException {
        image.truncate(size);
    }

    boolean imageOpen() {
        return image.isOpen();
    }

    @Override
    public void read(long at, ByteBuffer b) throws IOException {
        long from = offset + at;
        if (image instanceof FileChannel fc) {
            for (long p = from; b.hasRemaining(); ) {
                int n = fc.read(b, p);
                if (n < 0) {
                    throw new IOException("The image ended inside a sector at byte " + p);
                }
                p += n;
            }
            return;
        }
        synchronized (image) {
            image.position(from);
            while (b.hasRemaining()) {
                if (image.read(b) < 0) {
                    throw new IOException("The image ended inside a sector at byte " + image.position());
                }
            }
        }
    }

    @Override
    public void write(long at, ByteBuffer b) throws IOException {
        long to = offset + at;
        if (image instanceof FileChannel fc) {
            while (b.hasRemaining()) {
                to += fc.write(b, to);
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

    void wipeKey() {
        Arrays.fill(key, (byte) 0);
    }

    /** Wipes the key; closes the image unless it was to be kept open. */
    @Override
    public void close() throws IOException {
        wipeKey();
        if (closeImage) {
            image.close();
        }
    }

    /** The specification, sector size and first sector; never key material. */
    @Override
    public String toString() {
        return spec + ", " + sectorSize + "-byte sectors, first sector " + Long.toUnsignedString(firstSector)
                + (ivLargeSectors ? ", iv_large_sectors" : "");
    }
}
