package org.vectorjce.fs.fat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.testing.Tools;

/**
 * FAT12, FAT16 and FAT32 images made by mkfs.fat and filled by mtools ({@code mcopy -s -m}, {@code mdel}),
 * read back by the driver and compared with what was written (every file's bytes, size and mtime,
 * the whole tree) and with The Sleuth Kit's {@code fls -r -p} listing, mtools' {@code mdir} free
 * space, {@code minfo} cluster size and {@code mshortname} 8.3 names.
 */
class FatImageTest {
    @TempDir
    Path work;

    private final Random random = new Random(20261206);

    @Test
    void fat12Floppy() throws Exception {
        Path img = work.resolve("f12.img");
        Tools.assumeTool("mkfs.fat", "mcopy", "fls", "istat");
        Tools.ok("mkfs.fat", "-C", "-F", "12", "-s", "1", "-n", "LABEL", "-i", "1234ABCD", img.toString(), "1440");
        List<FatImages.Entry> tree = commonTree(512, 300_000);
        FatImages.fill(img, work, tree);
        List<FatImages.Entry> frag = fragment(img, 512, true, false);
        tree.addAll(frag);
        check(img, "FAT12", 512, tree);
    }

    @Test
    void fat16() throws Exception {
        Path img = work.resolve("f16.img");
        Tools.assumeTool("mkfs.fat", "mcopy", "fls", "istat");
        Tools.ok("mkfs.fat", "-C", "-F", "16", "-s", "4", "-n", "LABEL", "-i", "1234ABCD", img.toString(), "65536");
        List<FatImages.Entry> tree = commonTree(2048, 3 << 20);
        tree.addAll(many(500));
        FatImages.fill(img, work, tree);
        tree.addAll(fragment(img, 2048, false, false));
        check(img, "FAT16", 2048, tree);
    }

    @Test
    void fat32() throws Exception {
        Path img = Tools.sparse(work.resolve("f32.img"), 300L << 20);
        Tools.assumeTool("mkfs.fat", "mcopy", "fls", "istat");
        Tools.ok("mkfs.fat", "-F", "32", "-s", "8", "-n", "LABEL", "-i", "1234ABCD", img.toString());
        List<FatImages.Entry> tree = commonTree(4096, 5 << 20);
        tree.addAll(many(3000));
        FatImages.fill(img, work, tree);
        tree.addAll(fragment(img, 4096, false, true));
        check(img, "FAT32", 4096, tree);
    }

    /**
     * A volume made without a label (mkfs.fat writes "NO NAME" in the boot sector and no label
     * entry): label "" and no LABEL from blkid; serial as blkid's UUID; type, cluster size and the
     * data area's bytes as fsstat gives them (its cluster area, with 2-sector clusters, less a last
     * partial cluster).
     */
    @Test
    void noLabelAgainstFsstatAndBlkid() throws Exception {
        Tools.assumeTool("mkfs.fat", "fsstat", "blkid");
        Path img = work.resolve("nl.img");
        Tools.ok("mkfs.fat", "-C", "-F", "16", "-s", "2", img.toString(), "20000");
        String fsstat = Tools.ok("fsstat", img.toString()).out();
        String blkid = Tools.ok("blkid", "-p", "-o", "export", img.toString()).out();
        Matcher area = Pattern.compile("Cluster Area: (\\d+) - (\\d+)").matcher(fsstat);
        assertTrue(area.find(), fsstat);
        long sectors = Long.parseLong(area.group(2)) - Long.parseLong(area.group(1)) + 1;
        Matcher uuid = Pattern.compile("(?m)^UUID=(.*)$").matcher(blkid);
        assertTrue(uuid.find(), blkid);
        assertFalse(blkid.contains("\nLABEL="), blkid);
        try (Device dev = Device.open(img, false); DiskFs fs = new FatDriver().open(dev, FsOptions.defaults())) {
            FsInfo info = fs.info();
            assertTrue(fsstat.contains("File System Type: " + info.type()), fsstat);
            assertEquals("FAT16", info.type());
            assertEquals("", info.label());
            assertEquals(uuid.group(1), info.serial());
            assertTrue(fsstat.contains("Cluster Size: " + info.clusterSize()), fsstat);
            assertEquals(sectors / 2 * 1024, info.totalBytes());
            assertEquals(info.totalBytes(), info.freeBytes(), "an empty volume");
        }
    }

