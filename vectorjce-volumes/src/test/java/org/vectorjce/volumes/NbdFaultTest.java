package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.nbd.VolumeServer;

/**
 * {@link VolumeServer} against clients that break the rules, each case checked against
 * {@code doc/proto.md} of the NBD repository, and after each a well-behaved client on a new
 * connection reads the bytes the volume holds (compared with what the test wrote through the
 * library before serving). The cases {@link VolumeServerTest} already has (a read of length 0, a
 * read or write just past the end or above a 1 MiB limit, NBD_CMD_CACHE, a bad request magic,
 * garbage in the first option) are not repeated here. The volume is a LUKS2 image formatted by
 * the library (no external tool): 4 MiB of payload.
 */
@Timeout(60)
class NbdFaultTest {
    private static final byte[] PW = "fault test".getBytes(StandardCharsets.UTF_8);
    @TempDir
    Path dir;
    Path img, sock;
    Volume volume;
    VolumeServer server;
    /** What the payload holds: written through the library before serving, then kept up to date. */
    byte[] content;
    /** The server's threads (it runs on {@link #executor}), and what any of them threw out of its body. */
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    final Executor executor = r -> {
        Thread t = new Thread(r, "nbd-fault-" + threads.size());
        t.setDaemon(true);
        t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
        threads.add(t);
        t.start();
    };

