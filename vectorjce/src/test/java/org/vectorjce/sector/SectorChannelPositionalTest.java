package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * {@link SectorChannel}'s positional calls on a file: writes at random offsets and lengths leave
 * the position alone and match a model of the plaintext; then four threads read at random offsets
 * at once and each read equals the model; and the image, decrypted on its own by a
 * {@link SectorParameterSpec} cipher, equals the model. The window's IV offset is given in 512-byte
 * units ({@code ivOffset}), for 4096-byte sectors, and must mean what a first sector of
 * {@code ivOffset / 8} means to the JCA cipher.
 */
class SectorChannelPositionalTest {
    private static final VectorJceProvider VJ = new VectorJceProvider();

    @TempDir
    Path dir;

    @Test
    void positionalWritesAndConcurrentReadsMatchTheModel() throws Exception {
        Random rnd = new Random(47);
        byte[] key = new byte[64];
        rnd.nextBytes(key);
        int sector = 4096;
        long header = 3 * sector;
        int size = 64 * sector;
        long ivOffset = 8 * 1000; // 512-byte units: sector 1000
        Path img = dir.resolve("img");
        byte[] model = new byte[size];
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate((int) header + size), 0);
            try (SectorChannel ch = SectorChannel.builder(f, "aes-xts-plain64", new SecretKeySpec(key, "AES"), sector)
                    .ivOffset(ivOffset).window(header, size).provider(VJ).keepImageOpen().open()) {
                ch.write(ByteBuffer.allocate(size), 0); // every sector encrypted zeros first
                ch.position(5);
                for (int i = 0; i < 200; i++) {
                    int len = rnd.nextInt(3) == 0 ? rnd.nextInt(3 * sector) : rnd.nextInt(100);
                    int at = rnd.nextInt(size - len + 1);
                    byte[] data = new byte[len];
                    rnd.nextBytes(data);
                    assertEquals(len, ch.write(ByteBuffer.wrap(data), at));
                    System.arraycopy(data, 0, model, at, len);
                    assertEquals(5, ch.position(), "a positional write leaves the position");
                }
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                    List<Future<?>> reads = new ArrayList<>();
                    for (int t = 0; t < 4; t++) {
                        long seed = rnd.nextLong();
                        reads.add(pool.submit(() -> {
                            Random r = new Random(seed);
                            for (int i = 0; i < 100; i++) {
                                int len = r.nextInt(2 * sector) + 1;
                                int at = r.nextInt(size - len + 1);
                                ByteBuffer b = r.nextBoolean() ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
                                assertEquals(len, ch.read(b, at));
                                byte[] got = new byte[len];
                                b.flip().get(got);
                                assertArrayEquals(Arrays.copyOfRange(model, at, at + len), got, "at " + at);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> r : reads) {
                        r.get();
                    }
                } finally {
                    pool.shutdownNow();
                }
                assertEquals(5, ch.position());
                assertEquals(-1, ch.read(ByteBuffer.allocate(1), size));
            }
            byte[] stored = new byte[size];
            f.read(ByteBuffer.wrap(stored), header);
            Cipher c = Cipher.getInstance("AES/XTS/NoPadding", VJ);
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                    new SectorParameterSpec("plain64", ivOffset / 8, sector, false));
            assertArrayEquals(model, c.doFinal(stored), "the image, decrypted by the JCA cipher");
        }
    }
}
