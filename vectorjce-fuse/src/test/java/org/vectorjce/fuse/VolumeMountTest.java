package org.vectorjce.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * A LUKS2 volume made here, mounted through the kernel: the file's bytes, read by the JDK's file
 * API, are the payload the library reads (whole, at odd offsets, from several threads at once);
 * bytes written through the file (unaligned, across sectors) are what the library reads back, also
 * after the volume is opened again from the image; past the end and truncates are refused with the
 * errors the kernel passes on; a read-only mount refuses to open for writing and changes nothing;
 * {@code fusermount3 -u} ends {@link VolumeMount#awaitUnmount}. After each test the mount is gone
 * from the mount table and no thread is left. Skips, naming it, where libfuse3, fusermount3 or a
 * usable /dev/fuse is missing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VolumeMountTest {
    private static final byte[] PW = "fuse test".getBytes(StandardCharsets.UTF_8);
    /** Payload bytes: a 16 MiB header region, then this. */
    private static final int PAYLOAD = 4 << 20;

    @TempDir
    Path tmp;
    Path img, dir;
    Volume volume;
    VolumeMount mount;
    Set<Thread> before;

    @BeforeEach
    void volume() throws Exception {
        String problem = VolumeMount.problem();
        Assumptions.assumeTrue(problem == null, () -> "FUSE is not usable here: " + problem);
        img = tmp.resolve("disk.img");
        dir = Files.createDirectory(tmp.resolve("mnt"));
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (16L << 20) + PAYLOAD - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(4096)
                .keySlot(KeySlotOptions.defaults().pbkdf("pbkdf2").forceIterations(1000)).format(img, PW);
        volume = Volumes.open(img).passphrase(PW).readWrite().open();
        byte[] data = new byte[PAYLOAD];
        new Random(38).nextBytes(data);
        SeekableByteChannel p = volume.payload();
        p.write(ByteBuffer.wrap(data));
        p.close();
        before = live();
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            if (mount != null) {
                Path d = mount.directory();
                mount.close();
                assertTrue(VolumeMount.fuseMounts(d).isEmpty(), "still in the mount table after close()");
                Set<Thread> after = live();
                after.removeAll(before);
                // (the JDK's "process reaper" waits on the fusermount3 a test started, not on the mount)
                assertEquals("", after.stream().filter(Thread::isAlive).map(Thread::getName)
                        .filter(n -> !n.equals("process reaper")).collect(Collectors.joining(", ")),
                        "threads left after close()");
            }
        } finally {
            if (mount != null && !VolumeMount.fuseMounts(mount.directory()).isEmpty()) {
                new ProcessBuilder("fusermount3", "-u", "-z", mount.directory().toString()).inheritIO().start()
                        .waitFor(10, TimeUnit.SECONDS); // the test failed in between: leave no mount behind
            }
            if (volume != null) {
                volume.close();
            }
        }
    }

    @Test
    void theFileIsThePayload() throws Exception {
        mount = VolumeMount.mount(volume, dir, "disk.raw", false);
        Path file = dir.toRealPath().resolve("disk.raw");
        assertEquals(file, mount.file());
        assertTrue(mount.mounted());
        assertFalse(mount.readOnly());
        assertTrue(live().stream().anyMatch(t -> t.getName().startsWith("jfuse-main")), "jfuse's loop thread runs");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(file), s.toList());
        }
        assertTrue(Files.isRegularFile(file));
        assertEquals(volume.payloadSize(), Files.size(file));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        assertFalse(Files.exists(dir.resolve("other")));

        byte[] api = payload(volume);
        assertArrayEquals(api, Files.readAllBytes(file));

        // several threads at once, each at odd offsets and lengths across sectors
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    try (FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
                        for (int i = 0; i < 60; i++) {
                            int len = 1 + r.nextInt(300_000);
                            int at = r.nextInt(PAYLOAD - len + 1);
                            ByteBuffer b = ByteBuffer.allocate(len);
                            while (b.hasRemaining() && f.read(b, at + b.position()) > 0) {
                                // to the end of the range
                            }
                            assertEquals(0, b.remaining());
                            assertArrayEquals(Arrays.copyOfRange(api, at, at + len), b.array(), "at " + at + " len " + len);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        // a read from the end returns nothing
        try (FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
            assertEquals(-1, f.read(ByteBuffer.allocate(10), PAYLOAD));
        }
    }

    @Test
    void writesThroughTheFileReachTheVolume() throws Exception {
        mount = VolumeMount.mount(volume, dir, "disk.raw", false);
        byte[] expect = payload(volume);
        Random r = new Random(7);
        try (FileChannel f = FileChannel.open(mount.file(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 40; i++) {
                int len = 1 + r.nextInt(200_000);
                int at = r.nextInt(PAYLOAD - len + 1);
                byte[] b = new byte[len];
                r.nextBytes(b);
                ByteBuffer bb = ByteBuffer.wrap(b);
                while (bb.hasRemaining()) {
                    f.write(bb, at + bb.position());
                }
                System.arraycopy(b, 0, expect, at, len);
            }
            // the last sector's last bytes, then nothing past the end
            f.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), PAYLOAD - 3);
            expect[PAYLOAD - 3] = 1;
            expect[PAYLOAD - 2] = 2;
            expect[PAYLOAD - 1] = 3;
            IOException past = assertThrows(IOException.class, () -> f.write(ByteBuffer.wrap(new byte[] {9}), PAYLOAD));
            assertTrue(String.valueOf(past.getMessage()).contains("No space left on device"), past.getMessage());
            // a write over the end writes what fits
            assertEquals(2, f.write(ByteBuffer.wrap(new byte[] {4, 5, 6, 7}), PAYLOAD - 2));
            expect[PAYLOAD - 2] = 4;
            expect[PAYLOAD - 1] = 5;
            IOException shrink = assertThrows(IOException.class, () -> f.truncate(PAYLOAD - 1));
            assertTrue(String.valueOf(shrink.getMessage()).contains("Operation not permitted"), shrink.getMessage());
            f.force(true);
            assertEquals(PAYLOAD, f.size());
            // what the file shows, read back through it
            ByteBuffer all = ByteBuffer.allocate(PAYLOAD);
            while (all.hasRemaining() && f.read(all, all.position()) > 0) {
                // whole
            }
            assertArrayEquals(expect, all.array());
        }
        assertArrayEquals(expect, payload(volume));
        mount.close();
        volume.close();
        volume = Volumes.open(img).passphrase(PW).open();
        assertArrayEquals(expect, payload(volume), "after opening the image again");
    }

    @Test
    void aReadOnlyMountRefusesWrites() throws Exception {
        byte[] api = payload(volume);
        mount = VolumeMount.mount(volume, dir, "ro.raw", true);
        assertTrue(mount.readOnly());
        assertEquals(PosixFilePermissions.fromString("r--------"), Files.getPosixFilePermissions(mount.file()));
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> FileChannel.open(mount.file(), StandardOpenOption.WRITE).close());
        assertTrue(String.valueOf(e.getReason()).contains("Read-only file system")
                || String.valueOf(e.getReason()).contains("Permission denied"), e.getReason());
        assertArrayEquals(api, Files.readAllBytes(mount.file()));
        assertArrayEquals(api, payload(volume));
    }

    @Test
    void aReadOnlyVolumeMountsReadOnly() throws Exception {
        byte[] api = payload(volume);
        volume.close();
        volume = Volumes.open(img).passphrase(PW).open();
        assertTrue(volume.readOnly());
        mount = VolumeMount.mount(volume, dir, "disk.raw", false);
        assertTrue(mount.readOnly());
        assertThrows(FileSystemException.class, () -> FileChannel.open(mount.file(), StandardOpenOption.WRITE).close());
        assertArrayEquals(api, Files.readAllBytes(mount.file()));
    }

    @Test
    void fusermountEndsTheWait() throws Exception {
        mount = VolumeMount.mount(volume, dir, "disk.raw", false);
        assertFalse(mount.awaitUnmount(Duration.ofMillis(300)), "mounted, so the wait times out");
        Process p = new ProcessBuilder("fusermount3", "-u", mount.directory().toString()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(mount.awaitUnmount(Duration.ofSeconds(10)));
        assertFalse(mount.mounted());
        assertFalse(Files.exists(dir.resolve("disk.raw")));
        // close() after an unmount from outside still ends the loop (checked in unmount())
    }

    @Test
    void closeEndsAWaitOnAnotherThread() throws Exception {
        mount = VolumeMount.mount(volume, dir, "disk.raw", false);
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                mount.awaitUnmount();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        mount.close();
        waiter.join(5000);
        assertFalse(waiter.isAlive());
        mount.close(); // idempotent
        assertFalse(mount.mounted());
    }

    @Test
    void badArgumentsAreRefusedBeforeMounting() throws Exception {
        for (String name : new String[] {"", ".", "..", "a/b"}) {
            assertThrows(IllegalArgumentException.class, () -> VolumeMount.mount(volume, dir, name, false), name);
        }
        IOException e = assertThrows(IOException.class, () -> VolumeMount.mount(volume, img, "x", false));
        assertTrue(e.getMessage().contains("not a folder"), e.getMessage());
        assertTrue(VolumeMount.fuseMounts(img).isEmpty());
    }

    private static byte[] payload(Volume v) throws Exception {
        try (SeekableByteChannel p = v.payload()) {
            ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(v.payloadSize()));
            while (b.hasRemaining() && p.read(b) > 0) {
                // whole
            }
            return b.array();
        }
    }

    private static Set<Thread> live() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }
}
