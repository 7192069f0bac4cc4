package org.vectorjce.fs.exfat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * One exFAT image made by mkfs.exfat and filled by {@code cp -a} through exfat-fuse (mounted with
 * TZ=IST-5:30, so that every timestamp carries a +05:30 UTC offset), read back by the driver and
 * compared with what was written: the whole listing, every file's bytes, size and mtime, against
 * both the source tree and exfat-fuse's own view of the mount; the names against The Sleuth Kit's
 * {@code fls -r -p}; the volume facts against dump.exfat and blkid.
 *
 * <p>The tree: nested folders, long (255) and non-ASCII names (2- and 3-byte UTF-8, surrogate
 * pairs), an empty file and folder, a folder of 2000 files, sizes 0, 1, cluster - 1, cluster,
 * cluster + 1 and 3 MiB, and a file written into the holes left by deleting every other file of a
 * folder, so that it is a FAT chain in pieces.
 */
class ExfatImageTest {
    private static final int CLUSTER = 4096;
    private static final Instant BASE = Instant.parse("2021-03-04T05:06:07.890123456Z");

    @TempDir
    static Path tmp;
    static Path src;
    static Path image;
    static Map<String, Entry> mountView;
    static Device device;
    static DiskFs fs;

    record Entry(boolean dir, long size, FileTime mtime) {
    }

    @BeforeAll
    static void build() throws Exception {
        ExfatImages.assumeTools();
        assumeTrue("UTF-8".equals(System.getProperty("sun.jnu.encoding")),
                "file names are not UTF-8 here (sun.jnu.encoding): test skipped");
        src = tmp.resolve("src");
        makeTree(src);
        image = ExfatImages.mkfs(tmp.resolve("tree.img"), 64 << 20, "VJCE Tree", "1234abcd", "4096");
        ExfatImages.mounted(image, Map.of("TZ", "IST-5:30"), mnt -> {
            fragment(mnt);
            try (Stream<Path> top = Files.list(src)) {
                for (Path p : top.toList()) {
                    if (!p.getFileName().toString().equals("frag")) {
                        Tools.ok("cp", "-a", p.toString(), mnt + "/");
                    }
                }
            }
            Tools.ok("touch", "-r", src.resolve("frag").toString(), mnt.resolve("frag").toString());
            mountView = walk(mnt);
        });
        device = Device.open(image, false);
        fs = Drivers.open(device, FsOptions.defaults());
    }

    @AfterAll
    static void close() throws IOException {
        if (fs != null) {
            fs.close();
        }
        if (device != null) {
            device.close();
        }
    }

    /** Writes the frag folder: 20 two-cluster files, every other one deleted, then one big file into the holes. */
    private static void fragment(Path mnt) throws Exception {
        Path frag = Files.createDirectory(mnt.resolve("frag"));
        for (int i = 0; i < 20; i++) {
            Tools.ok("cp", "-a", src.resolve("frag/p" + i).toString(), frag + "/");
        }
        for (int i = 1; i < 20; i += 2) {
            Files.delete(frag.resolve("p" + i));
            Files.delete(src.resolve("frag/p" + i));
        }
        Files.write(src.resolve("frag/big.bin"), random(25 * CLUSTER + 77, 99));
        Files.setLastModifiedTime(src.resolve("frag/big.bin"), time(999));
        Files.setLastModifiedTime(src.resolve("frag"), time(1000));
        Tools.ok("cp", "-a", src.resolve("frag/big.bin").toString(), frag + "/");
    }

