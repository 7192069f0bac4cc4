package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and slow clients: 200 that send a header byte a second and 1,000 malformed requests
 * while a normal client is still served; the connection limit; the timeouts; and close(), which
 * lets a download in flight finish and leaves no thread behind.
 */
class FileServerLimitsTest {
    @TempDir
    static Path dir;
    static ServedImage served;
    static byte[] big;

    @BeforeAll
    static void make() throws Exception {
        served = ServedImage.make(dir);
        big = Files.readAllBytes(served.source.resolve(ServedImage.BIG));
    }

    @AfterAll
    static void close() throws IOException {
        if (served != null) {
            served.close();
        }
    }

    private static FileServer.Builder small() {
        return FileServer.builder(served.fs.getPath("/")).timeouts(Duration.ofSeconds(2), Duration.ofSeconds(3),
                Duration.ofSeconds(2), Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10));
    }

    private static Socket connect(URI u) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(u.getHost(), u.getPort()), 5000);
        s.setSoTimeout(15_000);
        return s;
    }

    @Test
    void slowAndMalformedClientsLeaveTheServerServing() throws Exception {
        try (FileServer server = small().maxConnections(400).start()) {
            URI u = server.uri();
            byte[] slowHead = ("GET " + u.getPath() + " HTTP/1.1\r\nHost: x\r\nX-Slow: " + "z".repeat(40) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            List<Socket> slow = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                for (int i = 0; i < 200; i++) {
                    slow.add(connect(u));
                }
                Future<?> dribble = pool.submit(() -> {
                    for (int b = 0; b < 4; b++) {
                        for (Socket s : slow) {
                            try {
                                s.getOutputStream().write(slowHead[b]);
                            } catch (IOException e) {
                                // cut by the server: expected after its header timeout
                            }
                        }
                        sleep(1000);
                    }
                    return null;
                });
                String[] garbage = {"GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "\0\0\0\0\r\n\r\n",
                    "GET / HTTP/1.1\r\nno colon here\r\n\r\n", "GET / HTTP/1.1\r\n folded: x\r\n\r\n",
                    "GET " + u.getPath() + "%2e%2e/ HTTP/1.1\r\nHost: x\r\n\r\n", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                    "POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                    "\u00ff\u00fe GET / HTTP/1.1\r\n\r\n", "GET /" + "x".repeat(9000) + " HTTP/1.1\r\n\r\n"};
                AtomicInteger answered = new AtomicInteger();
                List<Future<?>> bad = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int from = t;
                    bad.add(pool.submit(() -> {
                        for (int i = from; i < 1000; i += 4) {
                            Http.Reply r = Http.send(u, garbage[i % garbage.length].getBytes(StandardCharsets.ISO_8859_1));
                            assertTrue(r.status() >= 400 && r.status() < 600, r.all());
                            answered.incrementAndGet();
                        }
                        return null;
                    }));
                }
                // a normal client, meanwhile
                long t0 = System.nanoTime();
                Http.Reply ok = Http.send(u, "GET " + u.getPath() + "big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertEquals(200, ok.status(), ok.head());
                assertArrayEquals(big, ok.body());
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "the normal client waited too long");
                for (Future<?> f : bad) {
                    f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(1000, answered.get());
                dribble.get(30, TimeUnit.SECONDS);
                // the slow clients were cut after the header timeout, with 408 or a closed connection
                for (Socket s : slow) {
                    Http.Reply r = Http.read(s.getInputStream());
                    assertTrue(r.status() == 408 || r.status() == -1, r.all());
                }
            } finally {
                pool.shutdownNow();
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void connectionsOverTheLimitGet503() throws Exception {
        try (FileServer server = small().maxConnections(2).start();
             Socket a = connect(server.uri()); Socket b = connect(server.uri())) {
            a.getOutputStream().write('G');
            b.getOutputStream().write('G');
            Thread.sleep(200);
            Http.Reply r = Http.send(server.uri(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(503, r.status(), r.all());
        }
    }

    @Test
    void aStalledRequestGets408() throws Exception {
        try (FileServer server = small().start(); Socket s = connect(server.uri())) {
            long t0 = System.nanoTime();
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            Http.Reply r = Http.read(s.getInputStream());
            assertEquals(408, r.status(), r.all());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10));
        }
    }

    @Test
    void closeFinishesADownloadInFlightAndLeavesNoThread() throws Exception {
        // a file larger than the kernel's largest send buffer (4 MiB by default), so that the
        // server is still writing it when close() is called: served from the default filesystem
        Path folder = Files.createDirectories(dir.resolve("lifecycle"));
        byte[] huge = new byte[24 << 20];
        new java.util.Random(7).nextBytes(huge);
        Files.write(folder.resolve("huge.bin"), huge);
        FileServer server = FileServer.builder(folder).timeouts(Duration.ofSeconds(2), Duration.ofSeconds(3),
                Duration.ofSeconds(2), Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
        URI u = server.uri();
        CompletableFuture<Void> closed;
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(16 * 1024);
            s.connect(new InetSocketAddress(u.getHost(), u.getPort()), 5000);
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + u.getPath() + "huge.bin HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] first = in.readNBytes(64 * 1024);
            closed = CompletableFuture.runAsync(() -> {
                try {
                    server.close();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(300);
            assertFalse(closed.isDone(), "close() returned while a download was in flight");
            byte[] rest = in.readAllBytes();
            byte[] all = Arrays.copyOf(first, first.length + rest.length);
            System.arraycopy(rest, 0, all, first.length, rest.length);
            Http.Reply r = Http.read(new java.io.ByteArrayInputStream(all));
            assertEquals(200, r.status());
            assertArrayEquals(huge, r.body());
        }
        closed.get(20, TimeUnit.SECONDS);
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("vectorjce-webdav-" + u.getPort()) && t.isAlive(), t.getName() + " is alive");
        }
    }

    @Test
    void aCallersExecutorRunsEverythingAndIsLeftRunning() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            FileServer server = small().executor(pool).start();
            Http.Reply r = Http.send(server.uri(), "GET " + server.uri().getPath() + "a%20b.txt HTTP/1.1\r\nHost: x\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals("spaces in the name\n", r.text());
            server.close();
            server.await();
            assertFalse(pool.isShutdown());
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "a task of the server was still running");
        } finally {
            pool.shutdownNow();
        }
    }
}
