package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.SectorPayload;

/**
 * The plaintext payload of an open volume: {@code cryptsetup open}'s device as a channel. The
 * reading is {@link SectorPayload}'s, over bytes {@code [offset, offset + size)} of the image, whole
 * sectors decrypted by a {@link VolumeCipher.SectorRuns} (one cipher call per run of up to 1 MiB,
 * except {@code lrw-plain64}, which is keyed per sector).
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
final class PayloadChannel extends SectorPayload {
    private final Image image;
    private final long offset;
    private final VolumeCipher.SectorRuns decryptor, encryptor;

    private PayloadChannel(Image image, long offset, long size, int sectorSize, boolean writable,
            VolumeCipher.SectorRuns decryptor, VolumeCipher.SectorRuns encryptor) {
        super(size, sectorSize, writable);
        this.image = image;
        this.offset = offset;
        this.decryptor = decryptor;
        this.encryptor = encryptor;
    }

    /**
     * The payload {@code [offset, offset + size)} of {@code data} with {@code cipher} and {@code key}
     * (copied); {@code writable} only when {@code data} was opened for writing.
     */
    static PayloadChannel open(Image data, VolumeCipher cipher, byte[] key, long offset, long size, int sectorSize,
            long ivOffset, boolean writable) throws IOException, UnsupportedVolumeException {
        if (size % sectorSize != 0) {
            throw new IOException("The payload is " + size + " bytes: not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        VolumeCipher.SectorRuns dec = cipher.decryptor(key, sectorSize, ivOffset);
        VolumeCipher.SectorRuns enc = null;
        try {
            enc = writable ? cipher.encryptor(key, sectorSize, ivOffset) : null;
        } finally {
            if (writable && enc == null) {
                dec.close();
            }
        }
        return new PayloadChannel(data, offset, size, sectorSize, writable, dec, enc);
    }

    @Override
    protected void readCiphertext(long at, ByteBuffer dst) throws IOException {
        image.readFully(offset + at, dst);
    }

    @Override
    protected void decrypt(byte[] b, int off, int len, long sector) throws GeneralSecurityException {
        decryptor.apply(b, off, len, sector);
    }

    /** Writes all of {@code src} at {@code position} (inside the payload: checked by the caller). */
    @Override
    protected void writeAt(long position, ByteBuffer src) throws IOException {
        int sectorSize = sectorSize();
        byte[] work = work();
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
                    decryptor.apply(work, 0, sectorSize, s);
                }
                if (tail && (len > sectorSize || !head)) { // and the last one's
                    long last = s + len / sectorSize - 1;
                    readSectors(last, len - sectorSize, sectorSize);
                    decryptor.apply(work, len - sectorSize, sectorSize, last);
                }
                src.get(work, skip, take);
                encryptor.apply(work, 0, len, s);
                image.writeFully(offset + s * sectorSize, ByteBuffer.wrap(work, 0, len));
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
    }

    @Override
    protected void wipe() {
        decryptor.close();
        if (encryptor != null) {
            encryptor.close();
        }
    }
}