    private static void makeTree(Path root) throws IOException {
        List<Path> made = new ArrayList<>();
        made.add(write(root.resolve("a/b/c/deep.txt"), "deep\n".getBytes()));
        made.add(write(root.resolve("a/b/other.bin"), random(10000, 1)));
        made.add(write(root.resolve("a/sibling.txt"), "sibling".getBytes()));
        made.add(write(root.resolve("names/" + "L".repeat(250) + ".long"), "255 characters".getBytes()));
        made.add(write(root.resolve("names/Ünïcødé Fïlé.txt"), "latin".getBytes()));
        made.add(write(root.resolve("names/日本語のファイル.txt"), "cjk".getBytes()));
        made.add(write(root.resolve("names/😀 emoji.txt"), "surrogates".getBytes()));
        made.add(write(root.resolve("names/" + "é".repeat(127)), "127 two-byte".getBytes()));
        made.add(write(root.resolve("names/" + "日".repeat(85)), "85 three-byte".getBytes()));
        made.add(write(root.resolve("names/" + "😀".repeat(63)), "63 pairs".getBytes()));
        made.add(write(root.resolve("empty.txt"), new byte[0]));
        made.add(Files.createDirectories(root.resolve("emptydir")));
        made.add(write(root.resolve("MixedCase.TXT"), "case".getBytes()));
        made.add(write(root.resolve("vdl.bin"), random(3 * CLUSTER + 100, 2)));
        for (int i = 0; i < 2000; i++) {
            made.add(write(root.resolve(String.format("many/f%04d.txt", i)), ("file " + i + "\n").getBytes()));
        }
        int[] sizes = {0, 1, CLUSTER - 1, CLUSTER, CLUSTER + 1, (3 << 20) + 123};
        for (int size : sizes) {
            made.add(write(root.resolve("sizes/s" + size), random(size, size)));
        }
        for (int i = 0; i < 20; i++) {
            made.add(write(root.resolve("frag/p" + i), random(2 * CLUSTER, 100 + i)));
        }
        for (int i = 0; i < made.size(); i++) {
            Files.setLastModifiedTime(made.get(i), time(i));
        }
        // folders last, deepest first, so that writing their children does not change their times
        try (Stream<Path> dirs = Files.walk(root)) {
            List<Path> all = dirs.filter(Files::isDirectory).sorted((x, y) -> y.getNameCount() - x.getNameCount())
                    .toList();
            for (int i = 0; i < all.size(); i++) {
                Files.setLastModifiedTime(all.get(i), time(3000 + i));
            }
        }
    }

    /** Times 1.001 s apart with nanoseconds, odd and even seconds both. */
    private static FileTime time(int i) {
        return FileTime.from(BASE.plusMillis(1001L * i).plusNanos(i * 7919L));
    }

