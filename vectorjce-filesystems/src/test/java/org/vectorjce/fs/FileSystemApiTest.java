package org.vectorjce.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.testing.Tools;

/**
 * The user's API, {@code FileSystems.newFileSystem(image, env)} and {@link DiskFileSystems}, on
 * images the real tools wrote: a FAT32 that {@code mkfs.fat} made and {@code mcopy -s -m} filled,
 * and the same FAT as the second partition of an MBR disk {@code sfdisk} laid out. What the
 * filesystem shows is compared with the tree mtools was given, and with The Sleuth Kit's
 * {@code fls} where it is installed.
 */
class FileSystemApiTest {
    @TempDir
    static Path dir;
    static Path src;
    static Path fat;

    @BeforeAll
    static void image() throws Exception {
        Tools.assumeTool("mkfs.fat", "mcopy");
        src = dir.resolve("src");
        Random r = new Random(7);
        for (int i = 0; i < 40; i++) {
            byte[] b = new byte[r.nextInt(20_000)];
            r.nextBytes(b);
            Path p = src.resolve("d" + (i % 4)).resolve(i % 3 == 0 ? "Sub Folder" : ".").resolve("File " + i + ".dat")
                    .normalize();
            Files.createDirectories(p.getParent());
            Files.write(p, b);
            Files.setLastModifiedTime(p, FileTime.from(Instant.parse("2020-01-01T00:00:00Z").plusSeconds(2L * i)));
        }
        Files.writeString(src.resolve("Ünïcödé name.txt"), "unicode\n");
        Files.setLastModifiedTime(src.resolve("Ünïcödé name.txt"), FileTime.from(Instant.parse("2022-02-02T22:22:22Z")));
        fat = dir.resolve("fat.img");
        Tools.ok("mkfs.fat", "-F", "32", "-n", "API", "-C", fat.toString(), "40000");
        List<String> cmd = new ArrayList<>(List.of("mcopy", "-s", "-m", "-i", fat.toString()));
        try (Stream<Path> s = Files.list(src)) {
            s.sorted().forEach(p -> cmd.add(p.toString()));
        }
        cmd.add("::");
        Tools.ok(Map.of("TZ", "UTC", "MTOOLS_SKIP_CHECK", "1"), cmd.toArray(String[]::new));
    }

    /** Every file under {@code root}: its path with {@code /} from the root, its size and bytes' hash. */
    private static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = "/" + root.relativize(p).toString().replace(root.getFileSystem().getSeparator(), "/");
                m.put(name, Files.isDirectory(p) ? "dir" : Files.size(p) + " "
                        + java.util.Arrays.hashCode(Files.readAllBytes(p)) + " " + Files.getLastModifiedTime(p));
            }
        }
        m.remove("/");
        return m;
    }

    @Test
    void newFileSystemShowsWhatMtoolsWrote() throws Exception {
        try (FileSystem fs = FileSystems.newFileSystem(fat, Map.of())) {
            assertTrue(fs.isReadOnly());
            assertEquals(tree(src), tree(fs.getPath("/")));
            assertEquals("FAT32", DiskFileSystems.info(fs).type());
            assertEquals("API", DiskFileSystems.info(fs).label());
            // case-insensitive lookup, globs, attributes, copying out, and no writing
            Path f = fs.getPath("/D3/sub folder/FILE 3.DAT");
            assertArrayEquals(Files.readAllBytes(src.resolve("d3/Sub Folder/File 3.dat")), Files.readAllBytes(f));
            DosFileAttributes a = Files.readAttributes(f, DosFileAttributes.class);
            assertTrue(a.isArchive() && !a.isHidden() && a.isRegularFile());
            List<String> globbed = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(fs.getPath("/d2"), "*.dat")) {
                ds.forEach(p -> globbed.add(p.getFileName().toString()));
            }
            List<String> want = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(src.resolve("d2"), "*.dat")) {
                ds.forEach(p -> want.add(p.getFileName().toString()));
            }
            java.util.Collections.sort(globbed);
            java.util.Collections.sort(want);
            assertEquals(want, globbed);
            Path out = dir.resolve("copied.txt");
            Files.copy(fs.getPath("/Ünïcödé name.txt"), out);
            assertEquals("unicode\n", Files.readString(out, StandardCharsets.UTF_8));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.writeString(f, "no"));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.delete(f));
        }
    }

    @Test
    void theSecondPartitionOfAnMbrDisk() throws Exception {
        Tools.assumeTool("sfdisk");
        Path disk = Tools.sparse(dir.resolve("mbr.img"), 64L << 20);
        Tools.ok("sh", "-c", "printf 'start=2048, size=4096, type=83\\nstart=8192, type=c\\n' | sfdisk -q " + disk);
        try (var in = Files.newInputStream(fat);
                var out = java.nio.channels.FileChannel.open(disk, java.nio.file.StandardOpenOption.WRITE)) {
            out.position(8192L * 512);
            out.transferFrom(java.nio.channels.Channels.newChannel(in), 8192L * 512, Files.size(fat));
        }
        List<Partition> parts;
        try (Device d = Device.open(disk, false)) {
            parts = Partitions.read(d);
            assertEquals(2, parts.size(), parts.toString());
            assertEquals(8192L * 512, parts.get(1).offset());
            try (FileSystem fs = DiskFileSystems.open(d, Map.of("partition", 2))) {
                assertEquals(tree(src), tree(fs.getPath("/")));
                assertEquals(2, DiskFileSystems.partition(fs).number());
            }
        }
        // only one partition holds a filesystem: it is found without being named
        try (FileSystem fs = FileSystems.newFileSystem(disk, Map.of())) {
            assertEquals(tree(src), tree(fs.getPath("/")));
        }
        if (Tools.have("fls")) {
            // The Sleuth Kit's names of the same partition's files
            String fls = Tools.ok("fls", "-r", "-p", "-o", "8192", disk.toString()).out();
            for (String name : tree(src).keySet()) {
                assertTrue(fls.contains(name.substring(1)), name + " in " + fls);
            }
        }
    }
}
