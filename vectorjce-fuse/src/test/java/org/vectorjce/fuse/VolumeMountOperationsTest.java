package org.vectorjce.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.Fuse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * The file system's operations called as libfuse calls them, without a mount (no FUSE needed):
 * writes of many threads at once whose unaligned stretches share sectors all land (the write lock
 * keeps one sector's read-patch-write from undoing another's), and every refusal's errno.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VolumeMountOperationsTest {
    private static final byte[] PW = "ops".getBytes(StandardCharsets.UTF_8);
    private static final int PAYLOAD = 1 << 20;

    @TempDir
    Path tmp;
    Path img;
    Errno errno;

    @BeforeEach
    void image() throws Exception {
        img = tmp.resolve("d.img");
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (16L << 20) + PAYLOAD - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(4096)
                .keySlot(KeySlotOptions.defaults().pbkdf("pbkdf2").forceIterations(1000)).format(img, PW);
        errno = Fuse.builder().errno(); // the platform's numbers; loads no library
    }

    @Test
    void concurrentUnalignedWritesSharingSectorsAllLand() throws Exception {
        try (Volume v = Volumes.open(img).passphrase(PW).readWrite().open()) {
            PayloadFileSystem fs = new PayloadFileSystem(v, "f", false, 0, 0, errno);
            int threads = 8, stripe = 777; // 777 divides no sector: every sector is shared by threads
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    byte[] b = new byte[stripe];
                    java.util.Arrays.fill(b, (byte) (id + 1));
                    for (int at = id * stripe; at + stripe <= PAYLOAD; at += threads * stripe) {
                        ByteBuffer d = ByteBuffer.allocateDirect(stripe).put(b).flip(); // as libfuse's buffers
                        assertEquals(stripe, fs.write("/f", d, stripe, at, null));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertEquals(true, pool.awaitTermination(10, TimeUnit.SECONDS));
            // every whole stripe k is thread (k mod threads)'s; the tail after the last one is not written
            int written = PAYLOAD / stripe * stripe;
            byte[] want = new byte[written];
            for (int i = 0; i < written; i++) {
                want[i] = (byte) (i / stripe % threads + 1);
            }
            byte[] got = read(v);
            byte[] viaFs = new byte[PAYLOAD];
            ByteBuffer r = ByteBuffer.allocateDirect(PAYLOAD);
            assertEquals(PAYLOAD, fs.read("/f", r, PAYLOAD, 0, null));
            r.flip().get(viaFs);
            assertArrayEquals(want, java.util.Arrays.copyOf(got, written));
            assertArrayEquals(got, viaFs);
            fs.close();
        }
    }

    @Test
    void refusalsAnswerTheirErrno() throws Exception {
        try (Volume v = Volumes.open(img).passphrase(PW).readWrite().open()) {
            PayloadFileSystem rw = new PayloadFileSystem(v, "f", false, 0, 0, errno);
            PayloadFileSystem ro = new PayloadFileSystem(v, "f", true, 0, 0, errno);
            ByteBuffer one = ByteBuffer.allocateDirect(1);
            assertEquals(-PayloadFileSystem.ENOSPC, rw.write("/f", one, 1, PAYLOAD, null));
            assertEquals(-errno.erofs(), ro.write("/f", one.clear(), 1, 0, null));
            assertEquals(-errno.enoent(), rw.write("/g", one.clear(), 1, 0, null));
            assertEquals(-errno.enoent(), rw.read("/g", one.clear(), 1, 0, null));
            assertEquals(0, rw.read("/f", one.clear(), 1, PAYLOAD, null), "at the end: nothing");
            assertEquals(1, rw.write("/f", ByteBuffer.allocateDirect(4), 4, PAYLOAD - 1, null), "what fits");
            assertEquals(-PayloadFileSystem.EPERM, rw.truncate("/f", 0, null));
            assertEquals(0, rw.truncate("/f", PAYLOAD, null));
            assertEquals(-errno.erofs(), ro.truncate("/f", 0, null));
            assertEquals(-errno.eisdir(), rw.truncate("/", 0, null));
            assertEquals(-errno.enotdir(), rw.opendir("/f", null));
            assertEquals(0, rw.fsync("/f", 0, null));
            rw.close();
            ro.close();
            // after close (the loop has ended) a stray call is an error, not a new channel
            assertEquals(-errno.eio(), rw.read("/f", one.clear(), 1, 0, null));
        }
    }

    private static byte[] read(Volume v) throws Exception {
        try (SeekableByteChannel p = v.payload()) {
            ByteBuffer b = ByteBuffer.allocate(PAYLOAD);
            while (b.hasRemaining() && p.read(b) > 0) {
                // whole
            }
            return b.array();
        }
    }
}
