package org.vectorjce.volumes.luks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.JdkXts;
import org.vectorjce.volumes.TestImages;

/**
 * The IV's sector number comes from the byte offset, in 512-byte units, for 4096-byte sectors: a
 * LUKS2 volume cryptsetup formats with {@code --sector-size 4096}, random ciphertext written into
 * its payload, read through {@code Volume.device()} at offsets that start and end inside sectors,
 * from several threads at once, and compared with the same bytes decrypted by {@link JdkXts} (the
 * JDK's AES with dm-crypt's {@code plain64} tweak = 4096-byte sector × 8) under the volume key
 * cryptsetup dumps.
 */
class LargeSectorDeviceTest {
    @TempDir
    Path dir;

    @Test
    void oddOffsetsOfA4096ByteSectorVolumeReadAsTheJdkDecrypts() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = dir.resolve("v.img");
        Path key = dir.resolve("key");
        Files.write(key, "a key file".getBytes(StandardCharsets.US_ASCII));
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), 20L * 1024 * 1024 - 1);
        }
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--cipher", "aes-xts-plain64",
                "--key-size", "512", "--sector-size", "4096", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
                img.toString(), key.toString());
        String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        Matcher m = Pattern.compile("offset: (\\d+) \\[bytes\\]").matcher(dump);
        m.find();
        long payloadOffset = Long.parseLong(m.group(1));
        Matcher s = Pattern.compile("sector: (\\d+) \\[bytes\\]").matcher(dump);
        s.find();
        assertEquals("4096", s.group(1), dump);
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), img.toString()).out());

        byte[] cipherText = new byte[256 * 1024];
        new Random(4096).nextBytes(cipherText);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(cipherText), payloadOffset);
        }
        byte[] plain = JdkXts.crypt(false, vk, cipherText, 4096);

        try (LuksVolume v = LuksVolume.at(img).keyFile(key).open(); Device d = v.device()) {
            assertEquals(4096, d.alignment());
            long[][] reads = {{4096L * 3 + 1234, 10_000}, {1, 4095}, {4095, 2}, {4096L * 17 + 511, 513},
                    {4096L * 40 + 7, 90_001}, {cipherText.length - 4097, 4097}};
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                for (int round = 0; round < 8; round++) {
                    List<Future<?>> done = new ArrayList<>();
                    for (long[] r : reads) {
                        done.add(pool.submit(() -> {
                            ByteBuffer b = ByteBuffer.allocate((int) r[1]);
                            d.readFully(b, r[0]);
                            assertArrayEquals(Arrays.copyOfRange(plain, (int) r[0], (int) (r[0] + r[1])), b.array(),
                                    "bytes " + r[0] + " to " + (r[0] + r[1]));
                            ByteBuffer direct = ByteBuffer.allocateDirect((int) r[1]);
                            d.readFully(direct, r[0]);
                            assertEquals(b.flip(), direct.flip(), "a direct buffer at " + r[0]);
                            return null;
                        }));
                    }
                    for (Future<?> f : done) {
                        f.get();
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
