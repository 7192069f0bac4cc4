package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.testing.Tools;

/**
 * A FAT16 that mkfs.fat made and mcopy filled, copied into an LV in two segments (the second after
 * another LV) at the extents {@code lvs} reports, then opened through the LV's device with
 * {@link DiskFileSystems#open(Device, Map)}: every file's path, size, bytes and mtime as written,
 * including one file that runs across the segment boundary.
 */
class LvmFilesystemTest {

    @Test
    void fatInsideAFragmentedLv(@TempDir Path dir) throws Exception {
        Tools.assumeTool("mkfs.fat", "mcopy");
        Path src = dir.resolve("src");
        Random r = new Random(3);
        for (int i = 0; i < 12; i++) {
            byte[] b = new byte[i == 0 ? 7 << 20 : r.nextInt(200_000)];
            r.nextBytes(b);
            Path p = src.resolve(i % 2 == 0 ? "Dir A" : "b").resolve("File " + i + ".bin");
            Files.createDirectories(p.getParent());
            Files.write(p, b);
            Files.setLastModifiedTime(p, FileTime.from(Instant.parse("2021-03-04T05:06:08Z").plusSeconds(2L * i)));
        }
        Path fat = dir.resolve("fat.img");
        Tools.ok("mkfs.fat", "-F", "16", "-n", "INLV", "-C", fat.toString(), "12288");
        Tools.ok(Map.of("TZ", "UTC", "MTOOLS_SKIP_CHECK", "1"), "mcopy", "-s", "-m", "-i", fat.toString(),
                src.resolve("Dir A").toString(), src.resolve("b").toString(), "::");
        Path image;
        String vg;
        try (LvmLab lab = LvmLab.create(dir, 48 << 20)) {
            vg = lab.vg;
            lab.lvm("pvcreate", lab.loop(0));
            lab.lvm("vgcreate", lab.vg, lab.loop(0));
            lab.lvm("lvcreate", "-an", "-Zn", "-L", "8M", "-n", "data", lab.vg);
            lab.lvm("lvcreate", "-an", "-Zn", "-L", "4M", "-n", "other", lab.vg);
            lab.lvm("lvextend", "-L", "+4M", lab.vg + "/data");
            assertEquals(2, lab.segments().stream().filter(s -> s.lv().equals("data")).count());
            assertEquals(12L << 20, lab.sizes().get("data"));
            lab.writeLv("data", Files.readAllBytes(fat));
            image = lab.image(0);
        }
        try (Device d = Device.open(image, false)) {
            List<Partition> parts = Lvm.withLogicalVolumes(d);
            Partition data = parts.stream().filter(p -> p.name().equals(vg + "/data")).findFirst().orElseThrow();
            try (Device lv = Lvm.open(d, data); FileSystem fs = DiskFileSystems.open(lv, Map.of())) {
                assertEquals("FAT16", DiskFileSystems.info(fs).type());
                assertEquals("INLV", DiskFileSystems.info(fs).label());
                assertEquals(tree(src), tree(fs.getPath("/")));
            }
            // the same through the env: by VG/LV, by number after the partitions, and found alone
            try (FileSystem fs = DiskFileSystems.open(d, Map.of("partition", vg + "/data"))) {
                assertEquals(tree(src), tree(fs.getPath("/")));
                assertEquals(vg + "/data", DiskFileSystems.partition(fs).name());
            }
            try (FileSystem fs = DiskFileSystems.open(d, Map.of("partition", data.number()))) {
                assertEquals("INLV", DiskFileSystems.info(fs).label());
            }
        }
        try (FileSystem fs = java.nio.file.FileSystems.newFileSystem(image, Map.of())) {
            assertEquals(tree(src), tree(fs.getPath("/")));
        }
    }

    /** Every file under {@code root}: its path from the root, its size, bytes' hash and mtime. */
    private static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = "/" + root.relativize(p).toString().replace(root.getFileSystem().getSeparator(), "/");
                m.put(name, Files.isDirectory(p) ? "dir" : Files.size(p) + " "
                        + Arrays.hashCode(Files.readAllBytes(p)) + " " + Files.getLastModifiedTime(p));
            }
        }
        m.remove("/");
        return m;
    }
}
