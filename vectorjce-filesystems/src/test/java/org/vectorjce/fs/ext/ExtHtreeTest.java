package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * Hashed (htree) folders: a folder of 3000 files (some names with bytes over 0x7f) made by
 * {@code mke2fs -d} and indexed by {@code e2fsck -fD}, with the half-MD4, TEA and legacy hashes
 * ({@code s_def_hash_version} set by debugfs before e2fsck), each also rebuilt with the unsigned-char
 * variant ({@code s_flags} 2), with and without metadata_csum, 1 KiB and 4 KiB blocks: debugfs
 * confirms the index; the listing is compared with debugfs's; every name is found through the
 * index alone ({@link Htree}), to the inode debugfs gives.
 */
class ExtHtreeTest {
    @TempDir
    Path tmp;

    @Test
    void htreeFolder() throws Exception {
        Tools.assumeTool("mke2fs", "debugfs", "e2fsck");
        Path src = tmp.resolve("src");
        ExtImages.many(src.resolve("many"), 3000);
        // mke2fs -d of 3000 files is the slow part: each image is re-indexed for each hash instead
        Path csum1k = ExtImages.mkfs(tmp.resolve("htree-1k.img"), "ext4", 64L << 20, src, "-b", "1024", "-O",
                "metadata_csum");
        Path plain4k = ExtImages.mkfs(tmp.resolve("htree-4k.img"), "ext4", 64L << 20, src, "-b", "4096", "-O",
                "^metadata_csum");
        String[][] variants = {{csum1k.toString(), "half_md4"}, {csum1k.toString(), "tea"},
            {plain4k.toString(), "legacy"}, {plain4k.toString(), "half_md4"}};
        for (String[] v : variants) {
            Path img = Path.of(v[0]);
            // s_def_hash_version: the hash e2fsck -fD builds the index with
            Tools.ok("debugfs", "-w", "-R", "ssv def_hash_version " + v[1], img.toString());
            Tools.ok("debugfs", "-w", "-R", "ssv flags 1", img.toString());
            htree(img, false);
            String info = Tools.ok("debugfs", "-R", "htree /many", img.toString()).out();
            int version = v[1].equals("legacy") ? 0 : v[1].equals("half_md4") ? 1 : 2;
            assertTrue(info.contains("Hash Version: " + version), info.substring(0, 200));
            // the unsigned-char variant of the hash, as a filesystem made where char is unsigned
            Tools.ok("debugfs", "-w", "-R", "ssv flags 2", img.toString());
            htree(img, true);
        }
    }

    /** Indexes /many with e2fsck -fD, then lists it (against debugfs) and looks every name up by its hash. */
    private static void htree(Path img, boolean unsigned) throws Exception {
        Tools.Run fsck = Tools.run("e2fsck", "-fDy", img.toString());
        assertTrue(fsck.exit() <= 1, "e2fsck -fD exited " + fsck.exit() + ": " + fsck.stderr());
        String htree = Tools.ok("debugfs", "-R", "htree /many", img.toString()).out();
        assertTrue(htree.contains("Number of entries"), "debugfs sees an htree: " + htree.substring(0,
                Math.min(300, htree.length())));
        try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
            ExtFileSystem e = (ExtFileSystem) fs;
            assertEquals(unsigned ? 2 : 1, e.superblock().flags & 3);
            ExtNode many = (ExtNode) fs.lookup(fs.root(), "many");
            assertTrue(many.inode.has(Inode.INDEX_FL), "the folder is indexed");
            Map<String, String> ls = ExtImages.debugfsLs(img, "/many");
            assertEquals(ls, ExtImages.ourLs(fs, many));
            int count = 0;
            try (NodeStream s = fs.list(many)) {
                for (Node c = s.next(); c != null; c = s.next()) {
                    count++;
                }
            }
            assertEquals(3000, count);
            // every name through the index (no linear fallback), to the right inode
            for (int i = 0; i < 3000; i++) {
                String name = ExtImages.manyName(i);
                DirReader.Entry hit = Htree.lookup(e, many, name);
                assertNotNull(hit, name + " found by its hash");
                assertEquals(ls.get(name).split(" ")[0], Long.toString(hit.inode()), name);
            }
            assertEquals(null, Htree.lookup(e, many, "file-with-a-longish-name-3000"));
            Node f = fs.lookup(many, ExtImages.manyName(2999));
            byte[] b = new byte[5];
            int r = fs.open(f, null).read(java.nio.ByteBuffer.wrap(b), 0);
            assertEquals("#2999", new String(b, 0, r, java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(null, fs.lookup(many, "file-with-a-longish-name-3000"));
        }
    }

}
