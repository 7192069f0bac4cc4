package org.vectorjce.volumes;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small NBD client for the server's tests, written from {@code doc/proto.md} and not from the
 * server: the fixed newstyle handshake, any option with its replies, {@code NBD_OPT_GO} on the
 * default export, simple or (after {@code NBD_OPT_STRUCTURED_REPLY}) structured replies. Every
 * read of the socket is checked: a reply with the wrong magic or cookie fails the test, and a
 * closed connection is an {@link EOFException}. One request at a time.
 */
public final class NbdClient implements AutoCloseable {
    public static final long NBDMAGIC = 0x4e42444d41474943L, IHAVEOPT = 0x49484156454f5054L, OPT_REPLY = 0x3e889045565a9L;
    public static final int REQUEST_MAGIC = 0x25609513, SIMPLE_REPLY = 0x67446698, STRUCTURED_REPLY = 0x668e33ef;
    public static final int OPT_EXPORT_NAME = 1, OPT_ABORT = 2, OPT_LIST = 3, OPT_STARTTLS = 5, OPT_INFO = 6,
            OPT_GO = 7, OPT_STRUCTURED_REPLY = 8;
    public static final int REP_ACK = 1, REP_SERVER = 2, REP_INFO = 3, REP_ERR_UNSUP = 0x80000001,
            REP_ERR_INVALID = 0x80000003, REP_ERR_UNKNOWN = 0x80000006, REP_ERR_TOO_BIG = 0x80000009;
    public static final int CMD_READ = 0, CMD_WRITE = 1, CMD_DISC = 2, CMD_FLUSH = 3, CMD_TRIM = 4, CMD_CACHE = 5,
            CMD_WRITE_ZEROES = 6, CMD_BLOCK_STATUS = 7;
    public static final int CMD_FLAG_FUA = 1;
    public static final int EPERM = 1, EIO = 5, EINVAL = 22, ENOSPC = 28, EOVERFLOW = 75;

    public final SocketChannel ch;
    private long cookie = 1;
    private boolean structured;
    /** The export's size and transmission flags, after {@link #go()}. */
    public long size;
    public int transmissionFlags;
    /** How many content chunks the last structured read's reply had. */
    public int contentChunks;

    private NbdClient(SocketChannel ch) {
        this.ch = ch;
    }

    /** A connection with the server's greeting read and checked, nothing sent. */
    public static SocketChannel dial(Path socket) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer hello = readN(ch, 18);
            check(hello.getLong() == NBDMAGIC, "NBDMAGIC");
            check(hello.getLong() == IHAVEOPT, "IHAVEOPT");
            check((hello.getShort() & 1) == 1, "NBD_FLAG_FIXED_NEWSTYLE");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** A connection in option haggling: the greeting read, client flags FIXED_NEWSTYLE | NO_ZEROES sent. */
    public static NbdClient haggle(Path socket) throws IOException {
        NbdClient c = new NbdClient(dial(socket));
        c.ch.write(ByteBuffer.allocate(4).putInt(3).flip());
        return c;
    }

    /** A connection in transmission on the default export (simple replies). */
    public static NbdClient connect(Path socket) throws IOException {
        NbdClient c = haggle(socket);
        c.go();
        return c;
    }

    /** A connection in transmission on the default export with structured replies. */
    public static NbdClient connectStructured(Path socket) throws IOException {
        NbdClient c = haggle(socket);
        List<OptReply> r = c.option(OPT_STRUCTURED_REPLY, new byte[0]);
        check(r.size() == 1 && r.get(0).type() == REP_ACK, "NBD_OPT_STRUCTURED_REPLY acknowledged");
        c.structured = true;
        c.go();
        return c;
    }

    /** One option reply. */
    public record OptReply(int type, byte[] data) {
    }

    /**
     * Sends option {@code opt} with {@code data} and returns its replies up to the final one
     * (every reply but {@code NBD_REP_SERVER} and {@code NBD_REP_INFO} is final).
     */
    public List<OptReply> option(int opt, byte[] data) throws IOException {
        writeAll(ByteBuffer.allocate(16).putLong(IHAVEOPT).putInt(opt).putInt(data.length).flip(), ByteBuffer.wrap(data));
        return optionReplies(opt);
    }

    /** The replies to option {@code opt}, up to the final one. */
    public List<OptReply> optionReplies(int opt) throws IOException {
        List<OptReply> replies = new ArrayList<>();
        while (true) {
            ByteBuffer h = readN(20);
            check(h.getLong() == OPT_REPLY, "option reply magic");
            check(h.getInt() == opt, "option reply names option " + opt);
            int type = h.getInt();
            int len = h.getInt();
            check(len >= 0 && len <= 1 << 20, "option reply length " + len);
            replies.add(new OptReply(type, readN(len).array()));
            if (type != REP_SERVER && type != REP_INFO) {
                return replies;
            }
        }
    }

    /** NBD_OPT_GO on the default export, no information requested; fails unless acknowledged. */
    public void go() throws IOException {
        List<OptReply> r = option(OPT_GO, ByteBuffer.allocate(6).putInt(0).putShort((short) 0).array());
        OptReply last = r.get(r.size() - 1);
        check(last.type() == REP_ACK, "NBD_OPT_GO acknowledged, got " + Integer.toHexString(last.type()));
        for (OptReply i : r.subList(0, r.size() - 1)) {
            check(i.type() == REP_INFO, "NBD_REP_INFO");
            ByteBuffer b = ByteBuffer.wrap(i.data());
            if (b.getShort() == 0) {
                size = b.getLong();
                transmissionFlags = b.getShort() & 0xffff;
            }
        }
    }

