package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.SectorChannel;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.RawKey;

/**
 * The plaintext payload of an open volume: {@code cryptsetup open}'s device as a channel.
 * Underneath, the provider's {@link SectorChannel} over a window of the image for every mode
 * {@code SectorParameterSpec} takes; {@code ecb} and {@code lrw-plain64} run whole sectors here
 * through {@link SectorCipher.Decryptor}s (one decrypting, one encrypting).
 *
 * <p>Reads at any position and length. On a volume opened for writing, writes at any position
 * and length inside the payload: whole sectors are encrypted and written as they come (one cipher
 * call per run of up to 1 MiB), a sector only partly covered is read, decrypted, patched and
 * re-encrypted. A write that would reach past the payload's end throws an {@code IOException}
 * naming the payload's size and writes nothing; the payload never grows or shrinks
 * ({@code truncate} throws an {@code IOException}). A failed write consumes nothing of its buffer
 * and leaves the position; each sector it reached holds its old or its new ciphertext, as far as
 * the image's own writes are whole. Read-only channels throw {@link NonWritableChannelException}
 * from {@code write} and {@code truncate}. Closing wipes the key copies and buffers, and leaves the
 * image to the volume. Not thread-safe; channels of one volume are independent of each other.
 */
final class PayloadChannel implements SeekableByteChannel {
    private static final int RUN = 1 << 20;

    private final SectorChannel sectors;          // or
    private final SectorCipher.Decryptor decryptor, encryptor;
    private final WindowChannel window;
    private final int sectorSize;
    private final boolean writable;
    private final byte[] work;
    private long position;
    private boolean open = true;

    private PayloadChannel(SectorChannel sectors, SectorCipher.Decryptor decryptor, SectorCipher.Decryptor encryptor,
            WindowChannel window, int sectorSize, boolean writable) {
        this.sectors = sectors;
        this.decryptor = decryptor;
        this.encryptor = encryptor;
        this.window = window;
        this.sectorSize = sectorSize;
        this.writable = writable;
        this.work = decryptor != null ? new byte[RUN] : null;
    }

    /**
     * The payload {@code [offset, offset + size)} of {@code data} with {@code cipher} and {@code key}
     * (copied); {@code writable} only when {@code data} was opened for writing.
     */
    static PayloadChannel open(Image data, SectorCipher cipher, byte[] key, long offset, long size, int sectorSize,
            long ivOffset, boolean writable) throws IOException, UnsupportedVolumeException {
        if (size % sectorSize != 0) {
            throw new IOException("The payload is " + size + " bytes: not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        WindowChannel w = new WindowChannel(data, offset, size, writable);
        if (cipher.viaSectorSpec()) {
            int per = sectorSize / 512;
            if (Long.remainderUnsigned(ivOffset, per) != 0) {
                throw new UnsupportedVolumeException("IV offset " + ivOffset
                        + " is not a whole number of " + sectorSize + "-byte sectors");
            }
            RawKey k = new RawKey(cipher.algorithm, key);
            try {
                return new PayloadChannel(SectorChannel.open(w, cipher.spec, k, sectorSize, Long.divideUnsigned(ivOffset, per), false),
                        null, null, w, sectorSize, writable);
            } catch (GeneralSecurityException e) {
                throw new UnsupportedVolumeException(cipher.spec + ": " + e.getMessage());
            } finally {
                k.destroy();
            }
        }
        SectorCipher.Decryptor dec = cipher.decryptor(key, sectorSize, ivOffset);
        SectorCipher.Decryptor enc = null;
        try {
            enc = writable ? cipher.encryptor(key, sectorSize, ivOffset) : null;
        } finally {
            if (writable && enc == null) {
                dec.close();
            }
        }
        return new PayloadChannel(null, dec, enc, w, sectorSize, writable);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (sectors != null) {
            return sectors.read(dst);
        }
        long size = window.size();
        if (position >= size) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), size - position);
        int done = 0;
        try {
            while (done < n) {
                long p = position + done;
                long s = p / sectorSize;
                int skip = (int) (p - s * sectorSize);
                int len = (int) Math.min((long) (Math.min(n - done + skip, RUN) + sectorSize - 1) / sectorSize * sectorSize,
                        size - s * sectorSize);
                readSectors(s, 0, len);
                decryptor.decrypt(work, 0, len, s);
                int take = Math.min(len - skip, n - done);
                dst.put(work, skip, take);
                done += take;
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // checked at open; not expected
        } finally {
            Arrays.fill(work, (byte) 0);
        }
        position += n;
        return n;
    }

    /**
     * Writes all of {@code src} at the position (see the class comment): an {@code IOException}
     * naming the payload's size, and nothing written, when it would reach past the end.
     */
    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        long size = window.size();
        long at = position();
        int n = src.remaining();
        if (at > size || n > size - at) {
            throw new IOException("A write of " + n + " bytes at " + at + " goes past the end of the " + size
                    + "-byte payload");
        }
        if (sectors != null) {
            return sectors.write(src);
        }
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
                    decryptor.decrypt(work, 0, sectorSize, s);
                }
                if (tail && (len > sectorSize || !head)) { // and the last one's
                    long last = s + len / sectorSize - 1;
                    readSectors(last, len - sectorSize, sectorSize);
                    decryptor.decrypt(work, len - sectorSize, sectorSize, last);
                }
                src.get(work, skip, take);
                encryptor.decrypt(work, 0, len, s);
                window.position(s * sectorSize);
                window.write(ByteBuffer.wrap(work, 0, len));
                done += take;
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // checked at open; not expected
        } finally {
            Arrays.fill(work, (byte) 0);
            if (done < n) {
                src.position(start); // a failed write consumes nothing and moves nothing
            }
        }
        position += n;
        return n;
    }

    /** Reads {@code len} bytes of whole sectors from sector {@code s} into {@code work[off..]}. */
    private void readSectors(long s, int off, int len) throws IOException {
        window.position(s * sectorSize);
        ByteBuffer b = ByteBuffer.wrap(work, off, len);
        while (b.hasRemaining()) {
            if (window.read(b) < 0) {
                throw new IOException("The payload ended inside a sector");
            }
        }
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return sectors != null ? sectors.position() : position;
    }

    @Override
    public SeekableByteChannel position(long p) throws IOException {
        ensureOpen();
        if (p < 0) {
            throw new IllegalArgumentException("Negative position " + p);
        }
        if (sectors != null) {
            sectors.position(p);
        } else {
            position = p;
        }
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return window.size();
    }

    /** Refused: {@link NonWritableChannelException} when read-only, else an {@code IOException}. */
    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
        ensureOpen();
        return window.truncate(size);
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        if (sectors != null) {
            sectors.close(); // wipes its key and schedules; closes the window, not the image
        } else {
            decryptor.close();
            if (encryptor != null) {
                encryptor.close();
            }
            window.close();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
