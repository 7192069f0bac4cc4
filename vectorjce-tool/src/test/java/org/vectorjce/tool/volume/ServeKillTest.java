package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.NbdClient;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * {@code volume serve} killed with SIGKILL while writes are in flight: qemu-io writes three MiB
 * with flushes between, a second client writes and flushes a fourth, then sends more writes
 * (one whole, one with half its data sent) and the server is killed at once, before it can answer.
 * Afterwards the image opens with its passphrase (the library, and {@code cryptsetup open
 * --test-passphrase} where installed), its first 16 MiB (both LUKS2 metadata copies and the key
 * slots) are byte for byte what they were (and {@code cryptsetup luksDump} says the same), and
 * every write acknowledged before the last acknowledged flush reads back. Skips where qemu-io is
 * missing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServeKillTest {
    private static final String PW = "kill me";
    private static final int MiB = 1 << 20;

    @Test
    void sigkillAfterAFlushLosesNoAcknowledgedWriteAndLeavesTheHeader(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("qemu-io");
        Path img = dir.resolve("k.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), (16L << 20) + (16L << 20) - 1);
        }
        Luks2Format.luks2().keySize(512).sectorSize(4096).keySlot(TestImages.fast("pbkdf2"))
                .format(img, PW.getBytes(StandardCharsets.UTF_8));
        byte[] header = Arrays.copyOf(Files.readAllBytes(img), 16 << 20);
        boolean cryptsetup = TestImages.have("cryptsetup");
        String dump = cryptsetup ? luksDump(img) : null;

        Path sock = dir.resolve("k.sock");
        try (ServeCommandTest.Served s = ServeCommandTest.serve(PW + "\n", img.toString(), "--socket", sock.toString())) {
            TestImages.Run q = TestImages.ok(null, "qemu-io", "-f", "raw", s.uri(),
                    "-c", "write -P 0x5a 0 1M", "-c", "flush",
                    "-c", "write -P 0x5b 1M 1M", "-c", "write -P 0x5c 2M 1M", "-c", "flush");
            assertFalse(q.out().contains("failed"), q.out());
            try (NbdClient c = NbdClient.connect(sock)) {
                assertEquals(0, c.write(3 * MiB, fill(MiB, 0x5d)));
                assertEquals(0, c.flush(), "the last flush acknowledged");
                // then writes in flight: one whole 1 MiB write and an 8 MiB one half sent, no reply awaited
                c.writeAll(NbdClient.header(0, NbdClient.CMD_WRITE, 100, 5 * MiB, MiB), ByteBuffer.wrap(fill(MiB, 0x66)));
                c.writeAll(NbdClient.header(0, NbdClient.CMD_WRITE, 101, 6 * MiB, 8 * MiB),
                        ByteBuffer.wrap(fill(4 * MiB, 0x67)));
                s.p().destroyForcibly(); // SIGKILL
                assertTrue(s.p().waitFor(30, TimeUnit.SECONDS), "the server did not die");
                assertEquals(137, s.p().exitValue(), "killed by SIGKILL");
            }
        }

        // the image: the header as it was, the passphrase opens it, the flushed writes are there
        assertArrayEquals(header, Arrays.copyOf(Files.readAllBytes(img), header.length),
                "the first 16 MiB (metadata and key slots) are unchanged");
        if (cryptsetup) {
            assertEquals(0, TestImages.cryptsetupTest(img, PW.getBytes(StandardCharsets.UTF_8), 0),
                    "cryptsetup opens key slot 0");
            assertEquals(dump, luksDump(img), "luksDump");
        }
        try (Volume v = Volumes.open(img).passphrase(PW.getBytes(StandardCharsets.UTF_8)).open();
                SeekableByteChannel p = v.payload()) {
            int[] pattern = {0x5a, 0x5b, 0x5c, 0x5d};
            for (int i = 0; i < pattern.length; i++) {
                ByteBuffer b = ByteBuffer.allocate(MiB);
                p.position((long) i * MiB);
                while (b.hasRemaining() && p.read(b) >= 0) {
                    // fill
                }
                assertArrayEquals(fill(MiB, pattern[i]), b.array(), "the acknowledged, flushed write at " + i + " MiB");
            }
        }
        // and the lock died with the process: the image is served again
        try (ServeCommandTest.Served s = ServeCommandTest.serve(PW + "\n", img.toString(), "--read-only", "--socket",
                dir.resolve("again.sock").toString())) {
            assertEquals(0, s.stop(), s.err().get());
        }
    }

    private static byte[] fill(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static String luksDump(Path img) throws Exception {
        return TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
    }
}