    public static ByteBuffer header(int flags, int type, long cookie, long offset, int length) {
        return ByteBuffer.allocate(28).putInt(REQUEST_MAGIC).putShort((short) flags).putShort((short) type)
                .putLong(cookie).putLong(offset).putInt(length).flip();
    }

    /** A read's answer: the error (0: none) and the data. */
    public record Reply(int error, byte[] data) {
    }

    public Reply read(long offset, int length) throws IOException {
        return read(0, offset, length);
    }

    public Reply read(int flags, long offset, int length) throws IOException {
        long c = cookie++;
        writeAll(header(flags, CMD_READ, c, offset, length));
        if (!structured) {
            int error = simpleReply(c);
            return new Reply(error, error == 0 ? readN(length).array() : new byte[0]);
        }
        // structured: chunks until NBD_REPLY_FLAG_DONE; OFFSET_DATA chunks fill the buffer
        byte[] data = null;
        int error = 0;
        contentChunks = 0;
        while (true) {
            ByteBuffer h = readN(20);
            check(h.getInt() == STRUCTURED_REPLY, "structured reply magic");
            int flagsDone = h.getShort() & 0xffff;
            int type = h.getShort() & 0xffff;
            check(h.getLong() == c, "structured reply cookie");
            long len = Integer.toUnsignedLong(h.getInt());
            if (type == 1) { // OFFSET_DATA
                check(len >= 9 && len - 8 <= Integer.toUnsignedLong(length), "OFFSET_DATA length " + len);
                long at = readN(8).getLong();
                check(at >= offset && at - offset + len - 8 <= Integer.toUnsignedLong(length), "OFFSET_DATA within the request");
                if (data == null) {
                    data = new byte[length];
                }
                ByteBuffer dst = ByteBuffer.wrap(data, (int) (at - offset), (int) (len - 8));
                readFully(ch, dst);
                contentChunks++;
            } else if ((type & 0x8000) != 0) { // an error chunk
                check(len >= 6 && len <= 6 + 4096 + 8, "error chunk length " + len);
                ByteBuffer e = readN((int) len);
                error = e.getInt();
                check(error != 0, "an error chunk's error is nonzero");
                int m = e.getShort() & 0xffff;
                check(m <= len - 6, "error message length");
            } else if (type == 0) {
                check(len == 0, "NONE chunk is empty");
            } else {
                throw new AssertionError("unexpected structured reply type " + type);
            }
            if ((flagsDone & 1) != 0) {
                return new Reply(error, error == 0 ? (data == null ? new byte[0] : data) : new byte[0]);
            }
        }
    }

    public int write(long offset, byte[] data) throws IOException {
        return write(0, offset, data);
    }

    public int write(int flags, long offset, byte[] data) throws IOException {
        long c = cookie++;
        writeAll(header(flags, CMD_WRITE, c, offset, data.length), ByteBuffer.wrap(data));
        return simpleOrStructuredStatus(c);
    }

    /** A request without data to send and none expected back (FLUSH, TRIM, WRITE_ZEROES, unknown ones): its error. */
    public int command(int type, int flags, long offset, int length) throws IOException {
        long c = cookie++;
        writeAll(header(flags, type, c, offset, length));
        return simpleOrStructuredStatus(c);
    }

    public int flush() throws IOException {
        return command(CMD_FLUSH, 0, 0, 0);
    }

    /** NBD_CMD_DISC, then the server closes the connection. */
    public void disconnect() throws IOException {
        writeAll(header(0, CMD_DISC, cookie++, 0, 0));
    }

    private int simpleOrStructuredStatus(long c) throws IOException {
        if (!structured) {
            return simpleReply(c);
        }
        ByteBuffer m = readN(4);
        int magic = m.getInt();
        if (magic == SIMPLE_REPLY) {
            ByteBuffer r = readN(12);
            int error = r.getInt();
            check(r.getLong() == c, "reply cookie");
            return error;
        }
        check(magic == STRUCTURED_REPLY, "reply magic");
        ByteBuffer h = readN(16);
        int flags = h.getShort() & 0xffff;
        int type = h.getShort() & 0xffff;
        check(h.getLong() == c, "reply cookie");
        int len = h.getInt();
        check((flags & 1) != 0, "one chunk: DONE");
        ByteBuffer p = readN(len);
        return type == 0 ? 0 : p.getInt();
    }

    private int simpleReply(long c) throws IOException {
        ByteBuffer r = readN(16);
        check(r.getInt() == SIMPLE_REPLY, "simple reply magic");
        int error = r.getInt();
        check(r.getLong() == c, "reply cookie " + c);
        return error;
    }

    public void writeAll(ByteBuffer... bs) throws IOException {
        for (ByteBuffer b : bs) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    public ByteBuffer readN(int n) throws IOException {
        return readN(ch, n);
    }

    public static ByteBuffer readN(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        readFully(ch, b);
        return b.flip();
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("the server closed the connection");
            }
        }
    }

    /** Whether the server closed the connection: reads until end of stream, failing on any byte. */
    public static boolean closedByServer(SocketChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(256);
        try {
            int n;
            while ((n = ch.read(b)) >= 0) {
                if (n > 0) {
                    return false;
                }
            }
        } catch (IOException e) {
            return true; // reset
        }
        return true;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("NBD protocol: " + what);
        }
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