    @BeforeEach
    void volume() throws Exception {
        img = dir.resolve("disk.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), (20L << 20) - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(512).keySlot(TestImages.fast("pbkdf2")).format(img, PW);
        volume = Volumes.open(img).passphrase(PW).readWrite().open();
        content = new byte[(int) volume.payloadSize()];
        new Random(7).nextBytes(content);
        try (SeekableByteChannel p = volume.payload()) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                p.write(b);
            }
        }
        sock = dir.resolve("s.sock");
    }

    private VolumeServer serve(Consumer<VolumeServer.Builder> options) throws IOException {
        VolumeServer.Builder b = VolumeServer.builder(volume).unixSocket(sock).executor(executor);
        options.accept(b);
        return server = b.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        volume.close();
        for (Thread t : threads) {
            t.join(10_000);
            assertFalse(t.isAlive(), "a server thread is left: " + t.getName());
        }
        assertEquals(List.of(), uncaught, "nothing escapes the server's threads");
    }

    /** A new connection reads the start, the end and a middle stretch of the payload as {@link #content}. */
    private void assertServesTheVolume() throws IOException {
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(content.length, c.size);
            int n = content.length;
            for (int[] r : new int[][] {{0, 65536}, {n - 4096, 4096}, {n / 2 - 777, 100_000}}) {
                NbdClient.Reply got = c.read(r[0], r[1]);
                assertEquals(0, got.error(), "read at " + r[0]);
                assertArrayEquals(Arrays.copyOfRange(content, r[0], r[0] + r[1]), got.data(), "the bytes at " + r[0]);
            }
            c.disconnect();
            assertTrue(NbdClient.closedByServer(c.ch), "NBD_CMD_DISC closes the connection");
        }
    }

    @Test
    void badClientFlagsAndBadOptionMagicCloseTheConnection() throws Exception {
        serve(b -> { });
        // proto.md: "the server MUST close the TCP connection if it does not recognize the client's
        // flags"; a client without NBD_FLAG_C_FIXED_NEWSTYLE is one this server does not serve
        for (int flags : new int[] {4, 0x80000000, 0x7, 0, 2}) {
            try (SocketChannel ch = NbdClient.dial(sock)) {
                ch.write(ByteBuffer.allocate(4).putInt(flags).flip());
                assertTrue(NbdClient.closedByServer(ch), "client flags " + Integer.toHexString(flags));
            }
        }
        // an option header whose magic is not IHAVEOPT, as the first and as a later option
        try (NbdClient c = NbdClient.haggle(sock)) {
            c.writeAll(ByteBuffer.allocate(16).putLong(0x49484156454f5055L).putInt(7).putInt(0).flip());
            assertTrue(NbdClient.closedByServer(c.ch), "bad option magic");
        }
        try (NbdClient c = NbdClient.haggle(sock)) {
            assertEquals(NbdClient.REP_ACK, c.option(NbdClient.OPT_STRUCTURED_REPLY, new byte[0]).get(0).type());
            c.writeAll(ByteBuffer.allocate(16).putLong(NbdClient.NBDMAGIC).putInt(7).putInt(0).flip());
            assertTrue(NbdClient.closedByServer(c.ch), "bad magic of a later option");
        }
        // NBD_OPT_EXPORT_NAME naming no export: it has no error reply, so the server closes
        try (NbdClient c = NbdClient.haggle(sock)) {
            byte[] name = "no such export".getBytes(StandardCharsets.UTF_8);
            c.writeAll(ByteBuffer.allocate(16).putLong(NbdClient.IHAVEOPT).putInt(NbdClient.OPT_EXPORT_NAME)
                    .putInt(name.length).flip(), ByteBuffer.wrap(name));
            assertTrue(NbdClient.closedByServer(c.ch), "unknown export name");
        }
        assertServesTheVolume();
    }

    @Test
    void unknownAndMalformedOptionsAreAnsweredAndTheSessionGoesOn() throws Exception {
        serve(b -> { });
        try (NbdClient c = NbdClient.haggle(sock)) {
            // proto.md: NBD_REP_ERR_UNSUP "The option sent by the client is unknown by this server"
            for (int opt : new int[] {0, 4 /* PEEK_EXPORT, withdrawn */, 9, 10, 11, 0x4242, 0x7fffffff, 0x80000001}) {
                List<NbdClient.OptReply> r = c.option(opt, "some option data".getBytes(StandardCharsets.US_ASCII));
                assertEquals(1, r.size(), "option " + opt);
                assertEquals(NbdClient.REP_ERR_UNSUP, r.get(0).type(), "option " + opt);
            }
            // NBD_OPT_STARTTLS on a server without a certificate: an error, and the session stays plain
            assertEquals(NbdClient.REP_ERR_UNSUP, c.option(NbdClient.OPT_STARTTLS, new byte[0]).get(0).type());
            // known options with data that does not fit them: NBD_REP_ERR_INVALID
            assertEquals(NbdClient.REP_ERR_INVALID, c.option(NbdClient.OPT_LIST, new byte[3]).get(0).type());
            assertEquals(NbdClient.REP_ERR_INVALID, c.option(NbdClient.OPT_STRUCTURED_REPLY, new byte[1]).get(0).type());
            assertEquals(NbdClient.REP_ERR_INVALID, c.option(NbdClient.OPT_INFO, new byte[5]).get(0).type(), "too short");
            assertEquals(NbdClient.REP_ERR_INVALID, c.option(NbdClient.OPT_GO,
                    ByteBuffer.allocate(6).putInt(-1).putShort((short) 0).array()).get(0).type(), "name length 2^32-1");
            assertEquals(NbdClient.REP_ERR_INVALID, c.option(NbdClient.OPT_GO,
                    ByteBuffer.allocate(8).putInt(0).putShort((short) 3).putShort((short) 1).array()).get(0).type(),
                    "three information requests announced, one sent");
            // GO naming an export that is not there: NBD_REP_ERR_UNKNOWN, and the client may try again
            byte[] name = "other".getBytes(StandardCharsets.US_ASCII);
            assertEquals(NbdClient.REP_ERR_UNKNOWN, c.option(NbdClient.OPT_GO,
                    ByteBuffer.allocate(6 + name.length).putInt(name.length).put(name).putShort((short) 0).array())
                    .get(0).type());
            // an option longer than the server reads: its data is skipped, NBD_REP_ERR_TOO_BIG
            assertEquals(NbdClient.REP_ERR_TOO_BIG, c.option(0x4242, new byte[(64 << 10) + 1]).get(0).type());
            // LIST still lists the default export, and GO on the same connection enters transmission
            List<NbdClient.OptReply> list = c.option(NbdClient.OPT_LIST, new byte[0]);
            assertEquals(2, list.size());
            assertEquals(NbdClient.REP_SERVER, list.get(0).type());
            assertEquals(NbdClient.REP_ACK, list.get(1).type());
            c.go();
            assertEquals(content.length, c.size);
            NbdClient.Reply r = c.read(4096, 8192);
            assertEquals(0, r.error());
            assertArrayEquals(Arrays.copyOfRange(content, 4096, 4096 + 8192), r.data());
        }
        // NBD_OPT_ABORT: acknowledged, then the server closes
        try (NbdClient c = NbdClient.haggle(sock)) {
            assertEquals(NbdClient.REP_ACK, c.option(NbdClient.OPT_ABORT, new byte[0]).get(0).type());
            assertTrue(NbdClient.closedByServer(c.ch));
        }
        assertServesTheVolume();
    }

    @Test
    void unknownCommandsAndCommandFlagsGetEinvalAndTheConnectionStaysInStep() throws Exception {
        serve(b -> { });
        try (NbdClient c = NbdClient.connect(sock)) {
            // proto.md: "The server SHOULD return NBD_EINVAL if it receives an unknown command"
            for (int type : new int[] {NbdClient.CMD_BLOCK_STATUS /* no metadata context negotiated */, 8, 0x55, 0xffff}) {
                assertEquals(NbdClient.EINVAL, c.command(type, 0, 0, 4096), "command " + type);
            }
            // "... and if it receives an unknown command flag"; a write's data is still read past
            long cookie = 900;
            c.writeAll(NbdClient.header(0x0100, NbdClient.CMD_READ, cookie, 0, 4096));
            ByteBuffer r = c.readN(16);
            assertEquals(NbdClient.SIMPLE_REPLY, r.getInt());
            assertEquals(NbdClient.EINVAL, r.getInt(), "a read with an unknown flag");
            assertEquals(cookie, r.getLong());
            byte[] data = new byte[4096];
            Arrays.fill(data, (byte) 0x77);
            assertEquals(NbdClient.EINVAL, c.write(0x4000, 0, data), "a write with an unknown flag");
            assertEquals(0, c.flush());
            NbdClient.Reply back = c.read(0, 4096);
            assertEquals(0, back.error(), "the request after the refused write is read as a request");
            assertArrayEquals(Arrays.copyOf(content, 4096), back.data(), "the refused write wrote nothing");
        }
        // structured replies: a read's error is an error chunk
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            assertEquals(NbdClient.EINVAL, c.read(0x8000, 0, 512).error(), "a read with an unknown flag");
            assertEquals(NbdClient.EINVAL, c.command(0x55, 0, 0, 512));
            NbdClient.Reply ok = c.read(512, 512);
            assertEquals(0, ok.error());
            assertArrayEquals(Arrays.copyOfRange(content, 512, 1024), ok.data());
        }
        assertServesTheVolume();
    }

    @Test
    void pastTheEndIsEinvalForReadsAndTrimsAndEnospcForWrites() throws Exception {
        serve(b -> { });
        long size = content.length;
        // offsets that are past the end, and offsets whose sum with the length wraps around 2^64
        long[][] beyond = {{size, 512}, {size - 511, 512}, {size + 4096, 4096}, {Long.MIN_VALUE, 512},
            {-512, 1024}, {-1, 1}, {0, (int) size + 512}};
        try (NbdClient c = NbdClient.connect(sock)) {
            for (long[] r : beyond) {
                String at = "offset " + Long.toUnsignedString(r[0]) + " length " + r[1];
                // proto.md: "It SHOULD return NBD_EINVAL if it receives a read or trim request
                // including one or more sectors beyond the size of the device"
                assertEquals(NbdClient.EINVAL, c.read(r[0], (int) r[1]).error(), "read " + at);
                assertEquals(NbdClient.EINVAL, c.command(NbdClient.CMD_TRIM, 0, r[0], (int) r[1]), "trim " + at);
                // "The server SHOULD return NBD_ENOSPC if it receives a write request including one
                // or more sectors beyond the size of the device"; WRITE_ZEROES the same
                if (r[1] <= 1 << 20) {
                    assertEquals(NbdClient.ENOSPC, c.write(r[0], new byte[(int) r[1]]), "write " + at);
                }
                assertEquals(NbdClient.ENOSPC, c.command(NbdClient.CMD_WRITE_ZEROES, 0, r[0], (int) r[1]),
                        "write zeroes " + at);
            }
            // the last byte is inside
            NbdClient.Reply last = c.read(size - 1, 1);
            assertEquals(0, last.error());
            assertEquals(content[content.length - 1], last.data()[0]);
        }
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            assertEquals(NbdClient.EINVAL, c.read(size, 512).error(), "structured: an error chunk");
            assertEquals(NbdClient.EINVAL, c.read(-512, 1024).error(), "structured, wrapping");
        }
        assertServesTheVolume();
    }

    @Test
    void aReadOnlyExportRefusesWritesTrimsAndZeroesWithEpermAndStaysInStep() throws Exception {
        serve(VolumeServer.Builder::readOnly);
        long size = content.length;
        byte[] data = new byte[8192];
        Arrays.fill(data, (byte) 0x5a);
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(2 /* NBD_FLAG_READ_ONLY */, c.transmissionFlags & 2, "advertised read-only");
            // proto.md, "Request types": the server SHOULD return NBD_EPERM for a write, a trim and
            // a write zeroes on a read-only export; each is followed by a request that must be read
            // as a request (the write's data was read past)
            assertEquals(NbdClient.EPERM, c.write(4096, data), "write");
            assertEquals(NbdClient.EPERM, c.write(NbdClient.CMD_FLAG_FUA, 0, data), "write with FUA");
            assertEquals(NbdClient.EPERM, c.command(NbdClient.CMD_TRIM, 0, 0, 4096), "trim");
            assertEquals(NbdClient.EPERM, c.command(NbdClient.CMD_WRITE_ZEROES, 0, 0, 4096), "write zeroes");
            assertEquals(NbdClient.EPERM, c.command(NbdClient.CMD_WRITE_ZEROES, NbdClient.CMD_FLAG_FUA, 4096, 4096),
                    "write zeroes with FUA");
            // both EPERM and the past-the-end error apply: either is the protocol's
            int e = c.write(size, new byte[512]);
            assertTrue(e == NbdClient.EPERM || e == NbdClient.ENOSPC, "write past the end: " + e);
            assertEquals(0, c.flush(), "a flush is served");
            NbdClient.Reply r = c.read(0, 16384);
            assertEquals(0, r.error());
            assertArrayEquals(Arrays.copyOf(content, 16384), r.data(), "nothing was written");
        }
        assertServesTheVolume();
    }

    @Test
    void requestsOfLengthZeroAreAnsweredWithoutDisconnecting() throws Exception {
        serve(b -> { });
        try (NbdClient c = NbdClient.connect(sock)) {
            // proto.md: the client SHOULD NOT send a length of 0; "the behavior of a server on such
            // a request is unspecified although the server SHOULD NOT disconnect"
            assertEquals(NbdClient.EINVAL, c.write(4096, new byte[0]), "write of 0 bytes");
            int trim = c.command(NbdClient.CMD_TRIM, 0, 4096, 0);
            assertTrue(trim == 0 || trim == NbdClient.EINVAL, "trim of 0 bytes: " + trim);
            int zero = c.command(NbdClient.CMD_WRITE_ZEROES, 0, 4096, 0);
            assertTrue(zero == 0 || zero == NbdClient.EINVAL, "write zeroes of 0 bytes: " + zero);
            int end = c.command(NbdClient.CMD_WRITE_ZEROES, 0, content.length, 0);
            assertTrue(end == 0 || end == NbdClient.EINVAL, "write zeroes of 0 bytes at the end: " + end);
            assertEquals(0, c.flush());
            NbdClient.Reply r = c.read(4096, 4096);
            assertEquals(0, r.error());
            assertArrayEquals(Arrays.copyOfRange(content, 4096, 8192), r.data(), "nothing changed");
        }
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            assertEquals(NbdClient.EINVAL, c.read(0, 0).error(), "structured read of 0 bytes");
            assertEquals(0, c.read(0, 1).error());
        }
        assertServesTheVolume();
    }

    @Test
    void requestsAbove32MiBAreRefusedWithoutTheServerAllocatingThem() throws Exception {
        serve(b -> { }); // the default limit: 32 MiB (proto.md: a payload up to 2^25 SHOULD NOT be deemed an attack)
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(0, c.read(0, 512).error());
            Thread conn = threads.get(threads.size() - 1);
            long before = mx.getThreadAllocatedBytes(conn.getId());
            assertTrue(before > 0, "this JVM measures a thread's allocation");
            // the export is 4 MiB: each of these is also past the end, so the limit must come first
            // or not matter; what matters is the error and that no buffer of that size is made
            for (int len : new int[] {(32 << 20) + 1, 0x7fffffff, -1 /* 2^32-1 */}) {
                int e = c.read(0, len).error();
                assertTrue(e == NbdClient.EINVAL || e == NbdClient.EOVERFLOW, "read of " + Integer.toUnsignedString(len) + ": " + e);
            }
            // a write above the limit: refused, its 32 MiB + 1 of data read past, not kept
            long cookie = 77;
            c.writeAll(NbdClient.header(0, NbdClient.CMD_WRITE, cookie, 0, (32 << 20) + 1));
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            for (int left = (32 << 20) + 1; left > 0; left -= chunk.capacity()) {
                chunk.clear().limit(Math.min(left, chunk.capacity()));
                c.writeAll(chunk);
            }
            ByteBuffer r = c.readN(16);
            assertEquals(NbdClient.SIMPLE_REPLY, r.getInt());
            int e = r.getInt();
            assertTrue(e == NbdClient.EINVAL || e == NbdClient.EOVERFLOW || e == NbdClient.ENOSPC, "write of 32 MiB + 1: " + e);
            assertEquals(cookie, r.getLong());
            long allocated = mx.getThreadAllocatedBytes(conn.getId()) - before;
            assertTrue(allocated < 4 << 20, "the connection's thread allocated " + allocated + " bytes for refused requests");
            NbdClient.Reply ok = c.read(0, 4096);
            assertEquals(0, ok.error());
            assertArrayEquals(Arrays.copyOf(content, 4096), ok.data(), "the 32 MiB were not written");
        }
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            int e = c.read(0, -1).error();
            assertTrue(e == NbdClient.EINVAL || e == NbdClient.EOVERFLOW, "structured read of 2^32-1: " + e);
        }
        assertServesTheVolume();
    }

    @Test
    void readsAndWritesAbove1MiBAreServedInPiecesAndGiveTheSameBytes() throws Exception {
        serve(b -> { });
        byte[] w = new byte[(3 << 20) + 5];
        new Random(9).nextBytes(w);
        int at = 12345;
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(0, c.write(at, w), "a simple write of 3 MiB + 5 at an odd offset");
            System.arraycopy(w, 0, content, at, w.length);
            NbdClient.Reply r = c.read(at - 1, w.length + 2);
            assertEquals(0, r.error());
            assertArrayEquals(Arrays.copyOfRange(content, at - 1, at + w.length + 1), r.data(), "a simple read of it");
        }
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            NbdClient.Reply r = c.read(at, w.length);
            assertEquals(0, r.error());
            assertArrayEquals(w, r.data(), "a structured read of it, in chunks");
            // NBD_CMD_FLAG_DF, one content chunk: proto.md lets the server refuse a long one with
            // EOVERFLOW, and requires it to serve one of up to 65,536 bytes in one chunk
            assertEquals(NbdClient.EOVERFLOW, c.read(4 /* DF */, at, 2 << 20).error());
            NbdClient.Reply df = c.read(4, at, 65536);
            assertEquals(0, df.error());
            assertEquals(1, c.contentChunks, "DF: one content chunk");
            assertArrayEquals(Arrays.copyOf(w, 65536), df.data());
        }
        assertServesTheVolume();
    }

    @Test
    void clientsLeavingMidHeaderOrMidPayloadLeaveTheServerServingTheOthers() throws Exception {
        // one request's worth of buffers for the whole server: a buffer a departed client kept
        // would stall the next full-size request
        serve(b -> b.maxRequest(1 << 20).bufferBytes(1 << 20));
        try (NbdClient idle = NbdClient.connect(sock)) {
            // mid-handshake: after the client flags, and inside an option's data
            try (NbdClient c = NbdClient.haggle(sock)) {
                c.writeAll(ByteBuffer.allocate(16).putLong(NbdClient.IHAVEOPT).putInt(NbdClient.OPT_GO).putInt(100).flip(),
                        ByteBuffer.allocate(10));
            }
            // mid request header
            for (int n : new int[] {1, 4, 10, 27}) {
                try (NbdClient c = NbdClient.connect(sock)) {
                    ByteBuffer h = NbdClient.header(0, NbdClient.CMD_READ, 1, 0, 4096);
                    c.writeAll(h.limit(n));
                }
            }
            // mid write payload: a full-size write, and one above the limit (its data is skipped)
            for (int len : new int[] {1 << 20, 512, -1}) {
                try (NbdClient c = NbdClient.connect(sock)) {
                    c.writeAll(NbdClient.header(0, NbdClient.CMD_WRITE, 1, 8192, len), ByteBuffer.allocate(Math.min(300, len & 0xffff)));
                }
            }
            // the connection opened before all that still serves, a full-size read included
            NbdClient.Reply r = idle.read(0, 1 << 20);
            assertEquals(0, r.error());
            assertArrayEquals(Arrays.copyOf(content, 1 << 20), r.data(), "no partial write reached the volume");
            byte[] mine = new byte[1 << 20];
            new Random(8).nextBytes(mine);
            assertEquals(0, idle.write(1 << 20, mine));
            System.arraycopy(mine, 0, content, 1 << 20, mine.length);
        }
        assertServesTheVolume();
        try (NbdClient c = NbdClient.connect(sock)) {
            NbdClient.Reply r = c.read(0, 1 << 20);
            assertEquals(0, r.error(), "the buffers of the departed clients were given back");
        }
    }
}
