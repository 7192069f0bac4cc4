package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.nbd.VolumeServer;

/**
 * {@link VolumeServer} when the volume underneath fails: a read, a write or a flush that throws is
 * answered {@code NBD_EIO} ("Error values" of {@code doc/proto.md}) and the connection stays in
 * step — except a simple read whose success header and first MiB already went, which the
 * protocol ("Simple reply message") leaves no way to answer but a hard disconnect. The volume is
 * a plain 4 MiB file behind a {@link Volume} whose device fails on one range and whose flush fails
 * when told to.
 */
@Timeout(60)
class NbdDeviceErrorTest {
    /** The failing range: the third MiB. */
    private static final long BAD_FROM = 2 << 20, BAD_TO = 3 << 20;

    @TempDir
    Path dir;
    Path sock;
    byte[] content;
    FailingVolume volume;
    VolumeServer server;

    @BeforeEach
    void serve() throws IOException {
        content = new byte[4 << 20];
        new Random(11).nextBytes(content);
        Path file = dir.resolve("plain.img");
        Files.write(file, content);
        volume = new FailingVolume(Device.open(file, true));
        sock = dir.resolve("s.sock");
        server = VolumeServer.builder(volume).unixSocket(sock).start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        volume.close();
    }

    @Test
    void aReadThatFailsIsEioAndTheConnectionGoesOn() throws Exception {
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(NbdClient.EIO, c.read(BAD_FROM + 100, 4096).error(), "simple read inside the bad range");
            assertEquals(NbdClient.EIO, c.read(BAD_FROM - 512, 1024).error(), "simple read across its start");
            NbdClient.Reply ok = c.read(0, 4096);
            assertEquals(0, ok.error());
            assertArrayEquals(Arrays.copyOf(content, 4096), ok.data());
        }
        try (NbdClient c = NbdClient.connectStructured(sock)) {
            assertEquals(NbdClient.EIO, c.read(BAD_FROM, 4096).error(), "structured: an error chunk");
            // the first MiB went as an OFFSET_DATA chunk; the error chunk ends the reply
            assertEquals(NbdClient.EIO, c.read(BAD_FROM - (1 << 20), 2 << 20).error(), "structured, second piece");
            assertEquals(0, c.read(BAD_TO, 4096).error(), "the connection goes on");
        }
    }

    @Test
    void aSimpleReadWhoseSecondPieceFailsEndsTheConnection() throws Exception {
        try (NbdClient c = NbdClient.connect(sock)) {
            c.writeAll(NbdClient.header(0, NbdClient.CMD_READ, 5, BAD_FROM - (1 << 20), 2 << 20));
            ByteBuffer h = c.readN(16);
            assertEquals(NbdClient.SIMPLE_REPLY, h.getInt());
            assertEquals(0, h.getInt(), "the first piece was read: success was sent");
            assertEquals(5, h.getLong());
            ByteBuffer first = c.readN(1 << 20);
            assertArrayEquals(Arrays.copyOfRange(content, (int) BAD_FROM - (1 << 20), (int) BAD_FROM), first.array());
            assertTrue(NbdClient.closedByServer(c.ch), "the second piece failed: a hard disconnect");
        }
        try (NbdClient c = NbdClient.connect(sock)) {
            assertEquals(0, c.read(0, 512).error(), "the server serves the next connection");
        }
    }

    @Test
    void writesAndFlushesThatFailAreEioAndTheConnectionStaysInStep() throws Exception {
        byte[] data = new byte[3 << 20];
        Arrays.fill(data, (byte) 0x3c);
        try (NbdClient c = NbdClient.connect(sock)) {
            // 3 MiB from the second MiB: the middle piece fails, the rest of the data is still read
            assertEquals(NbdClient.EIO, c.write(1 << 20, data), "write across the bad range");
            assertEquals(NbdClient.EIO, c.command(NbdClient.CMD_WRITE_ZEROES, 0, BAD_FROM, 4096), "write zeroes");
            volume.failFlush = true;
            assertEquals(NbdClient.EIO, c.flush(), "flush");
            assertEquals(NbdClient.EIO, c.write(NbdClient.CMD_FLAG_FUA, 0, new byte[512]), "write with FUA");
            assertEquals(NbdClient.EIO, c.command(NbdClient.CMD_TRIM, NbdClient.CMD_FLAG_FUA, 0, 512), "trim with FUA");
            assertEquals(NbdClient.EIO, c.command(NbdClient.CMD_WRITE_ZEROES, NbdClient.CMD_FLAG_FUA, 0, 512),
                    "write zeroes with FUA");
            volume.failFlush = false;
            assertEquals(0, c.flush(), "flush");
            NbdClient.Reply r = c.read(BAD_TO, 4096);
            assertEquals(0, r.error(), "the request after the failed ones is read as a request");
        }
    }

    /**
     * A read-write volume over a plain device: its device throws {@link IOException} for any read
     * or write touching {@code [BAD_FROM, BAD_TO)}, its flush while {@link #failFlush}.
     */
    private static final class FailingVolume implements Volume {
        private final Device file;
        volatile boolean failFlush;

        FailingVolume(Device file) {
            this.file = file;
        }

        @Override
        public VolumeInfo info() {
            throw new UnsupportedOperationException("a test volume has no header");
        }

        @Override
        public long payloadSize() {
            return file.size();
        }

        @Override
        public int sectorSize() {
            return 512;
        }

        @Override
        public boolean readOnly() {
            return false;
        }

        @Override
        public SeekableByteChannel payload() {
            throw new UnsupportedOperationException("the server reads the device");
        }

        @Override
        public Device device() {
            return new Device() {
                @Override
                public long size() {
                    return file.size();
                }

                @Override
                public boolean readOnly() {
                    return false;
                }

                @Override
                public int read(ByteBuffer dst, long offset) throws IOException {
                    check(offset, dst.remaining());
                    return file.read(dst, offset);
                }

                @Override
                public void write(ByteBuffer src, long offset) throws IOException {
                    check(offset, src.remaining());
                    file.write(src, offset);
                }

                @Override
                public void flush() throws IOException {
                    file.flush();
                }

                @Override
                public void close() {
                }
            };
        }

        private static void check(long offset, int length) throws IOException {
            if (offset < BAD_TO && offset + length > BAD_FROM) {
                throw new IOException("injected: the bytes at " + offset + " cannot be read or written");
            }
        }

        @Override
        public void flush() throws IOException {
            if (failFlush) {
                throw new IOException("injected: the image cannot be synced");
            }
        }

        @Override
        public byte[] volumeKey() {
            return new byte[0];
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
