package org.vectorjce.fs.fat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.MemoryDevice;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * Crafted FAT12 images: a floppy made by mkfs.fat and filled by mtools, then patched by hand the way
 * an attacker would (looping chains, a chain leaving the volume, a size larger than its chain, long
 * names holding {@code "/"} and {@code ".."}, a long name whose checksum is wrong, broken BPBs).
 * Each must end in a {@link CorruptFileSystemException} or a sanitized name, within seconds.
 *
 * <p>The test finds what it patches with its own reading of the BPB and the root directory (a few
 * fatgen103 offsets), not the driver's.
 */
class FatHostileTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path work;

    private byte[] img;
    private ByteBuffer le;
    private int bps;
    private int spc;
    private long fatOff;
    private int fatBytes;
    private int fats;
    private long rootOff;
    private int rootEntries;
    private long dataOff;
    private String orphanShortName;

    @BeforeEach
    void image() throws Exception {
        Tools.assumeTool("mkfs.fat", "mcopy", "mmd");
        Path f = work.resolve("h.img");
        Tools.ok("mkfs.fat", "-C", "-F", "12", "-s", "1", f.toString(), "1440");
        Path src = work.resolve("src");
        Files.createDirectories(src.resolve("DIR1"));
        write(src.resolve("LOOP.BIN"), 1536);
        write(src.resolve("PAST.BIN"), 1536);
        write(src.resolve("SHORT.BIN"), 1000);
        write(src.resolve("Ab.txt"), 10);
        write(src.resolve("Orphan Name.txt"), 10);
        for (int i = 0; i < 20; i++) {
            write(src.resolve("DIR1/F" + i + ".BIN"), 10);
        }
        Files.createDirectories(src.resolve("DIR1/SUB"));
        write(src.resolve("DIR1/SUB/X.BIN"), 10);
        Tools.ok(FatImages.ENV, "sh", "-c", "cd " + FatImages.quote(src.toString()) + " && mcopy -s -m -i "
                + FatImages.quote(f.toString()) + " -- * ::/");
        String out = FatImages.mtools(work, "mshortname", "-i", f.toString(), "::/Orphan Name.txt").out().trim();
        orphanShortName = out.substring(out.lastIndexOf('/') + 1).replace("\"", "").trim();
        img = Files.readAllBytes(f);
        le = ByteBuffer.wrap(img).order(ByteOrder.LITTLE_ENDIAN);
        bps = le.getShort(11) & 0xffff;
        spc = img[13] & 0xff;
        fatOff = (long) (le.getShort(14) & 0xffff) * bps;
        fats = img[16] & 0xff;
        rootEntries = le.getShort(17) & 0xffff;
        fatBytes = (le.getShort(22) & 0xffff) * bps;
        rootOff = fatOff + (long) fats * fatBytes;
        dataOff = rootOff + rootEntries * 32L;
    }

    private static void write(Path p, int n) throws IOException {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) ('a' + n % 26));
        Files.write(p, b);
        Files.setLastModifiedTime(p, FileTime.fromMillis(1_600_000_000_000L));
    }

    /** The offset of the short entry named {@code name83} (11 bytes, space-padded) in the directory at {@code dir}. */
    private int entry(long dir, int len, String name83) {
        byte[] want = name83.getBytes(StandardCharsets.US_ASCII);
        for (int at = (int) dir; at < dir + len; at += 32) {
            if (Arrays.equals(img, at, at + 11, want, 0, 11)) {
                return at;
            }
        }
        throw new AssertionError(name83 + " not found");
    }

    private int rootEntry(String name83) {
        return entry(rootOff, rootEntries * 32, name83);
    }

    private int cluster(int entry) {
        return le.getShort(entry + 26) & 0xffff;
    }

    private long clusterOff(int c) {
        return dataOff + (long) (c - 2) * spc * bps;
    }

    private int fatGet(int c) {
        int at = (int) fatOff + c + c / 2;
        int v = (img[at] & 0xff) | (img[at + 1] & 0xff) << 8;
        return (c & 1) != 0 ? v >>> 4 : v & 0xfff;
    }

    /** Sets FAT12 entry {@code c} to {@code v} in every FAT copy. */
    private void fatSet(int c, int v) {
        for (int k = 0; k < fats; k++) {
            int at = (int) fatOff + k * fatBytes + c + c / 2;
            int old = (img[at] & 0xff) | (img[at + 1] & 0xff) << 8;
            int nv = (c & 1) != 0 ? (old & 0x000f) | v << 4 : (old & 0xf000) | v;
            img[at] = (byte) nv;
            img[at + 1] = (byte) (nv >>> 8);
        }
    }

    private DiskFs open() throws IOException {
        return new FatDriver().open(new MemoryDevice(img, img.length), FsOptions.defaults());
    }

    private static byte[] readAll(DiskFs fs, Node n) throws IOException {
        return FatImages.readAll(fs.open(n, null), 4096);
    }

    private void assertCorruptRead(String name) {
        CorruptFileSystemException e = assertTimeoutPreemptively(BOUND, () -> assertThrows(
                CorruptFileSystemException.class, () -> {
                    try (DiskFs fs = open()) {
                        readAll(fs, fs.lookup(fs.root(), name));
                    }
                }));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertTrue(e.offset() > 0, e.getMessage());
    }

    @Test
    void unpatchedImageReads() throws Exception {
        try (DiskFs fs = open()) {
            byte[] expected = new byte[1536];
            Arrays.fill(expected, (byte) ('a' + 1536 % 26));
            assertArrayEquals(expected, readAll(fs, fs.lookup(fs.root(), "loop.bin")));
            assertEquals(FatImages.fls(writeImage()), FatImages.walk(fs).keySet());
        }
    }

    private Path writeImage() throws IOException {
        Path p = work.resolve("patched.img");
        Files.write(p, img);
        return p;
    }

    @Test
    void fileChainLoopingBackToItsStart() throws Exception {
        int c1 = cluster(rootEntry("LOOP    BIN"));
        int c2 = fatGet(c1);
        int c3 = fatGet(c2);
        assertTrue(fatGet(c3) >= 0xFF8, "a 3-cluster chain from mtools");
        fatSet(c3, c1);
        assertCorruptRead("LOOP.BIN");
    }

    @Test
    void fileChainLoopingShorterThanItsSize() throws Exception {
        int c1 = cluster(rootEntry("LOOP    BIN"));
        fatSet(fatGet(c1), c1);
        assertCorruptRead("LOOP.BIN");
    }

    @Test
    void directoryChainLoopingOnItself() throws Exception {
        int d = cluster(rootEntry("DIR1       "));
        assertTrue(fatGet(d) != 0 && fatGet(d) < 0xFF8, "DIR1 spans two clusters");
        fatSet(d, d);
        assertTimeoutPreemptively(BOUND, () -> assertThrows(CorruptFileSystemException.class, () -> {
            try (DiskFs fs = open(); NodeStream s = fs.list(fs.lookup(fs.root(), "DIR1"))) {
                while (s.next() != null) {
                    // the first cluster's 16 entries, again and again, until the bound
                }
            }
        }));
    }

    @Test
    void subdirectoryPointingAtItsParent() throws Exception {
        int d = cluster(rootEntry("DIR1       "));
        long dirStart = clusterOff(d);
        int sub = -1;
        for (int c = d; c >= 2 && c < 0xFF8; c = fatGet(c)) {
            try {
                sub = entry(clusterOff(c), spc * bps, "SUB        ");
                break;
            } catch (AssertionError notHere) {
                // the next cluster of DIR1
            }
        }
        assertTrue(sub > dirStart, "SUB found in DIR1");
        le.putShort(sub + 26, (short) d);
        assertTimeoutPreemptively(BOUND, () -> {
            try (DiskFs fs = open()) {
                Map<String, Node> all = FatImages.walk(fs);
                assertTrue(all.containsKey("DIR1/SUB/"));
                Node subNode = fs.lookup(fs.lookup(fs.root(), "DIR1"), "SUB");
                assertNotNull(fs.lookup(subNode, "F0.BIN"), "SUB now lists DIR1");
            }
        });
    }

    @Test
    void chainLeavingTheVolume() throws Exception {
        int c1 = cluster(rootEntry("PAST    BIN"));
        fatSet(c1, 0xFF0);
        assertCorruptRead("PAST.BIN");
    }

    @Test
    void firstClusterPastTheVolume() throws Exception {
        le.putShort(rootEntry("PAST    BIN") + 26, (short) 4000);
        assertCorruptRead("PAST.BIN");
    }

    @Test
    void chainReachingAFreeCluster() throws Exception {
        int c1 = cluster(rootEntry("PAST    BIN"));
        fatSet(c1, 2000);
        assertEquals(0, fatGet(2000), "cluster 2000 is free on this floppy");
        assertCorruptRead("PAST.BIN");
    }

    @Test
    void sizeLargerThanTheChain() throws Exception {
        int e = rootEntry("SHORT   BIN");
        le.putInt(e + 28, 100_000);
        assertCorruptRead("SHORT.BIN");
        try (DiskFs fs = open()) {
            Content c = fs.open(fs.lookup(fs.root(), "SHORT.BIN"), null);
            ByteBuffer b = ByteBuffer.allocate(1024);
            assertEquals(1024, c.read(b, 0), "the clusters the chain has still read");
        }
        le.putInt(e + 28, -1);
        assertCorruptRead("SHORT.BIN");
    }

    /** Clusters past the size (as fallocate's KEEP_SIZE leaves them) are not read; the chain still ends. */
    @Test
    void sizeSmallerThanTheChain() throws Exception {
        le.putInt(rootEntry("LOOP    BIN") + 28, 100);
        try (DiskFs fs = open()) {
            byte[] expected = new byte[100];
            Arrays.fill(expected, (byte) ('a' + 1536 % 26));
            assertArrayEquals(expected, readAll(fs, fs.lookup(fs.root(), "LOOP.BIN")));
        }
        // ... but a loop after the size's clusters is found
        int c1 = cluster(rootEntry("LOOP    BIN"));
        int c3 = fatGet(fatGet(c1));
        fatSet(c3, fatGet(c1));
        assertCorruptRead("LOOP.BIN");
    }

    @Test
    void chainPastTheSizeReachingAFreeCluster() throws Exception {
        le.putInt(rootEntry("LOOP    BIN") + 28, 100);
        int c1 = cluster(rootEntry("LOOP    BIN"));
        fatSet(fatGet(fatGet(c1)), 2000);
        assertEquals(0, fatGet(2000), "cluster 2000 is free on this floppy");
        assertCorruptRead("LOOP.BIN");
    }

    /** Writes {@code name} into the one long-name entry before the short entry of "Ab.txt". */
    private void longName(String name) {
        int lfn = rootEntry("AB      TXT") - 32;
        assertEquals(0x0f, img[lfn + 11], "mtools wrote one long-name entry for Ab.txt");
        int[] offsets = {1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30};
        for (int i = 0; i < 13; i++) {
            char ch = i < name.length() ? name.charAt(i) : i == name.length() ? 0 : '\uffff';
            le.putShort(lfn + offsets[i], (short) ch);
        }
    }

    @Test
    void longNameWithSlashes() throws Exception {
        longName("../../x");
        try (DiskFs fs = open()) {
            Map<String, Node> all = FatImages.walk(fs);
            assertTrue(all.containsKey(".._.._x"), all.keySet().toString());
            for (Node n : all.values()) {
                assertFalse(n.name().contains("/") || n.name().indexOf(0) >= 0, n.name());
            }
            assertNull(fs.lookup(fs.root(), "../../x"));
        }
    }

    @Test
    void longNameDotDot() throws Exception {
        longName("..");
        try (DiskFs fs = open()) {
            assertTrue(FatImages.walk(fs).containsKey("__"));
        }
        longName("a\u0000b");
        try (DiskFs fs = open()) {
            assertTrue(FatImages.walk(fs).containsKey("a"), "the name ends at its NUL");
        }
    }

    @Test
    void longNameWithAWrongChecksumIsIgnored() throws Exception {
        int shortEntry = -1;
        for (int at = (int) rootOff; at < rootOff + rootEntries * 32; at += 32) {
            if (img[at + 11] != 0x0f && new String(img, at, 11, StandardCharsets.US_ASCII).startsWith("ORPHAN")) {
                shortEntry = at;
            }
        }
        assertTrue(shortEntry > 0);
        img[shortEntry - 32 + 13] ^= 0x55;
        try (DiskFs fs = open()) {
            Map<String, Node> all = FatImages.walk(fs);
            assertFalse(all.containsKey("Orphan Name.txt"));
            assertTrue(all.containsKey(orphanShortName), orphanShortName + " in " + all.keySet());
        }
    }

    /**
     * A first byte 0x05 stands for 0xE5 (fatgen103), decoded in the code page asked for: compared
     * with mtools' {@code mdir -b} under {@code default_codepage=437} (Linux's and our default) and
     * under mtools' own default, 850.
     */
    @Test
    void shortNameStartingWith0x05() throws Exception {
        img[rootEntry("PAST    BIN")] = 0x05;
        Path p = writeImage();
        Path rc = work.resolve("mtoolsrc");
        Files.writeString(rc, "default_codepage=437\n");
        Set<String> cp437 = mdirNames(p, Map.of("MTOOLSRC", rc.toString()));
        Set<String> cp850 = mdirNames(p, Map.of());
        assertTrue(cp437.contains("\u03c3AST.BIN"), cp437.toString());
        assertEquals(cp437, rootNames(FsOptions.defaults()));
        assertEquals(cp850, rootNames(new FsOptions(java.nio.charset.Charset.forName("IBM850"))));
    }

    private Set<String> mdirNames(Path image, Map<String, String> extra) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(FatImages.ENV);
        env.putAll(extra);
        Set<String> out = new java.util.TreeSet<>();
        for (String line : Tools.ok(env, "mdir", "-b", "-i", image.toString(), "::/").out().split("\n")) {
            if (line.startsWith("::/")) {
                out.add(line.substring(3).replaceAll("/$", ""));
            }
        }
        return out;
    }

    private Set<String> rootNames(FsOptions options) throws IOException {
        Set<String> out = new java.util.TreeSet<>();
        try (DiskFs fs = new FatDriver().open(new MemoryDevice(img, img.length), options);
                NodeStream s = fs.list(fs.root())) {
            for (Node n = s.next(); n != null; n = s.next()) {
                out.add(n.name());
            }
        }
        return out;
    }

    @Test
    void brokenBootSectors() throws Exception {
        byte[] good = img.clone();
        int[][] patches = {{13, 0}, {13, 3}, {12, 0}, {12, 0x30}, {12, 0x03}, {14, 0}, {16, 0}, {21, 0x12}, {510, 0},
            {0, 0}};
        for (int[] p : patches) {
            img = good.clone();
            img[p[0]] = (byte) p[1];
            if (p[0] == 14) {
                img[15] = 0;
            }
            Device d = new MemoryDevice(img, img.length);
            assertFalse(new FatDriver().probe(d), "probe with byte " + p[0] + " = " + p[1]);
            assertThrows(CorruptFileSystemException.class, () -> new FatDriver().open(d, FsOptions.defaults()));
        }
        // FATs larger than the device
        img = good.clone();
        assertFalse(new FatDriver().probe(new MemoryDevice(img, 4096)));
        assertFalse(new FatDriver().probe(new MemoryDevice(img, 100)));
    }

    @Test
    void otherFilesystemsAreNotFat() throws Exception {
        if (Tools.have("mkfs.exfat")) {
            Path ex = Tools.sparse(work.resolve("ex.img"), 8 << 20);
            Tools.ok("mkfs.exfat", ex.toString());
            try (Device d = Device.open(ex, false)) {
                assertFalse(new FatDriver().probe(d), "exFAT");
            }
        }
        if (Tools.have("mkntfs")) {
            Path nt = Tools.sparse(work.resolve("nt.img"), 8 << 20);
            Tools.ok("mkntfs", "-Q", "-F", nt.toString());
            try (Device d = Device.open(nt, false)) {
                assertFalse(new FatDriver().probe(d), "NTFS");
            }
        }
        // an exFAT OEM name on an otherwise valid FAT boot sector is refused too
        System.arraycopy("EXFAT   ".getBytes(StandardCharsets.US_ASCII), 0, img, 3, 8);
        assertFalse(new FatDriver().probe(new MemoryDevice(img, img.length)));
    }
}
