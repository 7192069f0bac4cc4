package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;

/**
 * Other geometries mkfs.xfs makes, each filled through a loop mount and compared whole with what the
 * kernel showed: 1 KiB blocks with 8 KiB directory blocks (directory blocks across several
 * filesystem blocks, a remote link target across two blocks), 1 KiB inodes, and timestamps without
 * bigtime.
 */
class XfsGeometryTest {
    @TempDir
    Path dir;

    /** mkfs.xfs -n version=ci (ASCII case-insensitive names), filled from a protofile. */
    @Test
    void asciiCiComparesNamesIgnoringAsciiCase() throws Exception {
        XfsImages.assumeTools();
        Path src = Files.writeString(dir.resolve("src"), "content");
        Path proto = Files.writeString(dir.resolve("proto"), "boot\n0 0\nd--755 0 0\nMixedCase ---644 0 0 " + src
                + "\nÜber ---644 0 0 " + src + "\n$\n");
        Path image = org.vectorjce.fs.testing.Tools.sparse(dir.resolve("ci.img"), 300L << 20);
        org.vectorjce.fs.testing.Tools.ok("mkfs.xfs", "-f", "-q", "-n", "version=ci", "-p", proto.toString(),
                image.toString());
        try (Device d = Device.open(image, false); DiskFs fs = new XfsDriver().open(d, FsOptions.defaults())) {
            assertFalse(fs.caseSensitive());
            assertNotNull(fs.lookup(fs.root(), "mixedCASE"));
            assertEquals("MixedCase", fs.lookup(fs.root(), "mixedcase").name());
            assertNotNull(fs.lookup(fs.root(), "Über"));
            assertNull(fs.lookup(fs.root(), "über"), "only ASCII letters fold");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-b size=1024 -n size=8192", "-i size=1024 -m bigtime=0,finobt=0,reflink=0",
        "-n size=65536 -i size=2048"})
    void treeAsTheKernelShowedIt(String options) throws Exception {
        XfsImages.assumeTools();
        Path image = XfsImages.mkfs(dir.resolve("g.img"), java.util.UUID.randomUUID().toString(),
                options.split(" "));
        @SuppressWarnings("unchecked")
        Map<String, XfsImages.Seen>[] seen = new Map[1];
        XfsImages.mounted(image, dir.resolve("mnt"), root -> {
            Files.createDirectories(root.resolve("a/b"));
            Files.writeString(root.resolve("a/b/f"), "deep");
            for (int n : new int[] {5, 100, 600, 3000}) {
                Path d = Files.createDirectories(root.resolve("dir" + n));
                for (int i = 0; i < n; i++) {
                    Files.writeString(d.resolve("some-file-name-" + i), Integer.toString(i));
                }
            }
            XfsImages.fragmented(root.resolve("fragmented"), new Random(3));
            Files.createSymbolicLink(root.resolve("remote-link"), Path.of("t".repeat(1000)));
            Files.createSymbolicLink(root.resolve("fast-link"), Path.of("a/b"));
            seen[0] = XfsImages.record(root);
        });
        String sb = XfsImages.db(image, "sb 0", "print blocksize");
        try (Device d = Device.open(image, false); DiskFs fs = new XfsDriver().open(d, FsOptions.defaults())) {
            assertEquals(XfsImages.dbNumber(sb, "blocksize"), fs.info().clusterSize());
            XfsTrees.assertSame(seen[0], XfsTrees.read(fs));
            XfsTrees.assertLookups(fs, seen[0]);
        }
    }
}
