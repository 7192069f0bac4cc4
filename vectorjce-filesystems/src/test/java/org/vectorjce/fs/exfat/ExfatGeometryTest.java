package org.vectorjce.fs.exfat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.device.Device;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * exFAT volumes of other shapes than {@link ExfatImageTest}'s: 512-byte clusters, 4 KiB sectors
 * (mkfs.exfat on a loop device of 4 KiB logical sectors) with 32 KiB clusters, and 1 MiB clusters;
 * each filled through exfat-fuse with files smaller and larger than a cluster and one written into
 * the holes of deleted files, then compared with exfat-fuse's own view (names, sizes, mtimes,
 * bytes) and dump.exfat (geometry, free space).
 */
class ExfatGeometryTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}-byte sectors, {1} clusters")
    @CsvSource({"512, 512", "4096, 32K", "512, 1M"})
    void readsAsExfatFuseWroteIt(int sectorSize, String cluster) throws Exception {
        ExfatImages.assumeTools();
        int clusterBytes = cluster.endsWith("M") ? Integer.parseInt(cluster.replace("M", "")) << 20
                : cluster.endsWith("K") ? Integer.parseInt(cluster.replace("K", "")) << 10 : Integer.parseInt(cluster);
        Map<String, byte[]> view = new TreeMap<>();
        Map<String, FileTime> times = new TreeMap<>();
        Path image = ExfatImages.formatAndFill(tmp.resolve("g.img"), 64 << 20, sectorSize, cluster, "GEO",
                "00c0ffee", mnt -> {
                    Files.createDirectories(mnt.resolve("d/e"));
                    Files.write(mnt.resolve("d/e/small"), ExfatImageTest.random(1, 1));
                    Files.write(mnt.resolve("d/two"), ExfatImageTest.random(2 * clusterBytes - 1, 2));
                    for (int i = 0; i < 6; i++) {
                        Files.write(mnt.resolve("p" + i), ExfatImageTest.random(clusterBytes, 10 + i));
                    }
                    for (int i = 1; i < 6; i += 2) {
                        Files.delete(mnt.resolve("p" + i));
                    }
                    Files.write(mnt.resolve("big"), ExfatImageTest.random(5 * clusterBytes + 77, 3));
                    try (Stream<Path> all = Files.walk(mnt)) {
                        for (Path p : all.toList()) {
                            if (!p.equals(mnt)) {
                                String key = mnt.relativize(p).toString();
                                view.put(key, Files.isDirectory(p) ? null : Files.readAllBytes(p));
                                times.put(key, Files.getLastModifiedTime(p));
                            }
                        }
                    }
                });
        Map<String, String> dump = ExfatImages.dump(image);
        assertEquals(Integer.numberOfTrailingZeros(sectorSize), ExfatImages.dumpNumber(dump, "Sector Size Bits"));
        try (Device device = Device.open(image, false); DiskFs fs = Drivers.open(device, FsOptions.defaults())) {
            FsInfo info = fs.info();
            assertEquals(clusterBytes, info.clusterSize());
            assertEquals(ExfatImages.dumpNumber(dump, "Free Clusters") * clusterBytes, info.freeBytes());
            assertEquals(ExfatImages.dumpNumber(dump, "Total Clusters") * clusterBytes, info.totalBytes());
            assertEquals("00C0-FFEE", info.serial());
            assertEquals("GEO", info.label());
            Map<String, Node> ours = new TreeMap<>();
            walk(fs, fs.root(), "", ours);
            assertEquals(view.keySet(), ours.keySet());
            for (var e : ours.entrySet()) {
                Node n = e.getValue();
                assertEquals(times.get(e.getKey()), n.modified(), e.getKey());
                byte[] want = view.get(e.getKey());
                assertEquals(want == null, n.isDirectory(), e.getKey());
                if (want != null) {
                    assertArrayEquals(want, ExfatImageTest.readAll(fs.open(n, null), 3 * clusterBytes / 2 + 5),
                            e.getKey());
                }
            }
            assertFalse(((ExfatNode) ours.get("big")).contiguous, "big is a FAT chain in pieces");
        }
        Tools.ok("fsck.exfat", "-n", image.toString());
    }

    private static void walk(DiskFs fs, Node dir, String prefix, Map<String, Node> out) throws Exception {
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                out.put(prefix + n.name(), n);
                if (n.isDirectory()) {
                    walk(fs, n, prefix + n.name() + "/", out);
                }
            }
        }
    }
}
