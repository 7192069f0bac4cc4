package org.vectorjce.fs.exfat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.MemoryDevice;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * Damaged and hostile exFAT images: copies of one image made by mkfs.exfat and filled through
 * exfat-fuse, patched byte by byte (entries found by their name bytes, the set checksum recomputed
 * by the specification where the patch is meant to be well formed, which fsck.exfat then confirms).
 * Each must end in a {@link CorruptFileSystemException} naming the structure, or in a sanitized
 * name, within seconds: never a hang or another exception.
 */
class ExfatHostileTest {
    private static final int CLUSTER = 4096;

    @TempDir
    static Path tmp;
    static byte[] pristine;
    static long fatOffset;
    static long heapOffset;
    static long clusterCount;
    static long rootCluster;
    static int sectorSize;

    @BeforeAll
    static void build() throws Exception {
        ExfatImages.assumeTools();
        Path src = Files.createDirectory(tmp.resolve("src"));
        Files.write(src.resolve("vdl.bin"), ExfatImageTest.random(3 * CLUSTER + 100, 2));
        Files.write(src.resolve("loop.bin"), ExfatImageTest.random(4 * CLUSTER, 3));
        Files.write(src.resolve("past.bin"), ExfatImageTest.random(100, 4));
        Files.write(src.resolve("sum.txt"), "sum".getBytes());
        Files.write(src.resolve("abcd"), "abcd".getBytes());
        Files.write(src.resolve("xy"), "xy".getBytes());
        Files.write(src.resolve("slash"), "slash".getBytes());
        Files.write(src.resolve("nul"), "nul".getBytes());
        Path image = ExfatImages.mkfs(tmp.resolve("h.img"), 8 << 20, "HOSTILE", "cafe0001", "4096");
        ExfatImages.mounted(image, Map.of(), mnt -> Tools.ok("cp", "-a", src + "/.", mnt + "/"));
        pristine = Files.readAllBytes(image);
        Map<String, String> dump = ExfatImages.dump(image);
        sectorSize = 1 << ExfatImages.dumpNumber(dump, "Sector Size Bits");
        fatOffset = ExfatImages.dumpNumber(dump, "FAT Offset(sector offset)") * sectorSize;
        heapOffset = ExfatImages.dumpNumber(dump, "Cluster Heap Offset (sector offset)") * sectorSize;
        clusterCount = ExfatImages.dumpNumber(dump, "Cluster Count");
        rootCluster = ExfatImages.dumpNumber(dump, "Root Cluster (cluster offset)");
    }

    private static DiskFs open(byte[] image) throws IOException {
        return new ExfatDriver().open(new MemoryDevice(image), FsOptions.defaults());
    }

    /** Lists every folder and reads every file. */
    private static Set<String> walkAll(byte[] image) throws IOException {
        Set<String> names = new TreeSet<>();
        try (DiskFs fs = open(image)) {
            walk(fs, fs.root(), "", names);
        }
        return names;
    }

