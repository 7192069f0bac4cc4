package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.testing.Tools;

/**
 * An ext4 image as a {@code java.nio.file.FileSystem} through {@link DiskFileSystems}: found among
 * the drivers, PosixFileAttributes from the inodes (compared with the source tree), symbolic links
 * followed, the same tree as the source by {@code Files.walk}; and the whole listing with inode
 * numbers against The Sleuth Kit's {@code fls -r -p}.
 */
class ExtNioTest {
    @TempDir
    Path tmp;

    @Test
    void asAFileSystem() throws Exception {
        Path src = ExtImages.tree(tmp.resolve("src"), false);
        Path img = ExtImages.mkfs(tmp.resolve("nio.img"), "ext4", 64L << 20, src);
        try (FileSystem fs = DiskFileSystems.open(img, Map.of())) {
            assertEquals("ext4", DiskFileSystems.info(fs).type());
            assertTrue(fs.supportedFileAttributeViews().contains("posix"));
            Path root = fs.getPath("/");
            Map<String, String> ours = new TreeMap<>();
            try (Stream<Path> w = Files.walk(root)) {
                for (Path p : w.toList()) {
                    String rel = root.relativize(p).toString();
                    if (rel.isEmpty() || rel.startsWith("lost+found")) {
                        continue;
                    }
                    PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    ours.put(rel, a.permissions() + " " + a.owner().getName() + " " + a.group().getName() + " "
                            + (a.isRegularFile() ? a.size() : "-"));
                }
            }
            Map<String, String> theirs = new TreeMap<>();
            try (Stream<Path> w = Files.walk(src)) {
                for (Path p : w.toList()) {
                    String rel = src.relativize(p).toString();
                    if (rel.isEmpty()) {
                        continue;
                    }
                    PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    theirs.put(rel, a.permissions() + " " + Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                            + " " + Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS) + " "
                            + (a.isRegularFile() ? a.size() : "-"));
                }
            }
            assertEquals(theirs, ours);
            assertArrayEquals(Files.readAllBytes(src.resolve("size-1")), Files.readAllBytes(fs.getPath("/fast-link")));
            assertArrayEquals(Files.readAllBytes(src.resolve("slow-link")),
                    Files.readAllBytes(fs.getPath("/slow-link")));
            assertEquals(Files.readAttributes(fs.getPath("/size-4097"), PosixFileAttributes.class).fileKey(),
                    Files.readAttributes(fs.getPath("/dir/hard-link"), PosixFileAttributes.class).fileKey());
        }
    }

    @Test
    void listingAgainstFls() throws Exception {
        Tools.assumeTool("fls", "mke2fs");
        Path src = ExtImages.tree(tmp.resolve("src"), false, false);
        String[][] layouts = {{"ext2"}, {"ext3"}, {"ext4", "-O", "^metadata_csum"}, {"ext4"},
            {"ext4", "-O", "inline_data"}, {"ext4", "-b", "1024", "-O", "meta_bg,^resize_inode"}};
        for (String[] layout : layouts) {
            String type = String.join(" ", layout);
            Path img = ExtImages.mkfs(tmp.resolve(type.replace(' ', '_') + ".img"), layout[0], 64L << 20, src,
                    java.util.Arrays.copyOfRange(layout, 1, layout.length));
            Map<String, Long> theirs = new TreeMap<>();
            for (String line : Tools.ok("fls", "-r", "-p", img.toString()).out().split("\n")) {
                // "r/r 12:\tdir/file"
                int tab = line.indexOf('\t');
                if (tab < 0 || line.contains("$OrphanFiles")) {
                    continue;
                }
                String head = line.substring(0, tab);
                theirs.put(line.substring(tab + 1), Long.parseLong(head.substring(head.lastIndexOf(' ') + 1,
                        head.length() - 1)));
            }
            Map<String, Long> ours = new TreeMap<>();
            try (FileSystem fs = DiskFileSystems.open(img, Map.of())) {
                Path root = fs.getPath("/");
                try (Stream<Path> w = Files.walk(root)) {
                    for (Path p : w.toList()) {
                        if (!p.equals(root)) {
                            ours.put(root.relativize(p).toString(), (Long) Files.readAttributes(p,
                                    PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
                        }
                    }
                }
            }
            assertEquals(theirs, ours, type);
        }
    }

    @Test
    void inAGptPartition() throws Exception {
        Tools.assumeTool("sgdisk", "mke2fs");
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("d"));
        Files.write(src.resolve("d/x"), ExtImages.bytes(5000, 9));
        Path img = Tools.sparse(tmp.resolve("gpt.img"), 40L << 20);
        // mke2fs first: it wipes a partition table it finds; sgdisk then writes only its headers
        Tools.ok("mke2fs", "-q", "-F", "-t", "ext4", "-L", "in-gpt", "-E", "offset=1048576", "-d", src.toString(),
                img.toString(), "30M");
        Tools.ok("sgdisk", "-n", "1:2048:0", "-t", "1:8300", img.toString());
        try (FileSystem fs = DiskFileSystems.open(img, Map.of())) {
            assertEquals("GPT", DiskFileSystems.partition(fs).scheme());
            assertEquals(1048576, DiskFileSystems.partition(fs).offset());
            assertEquals("in-gpt", DiskFileSystems.info(fs).label());
            assertArrayEquals(Files.readAllBytes(src.resolve("d/x")), Files.readAllBytes(fs.getPath("/d/x")));
        }
    }
}
