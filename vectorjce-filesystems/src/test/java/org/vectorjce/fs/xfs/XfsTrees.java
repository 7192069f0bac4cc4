package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/** The tree the driver reads, in the form {@link XfsImages#record} gives the kernel's, and their comparison. */
final class XfsTrees {
    private XfsTrees() {
    }

    /** Everything under the root, by path. */
    static Map<String, XfsImages.Seen> read(DiskFs fs) throws Exception {
        Map<String, XfsImages.Seen> read = new TreeMap<>();
        walk(fs, fs.root(), "", read);
        return read;
    }

    /** Every path of {@code expected}, looked up name by name from the root, is its inode. */
    static void assertLookups(DiskFs fs, Map<String, XfsImages.Seen> expected) throws Exception {
        for (Map.Entry<String, XfsImages.Seen> e : expected.entrySet()) {
            Node n = fs.root();
            if (!e.getKey().isEmpty()) {
                for (String part : e.getKey().split("/")) {
                    n = fs.lookup(n, part);
                    org.junit.jupiter.api.Assertions.assertNotNull(n, e.getKey());
                }
            }
            assertEquals(e.getValue().ino(), n.fileKey(), e.getKey());
        }
    }

    /** The same paths, and for each the same facts. */
    static void assertSame(Map<String, XfsImages.Seen> expected, Map<String, XfsImages.Seen> read) {
        assertEquals(expected.keySet(), read.keySet(), "the listing");
        for (Map.Entry<String, XfsImages.Seen> e : expected.entrySet()) {
            assertEquals(e.getValue(), read.get(e.getKey()), e.getKey());
        }
    }

    private static void walk(DiskFs fs, Node dir, String path, Map<String, XfsImages.Seen> out) throws Exception {
        out.put(path, seen(fs, dir, path));
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                String p = path.isEmpty() ? n.name() : path + "/" + n.name();
                if (n.isDirectory()) {
                    walk(fs, n, p, out);
                } else {
                    out.put(p, seen(fs, n, p));
                }
            }
        }
    }

    static XfsImages.Seen seen(DiskFs fs, Node n, String path) throws Exception {
        String kind = n.kind().name();
        return new XfsImages.Seen(kind, n.size(), n.fileKey(), n.uid(), n.gid(), n.mode(), n.links(), n.modified(),
                n.changed(),
                n.kind() == Kind.FILE ? sha256(fs.open(n, null), path) : null,
                n.kind() == Kind.SYMLINK ? fs.readLink(n) : null);
    }

    /**
     * The SHA-256 of what is read, 1 MiB a call at consecutive offsets (many reads span extents), of
     * the same ranges {@link XfsImages#sha256} hashes.
     */
    static String sha256(Content c, String path) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        long size = c.size();
        long[][] ranges = size > XfsImages.WHOLE ? new long[][] {{0, XfsImages.SAMPLE},
            {size - XfsImages.SAMPLE, size}} : new long[][] {{0, size}};
        // no larger than the file: a MiB zeroed for each of thousands of small files is most of the test's time
        ByteBuffer b = ByteBuffer.allocate((int) Math.max(1, Math.min(XfsImages.SAMPLE, size)));
        for (long[] r : ranges) {
            long pos = r[0];
            while (pos < r[1]) {
                b.clear().limit((int) Math.min(XfsImages.SAMPLE, r[1] - pos));
                int n = c.read(b, pos);
                assertTrue(n > 0, path + ": read at " + pos + " returned " + n);
                b.flip();
                md.update(b);
                pos += n;
            }
        }
        assertEquals(-1, c.read(ByteBuffer.allocate(1), size), path);
        return HexFormat.of().formatHex(md.digest());
    }

}
