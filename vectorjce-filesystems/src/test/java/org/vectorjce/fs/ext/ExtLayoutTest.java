package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.testing.Tools;

/**
 * The layouts a small tree does not reach: every group's descriptor (meta_bg, 64bit, plain; 1 KiB
 * blocks, so many groups) against dumpe2fs's "Inode table at"; times with nanoseconds, epoch bits and creation
 * times set with {@code debugfs sif}; inline data and inline folders as debugfs reports them.
 */
class ExtLayoutTest {
    @TempDir
    Path tmp;

    /** Each group's inode table as dumpe2fs prints it. */
    private static List<Long> dumpe2fsInodeTables(Path img) throws Exception {
        String out = Tools.ok("dumpe2fs", img.toString()).out();
        List<Long> tables = new ArrayList<>();
        Matcher m = Pattern.compile("Inode table at (\\d+)-").matcher(out);
        while (m.find()) {
            tables.add(Long.parseLong(m.group(1)));
        }
        return tables;
    }

    private void descriptors(String type, long size, String... options) throws Exception {
        Tools.assumeTool("mke2fs", "dumpe2fs");
        Path src = Files.createDirectories(tmp.resolve("empty"));
        Path img = ExtImages.mkfs(tmp.resolve(type + options.length + ".img"), type, size, src, options);
        List<Long> want = dumpe2fsInodeTables(img);
        assertTrue(want.size() >= 32, want.size() + " groups");
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            ExtFileSystem e = (ExtFileSystem) fs;
            List<Long> got = new ArrayList<>();
            for (long g = 0; g < e.superblock().groupCount; g++) {
                got.add(e.inodeTable(g));
            }
            assertEquals(want, got);
        }
    }

    @Test
    void metaBgDescriptorsOfEveryGroup() throws Exception {
        descriptors("ext4", 300L << 20, "-b", "1024", "-O", "meta_bg,^resize_inode");
    }

    @Test
    void metaBg32bitDescriptorsOfEveryGroup() throws Exception {
        descriptors("ext4", 300L << 20, "-b", "1024", "-O", "meta_bg,^resize_inode,^64bit");
    }

    @Test
    void plainDescriptorsOfEveryGroup() throws Exception {
        descriptors("ext3", 300L << 20, "-b", "1024");
    }

    @Test
    void timesWithNanosecondsEpochBitsAndCreation() throws Exception {
        Tools.assumeTool("mke2fs", "debugfs");
        Path src = tmp.resolve("src");
        Files.createDirectories(src);
        Files.write(src.resolve("a"), new byte[] {1});
        Files.write(src.resolve("b"), new byte[] {2});
        Path img = ExtImages.mkfs(tmp.resolve("t.img"), "ext4", 32L << 20, src);
        // mtime 1500000000.123456789; b: epoch bits 1 (2^32 s later), atime -1 (1969) and crtime
        String cmds = "sif /a mtime 1500000000\nsif /a mtime_extra " + (123_456_789L << 2) + "\n"
                + "sif /a crtime 1400000000\nsif /a crtime_extra " + (987_654_321L << 2) + "\n"
                + "sif /b mtime 100\nsif /b mtime_extra " + (5L << 2 | 1) + "\n"
                + "sif /b atime 0xffffffff\nsif /b atime_extra 0\n";
        Path script = Files.writeString(tmp.resolve("cmds"), cmds);
        Tools.ok("debugfs", "-w", "-f", script.toString(), img.toString());
        String stat = Tools.ok("debugfs", "-R", "stat /a", img.toString()).out();
        assertTrue(stat.contains("mtime: 0x59682f00:1d6f3454"), stat);
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            Node a = fs.lookup(fs.root(), "a");
            assertEquals(FileTime.from(Instant.ofEpochSecond(1_500_000_000L, 123_456_789)), a.modified());
            assertEquals(FileTime.from(Instant.ofEpochSecond(1_400_000_000L, 987_654_321)), a.created());
            Node b = fs.lookup(fs.root(), "b");
            assertEquals(FileTime.from(Instant.ofEpochSecond(100 + (1L << 32), 5)), b.modified());
            assertEquals(FileTime.from(Instant.ofEpochSecond(-1)), b.accessed());
        }
    }

    @Test
    void inlineFilesAndFolders() throws Exception {
        Tools.assumeTool("mke2fs", "debugfs");
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("small-dir"));
        Files.write(src.resolve("small-dir/x"), new byte[] {'x'});
        Files.write(src.resolve("tiny"), "tiny".getBytes());
        // entries past i_block's 56 bytes: libext2fs moves such a folder to a block (the kernel would
        // use the system.data attribute, which no tool here writes)
        Files.createDirectories(src.resolve("mid-dir"));
        for (int i = 0; i < 4; i++) {
            Files.write(src.resolve("mid-dir/name-number-" + i), new byte[] {(byte) i});
        }
        Files.write(src.resolve("in-xattr"), ExtImages.bytes(100, 5));
        Path img = ExtImages.mkfs(tmp.resolve("i.img"), "ext4", 32L << 20, src, "-O", "inline_data");
        for (String f : new String[] {"/tiny", "/in-xattr", "/small-dir"}) {
            String stat = Tools.ok("debugfs", "-R", "stat " + f, img.toString()).out();
            assertTrue(stat.contains("Size of inline data"), f + " is inline: " + stat);
        }
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            assertEquals(ExtImages.debugfsLs(img, "/small-dir"),
                    ExtImages.ourLs(fs, fs.lookup(fs.root(), "small-dir")));
            assertEquals(ExtImages.debugfsLs(img, "/"), ExtImages.ourLs(fs, fs.root()));
            assertEquals(4, ExtImages.debugfsLs(img, "/mid-dir").size());
            assertEquals(ExtImages.debugfsLs(img, "/mid-dir"), ExtImages.ourLs(fs, fs.lookup(fs.root(), "mid-dir")));
            ExtImages.compareBytes(fs.open(fs.lookup(fs.root(), "in-xattr"), null), src.resolve("in-xattr"));
            ExtImages.compareBytes(fs.open(fs.lookup(fs.root(), "tiny"), null), src.resolve("tiny"));
        }
    }
}
