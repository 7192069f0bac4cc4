package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;

/**
 * The XFS driver against the kernel: an image made by mkfs.xfs (v5: CRCs, ftype, bigtime, sparse
 * inodes, reflink) is filled through a loop mount with every directory form (short form, block,
 * leaf, node or B+tree), an extent B+tree file, holes, preallocated extents, a file past 4 GiB,
 * both kinds of symlink, hard links, non-ASCII names, owners and modes; the whole tree the kernel
 * showed (names, kinds, sizes, inode numbers as {@code ls -i} gives them, uid, gid, mode, mtime to
 * the nanosecond, SHA-256 of the bytes, link targets) must be what the driver reads.
 */
class XfsImageTest {
    private static final String UUID = java.util.UUID.randomUUID().toString();
    @TempDir
    static Path dir;
    private static Path image;
    private static Map<String, XfsImages.Seen> seen;
    private static Device device;
    private static DiskFs fs;

    @BeforeAll
    static void build() throws Exception {
        XfsImages.assumeTools();
        image = XfsImages.mkfs(dir.resolve("xfs.img"), UUID);
        Map<String, XfsImages.Seen>[] out = new Map[1];
        XfsImages.mounted(image, dir.resolve("mnt"), root -> {
            XfsImages.fill(root);
            out[0] = XfsImages.record(root);
        });
        seen = out[0];
        device = Device.open(image, false);
        fs = Drivers.open(device, FsOptions.defaults());
    }

    @AfterAll
    static void close() throws Exception {
        if (fs != null) {
            fs.close();
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void probedAsXfs() throws Exception {
        assertTrue(new XfsDriver().probe(device));
        assertTrue(fs instanceof XfsFileSystem, "Drivers.ALL finds the XFS driver");
        assertTrue(fs.caseSensitive());
    }

    @Test
    void infoMatchesXfsDb() throws Exception {
        String sb = XfsImages.db(image, "sb 0", "print blocksize dblocks fdblocks");
        long bs = XfsImages.dbNumber(sb, "blocksize");
        FsInfo i = fs.info();
        assertEquals("XFS", i.type());
        assertEquals(XfsImages.LABEL, i.label());
        assertEquals(UUID, i.serial());
        assertEquals(bs, i.clusterSize());
        assertEquals(XfsImages.dbNumber(sb, "dblocks") * bs, i.totalBytes());
        assertEquals(XfsImages.dbNumber(sb, "fdblocks") * bs, i.freeBytes());
    }

    @Test
    void wholeTreeAsTheKernelShowedIt() throws Exception {
        XfsTrees.assertSame(seen, XfsTrees.read(fs));
    }

    @Test
    void directoryFormsAndBmbtAreCovered() throws Exception {
        assertEquals(1, format("small5"), "short form");
        assertEquals(2, format("block100"), "extents");
        assertEquals(3, format("fragmented"), "an extent B+tree");
        // 300 long names: leaf form (several data blocks and a leaf block, extents in the inode)
        assertEquals(2, format("leaf300"));
        assertTrue(XfsImages.dbNumber(XfsImages.db(image, "inode " + seen.get("leaf300").ino(), "print core.size"),
                "core.size") > 4096, "more than one data block");
        assertTrue(format("leaf2000") >= 2);
        // 20000 short names: a B+tree directory (its data fork's extents in a bmbt)
        assertEquals(3, format("node20000"), "a B+tree directory");
    }

    private static long format(String name) throws Exception {
        long ino = seen.get(name).ino();
        return XfsImages.dbNumber(XfsImages.db(image, "inode " + ino, "print core.format"), "core.format");
    }

    @Test
    void lookupFindsEveryFormAndNothingElse() throws Exception {
        Node root = fs.root();
        for (String path : new String[] {"small5/s3", "block100/entry-77",
            "leaf2000/a-rather-longer-file-name-number-1999.dat",
            "node20000/n19999", "node20000/n0", "Grüße/日本語.txt", "a/b/c/d/e/deep.txt", "hard-link"}) {
            Node n = root;
            for (String part : path.split("/")) {
                n = fs.lookup(n, part);
                assertNotNull(n, path);
            }
            assertEquals(seen.get(path).ino(), n.fileKey(), path);
        }
        assertNull(fs.lookup(root, "no-such-name"));
        assertNull(fs.lookup(fs.lookup(root, "node20000"), "n20000"));
        assertNull(fs.lookup(root, ".."));
        assertNull(fs.lookup(root, "SMALL5"), "case-sensitive");
    }

    /** Four threads reading one Content at interleaved offsets see what one thread sees. */
    @Test
    void concurrentReadsAgree() throws Exception {
        Content c = fs.open(fs.lookup(fs.root(), "fragmented"), null);
        byte[] whole = new byte[(int) c.size()];
        ByteBuffer all = ByteBuffer.wrap(whole);
        while (all.hasRemaining() && c.read(all, all.position()) > 0) {
            // until full
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<?>> jobs = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                jobs.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < 300; i++) {
                        int pos = r.nextInt(whole.length);
                        ByteBuffer b = ByteBuffer.allocate(Math.min(1 + r.nextInt(20000), whole.length - pos));
                        c.read(b, pos);
                        assertEquals(ByteBuffer.wrap(whole, pos, b.position()), b.flip());
                    }
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

    /** Every path the kernel showed, looked up name by name (through the hash index), is its inode. */
    @Test
    void everyPathLooksUpToItsInode() throws Exception {
        XfsTrees.assertLookups(fs, seen);
    }

    @Test
    void readsAtAnyOffset() throws Exception {
        Node huge = fs.lookup(fs.root(), "huge");
        Content c = fs.open(huge, null);
        assertTrue(c.size() > 5L << 30);
        ByteBuffer b = ByteBuffer.allocate(10);
        assertEquals(10, c.read(b, (5L << 30) + 12340));
        byte[] got = b.array();
        for (int i = 0; i < 5; i++) {
            assertEquals(0, got[i], "the hole before the data");
        }
        assertEquals(-1, c.read(ByteBuffer.allocate(1), c.size()));
        assertEquals(0, c.read(ByteBuffer.allocate(0), 0));
    }
}
