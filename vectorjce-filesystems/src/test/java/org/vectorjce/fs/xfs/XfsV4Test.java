package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * A version 4 filesystem (no CRCs, 100-byte inode cores, "XD2B"/"XD2D" directory blocks, "BMAP"
 * blocks, no ftype), which this kernel no longer mounts: so it is filled by mkfs.xfs itself from a
 * protofile, and the protofile (names, owners, modes, link targets) and the source files' bytes are
 * the oracle.
 */
class XfsV4Test {
    @TempDir
    Path dir;

    @Test
    void protofileTreeReads() throws Exception {
        XfsImages.assumeTools();
        Random rnd = new Random(4);
        byte[] big = new byte[300_000];
        rnd.nextBytes(big);
        Path src = Files.write(dir.resolve("big.bin"), big);
        Path small = Files.writeString(dir.resolve("small.txt"), "small file\n");
        StringBuilder p = new StringBuilder("boot\n0 0\nd--755 0 0\n");
        p.append("big -u-750 1234 5678 ").append(src).append('\n');
        p.append("fast l--777 0 0 a/b/c\n");
        p.append("remote l--777 0 0 ").append("r".repeat(700)).append('\n');
        for (int n : new int[] {5, 80, 400}) {
            p.append("dir").append(n).append(" d--700 42 43\n");
            for (int i = 0; i < n; i++) {
                p.append("an-entry-with-a-long-name-").append(i).append(" ---640 7 8 ").append(small).append('\n');
            }
            p.append("$\n");
        }
        p.append("$\n");
        Path proto = Files.writeString(dir.resolve("proto"), p.toString());
        Path image = Tools.sparse(dir.resolve("v4.img"), 300L << 20);
        Tools.ok("mkfs.xfs", "-f", "-q", "-m", "crc=0", "-n", "ftype=0", "-L", "V4", "-p", proto.toString(),
                image.toString());
        try (Device d = Device.open(image, false); DiskFs fs = new XfsDriver().open(d, FsOptions.defaults())) {
            assertEquals("V4", fs.info().label());
            Node root = fs.root();
            Set<String> names = new TreeSet<>(list(fs, root));
            assertEquals(new TreeSet<>(List.of("big", "fast", "remote", "dir5", "dir80", "dir400")), names);
            Node b = fs.lookup(root, "big");
            assertEquals(big.length, b.size());
            assertEquals(04750, b.mode());
            assertEquals(1234, b.uid());
            assertEquals(5678, b.gid());
            assertArrayEquals(big, readAll(fs.open(b, null)));
            assertEquals("a/b/c", fs.readLink(fs.lookup(root, "fast")));
            assertEquals("r".repeat(700), fs.readLink(fs.lookup(root, "remote")));
            for (int n : new int[] {5, 80, 400}) {
                Node folder = fs.lookup(root, "dir" + n);
                assertEquals(0700, folder.mode());
                List<String> entries = list(fs, folder);
                assertEquals(n, entries.size());
                Node f = fs.lookup(folder, "an-entry-with-a-long-name-" + (n - 1));
                assertNotNull(f);
                assertEquals(Kind.FILE, f.kind());
                assertEquals(7, f.uid());
                assertEquals("small file\n", new String(readAll(fs.open(f, null))));
            }
        }
    }

    private static List<String> list(DiskFs fs, Node dir) throws Exception {
        List<String> out = new ArrayList<>();
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                out.add(n.name());
            }
        }
        return out;
    }

    private static byte[] readAll(Content c) throws Exception {
        ByteBuffer b = ByteBuffer.allocate((int) c.size());
        while (b.hasRemaining() && c.read(b, b.position()) > 0) {
            // until full
        }
        return b.array();
    }
}
