package org.vectorjce.volumes.nbd;

import static org.vectorjce.volumes.nbd.Nbd.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;

/**
 * The handshake of one connection: fixed newstyle negotiation and option haggling until the client
 * enters transmission or leaves ("Handshake", "Fixed newstyle negotiation" and "Option types" of
 * {@code doc/proto.md}). Served: {@code NBD_OPT_EXPORT_NAME}, {@code INFO}, {@code GO},
 * {@code LIST}, {@code ABORT}, {@code STRUCTURED_REPLY} and {@code STARTTLS} ("TLS support": when
 * the server has TLS, every option but {@code STARTTLS} and {@code ABORT} before it is answered
 * {@code NBD_REP_ERR_TLS_REQD}); any other option is answered {@code NBD_REP_ERR_UNSUP}.
 */
final class Handshake {
    /** Longest option data read; more is answered {@code NBD_REP_ERR_TOO_BIG} and skipped. */
    static final int MAX_OPTION = 64 * 1024;

    private final Connection conn;
    private final Export export;
    private final SSLContext tls;
    private boolean structured;

    /** @param tls the server's TLS context (TLS then required), or null */
    Handshake(Connection conn, Export export, SSLContext tls) {
        this.conn = conn;
        this.export = export;
        this.tls = tls;
    }

    /** Whether the client asked for structured replies ({@code NBD_OPT_STRUCTURED_REPLY}). */
    boolean structured() {
        return structured;
    }

    /**
     * Haggles until the client enters transmission (true) or the session ends (false: the client
     * aborted, or broke a rule whose only answer is to close).
     */
    boolean run() throws IOException {
        conn.write(ByteBuffer.allocate(18).putLong(NBDMAGIC).putLong(IHAVEOPT)
                .putShort((short) (FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES)).flip());
        int clientFlags = conn.read(4).getInt();
        if ((clientFlags & ~(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES)) != 0 || (clientFlags & FLAG_FIXED_NEWSTYLE) == 0) {
            return false; // "Newstyle negotiation": unknown client flags close; so does an old client
        }
        boolean noZeroes = (clientFlags & FLAG_NO_ZEROES) != 0;
        while (true) {
            ByteBuffer h = conn.read(16);
            if (h.getLong() != IHAVEOPT) {
                return false;
            }
            int opt = h.getInt();
            int len = h.getInt();
            if (len < 0 || len > MAX_OPTION) {
                if (opt == OPT_EXPORT_NAME) {
                    return false;
                }
                conn.skip(Integer.toUnsignedLong(len));
                reply(opt, REP_ERR_TOO_BIG, "option data too long");
                continue;
            }
            ByteBuffer data = conn.read(len);
            if (tls != null && !conn.tlsOn() && opt != OPT_STARTTLS && opt != OPT_ABORT) {
                if (opt == OPT_EXPORT_NAME) {
                    return false; // it has no error reply: close
                }
                reply(opt, REP_ERR_TLS_REQD, "TLS is required: send NBD_OPT_STARTTLS first");
                continue;
            }
            switch (opt) {
                case OPT_STARTTLS -> startTls(len);
                case OPT_EXPORT_NAME -> {
                    if (!export.answersTo(utf8(data, len))) {
                        return false; // the protocol's only answer: close
                    }
                    ByteBuffer r = ByteBuffer.allocate(10 + (noZeroes ? 0 : 124)).putLong(export.size())
                            .putShort((short) export.transmissionFlags());
                    conn.write(r.position(r.capacity()).flip());
                    return true;
                }
                case OPT_ABORT -> {
                    reply(opt, REP_ACK, (ByteBuffer) null);
                    return false;
                }
                case OPT_LIST -> list(len);
                case OPT_STRUCTURED_REPLY -> {
                    if (len != 0) {
                        reply(opt, REP_ERR_INVALID, "NBD_OPT_STRUCTURED_REPLY takes no data");
                    } else {
                        structured = true;
                        reply(opt, REP_ACK, (ByteBuffer) null);
                    }
                }
                case OPT_INFO, OPT_GO -> {
                    if (info(opt, data, len) && opt == OPT_GO) {
                        return true;
                    }
                }
                default -> reply(opt, REP_ERR_UNSUP, "option " + opt + " is not supported");
            }
        }
    }

