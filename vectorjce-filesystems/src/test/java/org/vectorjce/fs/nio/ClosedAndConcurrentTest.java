package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A closed filesystem refuses access; many threads read one filesystem at once and get the right bytes. */
class ClosedAndConcurrentTest {
    @Test
    void closedFileSystemRefusesAccess() throws Exception {
        FakeDiskFs disk = Fixture.tree(false, false);
        DiskFileSystem fs = Fixture.open(disk);
        Path p = fs.getPath("/big.bin");
        SeekableByteChannel ch = Files.newByteChannel(p);
        assertTrue(fs.isOpen());
        fs.close();
        assertFalse(fs.isOpen());
        assertTrue(disk.closed, "the DiskFs is closed");
        fs.close(); // twice: nothing
        assertThrows(ClosedFileSystemException.class, () -> Files.readAllBytes(p));
        assertThrows(ClosedFileSystemException.class, () -> Files.size(p));
        assertThrows(ClosedFileSystemException.class, () -> Files.exists(p));
        assertThrows(ClosedFileSystemException.class, () -> Files.list(fs.getPath("/")));
        assertThrows(ClosedFileSystemException.class, fs::getRootDirectories);
        assertThrows(ClosedFileSystemException.class, fs::getFileStores);
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
        assertFalse(ch.isOpen());
        assertEquals("/big.bin", p.toAbsolutePath().normalize().toString(), "the path algebra still works");
    }

    @Test
    void eightThreadsReadTheSameFilesAtOnce() throws Exception {
        try (DiskFileSystem fs = Fixture.open(Fixture.tree(false, false))) {
            List<Map.Entry<String, byte[]>> files = new ArrayList<>(Fixture.FILES.entrySet());
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    long seed = t;
                    results.add(pool.submit(() -> {
                        Random r = new Random(seed);
                        int checked = 0;
                        for (int round = 0; round < 40; round++) {
                            Map.Entry<String, byte[]> e = files.get(r.nextInt(files.size()));
                            // a different spelling each time, so that the lookup cache is filled from many threads
                            String name = r.nextBoolean() ? e.getKey() : e.getKey().toUpperCase();
                            Path p = fs.getPath(name);
                            assertArrayEquals(e.getValue(), Files.readAllBytes(p), name);
                            try (SeekableByteChannel ch = Files.newByteChannel(p)) {
                                int at = r.nextInt(e.getValue().length);
                                int n = Math.min(r.nextInt(5000) + 1, e.getValue().length - at);
                                ByteBuffer b = ByteBuffer.allocate(n);
                                ch.position(at);
                                while (b.hasRemaining() && ch.read(b) > 0) {
                                    // read on
                                }
                                assertArrayEquals(Arrays.copyOfRange(e.getValue(), at, at + n), b.array(), name + " at " + at);
                            }
                            try (var s = Files.walk(fs.getPath("/Docs"))) {
                                assertEquals(6, s.count());
                            }
                            checked++;
                        }
                        return checked;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : results) {
                    total += f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(8 * 40, total);
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
