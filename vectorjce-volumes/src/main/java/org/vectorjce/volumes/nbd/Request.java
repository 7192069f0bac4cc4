package org.vectorjce.volumes.nbd;

import static org.vectorjce.volumes.nbd.Nbd.*;

import java.nio.ByteBuffer;

/**
 * One request of the transmission phase ("Request message" of {@code doc/proto.md}), and the one
 * place that decides whether it is served: {@link #check} gives the errno to answer, or 0.
 *
 * @param flags the command flags ("Command flags")
 * @param type the command ("Request types")
 * @param cookie the client's handle, echoed in every reply
 * @param offset the offset, an unsigned 64-bit number read as a {@code long} (above 2^63 it is negative)
 * @param length the length, an unsigned 32-bit number
 */
record Request(int flags, int type, long cookie, long offset, long length) {
    /** The command flags this server knows; any other bit is {@code EINVAL}. */
    private static final int KNOWN_FLAGS = CMD_FLAG_FUA | CMD_FLAG_NO_HOLE | CMD_FLAG_DF;

    /** What {@link #check} decided: {@code errno} 0 to serve, else the error and one line saying why. */
    record Verdict(int errno, String message) {
        static final Verdict SERVE = new Verdict(0, "");

        boolean served() {
            return errno == 0;
        }
    }

    /**
     * The request in {@code header}'s {@link Nbd#REQUEST_BYTES} bytes.
     *
     * @throws ProtocolException when the magic is wrong: the stream is out of step and no reply can follow
     */
    static Request parse(ByteBuffer header) throws ProtocolException {
        if (header.getInt() != REQUEST_MAGIC) {
            throw new ProtocolException("bad request magic");
        }
        int flags = header.getShort() & 0xffff;
        int type = header.getShort() & 0xffff;
        return new Request(flags, type, header.getLong(), header.getLong(), Integer.toUnsignedLong(header.getInt()));
    }

    /** Whether the client asked for this request's data to be durable before the reply ({@code NBD_CMD_FLAG_FUA}). */
    boolean fua() {
        return (flags & CMD_FLAG_FUA) != 0;
    }

    /**
     * Whether this request may be served on an export of {@code size} bytes, and the errno if not,
     * by the rules of {@code doc/proto.md} ("Request types", "Command flags", "Error values"):
     * <ul>
     * <li>an unknown command flag, or an unknown command: {@code EINVAL};
     * <li>a write, trim or write-zeroes on a read-only export: {@code EPERM};
     * <li>past the end (or wrapping past 2^64): {@code EINVAL} for a read or trim, {@code ENOSPC}
     *     for a write or write-zeroes;
     * <li>a read or write of 0 bytes or longer than {@code maxRequest}: {@code EINVAL} (the
     *     protocol leaves a length of 0 to the server; it must not disconnect);
     * <li>a read with {@code NBD_CMD_FLAG_DF} (one chunk) with structured replies that is longer
     *     than {@link BufferBudget#PIECE}, which is sent in several chunks: {@code EOVERFLOW}.
     * </ul>
     * A flush is always served; {@code NBD_CMD_DISC} never reaches here.
     *
     * @param structured whether structured replies were negotiated
     */
    Verdict check(long size, boolean readOnly, int maxRequest, boolean structured) {
        if ((flags & ~KNOWN_FLAGS) != 0) {
            return refuse(EINVAL, "unknown command flags");
        }
        boolean inside = offset >= 0 && length <= size && offset <= size - length;
        boolean writes = type == CMD_WRITE || type == CMD_TRIM || type == CMD_WRITE_ZEROES;
        if (writes && readOnly) {
            return refuse(EPERM, "read-only export");
        }
        switch (type) {
            case CMD_READ, CMD_WRITE -> {
                if (!inside && type == CMD_WRITE) {
                    return refuse(ENOSPC, "beyond the end of the export");
                }
                if (length == 0) {
                    return refuse(EINVAL, "zero length");
                }
                if (length > maxRequest) {
                    return refuse(EINVAL, "longer than " + maxRequest + " bytes");
                }
                if (!inside) {
                    return refuse(EINVAL, "beyond the end of the export");
                }
                if (type == CMD_READ && (flags & CMD_FLAG_DF) != 0 && structured && length > BufferBudget.PIECE) {
                    return refuse(EOVERFLOW, "longer than " + BufferBudget.PIECE + " bytes in one chunk");
                }
                return Verdict.SERVE;
            }
            case CMD_TRIM, CMD_WRITE_ZEROES -> {
                return inside ? Verdict.SERVE
                        : refuse(type == CMD_TRIM ? EINVAL : ENOSPC, "beyond the end of the export");
            }
            case CMD_FLUSH -> {
                return Verdict.SERVE;
            }
            default -> {
                return refuse(EINVAL, "command " + type + " is not supported");
            }
        }
    }

    private static Verdict refuse(int errno, String message) {
        return new Verdict(errno, message);
    }
}
