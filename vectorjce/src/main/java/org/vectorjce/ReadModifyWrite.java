package org.vectorjce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@link SectorChannel}'s one read-modify-write: plaintext at any offset and length over whole
 * sectors of a {@link SectorChannel.Sectors}. Reads fetch whole sectors of ciphertext and decrypt
 * them in place, runs of up to 1 MiB per cipher call (whole sectors into a heap buffer straight
 * into the caller's array); a write that covers part of a sector reads, decrypts, patches and
 * re-encrypts that sector, and every write to the image starts and ends on sector boundaries.
 * Each call takes a lane (a transform with its own key schedules and a 1 MiB work buffer) from a
 * pool, or keys a new one when every lane is in use, so calls on many threads run at once; the
 * work buffer is wiped after each run. {@link #close()} wipes the lanes not in use, and a lane in
 * use when it returns.
 */
final class ReadModifyWrite {
    /** Bytes per cipher call and image read/write: 1 MiB. */
    static final int RUN = 1 << 20;

    /** The image's size now (it grows with writes on a channel without a window). */
    @FunctionalInterface
    interface Size {
        long get() throws IOException;
    }

    private final SectorChannel.Sectors sectors;
    private final int sectorSize;
    /** The lanes not in use by a call. */
    private final ConcurrentLinkedQueue<Lane> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean open = true;

    /** Over {@code sectors} of {@code sectorSize} bytes; {@code first}, keyed at open, is the first lane's. */
    ReadModifyWrite(SectorChannel.Sectors sectors, int sectorSize, SectorChannel.Transform first) {
        this.sectors = sectors;
        this.sectorSize = sectorSize;
        idle.add(new Lane(first));
    }

    /** One caller's cipher and work buffer (allocated at first use). */
    private static final class Lane {
        final SectorChannel.Transform transform;
        byte[] work;

        Lane(SectorChannel.Transform transform) {
            this.transform = transform;
        }

        byte[] work() {
            if (work == null) {
                work = new byte[RUN];
            }
            return work;
        }

        void close() {
            transform.close();
            if (work != null) {
                Arrays.fill(work, (byte) 0);
            }
        }
    }

    private Lane acquire() throws IOException {
        Lane l = idle.poll();
        if (l != null) {
            return l;
        }
        try {
            l = new Lane(sectors.transform());
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // keyed and checked at open; not expected
        }
        return l;
    }

    /** Returns {@code l} to the pool, or wipes it when the channel was closed while it was in use. */
    private void release(Lane l) {
        idle.add(l);
        if (!open && idle.remove(l)) {
            l.close(); // close() drained the pool before l came back (else it closed l itself)
        }
    }

    /**
     * Fills {@code dst} (all of it inside the {@code size} bytes) with the plaintext from {@code p},
     * on a lane of its own.
     */
    void read(long p, ByteBuffer dst, long size) throws IOException {
        Lane lane = acquire();
        try {
            while (dst.hasRemaining()) {
                long s = p / sectorSize * sectorSize;
                int skip = (int) (p - s);
                int want = dst.remaining();
                if (skip == 0 && want >= sectorSize && dst.hasArray()) {
                    // whole sectors straight into the caller's array, decrypted there: no copy
                    int len = (int) Math.min(Math.min(want, RUN) / sectorSize * sectorSize, size - p);
                    int at = dst.arrayOffset() + dst.position();
                    sectors.read(p, ByteBuffer.wrap(dst.array(), at, len));
                    lane.transform.decrypt(p, dst.array(), at, len);
                    dst.position(dst.position() + len);
                    p += len;
                    continue;
                }
                byte[] w = lane.work();
                int len = (int) Math.min((long) (Math.min(want + skip, RUN) + sectorSize - 1) / sectorSize * sectorSize,
                        size - s);
                try {
                    sectors.read(s, ByteBuffer.wrap(w, 0, len));
                    lane.transform.decrypt(s, w, 0, len);
                    int take = Math.min(len - skip, want);
                    dst.put(w, skip, take);
                    p += take;
                } finally {
                    Arrays.fill(w, 0, len, (byte) 0); // plaintext: wiped, as far as it was used
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // keyed and checked at open; not expected
        } finally {
            release(lane);
        }
    }

    /**
     * Writes all of {@code src} at {@code position} on a lane of its own, first extending the
     * image with encrypted zero sectors from {@code size} when {@code position} is past it; a
     * failure consumes nothing of {@code src}. {@code size} is the image's now, and again per run.
     */
    void write(long position, ByteBuffer src, Size size) throws IOException {
        Lane lane = acquire();
        try {
            long now = size.get();
            if (position > now) {
                extendWithZeros(lane, now, position);
            }
            writeAt(lane, position, src, size);
        } finally {
            release(lane);
        }
    }

    private void writeAt(Lane lane, long position, ByteBuffer src, Size size) throws IOException {
        int n = src.remaining();
        int done = 0, used = 0;
        int srcStart = src.position();
        byte[] w = n > 0 ? lane.work() : null;
        try {
            while (done < n) {
                long p = position + done;
                long start = p / sectorSize * sectorSize;
                int skip = (int) (p - start);
                int len = (Math.min(n - done + skip, RUN) + sectorSize - 1) / sectorSize * sectorSize;
                int take = Math.min(len - skip, n - done);
                long imageSize = size.get();
                // A sector only partly covered keeps its other bytes: read and decrypt it first.
                boolean head = skip != 0;
                boolean tail = (skip + take) % sectorSize != 0;
                if (head || tail) {
                    Arrays.fill(w, 0, len, (byte) 0);
                    if (head && start < imageSize) {
                        sectors.read(start, ByteBuffer.wrap(w, 0, sectorSize));
                        lane.transform.decrypt(start, w, 0, sectorSize);
                    }
                    long last = start + len - sectorSize;
                    if (tail && last < imageSize && (last != start || !head)) {
                        sectors.read(last, ByteBuffer.wrap(w, len - sectorSize, sectorSize));
                        lane.transform.decrypt(last, w, len - sectorSize, sectorSize);
                    }
                }
                used = Math.max(used, len);
                src.get(w, skip, take);
                lane.transform.encrypt(start, w, 0, len);
                sectors.write(start, ByteBuffer.wrap(w, 0, len));
                done += take;
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e); // keyed and checked at open; not expected
        } finally {
            if (w != null) {
                Arrays.fill(w, 0, used, (byte) 0);
            }
            if (done < n) {
                src.position(srcStart); // a failed write consumes nothing of src
            }
        }
    }

    /** Encrypted zero sectors from {@code from} (a sector boundary) up to the sector holding {@code to}. */
    private void extendWithZeros(Lane lane, long from, long to) throws IOException {
        byte[] w = lane.work();
        long end = (to + sectorSize - 1) / sectorSize * sectorSize;
        try {
            for (long p = from; p < end; ) {
                int len = (int) Math.min(RUN, end - p);
                Arrays.fill(w, 0, len, (byte) 0);
                lane.transform.encrypt(p, w, 0, len);
                sectors.write(p, ByteBuffer.wrap(w, 0, len));
                p += len;
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("sector cipher failed", e);
        }
    }

    /** Wipes the lanes not in use; one in use is wiped when its call returns. */
    void close() {
        open = false;
        for (Lane l; (l = idle.poll()) != null; ) {
            l.close();
        }
    }
}
