package org.vectorjce.volumes.nbd;

import static org.vectorjce.volumes.nbd.Nbd.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.Lock;
import org.vectorjce.device.Device;

/**
 * The transmission phase of one connection ("Transmission" of {@code doc/proto.md}): requests in
 * order, one at a time, each {@link Request#check checked} to an errno in one place and then
 * served on the connection's {@link Device} at the request's offset. Served: {@code NBD_CMD_READ},
 * {@code WRITE}, {@code FLUSH}, {@code DISC}, {@code TRIM} (accepted, nothing discarded: the
 * ciphertext stays), {@code WRITE_ZEROES}, and {@code NBD_CMD_FLAG_FUA}.
 *
 * <p>Reads and writes longer than {@link BufferBudget#PIECE} are served a piece at a time from
 * one buffer of the {@link BufferBudget}: a write is applied as its data arrives, a read is sent
 * as it is read. A refused write's data is still read past, so the connection stays in step.
 */
final class Transmission {
    private final Connection conn;
    private final Export export;
    private final BufferBudget budget;
    private final Device device;
    private final boolean structured;

    /** @param structured whether the handshake negotiated structured replies */
    Transmission(Connection conn, Export export, BufferBudget budget, Device device, boolean structured) {
        this.conn = conn;
        this.export = export;
        this.budget = budget;
        this.device = device;
        this.structured = structured;
    }

    /** Serves requests until {@code NBD_CMD_DISC}, the client leaves, or the connection is stopped. */
    void run() throws IOException {
        while (true) {
            ByteBuffer header = conn.read(REQUEST_BYTES);
            if (!conn.begin()) {
                return;
            }
            try {
                Request r = Request.parse(header);
                if (r.type() == CMD_DISC) {
                    return;
                }
                Request.Verdict v = r.check(export.size(), export.readOnly(), export.maxRequest(), structured);
                if (v.served()) {
                    serve(r);
                } else {
                    if (r.type() == CMD_WRITE) {
                        conn.skip(r.length());
                    }
                    error(r, v.errno(), v.message());
                }
            } finally {
                conn.end();
            }
        }
    }

    /** Serves a request {@link Request#check} accepted. */
    private void serve(Request r) throws IOException {
        switch (r.type()) {
            case CMD_READ -> read(r);
            case CMD_WRITE -> write(r);
            case CMD_WRITE_ZEROES -> zeroes(r);
            case CMD_FLUSH -> done(r, flush());
            // nothing is discarded: the ciphertext stays
            case CMD_TRIM -> done(r, !r.fua() || flush());
            default -> throw new IllegalStateException("command " + r.type() + " passed the check");
        }
    }

    /**
     * A read, {@link BufferBudget#PIECE} bytes at a time: a simple reply's header goes with the
     * first piece (an error reading that one is still an error reply; a later one can only end the
     * connection, "Simple reply message"); with structured replies each piece is an
     * {@code OFFSET_DATA} chunk, the last one final, and an error an {@code ERROR} chunk.
     */
    private void read(Request r) throws IOException {
        int length = (int) r.length();
        int piece = Math.min(length, BufferBudget.PIECE);
        ByteBuffer b = budget.take(piece);
        try {
            for (int done = 0; done < length; ) {
                int n = Math.min(piece, length - done);
                long at = r.offset() + done;
                b.clear().limit(n);
                Lock lock = export.readLock();
                lock.lock();
                try {
                    device.readFully(b, at);
                } catch (IOException e) {
                    if (done > 0 && !structured) {
                        throw e; // the reply said success and some data went: hard disconnect
                    }
                    error(r, EIO, "read failed");
                    return;
                } finally {
                    lock.unlock();
                }
                b.flip();
                if (structured) {
                    ByteBuffer h = ByteBuffer.allocate(28).putInt(STRUCTURED_REPLY)
                            .putShort((short) (done + n == length ? REPLY_FLAG_DONE : 0))
                            .putShort((short) REPLY_TYPE_OFFSET_DATA).putLong(r.cookie()).putInt(8 + n).putLong(at);
                    conn.write(h.flip(), b);
                } else if (done == 0) {
                    conn.write(simpleReply(r, 0), b);
                } else {
                    conn.write(b);
                }
                done += n;
            }
        } finally {
            budget.give(b);
        }
    }

    /**
     * A write, {@link BufferBudget#PIECE} bytes at a time as its data arrives, each piece under the
     * write lock. After a piece fails the rest of the data is still read and the reply is {@code EIO}.
     */
    private void write(Request r) throws IOException {
        int length = (int) r.length();
        int piece = Math.min(length, BufferBudget.PIECE);
        ByteBuffer b = budget.take(piece);
        try {
            boolean ok = true;
            for (int done = 0; done < length; ) {
                int n = Math.min(piece, length - done);
                b.clear().limit(n);
                conn.fill(b);
                b.flip();
                ok = ok && writeAt(b, r.offset() + done);
                done += n;
            }
            done(r, ok && (!r.fua() || flush()));
        } finally {
            budget.give(b);
        }
    }

    /** False when the device refused the write. */
    private boolean writeAt(ByteBuffer b, long offset) {
        Lock lock = export.writeLock();
        lock.lock();
        try {
            device.write(b, offset);
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** {@code NBD_CMD_WRITE_ZEROES}: zeroes written a piece at a time, all under the write lock. */
    private void zeroes(Request r) throws IOException {
        int chunk = (int) Math.min(r.length(), Math.min(BufferBudget.PIECE, budget.bytes()));
        budget.reserve(chunk);
        try {
            ByteBuffer z = ByteBuffer.allocate(chunk);
            boolean ok = true;
            Lock lock = export.writeLock();
            lock.lock();
            try {
                for (long done = 0; done < r.length(); done += z.limit()) {
                    z.clear().limit((int) Math.min(r.length() - done, chunk));
                    device.write(z, r.offset() + done);
                }
            } catch (IOException e) {
                ok = false;
            } finally {
                lock.unlock();
            }
            done(r, ok && (!r.fua() || flush()));
        } finally {
            budget.release(chunk);
        }
    }

    /** Flushes the export; false when that failed. */
    private boolean flush() {
        try {
            export.flush(device);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The reply to a request without data: success, or {@code EIO}. */
    private void done(Request r, boolean ok) throws IOException {
        if (ok) {
            conn.write(simpleReply(r, 0));
        } else {
            error(r, EIO, r.type() == CMD_FLUSH ? "flush failed" : "write failed");
        }
    }

    /**
     * An error reply: to a read with structured replies an {@code ERROR} chunk with the message
     * ("Structured reply types"), else a simple reply carrying the errno.
     */
    private void error(Request r, int errno, String message) throws IOException {
        if (structured && r.type() == CMD_READ) {
            byte[] m = message.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(20 + 6 + m.length).putInt(STRUCTURED_REPLY)
                    .putShort((short) REPLY_FLAG_DONE).putShort((short) REPLY_TYPE_ERROR).putLong(r.cookie())
                    .putInt(6 + m.length).putInt(errno).putShort((short) m.length).put(m);
            conn.write(b.flip());
        } else {
            conn.write(simpleReply(r, errno));
        }
    }

    /** A simple reply to {@code r} ("Simple reply message"): magic, errno (0: success), cookie. */
    private static ByteBuffer simpleReply(Request r, int errno) {
        return ByteBuffer.allocate(16).putInt(SIMPLE_REPLY).putInt(errno).putLong(r.cookie()).flip();
    }
}
