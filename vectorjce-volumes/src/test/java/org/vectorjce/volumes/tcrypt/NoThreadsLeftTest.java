package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * The volumes API leaves no thread behind (issue 27): the live threads are counted before and
 * after opening (and so unlocking) a LUKS2 argon2id volume with two lanes, a LUKS1 PBKDF2 one,
 * reading and decrypting their payloads, and a TrueCrypt header search over several KDF rows on
 * two threads; none may be new afterwards. And the caller's {@link Executor}, when given, runs the
 * helpers, and one that never runs them does not stall the call.
 */
class NoThreadsLeftTest {
    private static final byte[] PW = "no threads left".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void noThreadRemainsAfterOpenUnlockDecryptAndSearch() throws Exception {
        Path luks2 = luks2Argon2id(dir.resolve("l2.img"));
        Path luks1 = luks1Pbkdf2(dir.resolve("l1.img"));
        Path tc = tcrypt(dir.resolve("tc.img"));
        Set<Thread> before = live();
        readPayload(LuksVolume.at(luks2).passphrase(PW), 2);
        readPayload(LuksVolume.at(luks1).passphrase(PW), 1);
        try (TcryptVolume v = TcryptVolume.at(tc).passphrase(PW).hash("sha512").threads(2).open()) {
            assertEquals("aes", v.info().chain());
            ByteBuffer b = ByteBuffer.allocate(64 << 10);
            assertEquals(b.capacity(), v.payload().read(b));
            assertArrayEquals(plain(), b.array());
        }
        Set<Thread> after = live();
        after.removeAll(before);
        assertEquals("", after.stream().map(t -> t.getName() + " (" + t.getState() + ")")
                .collect(Collectors.joining(", ")), "threads left by the volumes API");
    }

    @Test
    void theCallersExecutorRunsTheHelpers() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "one processor: no helpers");
        Path luks2 = luks2Argon2id(dir.resolve("l2.img"));
        Path tc = tcrypt(dir.resolve("tc.img"));
        CountingExecutor ex = new CountingExecutor();
        Set<Thread> before = live();
        try (LuksVolume v = LuksVolume.at(luks2).passphrase(PW).executor(ex)
                .argon2Compression(Argon2Compression.SCALAR).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
        int afterLuks = ex.count.get();
        assertTrue(afterLuks > 0, "Argon2's second lane ran on the caller's executor");
        try (TcryptVolume v = TcryptVolume.at(tc).passphrase(PW).hash("sha512").threads(2).executor(ex).open()) {
            assertEquals("aes", v.info().chain());
        }
        assertTrue(ex.count.get() > afterLuks, "the header search's helpers ran on the caller's executor");
        ex.joinAll();
        Set<Thread> after = live();
        after.removeAll(before);
        assertEquals(Set.of(), after, "no thread but the executor's own");
    }

    /** An executor that drops every task: the caller's thread does all the work. */
    @Test
    void anExecutorThatNeverRunsTheTasksStallsNothing() throws Exception {
        Path luks2 = luks2Argon2id(dir.resolve("l2.img"));
        Path tc = tcrypt(dir.resolve("tc.img"));
        AtomicInteger dropped = new AtomicInteger();
        Executor never = r -> dropped.incrementAndGet();
        try (LuksVolume v = LuksVolume.at(luks2).passphrase(PW).executor(never).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
        try (TcryptVolume v = TcryptVolume.at(tc).passphrase(PW).hash("sha512").threads(2).executor(never).open()) {
            assertEquals("aes", v.info().chain());
        }
        if (Runtime.getRuntime().availableProcessors() >= 2) {
            assertTrue(dropped.get() > 0);
        }
    }

    private static void readPayload(LuksVolume.Builder b, int version) throws Exception {
        try (LuksVolume v = b.open()) {
            assertEquals(version, v.info().version());
            SeekableByteChannel p = v.payload();
            ByteBuffer buf = ByteBuffer.allocate(64 << 10);
            while (buf.hasRemaining() && p.read(buf) > 0) {
                // fill: the payload decrypted
            }
            assertEquals(0, buf.remaining());
        }
    }

    private static Path luks2Argon2id(Path img) throws Exception {
        sparse(img, 18L << 20);
        KeySlotOptions o = KeySlotOptions.defaults().pbkdf("argon2id").forceIterations(4).memoryKib(8192).parallel(2);
        Luks2Format.luks2().cipher("aes-xts-plain64").keySize(512).keySlot(o).format(img, PW);
        return img;
    }

    private static Path luks1Pbkdf2(Path img) throws Exception {
        sparse(img, 4L << 20);
        Luks1Format.luks1().cipher("aes-xts-plain64").keySize(256).hash("sha256").iterations(1000).format(img, PW);
        return img;
    }

    private static Path tcrypt(Path img) throws Exception {
        TcryptSynthetic.write(img, "aes", PW, 1 << 20, plain(), true, 7);
        return img;
    }

    private static byte[] plain() {
        byte[] p = new byte[64 << 10];
        new Random(27).nextBytes(p);
        return p;
    }

    private static void sparse(Path img, long size) throws Exception {
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), size - 1);
        }
    }

    private static Set<Thread> live() {
        Set<Thread> s = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive()) {
                s.add(t);
            }
        }
        return s;
    }

    /** Runs each task on a new thread of its own, counted, and joins them all at the end. */
    private static final class CountingExecutor implements Executor {
        final AtomicInteger count = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();

        @Override
        public synchronized void execute(Runnable r) {
            count.incrementAndGet();
            Thread t = new Thread(r, "caller-executor");
            threads.add(t);
            t.start();
        }

        synchronized void joinAll() throws InterruptedException {
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
