package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * Damaged XFS images: a kernel-made image (a file, a 100-entry single-block folder, an extent
 * B+tree file) with one structure changed at the byte offset xfs_db gives for it, its CRC32C either
 * left stale (the driver must name the CRC) or recomputed here (so the damage itself must be caught).
 * Every case ends in a {@link CorruptFileSystemException} or a sanitized name, never a hang.
 */
class XfsHostileTest {
    @TempDir
    static Path dir;
    private static Path image;
    private static long victim;
    private static long folder;
    private static long frag;
    private static long leafDir;

    @BeforeAll
    static void build() throws Exception {
        XfsImages.assumeTools();
        image = XfsImages.mkfs(dir.resolve("base.img"), java.util.UUID.randomUUID().toString());
        long[] inos = new long[4];
        XfsImages.mounted(image, dir.resolve("mnt"), root -> {
            Files.writeString(root.resolve("victim"), "x".repeat(10000));
            Path d = Files.createDirectories(root.resolve("dir100"));
            for (int i = 0; i < 100; i++) {
                Files.writeString(d.resolve("entry-" + i), "e" + i);
            }
            Files.writeString(d.resolve("xy"), "dots");
            Path leaf = Files.createDirectories(root.resolve("leaf"));
            for (int i = 0; i < 300; i++) {
                Files.createFile(leaf.resolve("a-longer-name-for-a-leaf-form-directory-" + i));
            }
            inos[3] = ino(leaf);
            XfsImages.fragmented(root.resolve("frag"), new Random(7));
            inos[0] = ino(root.resolve("victim"));
            inos[1] = ino(d);
            inos[2] = ino(root.resolve("frag"));
        });
        victim = inos[0];
        folder = inos[1];
        frag = inos[2];
        leafDir = inos[3];
    }

    private static long ino(Path p) throws Exception {
        return (long) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    }

    /** A copy of the image (sparse) to damage. */
    private static Path copy(String name) throws Exception {
        Path c = dir.resolve(name);
        Files.deleteIfExists(c);
        Tools.ok("cp", "--sparse=always", image.toString(), c.toString());
        return c;
    }

    private static long fsbyte(String what) throws Exception {
        String out = XfsImages.db(image, "convert " + what + " fsbyte");
        return Long.decode(out.strip().split(" ")[0]);
    }