    private static void walk(DiskFs fs, Node dir, String prefix, Set<String> names) throws IOException {
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                names.add(prefix + n.name());
                if (n.isDirectory()) {
                    walk(fs, n, prefix + n.name() + "/", names);
                } else {
                    ExfatImageTest.readAll(fs.open(n, null), 5000);
                }
            }
        }
    }

    private static CorruptFileSystemException corrupt(String mentions, Executable e) {
        CorruptFileSystemException x = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(CorruptFileSystemException.class, e));
        assertTrue(x.getMessage().contains(mentions), x.getMessage());
        return x;
    }

    private static void fat(byte[] image, long cluster, long value) {
        ExfatImages.le(image).putInt((int) (fatOffset + 4 * cluster), (int) value);
    }

    private static long firstCluster(byte[] image, int set) {
        return Integer.toUnsignedLong(ExfatImages.le(image).getInt(set + 32 + 20));
    }

    @Test
    void thePristineImageReadsWhole() throws IOException {
        assertEquals(Set.of("vdl.bin", "loop.bin", "past.bin", "sum.txt", "abcd", "xy", "slash", "nul"),
                walkAll(pristine));
    }

    @Test
    void bytesPastValidDataLengthReadAsZeros() throws Exception {
        byte[] img = pristine.clone();
        int set = ExfatImages.fileEntry(img, "vdl.bin");
        ExfatImages.le(img).putLong(set + 32 + 8, 5000);
        ExfatImages.fixSetChecksum(img, set);
        Path patched = Files.write(tmp.resolve("vdl.img"), img);
        Tools.Run fsck = ExfatImages.fsck(patched);
        assertEquals(0, fsck.exit(), "fsck.exfat finds the patched set sound: " + fsck.out() + fsck.stderr());
        byte[] want = ExfatImageTest.random(3 * CLUSTER + 100, 2);
        Arrays.fill(want, 5000, want.length, (byte) 0);
        try (DiskFs fs = open(img)) {
            Node n = fs.lookup(fs.root(), "VDL.BIN");
            assertEquals(want.length, n.size());
            Content c = fs.open(n, null);
            assertArrayEquals(want, ExfatImageTest.readAll(c, 777));
            assertArrayEquals(want, ExfatImageTest.readAll(c, 1 << 16));
        }
        // a ValidDataLength past DataLength is refused
        ExfatImages.le(img).putLong(set + 32 + 8, 3 * CLUSTER + 101);
        ExfatImages.fixSetChecksum(img, set);
        corrupt("ValidDataLength", () -> walkAll(img));
    }

    @Test
    void aLoopingFatChainIsFound() {
        byte[] img = pristine.clone();
        int set = ExfatImages.fileEntry(img, "loop.bin");
        long c = firstCluster(img, set);
        img[set + 32 + 1] = 0x01; // AllocationPossible, NoFatChain clear: the FAT is followed
        ExfatImages.fixSetChecksum(img, set);
        fat(img, c, c + 1);
        fat(img, c + 1, c);
        corrupt("loops", () -> walkAll(img));
        fat(img, c + 1, c + 1); // a cluster that is its own successor
        corrupt("loops", () -> walkAll(img));
        fat(img, c + 1, 0); // a free cluster inside the chain
        corrupt("FAT entry of cluster " + (c + 1), () -> walkAll(img));
        fat(img, c + 1, 0xFFFFFFFFL); // the chain ends before the size does
        corrupt("ends after 2 clusters", () -> walkAll(img));
        fat(img, c + 1, clusterCount + 2); // past the heap
        corrupt("not a cluster of the heap", () -> walkAll(img));
    }

    /**
     * Section 7.4.10 and 7.4.11 on a patched File entry (exfat-fuse writes only whole seconds and
     * the mount's zone): a 10 ms increment adds to the time; a valid UTC offset of -01:00 makes UTC
     * an hour later than the local fields; an offset whose valid bit is clear is not applied.
     */
    @Test
    void tenMillisecondIncrementsAndUtcOffsets() throws Exception {
        byte[] img = pristine.clone();
        int set = ExfatImages.fileEntry(img, "sum.txt");
        java.nio.file.attribute.FileTime before;
        try (DiskFs fs = open(img)) {
            before = fs.lookup(fs.root(), "sum.txt").modified();
        }
        assertEquals(0x80, img[set + 23] & 0xff, "exfat-fuse mounted without TZ wrote offset +00:00, valid");
        int old = img[set + 21] & 0xff;
        img[set + 21] = (byte) (old + 37);
        img[set + 23] = (byte) (0x80 | (-4 & 0x7f));
        ExfatImages.fixSetChecksum(img, set);
        assertEquals(0, ExfatImages.fsck(Files.write(tmp.resolve("times.img"), img)).exit(), "fsck.exfat");
        try (DiskFs fs = open(img)) {
            assertEquals(before.toMillis() + 370 + 3_600_000, fs.lookup(fs.root(), "sum.txt").modified().toMillis());
        }
        img[set + 23] = (byte) 0x7c; // the same offset, not marked valid: the local time is taken as UTC
        ExfatImages.fixSetChecksum(img, set);
        try (DiskFs fs = open(img)) {
            assertEquals(before.toMillis() + 370, fs.lookup(fs.root(), "sum.txt").modified().toMillis());
        }
    }

    @Test
    void aLoopingRootFolderIsRefused() {
        byte[] img = pristine.clone();
        fat(img, rootCluster, rootCluster);
        corrupt("root folder: its cluster chain loops", () -> open(img));
    }

    @Test
    void aClusterPastTheHeapIsRefused() {
        byte[] img = pristine.clone();
        int set = ExfatImages.fileEntry(img, "past.bin");
        ExfatImages.le(img).putInt(set + 32 + 20, (int) (clusterCount + 5));
        ExfatImages.fixSetChecksum(img, set);
        corrupt("FirstCluster", () -> walkAll(img));
        // contiguous clusters that run past the heap's end
        ExfatImages.le(img).putInt(set + 32 + 20, (int) (clusterCount + 1));
        ExfatImages.le(img).putLong(set + 32 + 24, 2 * CLUSTER);
        ExfatImages.le(img).putLong(set + 32 + 8, 2 * CLUSTER);
        ExfatImages.fixSetChecksum(img, set);
        corrupt("contiguous clusters", () -> walkAll(img));
    }

    @Test
    void aBrokenSetChecksumIsRefused() {
        byte[] img = pristine.clone();
        int set = ExfatImages.fileEntry(img, "sum.txt");
        img[set + 64 + 2] = 'S';
        corrupt("SetChecksum", () -> walkAll(img));
        // a SecondaryCount that passes the folder's end
        img[set + 1] = (byte) 255;
        corrupt("passes the folder's end", () -> walkAll(img));
    }

    @Test
    void hostileNamesAreSanitized() {
        byte[] img = pristine.clone();
        rename(img, "abcd", "../x");
        rename(img, "xy", "..");
        rename(img, "slash", "a/b/c");
        rename(img, "nul", "n\0l");
        Set<String> names = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> walkAll(img));
        assertEquals(Set.of("vdl.bin", "loop.bin", "past.bin", "sum.txt", ".._x", "__", "a_b_c", "n_l"), names);
    }

    private static void rename(byte[] img, String from, String to) {
        int set = ExfatImages.fileEntry(img, from);
        for (int i = 0; i < to.length(); i++) {
            ExfatImages.le(img).putChar(set + 64 + 2 + 2 * i, to.charAt(i));
        }
        ExfatImages.fixSetChecksum(img, set);
    }

    @Test
    void anUpcaseTableWithABadChecksumIsRefused() {
        byte[] img = pristine.clone();
        long root = heapOffset + (rootCluster - 2) * CLUSTER;
        int at = -1;
        for (int i = (int) root; i < root + CLUSTER; i += 32) {
            if ((img[i] & 0xff) == 0x82) {
                at = i;
                break;
            }
        }
        assertTrue(at > 0, "mkfs.exfat wrote an up-case table entry");
        img[at + 4] ^= 1;
        corrupt("up-case table", () -> open(img));
    }

    @Test
    void aBadMainBootChecksumFallsBackToTheBackupRegion() throws Exception {
        byte[] img = pristine.clone();
        img[200] ^= 0x55; // boot code, covered by the checksum
        try (DiskFs fs = open(img)) {
            assertEquals("HOSTILE", fs.info().label());
            assertEquals("CAFE-0001", fs.info().serial());
        }
        img[12 * sectorSize + 200] ^= 0x55; // the backup too
        assertTrue(new ExfatDriver().probe(new MemoryDevice(img)), "still recognised as exFAT");
        corrupt("boot checksum", () -> open(img));
    }

    @Test
    void badBootFieldsAreRefused() throws IOException {
        for (int[] patch : new int[][] {{20, 1}, {108, 13}, {109, 20}, {110, 3}, {96, 1}, {510, 0}}) {
            byte[] img = pristine.clone();
            img[patch[0]] = (byte) patch[1];
            img[12 * sectorSize + patch[0]] = (byte) patch[1];
            assertTrue(!new ExfatDriver().probe(new MemoryDevice(img)), "probe of byte " + patch[0]);
            corrupt("boot sector", () -> open(img));
        }
    }

    @Test
    void aTruncatedImageIsRefusedOrReadWithoutHanging() {
        byte[] img = Arrays.copyOf(pristine, (int) heapOffset + 2 * CLUSTER);
        corrupt("pass", () -> walkAll(img));
    }
}