    /** {@code NBD_OPT_STARTTLS}: acknowledged, then the TLS handshake; the options start again over TLS. */
    private void startTls(int len) throws IOException {
        if (tls == null) {
            reply(OPT_STARTTLS, REP_ERR_UNSUP, "this server has no TLS certificate");
        } else if (len != 0) {
            reply(OPT_STARTTLS, REP_ERR_INVALID, "NBD_OPT_STARTTLS takes no data");
        } else if (conn.tlsOn()) {
            reply(OPT_STARTTLS, REP_ERR_INVALID, "TLS is already on");
        } else {
            reply(OPT_STARTTLS, REP_ACK, (ByteBuffer) null);
            conn.startTls();
        }
    }

    /** {@code NBD_OPT_LIST}: the one export's name. */
    private void list(int len) throws IOException {
        if (len != 0) {
            reply(OPT_LIST, REP_ERR_INVALID, "NBD_OPT_LIST takes no data");
            return;
        }
        byte[] name = export.name().getBytes(StandardCharsets.UTF_8);
        reply(OPT_LIST, REP_SERVER, ByteBuffer.allocate(4 + name.length).putInt(name.length).put(name).flip());
        reply(OPT_LIST, REP_ACK, (ByteBuffer) null);
    }

    /**
     * {@code NBD_OPT_INFO} or {@code GO}: the export's size and flags, and the name, description
     * and block sizes when asked ("Block size constraints"); true when it was acknowledged.
     */
    private boolean info(int opt, ByteBuffer data, int len) throws IOException {
        if (len < 6) {
            reply(opt, REP_ERR_INVALID, "option data too short");
            return false;
        }
        int nameLen = data.getInt();
        if (nameLen < 0 || nameLen > len - 6) {
            reply(opt, REP_ERR_INVALID, "export name length " + Integer.toUnsignedString(nameLen) + " is wrong");
            return false;
        }
        String name = utf8(data, nameLen);
        data.position(data.position() + nameLen);
        int requests = data.getShort() & 0xffff;
        if (data.remaining() != 2 * requests) {
            reply(opt, REP_ERR_INVALID, "information request count does not match the data");
            return false;
        }
        if (!export.answersTo(name)) {
            reply(opt, REP_ERR_UNKNOWN, "no export of that name");
            return false;
        }
        boolean wantsName = false, wantsDescription = false, wantsBlockSize = false;
        for (int i = 0; i < requests; i++) {
            switch (data.getShort() & 0xffff) {
                case INFO_NAME -> wantsName = true;
                case INFO_DESCRIPTION -> wantsDescription = true;
                case INFO_BLOCK_SIZE -> wantsBlockSize = true;
                default -> {
                    // unknown or NBD_INFO_EXPORT (always sent): ignored, as the protocol says
                }
            }
        }
        reply(opt, REP_INFO, ByteBuffer.allocate(12).putShort((short) INFO_EXPORT).putLong(export.size())
                .putShort((short) export.transmissionFlags()).flip());
        if (wantsName) {
            byte[] e = export.name().getBytes(StandardCharsets.UTF_8);
            reply(opt, REP_INFO, ByteBuffer.allocate(2 + e.length).putShort((short) INFO_NAME).put(e).flip());
        }
        if (wantsDescription) {
            byte[] d = export.description().getBytes(StandardCharsets.UTF_8);
            reply(opt, REP_INFO, ByteBuffer.allocate(2 + d.length).putShort((short) INFO_DESCRIPTION).put(d).flip());
        }
        if (wantsBlockSize) {
            // minimum 1: any length works; preferred: the sector; maximum: the longest request
            reply(opt, REP_INFO, ByteBuffer.allocate(14).putShort((short) INFO_BLOCK_SIZE).putInt(1)
                    .putInt(export.preferredBlock()).putInt(export.maxRequest()).flip());
        }
        reply(opt, REP_ACK, (ByteBuffer) null);
        return true;
    }

    /** The {@code len} bytes at {@code data}'s position as UTF-8, the position left where it is. */
    private static String utf8(ByteBuffer data, int len) {
        byte[] n = new byte[len];
        data.get(data.position(), n);
        return new String(n, StandardCharsets.UTF_8);
    }

    private void reply(int opt, int type, String message) throws IOException {
        reply(opt, type, ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)));
    }

    /** An option reply ("Fixed newstyle negotiation"): magic, option, type, length, data. */
    private void reply(int opt, int type, ByteBuffer data) throws IOException {
        int len = data == null ? 0 : data.remaining();
        conn.write(ByteBuffer.allocate(20).putLong(OPT_REPLY).putInt(opt).putInt(type).putInt(len).flip());
        if (data != null) {
            conn.write(data);
        }
    }
}
