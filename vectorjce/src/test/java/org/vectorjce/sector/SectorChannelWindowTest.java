package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.InvalidKeyException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.SectorChannel;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * {@link SectorChannel.Builder}'s views: a window of a file (a payload after its header) whose
 * bytes outside it never change, sized and bounded by the window; a read-only view; the image
 * left open on close; and several channels over one {@code FileChannel} on different threads.
 * The ciphertext is checked with an independent {@code Cipher} and a {@link SectorParameterSpec}.
 */
class SectorChannelWindowTest {
    private static final int HEADER = 64 << 10, SECTOR = 4096;
    private static final VectorJceProvider VJ = new VectorJceProvider();

    private static byte[] key() {
        byte[] k = new byte[64];
        new Random(7).nextBytes(k);
        return k;
    }

    private static SectorChannel.Builder builder(FileChannel f, byte[] key, long payload) {
        return SectorChannel.builder(f, "aes-xts-plain64", new SecretKeySpec(key, "AES"), SECTOR).firstSector(5)
                .provider(VJ).window(HEADER, payload).keepImageOpen();
    }

    @Test
    void aWindowWritesOnlyInsideAndIsSizedByIt(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("w.img");
        byte[] before = new byte[HEADER + 32 * SECTOR + 8192];
        new Random(1).nextBytes(before);
        Files.write(img, before);
        long payload = 32L * SECTOR;
        byte[] key = key();
        byte[] plain = new byte[(int) payload];
        new Random(2).nextBytes(plain);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            try (SectorChannel ch = builder(f, key, payload).open()) {
                assertEquals(payload, ch.size());
                ch.write(ByteBuffer.wrap(plain, 0, 1000));            // partial sectors first
                ch.write(ByteBuffer.wrap(plain, 1000, plain.length - 1000));
                ch.position(payload - 10);
                IOException past = assertThrows(IOException.class, () -> ch.write(ByteBuffer.allocate(11)));
                assertTrue(past.getMessage().contains(payload + "-byte"), past.getMessage());
                assertEquals(payload - 10, ch.position(), "nothing consumed");
                assertThrows(IOException.class, () -> ch.truncate(SECTOR));
                ch.position(payload);
                assertEquals(-1, ch.read(ByteBuffer.allocate(1)));
            }
            assertTrue(f.isOpen(), "keepImageOpen leaves the image to its owner");
            byte[] after = Files.readAllBytes(img);
            assertArrayEquals(Arrays.copyOfRange(before, 0, HEADER), Arrays.copyOfRange(after, 0, HEADER), "header");
            assertArrayEquals(Arrays.copyOfRange(before, HEADER + (int) payload, before.length),
                    Arrays.copyOfRange(after, HEADER + (int) payload, after.length), "bytes after the window");
            Cipher c = Cipher.getInstance("AES/XTS/NoPadding", VJ);
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new SectorParameterSpec("plain64", 5, SECTOR));
            assertArrayEquals(plain, c.doFinal(after, HEADER, (int) payload), "sector s has IV sector 5 + s");

            // Read-only: writes and truncation refused, reads the same plaintext.
            try (SectorChannel ro = builder(f, key, payload).readOnly().open()) {
                assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1)));
                assertThrows(NonWritableChannelException.class, () -> ro.truncate(0));
                ByteBuffer all = ByteBuffer.allocate((int) payload);
                ro.read(all);
                assertArrayEquals(plain, all.array());
            }
        }
    }

    @Test
    void channelsOfOneFileReadOnThreadsOfTheirOwn(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("t.img");
        long payload = 256L * SECTOR;
        Files.write(img, new byte[HEADER + (int) payload]);
        byte[] key = key();
        byte[] plain = new byte[(int) payload];
        new Random(3).nextBytes(plain);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            try (SectorChannel w = builder(f, key, payload).open()) {
                w.write(ByteBuffer.wrap(plain));
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                Future<?>[] jobs = new Future<?>[4];
                for (int t = 0; t < jobs.length; t++) {
                    int seed = t;
                    jobs[t] = pool.submit(() -> {
                        Random r = new Random(seed);
                        try (SectorChannel ch = builder(f, key, payload).readOnly().open()) {
                            for (int i = 0; i < 300; i++) {
                                int at = r.nextInt((int) payload - 1), len = 1 + r.nextInt(Math.min(20000, (int) payload - at));
                                ByteBuffer b = ByteBuffer.allocate(len);
                                ch.position(at).read(b);
                                assertArrayEquals(Arrays.copyOfRange(plain, at, at + len), b.array(), "at " + at);
                            }
                        }
                        return null;
                    });
                }
                for (Future<?> j : jobs) {
                    j.get();
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void equalXtsHalvesOpenReadOnlyOnly(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("e.img");
        Files.write(img, new byte[HEADER + SECTOR]);
        byte[] equal = new byte[64];
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThrows(InvalidKeyException.class, () -> builder(f, equal, SECTOR).open());
            builder(f, equal, SECTOR).readOnly().open().close();
            IOException outside = assertThrows(IOException.class, () -> builder(f, equal, 2 * SECTOR).readOnly().open());
            assertTrue(outside.getMessage().contains("reaches past"), outside.getMessage());
            assertThrows(IOException.class, () -> SectorChannel.builder(f, "aes-xts-plain64",
                    new SecretKeySpec(equal, "AES"), SECTOR).window(100, SECTOR).readOnly().open());
        }
    }
}
