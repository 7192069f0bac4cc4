package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.testing.Tools;

/**
 * The ext driver against images made by e2fsprogs' {@code mke2fs -d} from one source tree, in each
 * layout the driver reads: ext4 with 4 KiB and 1 KiB blocks (extents, flex_bg, 64bit,
 * metadata_csum: mke2fs's defaults), ext3 and ext2 (block maps; ext2 with 128-byte inodes, whose
 * times have no nanoseconds), inline_data, meta_bg. Each image is compared file by file with the
 * source tree and folder by folder with {@code debugfs ls -p}; its {@link FsInfo} with blkid and
 * dumpe2fs.
 */
class ExtReadTest {
    @TempDir
    static Path tmp;
    static Path src;
    static Path srcHuge;
    static Path srcInline;

    @BeforeAll
    static void source() throws Exception {
        Tools.assumeTool("mke2fs", "debugfs");
        src = ExtImages.tree(tmp.resolve("src"), false);
        srcHuge = ExtImages.tree(tmp.resolve("src-huge"), true);
        srcInline = ExtImages.tree(tmp.resolve("src-inline"), false, false);
    }

    private static void check(Path img, Path source, boolean nanos) throws Exception {
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            int files = ExtImages.compareWithSource(fs, fs.root(), source);
            assertTrue(files >= 15, files + " files compared");
            assertTrue(ExtImages.compareWithDebugfs(fs, img) >= 5);
            checkInfo(fs.info(), img);
            // hard link: the same inode under two names
            var dir = fs.lookup(fs.root(), "dir");
            assertEquals(fs.lookup(fs.root(), "size-4097").fileKey(), fs.lookup(dir, "hard-link").fileKey());
            // case-sensitive names
            assertEquals(10, fs.lookup(dir, "Case").size());
            assertEquals(11, fs.lookup(dir, "case").size());
            assertEquals(null, fs.lookup(dir, "CASE"));
        }
    }

    /** FsInfo against blkid (type, label, UUID) and dumpe2fs -h (block size, counts). */
    static void checkInfo(FsInfo info, Path img) throws Exception {
        if (Tools.have("blkid")) {
            assertEquals(Tools.ok("blkid", "-p", "-o", "value", "-s", "TYPE", img.toString()).out().strip(), info.type());
            assertEquals(Tools.ok("blkid", "-p", "-o", "value", "-s", "LABEL", img.toString()).out().strip(),
                    info.label());
            assertEquals(Tools.ok("blkid", "-p", "-o", "value", "-s", "UUID", img.toString()).out().strip(),
                    info.serial());
        }
        String h = Tools.ok("dumpe2fs", "-h", img.toString()).out();
        long bs = field(h, "Block size");
        assertEquals(bs, info.clusterSize());
        assertEquals(field(h, "Block count") * bs, info.totalBytes());
        assertEquals(field(h, "Free blocks") * bs, info.freeBytes());
    }

    private static long field(String dump, String name) {
        for (String line : dump.split("\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new AssertionError(name + " not in dumpe2fs -h");
    }

    @Test
    void ext4Default4kWithHugeFile() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4.img"), "ext4", 96L << 20, srcHuge, "-b", "4096");
        check(img, srcHuge, true);
    }

    @Test
    void ext4OneKiBBlocks64bit() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-1k.img"), "ext4", 64L << 20, src, "-b", "1024", "-O", "64bit");
        String stat = Tools.ok("debugfs", "-R", "stat /fragmented", img.toString()).out();
        assertTrue(stat.contains("(ETB1)"), "an extent tree of depth 2: " + stat);
        check(img, src, true);
    }

    @Test
    void ext4NoChecksums() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-nocsum.img"), "ext4", 64L << 20, src, "-O",
                "^metadata_csum,^64bit,uninit_bg");
        check(img, src, true);
    }

    @Test
    void ext3BlockMapWithHugeFile() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext3.img"), "ext3", 96L << 20, srcHuge, "-b", "4096");
        check(img, srcHuge, true);
    }

    @Test
    void ext3OneKiBBlocks() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext3-1k.img"), "ext3", 64L << 20, src, "-b", "1024");
        check(img, src, true);
    }

    @Test
    void ext2SmallInodes() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext2.img"), "ext2", 64L << 20, src, "-I", "128");
        check(img, src, false);
    }

    @Test
    void ext4WithoutExtentsOrFlexBg() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-noext.img"), "ext4", 64L << 20, src, "-O", "^extent,^flex_bg,^64bit");
        check(img, src, true);
    }

    @Test
    void ext4InlineData() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-inline.img"), "ext4", 64L << 20, srcInline, "-O", "inline_data");
        check(img, srcInline, true);
    }

    @Test
    void ext4MetaBg() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-metabg.img"), "ext4", 64L << 20, src, "-b", "1024", "-O",
                "meta_bg,^resize_inode");
        check(img, src, true);
    }

    @Test
    void ext4SixtyFourKiBBlocks() throws Exception {
        // rec_len of a 64 KiB block's only entry does not fit in 16 bits: its low 2 bits carry the rest
        Path img = ExtImages.mkfs(tmp.resolve("ext4-64k.img"), "ext4", 128L << 20, src, "-b", "65536");
        check(img, src, true);
    }

    @Test
    void ext4Bigalloc() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-bigalloc.img"), "ext4", 128L << 20, src, "-O", "bigalloc", "-C",
                "16384");
        check(img, src, true);
    }

    @Test
    void ext4Casefold() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-casefold.img"), "ext4", 64L << 20, src, "-O", "casefold");
        check(img, src, true);
    }

    @Test
    void needsRecoveryIsReadAsItIs() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-dirty.img"), "ext4", 64L << 20, src);
        Tools.ok("debugfs", "-w", "-R", "feature needs_recovery", img.toString());
        assertTrue(Tools.ok("dumpe2fs", "-h", img.toString()).out().contains("needs_recovery"));
        check(img, src, true);
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            assertTrue(((ExtFileSystem) fs).needsRecovery());
        }
    }

    @Test
    void concurrentReadsOfOneFile() throws Exception {
        Path img = ExtImages.mkfs(tmp.resolve("ext4-mt.img"), "ext4", 64L << 20, src, "-b", "1024");
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            var sparse = fs.open(fs.lookup(fs.root(), "sparse"), null);
            var big = fs.open(fs.lookup(fs.root(), "size-3145728"), null);
            var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try {
                var jobs = new java.util.ArrayList<java.util.concurrent.Future<?>>();
                for (int t = 0; t < 8; t++) {
                    boolean which = t % 2 == 0;
                    jobs.add(pool.submit(() -> {
                        ExtImages.compareBytes(which ? sparse : big, src.resolve(which ? "sparse" : "size-3145728"));
                        return null;
                    }));
                }
                for (var j : jobs) {
                    j.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
