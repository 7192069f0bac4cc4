package org.vectorjce.fs.ntfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.testing.Tools;

/**
 * Volumes with other cluster sizes than the default: 512-byte clusters (records and index blocks
 * span clusters; compression units of 8 KiB; a file fragmented by writing it into a volume whose
 * free space is every other 16 KiB) and 64 KiB clusters (index blocks smaller than a cluster, so
 * index VCNs count 512-byte units). Each compared with what was written and with fls and icat.
 */
class NtfsClusterSizesTest {
    @TempDir
    Path tmp;

    private static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void put(Path m, Map<String, byte[]> files, String path, byte[] data) throws IOException {
        Files.createDirectories(m.resolve(path).getParent());
        Files.write(m.resolve(path), data);
        files.put(path, data);
    }

    private static void many(Path m, Map<String, byte[]> files, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            put(m, files, String.format("many/entry number %04d.dat", i), ("#" + i).getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void clusters512WithAFragmentedAndACompressedFile() throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        Path img = NtfsImages.make(tmp, "c512.img", 32L << 20, 512, "SMALL", "compression", m -> {
            many(m, files, 300);
            Tools.assumeTool("python3");
            Files.createDirectories(m.resolve("comp"));
            Tools.ok("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'system.ntfs_attrib_be', bytes([0,0,8,0]))",
                    m.resolve("comp").toString());
            put(m, files, "comp/zeros-and-text.txt", ("abcabcabc " + "x".repeat(50_000) + " tail").repeat(3)
                    .getBytes(StandardCharsets.US_ASCII));
            Files.createDirectories(m.resolve("fill"));
            int n = 0;
            try {
                for (;; n++) {
                    Files.write(m.resolve("fill/" + n), random(n, 16 << 10));
                }
            } catch (IOException full) {
                // the volume is full: now free every other file
            }
            Files.deleteIfExists(m.resolve("fill/" + n));
            for (int i = 0; i < n; i++) {
                if (i % 2 == 0) {
                    Files.delete(m.resolve("fill/" + i));
                } else {
                    files.put("fill/" + i, random(i, 16 << 10));
                }
            }
            put(m, files, "fragmented.bin", random(-1, 2 << 20));
        });
        try (Device d = Device.open(img, false); DiskFs fs = new NtfsDriver().open(d, FsOptions.defaults())) {
            check(img, fs, files);
            assertEquals(512, fs.info().clusterSize());
            Node f = fs.lookup(fs.root(), "fragmented.bin");
            StreamContent c = (StreamContent) fs.open(f, null);
            int jumps = 0;
            for (long pos = 512; pos < c.size(); pos += 512) {
                jumps += c.deviceOffset(pos) != c.deviceOffset(pos - 512) + 512 ? 1 : 0;
            }
            assertTrue(jumps > 4, "the file is not fragmented: the test does not test run lists");
            // filling the volume fragmented the MFT too: every record above was found through its runs
            NtfsFileSystem nfs = (NtfsFileSystem) fs;
            StreamContent mft = MftFile.open(nfs, 0).content(Attribute.DATA, "", nfs::readDevice);
            int mftJumps = 0;
            for (long pos = 512; pos < mft.size(); pos += 512) {
                mftJumps += mft.deviceOffset(pos) != mft.deviceOffset(pos - 512) + 512 ? 1 : 0;
            }
            assertTrue(mftJumps > 0, "the MFT is not fragmented");
            Node z = fs.lookup(fs.lookup(fs.root(), "comp"), "zeros-and-text.txt");
            assertTrue(MftFile.open((NtfsFileSystem) fs, z.fileKey()).first(Attribute.DATA, "").compressed());
        }
    }

    @Test
    void clusters64KiB() throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        Path img = NtfsImages.make(tmp, "c64k.img", 256L << 20, 65536, "BIG", "streams_interface=xattr", m -> {
            many(m, files, 500);
            put(m, files, "a.bin", random(1, 200_000));
            put(m, files, "sub/b.bin", random(2, 65537));
        });
        try (Device d = Device.open(img, false); DiskFs fs = new NtfsDriver().open(d, FsOptions.defaults())) {
            check(img, fs, files);
            assertEquals(65536, fs.info().clusterSize());
        }
    }

    /** The tree holds exactly the files written (and their folders), with their bytes; fls and icat agree. */
    private static void check(Path img, DiskFs fs, Map<String, byte[]> files) throws Exception {
        Map<String, Node> tree = NtfsImages.walk(fs);
        TreeSet<String> expected = new TreeSet<>();
        for (String f : files.keySet()) {
            for (int i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) {
                expected.add(f.substring(0, i));
            }
            expected.add(f);
        }
        assertEquals(expected, new TreeSet<>(tree.keySet()));
        for (var e : files.entrySet()) {
            assertArrayEquals(e.getValue(), NtfsImages.readAll(fs.open(tree.get(e.getKey()), null)), e.getKey());
        }
        Tools.assumeTool("fls", "icat");
        Map<String, Long> ours = new TreeMap<>();
        tree.forEach((k, v) -> ours.put(k, v.fileKey()));
        assertEquals(NtfsImages.fls(img), ours);
        for (String f : new String[] {"fragmented.bin", "comp/zeros-and-text.txt", "a.bin"}) {
            if (tree.containsKey(f)) {
                byte[] icat = Tools.ok("icat", img.toString(), Long.toString(tree.get(f).fileKey())).stdout();
                assertArrayEquals(icat, NtfsImages.readAll(fs.open(tree.get(f), null)), f);
            }
        }
    }
}
