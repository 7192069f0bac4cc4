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
 * dislocker as a second, independent oracle for the data (Debian's {@code dislocker} 0.7, which
 * {@code .ci/run} installs; skipped, naming the tool, where it is absent): for every image of
 * cryptsetup's {@code bitlk-images.tar.xz} whose data we map, {@code dislocker-file -V IMAGE -k
 * FVEK -- OUT} writes the decrypted volume, and it equals our {@link BitlkVolume#payload()} byte
 * for byte. The FVEK file is dislocker's (its {@code build_fvek_from_file}): the two-byte
 * encryption method and the 64-byte key as its {@code init_keys} takes it, here from the volume
 * key our unlock gives (which {@link BitlkCryptsetupTest} checks against cryptsetup's), so
 * dislocker's own 2^20-round stretch, slow without SHA extensions, is not run once per image.
 * Where dislocker itself fails on an image, that image is skipped with dislocker's exit status.
 * Two dislocker processes run at a time.
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
        byte[] key = volumeKey(name, c);
        BitlkInfo info = BitlkVolume.info(BitlkImages.images().get(name).channel(), name);
        Path img = BitlkImages.images().get(name).write(dir);
        Path fvek = dir.resolve(name + ".fvek");
        Files.write(fvek, fvekFile(info, key));
        Arrays.fill(key, (byte) 0);
        Path out = dir.resolve(name + ".plain");
        TestImages.Run r = TestImages.run(null, "dislocker-file", "-V", img.toString(), "-k", fvek.toString(), "--",
                out.toString());
        Files.delete(img);
        Files.delete(fvek);
        String log = (r.out() + r.err()).strip();
        return new Result(r.rc(), out, log.substring(log.lastIndexOf('\n') + 1));
    }

    /**
     * dislocker's FVEK file: the FVE encryption method, little-endian (0x8000/0x8001 AES-128/256-CBC
     * with the Elephant diffuser, 0x8002/0x8003 AES-128/256-CBC, 0x8004/0x8005 AES-128/256-XTS),
     * then 64 key bytes: the key, zero-padded; for Elephant the CBC key at 0 and the sector key at
     * 32, each zero-padded.
     */
    static byte[] fvekFile(BitlkInfo info, byte[] key) {
        int method;
        byte[] k = new byte[64];
        switch (info.mode()) {
            case "xts-plain64" -> {
                method = key.length == 32 ? 0x8004 : 0x8005;
                System.arraycopy(key, 0, k, 0, key.length);
            }
            case "cbc-eboiv" -> {
                method = key.length == 16 ? 0x8002 : 0x8003;
                System.arraycopy(key, 0, k, 0, key.length);
            }
            case "cbc-elephant" -> {
                method = key.length == 32 ? 0x8000 : 0x8001;
                System.arraycopy(key, 0, k, 0, key.length / 2);
                System.arraycopy(key, key.length / 2, k, 32, key.length / 2);
            }
            default -> throw new AssertionError(info.mode());
        }
        byte[] f = new byte[66];
        f[0] = (byte) method;
        f[1] = (byte) (method >>> 8);
        System.arraycopy(k, 0, f, 2, 64);
        Arrays.fill(k, (byte) 0);
        return f;
    }

    /** The volume key: BitlkImagesTest's, when it ran first in this JVM, else unlocked here. */
    private static byte[] volumeKey(String name, Map<String, String> c) throws Exception {
        byte[] key = BitlkImagesTest.KEYS.get(name);
        if (key != null) {
            return key.clone();
        }
        BitlkVolume.Builder b = BitlkVolume.of(BitlkImages.images().get(name).channel());
        if (!c.getOrDefault("PW", "").isEmpty()) {
            b.passphrase(c.get("PW").toCharArray());
        } else if (!c.getOrDefault("RP", "").isEmpty()) {
            b.passphrase(c.get("RP").toCharArray());
        } else if (!c.getOrDefault("SK_VMK_GUID", "").isEmpty()) {
            b.startupKey(BitlkImages.files().get(c.get("SK_VMK_GUID").toUpperCase(Locale.ROOT) + ".BEK"));
        }
        try (BitlkVolume v = b.open()) {
            return v.volumeKey();
        }
    }

    private static void compare(String name, Map<String, String> c, Result r) throws Exception {
        try {
            assumeTrue(r.rc() == 0 && Files.exists(r.out()), () -> "dislocker-file fails on " + name + " (exit "
                    + r.rc() + "): " + r.log());
            byte[] key = volumeKey(name, c);
            BitlkVolume.Builder b = BitlkVolume.of(BitlkImages.images().get(name).channel()).volumeKey(key);
            Arrays.fill(key, (byte) 0);
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