    private static byte[] get(Path img, long at, int len) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "r")) {
            byte[] b = new byte[len];
            f.seek(at);
            f.readFully(b);
            return b;
        }
    }

    private static void put(Path img, long at, byte[] b) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(at);
            f.write(b);
        }
    }

    /** Recomputes a little-endian CRC32C at {@code crcAt} over {@code b}, as xfs_update_cksum does. */
    private static void fixCrc(byte[] b, int crcAt) {
        for (int i = 0; i < 4; i++) {
            b[crcAt + i] = 0;
        }
        CRC32C c = new CRC32C();
        c.update(b);
        long v = c.getValue();
        for (int i = 0; i < 4; i++) {
            b[crcAt + i] = (byte) (v >>> 8 * i);
        }
    }

    private interface Action {
        void run(DiskFs fs) throws Exception;
    }

    private static void withFs(Path img, Action a) throws Exception {
        try (Device d = Device.open(img, false); DiskFs fs = new XfsDriver().open(d, FsOptions.defaults())) {
            a.run(fs);
        }
    }

    private static Node child(DiskFs fs, String name) throws Exception {
        Node n = fs.lookup(fs.root(), name);
        assertNotNull(n, name);
        return n;
    }

    private static void readAll(Content c) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        for (long pos = 0; pos < c.size(); pos += b.capacity()) {
            b.clear();
            c.read(b, pos);
        }
    }

    private static List<String> names(DiskFs fs, Node d) throws Exception {
        List<String> out = new ArrayList<>();
        try (NodeStream s = fs.list(d)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                out.add(n.name());
            }
        }
        return out;
    }

    @Test
    void undamagedCopyReads() throws Exception {
        withFs(copy("ok.img"), fs -> {
            assertEquals(101, names(fs, child(fs, "dir100")).size());
            readAll(fs.open(child(fs, "frag"), null));
        });
    }

    @Test
    void superblockCrcIsChecked() throws Exception {
        Path img = copy("sb.img");
        put(img, 110, new byte[] {'!'});
        try (Device d = Device.open(img, false)) {
            assertFalse(new XfsDriver().probe(d));
            var e = assertThrows(CorruptFileSystemException.class, () -> new XfsDriver().open(d, FsOptions.defaults()));
            assertTrue(e.getMessage().contains("superblock CRC"), e.getMessage());
        }
    }

    @Test
    void unknownIncompatibleFeatureIsRefusedByName() throws Exception {
        Path img = copy("feat.img");
        byte[] sb = get(img, 0, 512);
        sb[216 + 1] |= 0x10; // bit 20
        fixCrc(sb, 224);
        put(img, 0, sb);
        try (Device d = Device.open(img, false)) {
            var e = assertThrows(CorruptFileSystemException.class, () -> new XfsDriver().open(d, FsOptions.defaults()));
            assertTrue(e.getMessage().contains("0x100000"), e.getMessage());
        }
    }

    @Test
    void inodeCrcIsChecked() throws Exception {
        Path img = copy("inode.img");
        long at = fsbyte("inode " + victim);
        put(img, at + 63, new byte[] {0x55}); // di_size's low byte
        withFs(img, fs -> {
            var e = assertThrows(CorruptFileSystemException.class, () -> fs.lookup(fs.root(), "victim"));
            assertTrue(e.getMessage().contains("inode " + victim) && e.getMessage().contains("CRC"), e.getMessage());
            assertEquals(at, e.offset());
        });
    }

    @Test
    void directoryBlockCrcIsChecked() throws Exception {
        Path img = copy("dir.img");
        long at = dirBlock();
        put(img, at + 300, new byte[] {0x5a});
        withFs(img, fs -> {
            Node d = child(fs, "dir100");
            var e = assertThrows(CorruptFileSystemException.class, () -> names(fs, d));
            assertTrue(e.getMessage().contains("directory data block CRC"), e.getMessage());
        });
    }

    private static long dirBlock() throws Exception {
        String out = XfsImages.db(image, "inode " + folder, "bmap");
        // "data offset 0 startblock 24 (0/24) count 1 flag 0"
        String[] w = out.strip().split("\\s+");
        assertEquals("startblock", w[3], out);
        return fsbyte("fsblock " + w[4]);
    }

    @Test
    void leafBlockCrcIsCheckedByLookup() throws Exception {
        Path img = copy("leaf.img");
        // the leaf block is the one mapped at the leaf offset, 32 GiB = file block 8388608
        String out = XfsImages.db(image, "inode " + leafDir, "bmap");
        String fsb = null;
        for (String line : out.split("\n")) {
            String[] w = line.strip().split("\\s+");
            if (w.length > 4 && w[2].equals("8388608")) {
                fsb = w[4];
            }
        }
        assertNotNull(fsb, out);
        long at = fsbyte("fsblock " + fsb);
        put(img, at + 100, new byte[] {0x33});
        withFs(img, fs -> {
            Node d = child(fs, "leaf");
            var e = assertThrows(CorruptFileSystemException.class,
                    () -> fs.lookup(d, "a-longer-name-for-a-leaf-form-directory-7"));
            assertTrue(e.getMessage().contains("leaf or node block CRC"), e.getMessage());
            assertEquals(300, names(fs, d).size(), "a listing reads only the data blocks");
        });
    }

    @Test
    void slashAndDotDotNamesAreSanitizedOrSkipped() throws Exception {
        Path img = copy("names.img");
        long at = dirBlock();
        int bs = 4096;
        byte[] b = get(img, at, bs);
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int i = text.indexOf("entry-5\u0001"); // the name, then its ftype (a regular file)
        assertTrue(i > 0);
        b[i + 5] = '/';
        int j = text.indexOf("\u0002xy") + 1;
        assertTrue(j > 0);
        b[j] = '.';
        b[j + 1] = '.';
        fixCrc(b, 4);
        put(img, at, b);
        withFs(img, fs -> {
            List<String> n = names(fs, child(fs, "dir100"));
            assertTrue(n.contains("entry_5"), n.toString());
            assertFalse(n.contains(".."));
            assertFalse(n.stream().anyMatch(s -> s.contains("/")));
            assertEquals(100, n.size(), "the entry renamed \"..\" is skipped");
        });
    }

    @Test
    void extentPastTheFilesystemIsRefused() throws Exception {
        Path img = copy("extent.img");
        long at = fsbyte("inode " + victim);
        byte[] in = get(img, at, 512);
        in[176 + 8] = 0x7f; // the first extent's start block, high bits
        fixCrc(in, 100);
        put(img, at, in);
        withFs(img, fs -> {
            Node v = child(fs, "victim");
            var e = assertThrows(CorruptFileSystemException.class, () -> readAll(fs.open(v, null)));
            assertTrue(e.getMessage().contains("extent"), e.getMessage());
        });
    }

    @Test
    void bmbtLeafPointingToItselfEnds() throws Exception {
        Path img = copy("bmbt.img");
        long at = fsbyte("inode " + frag);
        byte[] in = get(img, at, 512);
        assertEquals(3, in[5], "frag has an extent B+tree");
        int recs = ((in[178] & 0xff) << 8) | (in[179] & 0xff);
        int forkSize = in[82] == 0 ? 512 - 176 : (in[82] & 0xff) * 8; // di_forkoff: an attribute fork follows
        int maxRecs = (forkSize - 4) / 16;
        long last = ByteBuffer.wrap(in, 176 + 4 + maxRecs * 8 + (recs - 1) * 8, 8).getLong();
        long leafAt = fsbyte("fsblock " + last);
        byte[] leaf = get(img, leafAt, 4096);
        ByteBuffer.wrap(leaf).putLong(16, last); // bb_rightsib: itself
        fixCrc(leaf, 64);
        put(img, leafAt, leaf);
        withFs(img, fs -> {
            Content c = fs.open(child(fs, "frag"), null);
            var e = assertThrows(CorruptFileSystemException.class, () -> readAll(c));
            assertTrue(e.getMessage().contains("B+tree"), e.getMessage());
        });
    }

    @Test
    void bmbtLevelMismatchIsRefused() throws Exception {
        Path img = copy("level.img");
        long at = fsbyte("inode " + frag);
        byte[] in = get(img, at, 512);
        in[177] = 2; // the root claims a level its children do not have
        fixCrc(in, 100);
        put(img, at, in);
        withFs(img, fs -> {
            Content c = fs.open(child(fs, "frag"), null);
            var e = assertThrows(CorruptFileSystemException.class, () -> readAll(c));
            assertTrue(e.getMessage().contains("level"), e.getMessage());
        });
    }
}
