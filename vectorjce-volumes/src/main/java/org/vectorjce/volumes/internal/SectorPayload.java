package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * The plaintext payload of an open volume over sectors that are not one dm-crypt cipher
 * specification (LUKS's are the provider's {@code SectorChannel}): TrueCrypt/VeraCrypt's cipher
 * chains, BitLocker's remapped and Elephant sectors, FileVault 2's extents. A channel of a fixed
 * size: the position, end of data, {@code truncate} refused ({@link NonWritableChannelException}
 * when read-only, else an {@code IOException}), a write that would reach past the end refused with
 * an {@code IOException} naming the size (nothing written), writes refused with
 * {@link NonWritableChannelException} unless writable, every call after {@link #close()} refused
 * with {@link ClosedChannelException}. Its reads fetch whole sectors of ciphertext ({@link #readCiphertext}) and decrypt them in place ({@link #decrypt}),
 * runs of up to 1 MiB per cipher call. A read of whole sectors into a heap buffer is read and
 * decrypted in that buffer; other reads go through a work buffer wiped after each run. Closing
 * wipes the work buffer, then the subclass's keys and schedules ({@link #wipe}). A writable
 * subclass encrypts ({@link #encrypt}) and writes ciphertext ({@link #writeCiphertext}): whole
 * sectors are encrypted and written as they come, runs of up to 1 MiB per cipher call; a sector
 * only partly covered is read, decrypted, patched and re-encrypted. A failed write consumes nothing
 * of its buffer and leaves the position; each sector it reached holds its old or its new
 * ciphertext, as far as the image's own writes are whole. Not thread-safe.
 */
public abstract class SectorPayload implements SeekableByteChannel {
    /** The most bytes one cipher call takes: large enough that the call's set-up is lost in it. */
    protected static final int RUN = 1 << 20;

    private final long size;
    private final int sectorSize;
    private byte[] work;

    /** A payload of {@code size} bytes in sectors of {@code sectorSize} bytes (a divisor of {@link #RUN}). */
    protected SectorPayload(long size, int sectorSize, boolean writable) {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size " + size);
        }
        this.writable = writable;
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

    /**
     * Encrypts {@code len} bytes (whole sectors from sector {@code sector}) of {@code b} in place;
     * called only on a writable payload. Refuses by default.
     */
    protected void encrypt(byte[] b, int off, int len, long sector) throws GeneralSecurityException {
        throw new NonWritableChannelException();
    }

    /**
     * Writes all of {@code src}, ciphertext of whole sectors, at byte {@code at} of the payload;
     * called only on a writable payload. Refuses by default.
     */
    protected void writeCiphertext(long at, ByteBuffer src) throws IOException {
        throw new NonWritableChannelException();
    }

    /**
     * Writes all of {@code b.remaining()} bytes to {@code image} at byte {@code at}: positional
     * writes on a {@code FileChannel}, else under the channel's lock.
     */
    protected static void writeFully(java.nio.channels.SeekableByteChannel image, long at, ByteBuffer b)
            throws IOException {
        if (image instanceof java.nio.channels.FileChannel fc) {
            while (b.hasRemaining()) {
                at += fc.write(b, at);
            }
            return;
        }
        synchronized (image) {
            image.position(at);
            while (b.hasRemaining()) {
                image.write(b);
            }
        }
    }

    /** Writes all of {@code src} at {@code position} (inside the payload: checked by the caller). */
    private void writeAt(long position, ByteBuffer src) throws IOException {
        byte[] w = work();
        int n = src.remaining();
        int done = 0, start = src.position();
        try {
            while (done < n) {
                long p = position + done;
                long s = p / sectorSize;
                int skip = (int) (p - s * sectorSize);
                int len = (Math.min(n - done + skip, RUN) + sectorSize - 1) / sectorSize * sectorSize;
                int take = Math.min(len - skip, n - done);
                boolean head = skip != 0, tail = (skip + take) % sectorSize != 0;
                if (head) { // keep the first sector's other bytes
                    readSectors(s, 0, sectorSize);
                    decrypt(w, 0, sectorSize, s);
                }
                if (tail && (len > sectorSize || !head)) { // and the last one's
                    long last = s + len / sectorSize - 1;
                    readSectors(last, len - sectorSize, sectorSize);
                    decrypt(w, len - sectorSize, sectorSize, last);
                }
                src.get(w, skip, take);
                encrypt(w, 0, len, s);
                writeCiphertext(s * sectorSize, ByteBuffer.wrap(w, 0, len));
                done += take;
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // keyed and checked at open; not expected
        } finally {
            Arrays.fill(w, (byte) 0);
            if (done < n) {
                src.position(start); // a failed write consumes nothing and moves nothing
            }
        }
    }

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

    /** Fills {@code dst} (at least one byte, all inside the payload) with the plaintext from {@code p}. */
    private void readAt(long p, ByteBuffer dst) throws IOException {
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

    private void closed() {
        if (work != null) {
            Arrays.fill(work, (byte) 0);
        }
        wipe();
    }

    private final boolean writable;
    private long position;
    private boolean open = true;


    @Override
    public final int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        if (n == 0) {
            return 0;
        }
        ByteBuffer d = dst.slice().limit(n);
        readAt(position, d);
        if (d.hasRemaining()) {
            throw new IOException("Short read at byte " + (position + d.position()));
        }
        dst.position(dst.position() + n);
        position += n;
        return n;
    }

    @Override
    public final int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        if (position > size || n > size - position) {
            throw new IOException("A write of " + n + " bytes at " + position + " goes past the end of the " + size
                    + "-byte payload");
        }
        if (n > 0) {
            writeAt(position, src);
        }
        position += n;
        return n;
    }

    @Override
    public final long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public final SeekableByteChannel position(long p) throws IOException {
        ensureOpen();
        if (p < 0) {
            throw new IllegalArgumentException("Negative position " + p);
        }
        position = p;
        return this;
    }

    @Override
    public final long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public final SeekableByteChannel truncate(long s) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        throw new IOException("The payload's size is fixed at " + size + " bytes: truncate is not supported");
    }

    @Override
    public final boolean isOpen() {
        return open;
    }

    @Override
    public final void close() {
        if (open) {
            open = false;
            closed();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
