package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.nbd.VolumeServer;

/**
 * {@link VolumeServer} with clients no one here wrote: {@code nbdinfo} (size and flags),
 * {@code qemu-io} (a pattern written through the export), {@code nbdcopy} (the whole export read and
 * written), and an XTS of SunJCE's AES as the oracle of what reached the image: the ciphertext
 * qemu-io and nbdcopy wrote, read from the image file and decrypted with the volume key cryptsetup
 * dumps, is their data. Then the protocol's answers to bad requests from a raw client (a length of 0, past the
 * end, above the limit, a write to a read-only export, garbage), with the server serving others
 * after each; and close(): the socket file gone, no thread left. Skips, naming the tool, where
 * cryptsetup, nbdinfo, nbdcopy or qemu-io is missing.
 */
@org.junit.jupiter.api.Timeout(120)
class VolumeServerTest {
    @TempDir
    Path dir;
    Path img, key;

    @BeforeEach
    void volume() throws Exception {
        for (String t : new String[] {"cryptsetup", "nbdinfo", "nbdcopy", "qemu-io"}) {
            TestImages.assumeTool(t);
        }
        img = dir.resolve("disk.img");
        key = dir.resolve("key");
        Files.writeString(key, "server test");
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (32 << 20) - 1);
        }
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000", "--sector-size", "512", "--key-file", key.toString(), img.toString());
    }

    private String uri(Path socket) {
        return "nbd+unix:///?socket=" + socket;
    }

    @Test
    void anExistingFileAtTheSocketPathIsRefusedAndKept() throws Exception {
        Path taken = dir.resolve("taken.sock");
        Files.writeString(taken, "someone else's");
        Path sub = Files.createDirectory(dir.resolve("socks"));
        try (Volume v = Volumes.open(img).keyFile(key).open()) {
            assertThrows(java.nio.file.FileAlreadyExistsException.class,
                    () -> VolumeServer.builder(v).unixSocket(taken).start().close());
            assertEquals("someone else's", Files.readString(taken), "nothing replaced");
            Path sock = sub.resolve("a.sock");
            try (VolumeServer s = VolumeServer.builder(v).unixSocket(sock).start()) {
                assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(sock));
                try (java.util.stream.Stream<Path> left = Files.list(sub)) {
                    assertEquals(List.of(sock), left.toList(), "the private folder it was made in is gone");
                }
            }
        }
    }

    @Test
    void realClientsReadAndWriteAndTheImageHoldsTheirData() throws Exception {
        Path sock = dir.resolve("s.sock");
        byte[] before = Files.readAllBytes(img);
        try (Volume v = Volumes.open(img).keyFile(key).readWrite().open();
                VolumeServer s = VolumeServer.builder(v).unixSocket(sock).start()) {
            assertEquals(uri(sock), s.uri());
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(sock));
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("export-size: " + v.payloadSize()), info);
            for (String f : new String[] {"is_read_only: false", "can_flush: true", "can_fua: true", "can_multi_conn: true",
                "can_trim: true", "can_zero: true", "block_size_preferred: " + v.sectorSize()}) {
                assertTrue(info.contains(f), f + " in\n" + info);
            }
            TestImages.Run w = TestImages.ok(null, "qemu-io", "-f", "raw", s.uri(), "-c", "write -P 0xab 1M 1M",
                    "-c", "flush", "-c", "read -P 0xab 1M 1M");
            assertFalse(w.out().contains("failed"), w.out());

            // the whole export through nbdcopy is the payload, read back through the library
            Path out = dir.resolve("out.raw");
            TestImages.ok(null, "nbdcopy", s.uri(), out.toString());
            byte[] exported = Files.readAllBytes(out);
            assertEquals(v.payloadSize(), exported.length);
            byte[] pattern = new byte[1 << 20];
            Arrays.fill(pattern, (byte) 0xab);
            assertArrayEquals(pattern, Arrays.copyOfRange(exported, 1 << 20, 2 << 20));

            // and nbdcopy writing the whole export, then reading it back
            byte[] rnd = new byte[(int) v.payloadSize()];
            new Random(38).nextBytes(rnd);
            Path in = dir.resolve("in.raw");
            Files.write(in, rnd);
            TestImages.ok(null, "nbdcopy", in.toString(), s.uri());
            TestImages.ok(null, "nbdcopy", s.uri(), out.toString());
            assertArrayEquals(rnd, Files.readAllBytes(out));
            TestImages.ok(null, "qemu-io", "-f", "raw", s.uri(), "-c", "write -P 0xab 1M 1M");
        }
        assertFalse(Files.exists(sock), "the socket is removed on close");

        // an XTS built on SunJCE's AES (JdkXts), with cryptsetup's volume key, decrypts what reached the image
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), img.toString()).out());
        LuksInfoView h = LuksInfoView.of(img, key);
        assertEquals(512, h.sectorSize);
        byte[] ct = Arrays.copyOfRange(Files.readAllBytes(img), (int) h.offset, (int) h.offset + (2 << 20));
        byte[] pt = JdkXts.crypt(false, vk, ct, 512);
        byte[] want = new byte[1 << 20];
        Arrays.fill(want, (byte) 0xab);
        assertArrayEquals(want, Arrays.copyOfRange(pt, 1 << 20, 2 << 20), "the pattern qemu-io wrote, decrypted independently");
        byte[] rndHead = new byte[1 << 20];
        new Random(38).nextBytes(rndHead);
        assertArrayEquals(rndHead, Arrays.copyOf(pt, 1 << 20), "nbdcopy's data before it");

        // the header is untouched: cryptsetup opens the same key slot
        byte[] after = Files.readAllBytes(img);
        assertArrayEquals(Arrays.copyOf(before, (int) h.offset), Arrays.copyOf(after, (int) h.offset), "the LUKS2 header");
        assertEquals(0, TestImages.run(null, "cryptsetup", "open", "--test-passphrase", "--key-file", key.toString(),
                img.toString()).rc());
    }

    /** Payload offset and sector size of a LUKS volume, as the library reads them. */
    private record LuksInfoView(long offset, int sectorSize) {
        static LuksInfoView of(Path img, Path key) throws Exception {
            try (Volume v = Volumes.open(img).keyFile(key).open()) {
                return new LuksInfoView(((org.vectorjce.volumes.luks.LuksInfo) v.info()).payloadOffset(), v.sectorSize());
            }
        }
    }

    @Test
    void aReadOnlyExportRefusesWritesWithEperm() throws Exception {
        Path sock = dir.resolve("ro.sock");
        byte[] before = Files.readAllBytes(img);
        try (Volume v = Volumes.open(img).keyFile(key).readWrite().open();
                VolumeServer s = VolumeServer.builder(v).unixSocket(sock).readOnly().start()) {
            assertTrue(s.readOnly());
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: true"), info);
            try (Raw c = Raw.connect(sock)) {
                assertEquals(1 /* EPERM */, c.write(0, new byte[512]));
                assertEquals(0, c.read(0, 512).error);
            }
        }
        assertArrayEquals(before, Files.readAllBytes(img), "nothing written");
    }

    @Test
    void badRequestsGetTheProtocolsErrorsAndTheServerGoesOn() throws Exception {
        Path sock = dir.resolve("bad.sock");
        try (Volume v = Volumes.open(img).keyFile(key).readWrite().open();
                VolumeServer s = VolumeServer.builder(v).unixSocket(sock).maxRequest(1 << 20).bufferBytes(1 << 20).start()) {
            long size = v.payloadSize();
            try (Raw c = Raw.connect(sock)) {
                assertEquals(22 /* EINVAL */, c.read(0, 0).error, "length 0");
                assertEquals(22, c.read(size - 512, 1024).error, "past the end");
                assertEquals(22, c.read(0, (1 << 20) + 1).error, "above the limit");
                assertEquals(28 /* ENOSPC */, c.write(size - 256, new byte[512]), "a write past the end");
                assertEquals(22, c.write(0, new byte[(1 << 20) + 16]), "a write above the limit: its data is dropped");
                Raw.Reply r = c.read(4096, 4096);
                assertEquals(0, r.error, "the connection still serves");
                assertEquals(4096, r.data.length);
                assertEquals(22, c.command(5 /* CACHE: not offered */, 0, 0, 512));
            }
            // garbage after the handshake: that connection is closed, the next one is served
            try (Raw c = Raw.connect(sock)) {
                c.ch.write(ByteBuffer.wrap(new byte[28]));
                assertEquals(-1, c.ch.read(ByteBuffer.allocate(16)), "closed");
            }
            // a client that leaves mid-request
            try (Raw c = Raw.connect(sock)) {
                c.ch.write(Raw.header(1, 0, 0, 4096));
                c.ch.write(ByteBuffer.wrap(new byte[100]));
            }
            // garbage in the handshake
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(sock));
                ch.read(ByteBuffer.allocate(18));
                ch.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
                ByteBuffer b = ByteBuffer.allocate(64);
                while (ch.read(b) >= 0 && b.hasRemaining()) {
                    // the server closes it
                }
            }
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("export-size: " + size), info);
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("vectorjce-nbd"), "thread left behind: " + t.getName());
        }
    }

    /** A minimal NBD client: fixed newstyle, NBD_OPT_GO on the default export, simple replies. */
    private static final class Raw implements AutoCloseable {
        final SocketChannel ch;
        long cookie = 1;

        private Raw(SocketChannel ch) {
            this.ch = ch;
        }

        static Raw connect(Path sock) throws IOException {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(sock));
            Raw r = new Raw(ch);
            ByteBuffer hello = r.readN(18);
            assertEquals(0x4e42444d41474943L, hello.getLong());
            assertEquals(0x49484156454f5054L, hello.getLong());
            ch.write(ByteBuffer.allocate(4).putInt(3).flip());
            // NBD_OPT_GO, empty name, no info requests
            ch.write(ByteBuffer.allocate(22).putLong(0x49484156454f5054L).putInt(7).putInt(6).putInt(0).putShort((short) 0).flip());
            while (true) {
                ByteBuffer h = r.readN(20);
                assertEquals(0x3e889045565a9L, h.getLong());
                assertEquals(7, h.getInt());
                int type = h.getInt();
                r.readN(h.getInt());
                if (type == 1) {
                    return r; // NBD_REP_ACK
                }
                assertEquals(3, type, "NBD_REP_INFO");
            }
        }

        ByteBuffer readN(int n) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining()) {
                if (ch.read(b) < 0) {
                    throw new IOException("closed");
                }
            }
            return b.flip();
        }

        static ByteBuffer header(int type, long cookie, long offset, int length) {
            return ByteBuffer.allocate(28).putInt(0x25609513).putShort((short) 0).putShort((short) type).putLong(cookie)
                    .putLong(offset).putInt(length).flip();
        }

        record Reply(int error, byte[] data) {
        }

        Reply read(long offset, int length) throws IOException {
            long c = cookie++;
            ch.write(header(0, c, offset, length));
            ByteBuffer r = readN(16);
            assertEquals(0x67446698, r.getInt());
            int error = r.getInt();
            assertEquals(c, r.getLong());
            return new Reply(error, error == 0 ? readN(length).array() : new byte[0]);
        }

        int write(long offset, byte[] data) throws IOException {
            long c = cookie++;
            ch.write(header(1, c, offset, data.length));
            ch.write(ByteBuffer.wrap(data));
            ByteBuffer r = readN(16);
            assertEquals(0x67446698, r.getInt());
            int error = r.getInt();
            assertEquals(c, r.getLong());
            return error;
        }

        int command(int type, int flags, long offset, int length) throws IOException {
            long c = cookie++;
            ch.write(header(type, c, offset, length));
            ByteBuffer r = readN(16);
            assertEquals(0x67446698, r.getInt());
            int error = r.getInt();
            assertNotEquals(-1, error);
            return error;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }
}
