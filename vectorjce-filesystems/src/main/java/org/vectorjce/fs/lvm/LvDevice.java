package org.vectorjce.fs.lvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.util.List;
import org.vectorjce.device.Device;

/**
 * A logical volume's bytes: its segments, each a linear window of one PV or striped round-robin
 * over several (as the kernel's dm-linear and dm-stripe map them: chunk {@code c} of a segment is
 * chunk {@code c / stripes} of stripe {@code c % stripes}). A read that crosses a segment or a
 * chunk is split. Read-only; closing it leaves the PV devices open (they are the caller's).
 * Immutable, so any number of threads may read at once.
 */
final class LvDevice implements Device {
    /** Where stripe {@code i} of a segment starts on its PV, and its device. */
    record Stripe(Device device, long base) {
    }

    /**
     * One segment: LV bytes {@code [start, start + length)}; {@code chunk} 0 for linear (one stripe).
     * The stripes' ranges were checked to lie within their devices.
     */
    record Piece(long start, long length, long chunk, List<Stripe> stripes) {
    }

    private final List<Piece> pieces;
    private final long size;
    private volatile boolean closed;

    LvDevice(List<Piece> pieces, long size) {
        this.pieces = List.copyOf(pieces);
        this.size = size;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public boolean readOnly() {
        return true;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (closed) {
            throw new IOException("logical volume device is closed");
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= size) {
            return -1;
        }
        int total = 0;
        long at = offset;
        int i = piece(at);
        while (dst.hasRemaining() && at < size) {
            Piece p = pieces.get(i);
            if (at >= p.start() + p.length()) {
                i++;
                continue;
            }
            long o = at - p.start();
            long n = Math.min(dst.remaining(), p.length() - o);
            Stripe s;
            long pvOffset;
            if (p.chunk() == 0) {
                s = p.stripes().get(0);
                pvOffset = s.base() + o;
            } else {
                long chunk = o / p.chunk();
                long in = o % p.chunk();
                int k = p.stripes().size();
                s = p.stripes().get((int) (chunk % k));
                pvOffset = s.base() + chunk / k * p.chunk() + in;
                n = Math.min(n, p.chunk() - in);
            }
            ByteBuffer part = dst.slice();
            part.limit((int) n);
            s.device().readFully(part, pvOffset);
            dst.position(dst.position() + (int) n);
            at += n;
            total += (int) n;
        }
        return total;
    }

    /** The index of the piece holding LV byte {@code at} (binary search on the starts). */
    private int piece(long at) {
        int lo = 0;
        int hi = pieces.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (pieces.get(mid).start() <= at) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    @Override
    public void write(ByteBuffer src, long offset) {
        throw new NonWritableChannelException();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        closed = true;
    }
}