    private static Path write(Path p, byte[] b) throws IOException {
        Files.createDirectories(p.getParent());
        return Files.write(p, b);
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static Map<String, Entry> walk(Path root) throws IOException {
        Map<String, Entry> m = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                if (p.equals(root)) {
                    continue;
                }
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                m.put(root.relativize(p).toString(), new Entry(a.isDirectory(), a.isDirectory() ? 0 : a.size(),
                        a.lastModifiedTime()));
            }
        }
        return m;
    }

    /** The driver's listing, recursively. */
    private static Map<String, Node> ours() throws IOException {
        Map<String, Node> m = new TreeMap<>();
        ours(fs.root(), "", m);
        return m;
    }

    private static void ours(Node dir, String prefix, Map<String, Node> m) throws IOException {
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                String path = prefix + n.name();
                assertNull(m.put(path, n), "listed twice: " + path);
                if (n.isDirectory()) {
                    ours(n, path + "/", m);
                }
            }
        }
    }

    @Test
    void listingSizesAndTimesMatchExfatFuseAndTheSource() throws IOException {
        Map<String, Entry> source = walk(src);
        assertEquals(source.keySet(), mountView.keySet(), "exfat-fuse's view of the copy");
        Map<String, Node> ours = ours();
        assertEquals(mountView.keySet(), ours.keySet());
        for (var e : mountView.entrySet()) {
            Node n = ours.get(e.getKey());
            Entry want = e.getValue();
            assertEquals(want.dir(), n.isDirectory(), e.getKey());
            assertEquals(want.size(), n.size(), e.getKey());
            assertEquals(want.mtime(), n.modified(), e.getKey());
            // exfat-fuse 1.3 keeps whole seconds (the 10 ms field holds only the odd second)
            FileTime written = source.get(e.getKey()).mtime();
            assertEquals(written.toInstant().truncatedTo(ChronoUnit.SECONDS), n.modified().toInstant(), e.getKey());
            assertNotNull(n.created(), e.getKey());
            assertNotNull(n.accessed(), e.getKey());
        }
        assertEquals(2000, ours.keySet().stream().filter(k -> k.startsWith("many/")).count());
    }

    @Test
    void everyFileReadsAsWritten() throws IOException {
        for (var e : ours().entrySet()) {
            if (e.getValue().isDirectory()) {
                continue;
            }
            byte[] want = Files.readAllBytes(src.resolve(e.getKey()));
            assertArrayEquals(want, readAll(fs.open(e.getValue(), null), 7777), e.getKey());
        }
    }

    @Test
    void fragmentedFileIsAChainInPiecesAndReadsAtAnyOffset() throws Exception {
        Node big = fs.lookup(fs.lookup(fs.root(), "frag"), "big.bin");
        assertFalse(((ExfatNode) big).contiguous, "big.bin has a FAT chain");
        // The Sleuth Kit's istat lists its sectors: they are not one run
        String istat = Tools.ok("istat", image.toString(), Long.toString(tskInode("frag/big.bin"))).out();
        List<Long> sectors = new ArrayList<>();
        boolean in = false;
        for (String line : istat.split("\n")) {
            if (line.startsWith("Sectors:")) {
                in = true;
            } else if (in) {
                for (String w : line.trim().split("\\s+")) {
                    if (!w.isEmpty()) {
                        sectors.add(Long.parseLong(w));
                    }
                }
            }
        }
        long gaps = 0;
        for (int i = 1; i < sectors.size(); i++) {
            gaps += sectors.get(i) != sectors.get(i - 1) + 1 ? 1 : 0;
        }
        assertTrue(gaps >= 5, "big.bin should lie in pieces; istat: " + istat);
        byte[] want = Files.readAllBytes(src.resolve("frag/big.bin"));
        assertArrayEquals(want, Tools.ok("icat", image.toString(), Long.toString(tskInode("frag/big.bin"))).stdout(),
                "TSK's icat");
        Content c = fs.open(big, null);
        Random r = new Random(5);
        for (int i = 0; i < 300; i++) {
            int at = r.nextInt(want.length);
            int n = 1 + r.nextInt(3 * CLUSTER);
            ByteBuffer b = ByteBuffer.allocate(n);
            int got = c.read(b, at);
            assertEquals(Math.min(n, want.length - at), got);
            for (int j = 0; j < got; j++) {
                if (b.get(j) != want[at + j]) {
                    throw new AssertionError("byte " + (at + j) + " of big.bin");
                }
            }
        }
        assertEquals(-1, c.read(ByteBuffer.allocate(1), want.length));
    }

    /** One Content read by four threads at random offsets at once: the cached chain position is per read. */
    @Test
    void oneContentReadsRightFromManyThreads() throws Exception {
        Node big = fs.lookup(fs.lookup(fs.root(), "frag"), "big.bin");
        byte[] want = Files.readAllBytes(src.resolve("frag/big.bin"));
        Content c = fs.open(big, null);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int i = 0; i < 400; i++) {
                        int at = r.nextInt(want.length);
                        ByteBuffer b = ByteBuffer.allocate(1 + r.nextInt(2 * CLUSTER));
                        int got = c.read(b, at);
                        for (int j = 0; j < got; j++) {
                            if (b.get(j) != want[at + j]) {
                                throw new AssertionError("byte " + (at + j));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (var f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void volumeFactsMatchDumpExfatAndBlkid() throws Exception {
        FsInfo info = fs.info();
        Map<String, String> dump = ExfatImages.dump(image);
        long cluster = ExfatImages.dumpNumber(dump, "Cluster size");
        assertEquals("exFAT", info.type());
        assertEquals(cluster, info.clusterSize());
        assertEquals(ExfatImages.dumpNumber(dump, "Total Clusters") * cluster, info.totalBytes());
        assertEquals(ExfatImages.dumpNumber(dump, "Free Clusters") * cluster, info.freeBytes());
        assertEquals(dump.get("Volume label"), info.label());
        String blkid = Tools.ok("blkid", "-o", "export", image.toString()).out();
        assertTrue(blkid.contains("UUID=" + info.serial() + "\n"), blkid + " vs " + info.serial());
        assertTrue(blkid.contains("LABEL=" + info.label().replace(" ", "\\ ") + "\n"), blkid);
        assertEquals("1234-ABCD", info.serial());
    }

    @Test
    void listingMatchesTheSleuthKit() throws Exception {
        Set<String> tsk = new HashSet<>();
        for (String line : Tools.ok("fls", "-r", "-p", image.toString()).out().split("\n")) {
            int tab = line.indexOf('\t');
            if (tab < 0 || line.contains(" * ") || !(line.startsWith("r/r") || line.startsWith("d/d"))) {
                continue; // deleted entries, and TSK's virtual files ($MBR, $FAT1, $OrphanFiles)
            }
            String path = line.substring(tab + 1);
            if (path.startsWith("$") || path.endsWith("(Volume Label Entry)")) {
                continue;
            }
            tsk.add(path);
        }
        assertEquals(tsk, ours().keySet());
    }

    @Test
    void lookupIgnoresCaseThroughTheUpcaseTable() throws IOException {
        Node root = fs.root();
        Node mixed = fs.lookup(root, "mixedcase.txt");
        assertNotNull(mixed);
        assertEquals("MixedCase.TXT", mixed.name());
        assertEquals(mixed.fileKey(), fs.lookup(root, "MIXEDCASE.TXT").fileKey());
        Node names = fs.lookup(root, "NAMES");
        assertEquals("Ünïcødé Fïlé.txt", fs.lookup(names, "ÜNÏCØDÉ FÏLÉ.TXT").name());
        assertEquals("é".repeat(127), fs.lookup(names, "É".repeat(127)).name());
        assertNotNull(fs.lookup(fs.lookup(root, "many"), "F1999.TXT"));
        assertNull(fs.lookup(root, "no such file"));
        assertNull(fs.lookup(root, ".."));
    }

    @Test
    void keysAreUniqueAndMisuseIsRefused() throws IOException {
        Map<String, Node> ours = ours();
        Set<Long> keys = new HashSet<>();
        for (var e : ours.entrySet()) {
            assertTrue(keys.add(e.getValue().fileKey()), "key of " + e.getKey());
        }
        Node file = ours.get("a/sibling.txt");
        assertThrows(NotDirectoryException.class, () -> fs.list(file));
        assertThrows(NoSuchFileException.class, () -> fs.open(file, "ads"));
        assertThrows(IOException.class, () -> fs.open(ours.get("a"), null));
        assertEquals(0, ours.get("emptydir").size());
        try (NodeStream s = fs.list(ours.get("emptydir"))) {
            assertNull(s.next());
        }
    }

    /** TSK's inode number of {@code path}, from fls. */
    private static long tskInode(String path) throws Exception {
        for (String line : Tools.ok("fls", "-r", "-p", image.toString()).out().split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0 && line.substring(tab + 1).equals(path) && !line.contains(" * ")) {
                String head = line.substring(0, tab);
                return Long.parseLong(head.substring(head.lastIndexOf(' ') + 1, head.length() - 1));
            }
        }
        throw new AssertionError("fls does not list " + path);
    }

    static byte[] readAll(Content c, int chunk) throws IOException {
        byte[] all = new byte[Math.toIntExact(c.size())];
        ByteBuffer b = ByteBuffer.allocate(chunk);
        long pos = 0;
        while (pos < all.length) {
            b.clear();
            int n = c.read(b, pos);
            assertTrue(n > 0, "read at " + pos);
            System.arraycopy(b.array(), 0, all, (int) pos, n);
            pos += n;
        }
        assertEquals(-1, c.read(ByteBuffer.allocate(1), pos));
        return all;
    }
}
