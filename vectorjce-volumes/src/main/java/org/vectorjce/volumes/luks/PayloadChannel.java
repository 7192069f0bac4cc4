package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.SectorChannel;

/**
 * The plaintext payload of an open volume, read-only: {@code cryptsetup open}'s device as a
 * channel. Underneath, the provider's {@link SectorChannel} over a window of the image for every
 * mode {@code SectorParameterSpec} takes; {@code ecb} and {@code lrw-plain64} decrypt whole sectors
 * here through {@link SectorCipher.Decryptor}. Reads at any position and length; writes and
 * truncation throw {@link NonWritableChannelException}. Closing wipes the key copies and buffers,
 * and leaves the image to the volume. Not thread-safe.
 */
final class PayloadChannel implements SeekableByteChannel {
    private static final int RUN = 1 << 20;

    private final SectorChannel sectors;          // or
    private final SectorCipher.Decryptor decryptor;
    private final WindowChannel window;
    private final int sectorSize;
    private final byte[] work;
    private long position;
    private boolean open = true;

    private PayloadChannel(SectorChannel sectors, SectorCipher.Decryptor decryptor, WindowChannel window,
            int sectorSize) {
        this.sectors = sectors;
        this.decryptor = decryptor;
        this.window = window;
        this.sectorSize = sectorSize;
        this.work = decryptor != null ? new byte[RUN] : null;
    }

    static PayloadChannel open(Image data, SectorCipher cipher, byte[] key, long offset, long size, int sectorSize,
            long ivOffset) throws IOException, org.vectorjce.volumes.UnsupportedVolumeException {
        WindowChannel w = new WindowChannel(data, offset, size);
        if (cipher.viaSectorSpec()) {
            int per = sectorSize / 512;
            if (Long.remainderUnsigned(ivOffset, per) != 0) {
                throw new org.vectorjce.volumes.UnsupportedVolumeException("IV offset " + ivOffset
                        + " is not a whole number of " + sectorSize + "-byte sectors");
            }
            RawKey k = new RawKey(cipher.algorithm, key);
            try {
                return new PayloadChannel(SectorChannel.open(w, cipher.spec, k, sectorSize, Long.divideUnsigned(ivOffset, per), false),
                        null, w, sectorSize);
            } catch (GeneralSecurityException e) {
                throw new org.vectorjce.volumes.UnsupportedVolumeException(cipher.spec + ": " + e.getMessage());
            } finally {
                k.destroy();
            }
        }
        return new PayloadChannel(null, cipher.decryptor(key, sectorSize, ivOffset), w, sectorSize);
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
                window.position(s * sectorSize);
                ByteBuffer b = ByteBuffer.wrap(work, 0, len);
                while (b.hasRemaining()) {
                    if (window.read(b) < 0) {
                        throw new IOException("The payload ended inside a sector");
                    }
                }
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

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
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

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
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
            window.close();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