    private FileTime time(String iso) {
        return FileTime.from(Instant.parse(iso));
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Nested folders, long and non-ASCII names, an empty file and folder, sizes around the cluster size. */
    private List<FatImages.Entry> commonTree(int cluster, int big) {
        List<FatImages.Entry> t = new ArrayList<>();
        t.add(FatImages.dir("a"));
        t.add(FatImages.dir("a/b"));
        t.add(FatImages.dir("a/b/c"));
        t.add(FatImages.file("a/b/c/deep.txt", bytes(100), time("2021-03-04T05:06:07.900Z")));
        t.add(FatImages.file("Grüße Ω.txt", bytes(33), time("2019-12-31T23:59:59Z")));
        t.add(FatImages.file("日本語のファイル名.txt", bytes(70), time("2000-02-29T12:00:01Z")));
        t.add(FatImages.dir("Ordner ä"));
        t.add(FatImages.file("Ordner ä/inner file.bin", bytes(cluster * 2 + 7), time("2010-01-01T00:00:00Z")));
        t.add(FatImages.file("A rather long file name with spaces and.several.dots.text", bytes(5),
                time("1999-09-09T09:09:09Z")));
        t.add(FatImages.file("lower.txt", bytes(11), time("2022-06-01T10:20:30Z")));
        t.add(FatImages.file("MiXeD.Txt", bytes(12), time("2022-06-01T10:20:31Z")));
        // 8.3 names mtools stores with the NT lower-case flags (byte 12: 0x08 base, 0x10 extension) and no long name
        t.add(FatImages.file("base.TXT", bytes(13), time("2022-06-01T10:20:32Z")));
        t.add(FatImages.file("NAME.txt", bytes(14), time("2022-06-01T10:20:33Z")));
        t.add(FatImages.file("UPPER.TXT", bytes(15), time("2022-06-01T10:20:34Z")));
        t.add(FatImages.file("empty", new byte[0], time("2020-01-01T00:00:03Z")));
        t.add(FatImages.dir("emptydir"));
        t.add(FatImages.dir("sizes"));
        int[] sizes = {0, 1, cluster - 1, cluster, cluster + 1, big};
        for (int s : sizes) {
            t.add(FatImages.file("sizes/s" + s + ".bin", bytes(s), time("2023-07-08T09:10:11.500Z")));
        }
        return t;
    }

    /**
     * A folder of {@code count} files (3000 on FAT32: a directory of many clusters), half 8.3 lower-case
     * names (no long-name entries), half long names.
     */
    private List<FatImages.Entry> many(int count) {
        List<FatImages.Entry> t = new ArrayList<>();
        t.add(FatImages.dir("many"));
        FileTime m = time("2024-02-03T04:05:06Z");
        for (int i = 0; i < count; i++) {
            String name = i % 2 == 0 ? String.format("f%04d.dat", i) : String.format("%04d Long Name.txt", i);
            t.add(FatImages.file("many/" + name, bytes(i % 7), m));
        }
        return t;
    }

    /**
     * Writes eight 3-cluster files into "frag", deletes every other one with mdel, then writes a
     * 12-cluster file, which mtools puts in the holes (first fit): its chain is fragmented, which
     * TSK's istat confirms. {@code fill}: first fill the volume with a filler file, so that the
     * holes are the only free space.
     */
    private List<FatImages.Entry> fragment(Path img, int cluster, boolean fill, boolean fat32) throws Exception {
        FatImages.mtools(work, "mmd", "-i", img.toString(), "::/frag");
        Path src = work.resolve("fragsrc");
        java.nio.file.Files.createDirectories(src);
        List<FatImages.Entry> kept = new ArrayList<>();
        kept.add(FatImages.dir("frag"));
        FileTime m = time("2018-08-08T08:08:08Z");
        List<String> copy = new ArrayList<>(List.of("mcopy", "-m", "-i", img.toString()));
        for (int i = 0; i < 8; i++) {
            byte[] d = bytes(cluster * 3);
            Path f = src.resolve("f" + i);
            java.nio.file.Files.write(f, d);
            java.nio.file.Files.setLastModifiedTime(f, m);
            copy.add(f.toString());
            if (i % 2 == 0) {
                kept.add(FatImages.file("frag/f" + i, d, m));
            }
        }
        copy.add("::/frag/");
        FatImages.mtools(work, copy.toArray(String[]::new));
        if (fill) {
            long free = free(img);
            byte[] d = bytes((int) free);
            Path f = src.resolve("filler");
            java.nio.file.Files.write(f, d);
            java.nio.file.Files.setLastModifiedTime(f, m);
            FatImages.mtools(work, "mcopy", "-m", "-i", img.toString(), f.toString(), "::/frag/filler");
            kept.add(FatImages.file("frag/filler", d, m));
        }
        FatImages.mtools(work, "mdel", "-i", img.toString(), "::/frag/f1", "::/frag/f3", "::/frag/f5", "::/frag/f7");
        if (fat32) {
            // mtools allocates from FAT32's FSInfo next-free hint (FSI_Nxt_Free, byte 492), which points
            // past the holes; pointing it back at cluster 2 makes it fill them first, as on FAT12/16.
            try (var ch = java.nio.channels.FileChannel.open(img, java.nio.file.StandardOpenOption.READ,
                    java.nio.file.StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.allocate(2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                ch.read(b, 48);
                long fsInfo = (b.getShort(0) & 0xffff) * 512L;
                ch.write(ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, 2), fsInfo + 492);
            }
        }
        byte[] d = bytes(cluster * 12);
        Path f = src.resolve("big");
        java.nio.file.Files.write(f, d);
        java.nio.file.Files.setLastModifiedTime(f, m);
        FatImages.mtools(work, "mcopy", "-m", "-i", img.toString(), f.toString(), "::/frag/big");
        kept.add(FatImages.file("frag/big", d, m));
        // istat lists the file's sectors; a fragmented chain has a gap between them.
        String istat = Tools.ok("istat", img.toString(), FatImages.flsInode(img, "frag/big")).out();
        List<Long> sectors = new ArrayList<>();
        boolean in = false;
        for (String line : istat.split("\n")) {
            if (line.startsWith("Sectors:")) {
                in = true;
                continue;
            }
            if (in) {
                for (String w : line.trim().split("\\s+")) {
                    if (!w.isEmpty() && !w.equals("0")) {
                        sectors.add(Long.parseLong(w));
                    }
                }
            }
        }
        boolean gap = false;
        for (int i = 1; i < sectors.size(); i++) {
            gap |= sectors.get(i) != sectors.get(i - 1) + 1;
        }
        assertTrue(gap, "mtools did not fragment frag/big: " + sectors);
        return kept;
    }

    /** mdir's "bytes free". */
    private long free(Path img) throws Exception {
        String out = FatImages.mtools(work, "mdir", "-i", img.toString(), "::/").out();
        Matcher m = Pattern.compile("([0-9 ]+) bytes free").matcher(out);
        assertTrue(m.find(), out);
        return Long.parseLong(m.group(1).replace(" ", ""));
    }

    private void check(Path img, String type, int cluster, List<FatImages.Entry> tree) throws Exception {
        try (Device dev = Device.open(img, false)) {
            assertTrue(Drivers.find(dev) instanceof FatDriver);
            try (DiskFs fs = Drivers.open(dev, FsOptions.defaults())) {
                FsInfo info = fs.info();
                assertEquals(type, info.type());
                assertEquals("LABEL", info.label());
                assertEquals("1234-ABCD", info.serial());
                assertEquals(cluster, info.clusterSize());
                assertFalse(fs.caseSensitive());
                long free = free(img);
                assertEquals(free, info.freeBytes(), "free bytes against mdir");
                Map<String, Node> nodes = FatImages.walk(fs);
                Set<String> expected = new TreeSet<>();
                for (FatImages.Entry e : tree) {
                    expected.add(e.isDir() ? e.path() + "/" : e.path());
                }
                assertEquals(expected, nodes.keySet(), "the tree written with mcopy");
                assertEquals(FatImages.fls(img), nodes.keySet(), "fls -r -p");
                Map<String, long[]> tskTimes = FatImages.flsTimes(img);
                Set<Long> keys = new java.util.HashSet<>();
                for (FatImages.Entry e : tree) {
                    Node n = nodes.get(e.isDir() ? e.path() + "/" : e.path());
                    assertTrue(keys.add(n.fileKey()), "file key of " + e.path() + " is not unique");
                    assertFalse(n.name().contains("/"));
                    long[] t = tskTimes.get(e.path());
                    assertNotNull(t, "fls -m times of " + e.path());
                    assertEquals(t[0], seconds(n.accessed()), "accessed, against fls -m, of " + e.path());
                    assertEquals(t[1], seconds(n.modified()), "modified, against fls -m, of " + e.path());
                    assertEquals(t[2], seconds(n.created()), "created, against fls -m, of " + e.path());
                    if (e.isDir()) {
                        assertTrue(n.isDirectory());
                        continue;
                    }
                    assertEquals(e.data().length, n.size(), e.path());
                    long ms = e.mtime().toMillis();
                    assertEquals(FileTime.fromMillis(ms - Math.floorMod(ms, 2000)), n.modified(), e.path());
                    if (n.accessed() != null) {
                        assertEquals(0, n.accessed().toMillis() % 86_400_000L, "access date at midnight");
                    }
                    Content c = fs.open(n, null);
                    assertEquals(e.data().length, c.size());
                    assertArrayEquals(e.data(), FatImages.readAll(c, e.data().length > 100_000 ? 65_536 : 1000),
                            e.path());
                    assertEquals(-1, c.read(ByteBuffer.allocate(1), c.size()));
                }
                checkLookups(fs, img);
                checkRandomReads(fs, tree);
            }
        }
    }

    private static long seconds(FileTime t) {
        return t == null ? 0 : Math.floorDiv(t.toMillis(), 1000);
    }

    private void checkLookups(DiskFs fs, Path img) throws Exception {
        Node root = fs.root();
        assertNotNull(fs.lookup(root, "gRÜSSE Ω.TXT".replace("SS", "ß")));
        assertNotNull(fs.lookup(root, "LOWER.TXT"));
        assertEquals("lower.txt", fs.lookup(root, "LOWER.TXT").name());
        assertNull(fs.lookup(root, "nothing here"));
        assertNull(fs.lookup(root, ".."));
        // The 8.3 name, as mtools' mshortname gives it, finds the long-named file.
        String out = FatImages.mtools(work, "mshortname", "-i", img.toString(),
                "::/A rather long file name with spaces and.several.dots.text").out().trim();
        String shortName = out.substring(out.lastIndexOf('/') + 1).replace("\"", "").trim();
        Node n = fs.lookup(root, shortName);
        assertNotNull(n, "by 8.3 name " + out);
        assertEquals("A rather long file name with spaces and.several.dots.text", n.name());
        Node a = fs.lookup(root, "A");
        Node b = fs.lookup(fs.lookup(a, "b"), "C");
        assertNotNull(fs.lookup(b, "DEEP.txt"));
    }

    /** Reads of the largest file at random offsets and lengths, backwards and forwards, from four threads at once, match. */
    private void checkRandomReads(DiskFs fs, List<FatImages.Entry> tree) throws Exception {
        FatImages.Entry big = null;
        for (FatImages.Entry e : tree) {
            if (!e.isDir() && (big == null || e.data().length > big.data().length)) {
                big = e;
            }
        }
        Node n = fs.lookup(fs.lookup(fs.root(), big.path().split("/")[0]), big.path().split("/")[1]);
        Content c = fs.open(n, null);
        byte[] data = big.data();
        // Four threads share the one Content (its chain cursor is shared state).
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int i = 0; i < 100; i++) {
                        int at = r.nextInt(data.length);
                        int len = Math.min(1 + r.nextInt(20_000), data.length - at);
                        ByteBuffer b = ByteBuffer.allocate(len);
                        while (b.hasRemaining()) {
                            assertTrue(c.read(b, at + b.position()) > 0);
                        }
                        assertArrayEquals(java.util.Arrays.copyOfRange(data, at, at + len), b.array(), "at " + at);
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
