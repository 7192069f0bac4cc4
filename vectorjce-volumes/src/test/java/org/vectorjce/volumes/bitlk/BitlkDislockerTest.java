package org.vectorjce.volumes.bitlk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import org.vectorjce.volumes.TestImages;

/**
 * dislocker as a second, independent oracle (Debian's {@code dislocker} 0.7, which {@code .ci/run}
 * installs; skipped, naming the tool, where it is absent): for every image of cryptsetup's
 * {@code bitlk-images.tar.xz} whose data we map, {@code dislocker-file -V IMAGE -u PASSWORD -- OUT}
 * (or {@code -p} with the recovery password, {@code -f} with the {@code .BEK} file, {@code -c} for
 * the clear key, as {@code images.conf} lists them) writes the decrypted volume, and it equals our
 * {@link BitlkVolume#payload()} byte for byte. Where dislocker itself fails on an image (0.7.2
 * crashes on the Unicode password), that image is skipped with dislocker's exit status: it is
 * checked against {@code images.conf} and cryptsetup by the other tests. Two dislocker processes
 * run at a time.
 */
class BitlkDislockerTest {
    @TempDir
    static Path dir;
    private static ExecutorService pool;

    private record Result(int rc, Path out, String log) {
    }

    @BeforeAll
    static void tool() {
        TestImages.assumeTool("dislocker-file");
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (pool != null) {
            pool.shutdownNow();
            pool.awaitTermination(60, TimeUnit.SECONDS);
        }
    }

    @TestFactory
    List<DynamicTest> dislockersOutputEqualsOurs() throws Exception {
        Map<String, Map<String, String>> conf = BitlkImages.conf();
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : conf.entrySet()) {
            String name = e.getKey();
            if (name.contains("eow") || name.contains("partially-encrypted")) {
                continue; // we refuse their data, as cryptsetup does (BitlkImagesTest)
            }
            Future<Result> run = pool.submit(() -> dislocker(name, e.getValue()));
            tests.add(DynamicTest.dynamicTest(name, () -> compare(name, e.getValue(), run.get())));
        }
        assertEquals(19, tests.size(), "images whose data cryptsetup maps");
        return tests;
    }

    private static Result dislocker(String name, Map<String, String> c) throws Exception {
        Path img = BitlkImages.images().get(name).write(dir);
        Path out = dir.resolve(name + ".plain");
        List<String> cmd = new ArrayList<>(List.of("dislocker-file", "-V", img.toString()));
        if (!c.getOrDefault("PW", "").isEmpty()) {
            cmd.add("-u" + c.get("PW"));
        } else if (!c.getOrDefault("RP", "").isEmpty()) {
            cmd.add("-p" + c.get("RP"));
        } else if (!c.getOrDefault("SK_VMK_GUID", "").isEmpty()) {
            Path bek = dir.resolve(name + ".BEK");
            Files.write(bek, BitlkImages.files().get(c.get("SK_VMK_GUID").toUpperCase(Locale.ROOT) + ".BEK"));
            cmd.add("-f");
            cmd.add(bek.toString());
        } else {
            cmd.add("-c");
        }
        cmd.add("--");
        cmd.add(out.toString());
        TestImages.Run r = TestImages.run(null, cmd.toArray(String[]::new));
        Files.delete(img);
        String log = (r.out() + r.err()).strip();
        return new Result(r.rc(), out, log.substring(log.lastIndexOf('\n') + 1));
    }

    private static void compare(String name, Map<String, String> c, Result r) throws Exception {
        try {
            assumeTrue(r.rc() == 0 && Files.exists(r.out()), () -> "dislocker-file fails on " + name + " (exit "
                    + r.rc() + "): " + r.log());
            BitlkVolume.Builder b = BitlkVolume.of(BitlkImages.images().get(name).channel());
            byte[] key = BitlkImagesTest.KEYS.get(name);
            if (key != null) {
                b.volumeKey(key);
            } else if (!c.getOrDefault("PW", "").isEmpty()) {
                b.passphrase(c.get("PW").toCharArray());
            } else if (!c.getOrDefault("RP", "").isEmpty()) {
                b.passphrase(c.get("RP").toCharArray());
            } else if (!c.getOrDefault("SK_VMK_GUID", "").isEmpty()) {
                b.startupKey(BitlkImages.files().get(c.get("SK_VMK_GUID").toUpperCase(Locale.ROOT) + ".BEK"));
            }
            try (BitlkVolume v = b.open(); InputStream theirs = Files.newInputStream(r.out())) {
                SeekableByteChannel ours = v.payload();
                assertEquals(ours.size(), Files.size(r.out()), name + ": size of dislocker's output");
                ByteBuffer o = ByteBuffer.allocate(1 << 20);
                byte[] t = new byte[1 << 20];
                long at = 0;
                while (ours.read(o.clear()) > 0) {
                    int n = o.position();
                    int got = theirs.readNBytes(t, 0, n);
                    assertEquals(n, got, name + ": dislocker's output ends at byte " + (at + got));
                    int m = Arrays.mismatch(o.array(), 0, n, t, 0, n);
                    if (m >= 0) {
                        throw new AssertionError(name + ": dislocker's output differs from ours at byte " + (at + m));
                    }
                    at += n;
                }
                assertEquals(-1, theirs.read(), name + ": dislocker's output is longer than ours");
            }
        } finally {
            Files.deleteIfExists(r.out());
        }
    }
}
