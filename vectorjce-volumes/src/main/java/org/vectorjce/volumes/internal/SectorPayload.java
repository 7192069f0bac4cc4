package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * The plaintext payload of an open volume over its encrypted sectors, the part LUKS and
 * TrueCrypt/VeraCrypt share: a {@link FixedSizeChannel} (position, size, writes refused with
 * {@link java.nio.channels.NonWritableChannelException} unless writable) whose reads fetch whole
 * sectors of ciphertext ({@link #readCiphertext}) and decrypt them in place ({@link #decrypt}),
 * runs of up to 1 MiB per cipher call. A read of whole sectors into a heap buffer is read and
 * decrypted in that buffer; other reads go through a work buffer wiped after each run. Closing
 * wipes the work buffer, then the subclass's keys and schedules ({@link #wipe}). A writable
 * subclass writes through {@link #writeAt}, with {@link #work()} and {@link #readSectors}. Not
 * thread-safe.
 */
public abstract class SectorPayload extends FixedSizeChannel {
    /** The most bytes one cipher call takes: large enough that the call's set-up is lost in it. */
    protected static final int RUN = 1 << 20;

    private final long size;
    private final int sectorSize;
    private byte[] work;

    /** A payload of {@code size} bytes in sectors of {@code sectorSize} bytes (a divisor of {@link #RUN}). */
    protected SectorPayload(long size, int sectorSize, boolean writable) {
        super(size, writable);
        if (sectorSize <= 0 || RUN % sectorSize != 0) {
            throw new IllegalArgumentException("Sector size " + sectorSize);
        }
        this.size = size;
        this.sectorSize = sectorSize;
    }

    /** Reads exactly {@code dst.remaining()} bytes of ciphertext at byte {@code at} of the payload. */
    protected abstract void readCiphertext(long at, ByteBuffer dst) throws IOException;

    /**
     * Reads exactly {@code b.remaining()} bytes of {@code image} from byte {@code at}: positional
     * reads on a {@code FileChannel} (workers read in parallel), else under the channel's lock.
     */
    protected static void readFully(java.nio.channels.SeekableByteChannel image, long at, ByteBuffer b)
            throws IOException {
        if (image instanceof java.nio.channels.FileChannel fc) {
            while (b.hasRemaining()) {
                int r = fc.read(b, at);
                if (r < 0) {
                    throw new IOException("The image ended at byte " + at + ", inside the payload");
                }
                at += r;
            }
            return;
        }
        synchronized (image) {
            image.position(at);
            while (b.hasRemaining()) {
                if (image.read(b) < 0) {
                    throw new IOException("The image ended at byte " + image.position() + ", inside the payload");
                }
            }
        }
    }

    /** Decrypts {@code len} bytes (whole sectors from sector {@code sector}) of {@code b} in place. */
    protected abstract void decrypt(byte[] b, int off, int len, long sector) throws GeneralSecurityException;

    /** Wipes the keys and cipher schedules; called once, by the first {@link #close()}. */
    protected abstract void wipe();

    protected final int sectorSize() {
        return sectorSize;
    }

    /** The work buffer, {@link #RUN} bytes, allocated at first use; wiped on close. */
    protected final byte[] work() {
        if (work == null) {
            work = new byte[RUN];
        }
        return work;
    }

    /** Reads the ciphertext of {@code len} bytes of whole sectors from sector {@code s} into {@code work()[off..]}. */
    protected final void readSectors(long s, int off, int len) throws IOException {
        readCiphertext(s * sectorSize, ByteBuffer.wrap(work(), off, len));
    }

    @Override
    protected final void readAt(long p, ByteBuffer dst) throws IOException {
        try {
            while (dst.hasRemaining()) {
                long s = p / sectorSize;
                int skip = (int) (p - s * sectorSize);
                int want = dst.remaining();
                if (skip == 0 && want >= sectorSize && dst.hasArray()) {
                    // whole sectors straight into the caller's array, decrypted there: no copy
                    int len = (int) Math.min(Math.min(want, RUN) / sectorSize * sectorSize, size - p);
                    int at = dst.arrayOffset() + dst.position();
                    readCiphertext(p, ByteBuffer.wrap(dst.array(), at, len));
                    decrypt(dst.array(), at, len, s);
                    dst.position(dst.position() + len);
                    p += len;
                    continue;
                }
                byte[] w = work();
                int len = (int) Math.min((long) (Math.min(want + skip, RUN) + sectorSize - 1) / sectorSize * sectorSize,
                        size - s * sectorSize);
                try {
                    readSectors(s, 0, len);
                    decrypt(w, 0, len, s);
                    int take = Math.min(len - skip, want);
                    dst.put(w, skip, take);
                    p += take;
                } finally {
                    Arrays.fill(w, 0, len, (byte) 0);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // keyed and checked at open; not expected
        }
    }

    @Override
    protected final void closed() {
        if (work != null) {
            Arrays.fill(work, (byte) 0);
        }
        wipe();
    }
}
