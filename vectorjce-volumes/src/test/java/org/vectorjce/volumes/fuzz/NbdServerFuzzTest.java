package org.vectorjce.volumes.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.volumes.NbdClient;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.nbd.VolumeServer;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the NBD server's handshake and request loop with Jazzer. The input
 * is every byte one client sends, from its client flags on (the server's greeting is fixed):
 * it is written to a real connection of a {@link VolumeServer} on a Unix socket (the server reads
 * nothing else) by a thread of its own, which then ends its side of the stream, while the
 * harness reads the server's replies until the server closes. The properties:
 *
 * <ul>
 *   <li>the server answers (its greeting comes first) and closes the connection within
 *       {@link #TIMEOUT_SECONDS}: no hang, however the input ends;</li>
 *   <li>the connection's thread ends, and nothing is thrown out of the server's threads;</li>
 *   <li>afterwards a well-behaved client on a new connection reads the first MiB, one full-size
 *       request (the server's limit and its buffer room are both 1 MiB, so a buffer a broken
 *       session kept would stall it), and the last sector, and gets the bytes the volume's own
 *       payload channel reads; and what it writes it reads back.</li>
 * </ul>
 *
 * <p>The volume: a LUKS2 image the library formats in a temporary folder, 4 MiB of payload of
 * seeded random bytes; the inputs may write to it, which is why the oracle is the payload read
 * directly, not a copy.
 *
 * <p>In {@code mvn test} this replays the committed corpus in
 * {@code src/test/resources/org/vectorjce/volumes/fuzz/NbdServerFuzzTestInputs/session/}: a
 * handshake with GO and a READ, a WRITE with FLUSH and FUA, a truncated WRITE payload and header,
 * unknown options and commands, length 0, lengths above 32 MiB, offsets past the end, structured
 * replies with INFO, EXPORT_NAME with the zeroes, STARTTLS/LIST/ABORT, bad client flags, an
 * option too long. A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-volumes test -Dtest=NbdServerFuzzTest -Djazzer.max_duration=10m
 * </pre>
 */
class NbdServerFuzzTest {
    private static final byte[] PW = "fuzz".getBytes(StandardCharsets.UTF_8);
    static final int TIMEOUT_SECONDS = 10;
    private static boolean hooksTurnedOff;
    private static Path dir, sock;
    private static Volume volume;
    private static VolumeServer server;
    private static final List<Thread> threads = new CopyOnWriteArrayList<>();
    private static final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private static final ExecutorService clientSide = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "nbd-fuzz-client");
        t.setDaemon(true);
        return t;
    });
    private static int marker;

    @BeforeAll
    static void serve() throws Exception {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
        dir = Files.createTempDirectory("nbd-fuzz");
        Path img = dir.resolve("disk.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), (20L << 20) - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(512).keySlot(TestImages.fast("pbkdf2")).format(img, PW);
        volume = Volumes.open(img).passphrase(PW).readWrite().open();
        byte[] content = new byte[(int) volume.payloadSize()];
        new Random(11).nextBytes(content);
        try (SeekableByteChannel p = volume.payload()) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                p.write(b);
            }
        }
        sock = dir.resolve("fuzz.sock");
        server = VolumeServer.builder(volume).unixSocket(sock).maxRequest(1 << 20).bufferBytes(1 << 20).executor(r -> {
            Thread t = new Thread(r, "nbd-fuzz-server");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
            threads.add(t);
            t.start();
        }).start();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                // on a thread of its own: after a finding the server may not stop, and the run must end
                Future<?> closed = clientSide.submit(() -> {
                    server.close();
                    return null;
                });
                try {
                    closed.get(3L * TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("the server did not stop", e);
                }
            }
            if (volume != null) {
                volume.close();
            }
        } finally {
            if (dir != null) {
                try (Stream<Path> s = Files.walk(dir)) {
                    for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
            if (hooksTurnedOff) {
                System.clearProperty("jazzer.hooks");
            }
        }
    }

    @FuzzTest(maxDuration = "5m")
    void session(byte[] data) throws Exception {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(sock));
        byte[] replies;
        try {
            Future<?> sent = clientSide.submit(() -> {
                try {
                    ByteBuffer b = ByteBuffer.wrap(data);
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                    ch.shutdownOutput();
                } catch (IOException e) {
                    // the server closed first: what it did not read does not matter
                }
                return null;
            });
            Future<byte[]> received = clientSide.submit(() -> readUntilClosed(ch));
            try {
                replies = received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                sent.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("the server neither closed the connection nor stopped answering within "
                        + TIMEOUT_SECONDS + " s", e);
            } catch (ExecutionException e) {
                throw new AssertionError("reading the server's replies", e.getCause());
            }
        } finally {
            ch.close();
        }
        assertTrue(replies.length >= 18, "the server's greeting");
        ByteBuffer hello = ByteBuffer.wrap(replies);
        assertEquals(NbdClient.NBDMAGIC, hello.getLong());
        assertEquals(NbdClient.IHAVEOPT, hello.getLong());

        // the connection's thread has ended (the first thread is the one accepting), and nothing escaped
        for (Thread t : new ArrayList<>(threads.subList(1, threads.size()))) {
            t.join(TIMEOUT_SECONDS * 1000L);
            assertFalse(t.isAlive(), "the connection's thread did not end");
            threads.remove(t);
        }
        assertEquals(List.of(), uncaught, "thrown out of the server's threads");
        assertTrue(threads.get(0).isAlive(), "the server still accepts");

        // a well-behaved client: the bytes the volume holds, and its own write read back
        Future<?> checked = clientSide.submit(() -> {
            wellBehaved();
            return null;
        });
        try {
            checked.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            checked.cancel(true);
            throw new AssertionError("a well-behaved client was not served within " + TIMEOUT_SECONDS + " s", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof AssertionError a ? a : new AssertionError("a well-behaved client", e.getCause());
        }
    }

    private static void wellBehaved() throws Exception {
        try (NbdClient c = NbdClient.connect(sock); SeekableByteChannel p = volume.payload()) {
            long size = volume.payloadSize();
            for (long[] r : new long[][] {{0, 1 << 20}, {size - 512, 512}}) {
                NbdClient.Reply got = c.read(r[0], (int) r[1]);
                assertEquals(0, got.error(), "read at " + r[0]);
                ByteBuffer want = ByteBuffer.allocate((int) r[1]);
                p.position(r[0]);
                while (want.hasRemaining() && p.read(want) >= 0) {
                    // fill
                }
                assertArrayEquals(want.array(), got.data(), "the bytes at " + r[0]);
            }
            byte[] mine = new byte[4096];
            new Random(++marker).nextBytes(mine);
            long at = (2 << 20) + 4096L * (marker % 16);
            assertEquals(0, c.write(at, mine));
            NbdClient.Reply back = c.read(at, mine.length);
            assertEquals(0, back.error());
            assertArrayEquals(mine, back.data(), "a write read back");
            c.disconnect();
        }
    }

    /** Everything the server sends until it closes (or resets) the connection. */
    private static byte[] readUntilClosed(SocketChannel ch) {
        List<byte[]> parts = new ArrayList<>();
        int total = 0;
        ByteBuffer b = ByteBuffer.allocate(64 << 10);
        try {
            for (int n; (n = ch.read(b.clear())) >= 0; total += n) {
                // keep the start (the greeting and the first replies), read past the rest
                if (total < 1 << 16) {
                    parts.add(Arrays.copyOf(b.array(), n));
                }
            }
        } catch (IOException e) {
            // reset by the server: closed
        }
        ByteBuffer all = ByteBuffer.allocate(parts.stream().mapToInt(x -> x.length).sum());
        parts.forEach(all::put);
        return all.array();
    }
}
