package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * The NBD server ({@link org.vectorjce.volumes.nbd.VolumeServer}) with its default limits (32 MiB per request) in a JVM of its own with a 64 MiB
 * heap ({@link NbdServeMain}), over a LUKS2 volume of 128 MiB: four clients at once each write 32
 * MiB in one request and read it back in one request, then {@code nbdcopy} reads the whole export
 * over four connections in 32 MiB requests. Every byte must be what was written, and the server's
 * JVM must neither die nor report an {@link OutOfMemoryError} (its stderr is read for one) and
 * must stop cleanly when told. Skips where {@code nbdcopy} is missing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NbdSmallHeapTest {
    private static final String PW = "small heap";
    private static final int MiB = 1 << 20, REQUEST = 32 * MiB, CLIENTS = 4;

    /** The pattern: 8 bytes per 8-byte word {@code i} of the payload, from a mix of {@code seed} and {@code i}. */
    static long word(long seed, long i) {
        long z = seed + i * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static void fill(ByteBuffer b, long seed, long at) {
        for (long i = at / 8; b.hasRemaining(); i++) {
            b.putLong(word(seed, i));
        }
    }

    /** The first offset in {@code b} (which holds payload bytes from {@code at}) that differs from the pattern, or -1. */
    static long mismatch(ByteBuffer b, long seed, long at) {
        for (long i = at / 8; b.hasRemaining(); i++) {
            if (b.getLong() != word(seed, i)) {
                return i * 8;
            }
        }
        return -1;
    }

    @Test
    void fourClientsWritingAndReading32MiBRequestsFitA64MiBHeap(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdcopy");
        Path img = dir.resolve("big.img");
        long payload = 128L * MiB;
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), (16L << 20) + payload - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(4096).keySlot(TestImages.fast("pbkdf2"))
                .format(img, PW.getBytes(StandardCharsets.UTF_8));
        Path sock = dir.resolve("heap.sock");
        List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), NbdServeMain.class.getName(), img.toString(), sock.toString());
        Process p = new ProcessBuilder(cmd).start();
        Stderr err = new Stderr(p.getErrorStream());
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            p.getOutputStream().write((PW + "\n").getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().flush();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String uri = out.readLine();
            assertEquals("nbd+unix:///?socket=" + sock, uri, () -> "the server's first line; stderr: " + err.now());

            // four clients, each its own quarter, their 32 MiB writes sent at the same moment
            long seed = 0x5eed;
            CyclicBarrier start = new CyclicBarrier(CLIENTS);
            List<Future<String>> done = new ArrayList<>();
            for (int q = 0; q < CLIENTS; q++) {
                long at = (long) q * REQUEST;
                done.add(pool.submit(() -> {
                    try (NbdClient c = NbdClient.connect(sock)) {
                        assertEquals(payload, c.size);
                        start.await(30, TimeUnit.SECONDS);
                        int e = write(c, at, seed);
                        if (e != 0) {
                            return "write at " + at + ": error " + e;
                        }
                        return readAndCheck(c, at, seed);
                    }
                }));
            }
            for (Future<String> f : done) {
                String problem;
                try {
                    problem = f.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError("a client failed: " + e.getCause() + "; server stderr: " + err.now(), e);
                }
                assertEquals(null, problem, () -> problem + "; server stderr: " + err.now());
            }
            assertTrue(p.isAlive(), () -> "the server's JVM died: " + err.now());

            // nbdcopy: the whole export over four connections in 32 MiB requests
            Path copy = dir.resolve("copy.raw");
            TestImages.ok(null, "nbdcopy", "--connections=4", "--request-size=" + REQUEST, uri, copy.toString());
            try (FileChannel c = FileChannel.open(copy, StandardOpenOption.READ)) {
                assertEquals(payload, c.size());
                ByteBuffer b = ByteBuffer.allocate(MiB);
                for (long at = 0; at < payload; at += MiB) {
                    b.clear();
                    while (b.hasRemaining() && c.read(b, at + b.position()) >= 0) {
                        // fill
                    }
                    long bad = mismatch(b.flip(), seed, at);
                    assertEquals(-1, bad, "nbdcopy's byte at " + bad);
                }
            }
            assertTrue(p.isAlive(), () -> "the server's JVM died: " + err.now());

            p.getOutputStream().close(); // stop
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the server did not stop");
            assertEquals("stopped", out.readLine(), () -> "stderr: " + err.now());
            assertEquals(0, p.exitValue(), () -> "stderr: " + err.now());
            String e = err.all();
            assertFalse(e.contains("OutOfMemoryError"), e);
            assertFalse(e.contains("Exception"), e);
        } finally {
            pool.shutdownNow();
            p.destroyForcibly();
        }
    }

    /** One NBD_CMD_WRITE of {@link #REQUEST} bytes of the pattern at {@code at}, sent a MiB at a time. */
    private static int write(NbdClient c, long at, long seed) throws IOException {
        c.writeAll(NbdClient.header(0, NbdClient.CMD_WRITE, 1, at, REQUEST));
        ByteBuffer b = ByteBuffer.allocate(MiB);
        for (long p = at; p < at + REQUEST; p += MiB) {
            b.clear();
            fill(b, seed, p);
            c.writeAll(b.flip());
        }
        ByteBuffer r = c.readN(16);
        assertEquals(NbdClient.SIMPLE_REPLY, r.getInt());
        int e = r.getInt();
        assertEquals(1, r.getLong());
        return e;
    }

    /** One NBD_CMD_READ of {@link #REQUEST} bytes at {@code at}, its data checked a MiB at a time: null if right. */
    private static String readAndCheck(NbdClient c, long at, long seed) throws IOException {
        c.writeAll(NbdClient.header(0, NbdClient.CMD_READ, 2, at, REQUEST));
        ByteBuffer r = c.readN(16);
        assertEquals(NbdClient.SIMPLE_REPLY, r.getInt());
        int e = r.getInt();
        assertEquals(2, r.getLong());
        if (e != 0) {
            return "read at " + at + ": error " + e;
        }
        for (long p = at; p < at + REQUEST; p += MiB) {
            long bad = mismatch(c.readN(MiB), seed, p);
            if (bad >= 0) {
                return "read back: the byte at " + bad + " differs";
            }
        }
        return null;
    }

    /** The server's stderr as far as it has come (a thread of its own copies it). */
    private static final class Stderr {
        private final StringBuffer text = new StringBuffer();
        private final Thread copier;

        Stderr(InputStream in) {
            copier = new Thread(() -> {
                byte[] b = new byte[8192];
                try {
                    for (int n; (n = in.read(b)) > 0; ) {
                        text.append(new String(b, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    text.append(e);
                }
            }, "server-stderr");
            copier.setDaemon(true);
            copier.start();
        }

        /** What came so far, after a moment for what is on its way. */
        String now() {
            try {
                copier.join(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text.toString();
        }

        /** All of it, once the process has ended. */
        String all() throws InterruptedException {
            copier.join(10_000);
            return text.toString();
        }
    }
}
