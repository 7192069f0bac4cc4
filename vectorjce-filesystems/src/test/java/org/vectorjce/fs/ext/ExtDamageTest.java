package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.testing.Tools;

/**
 * Damaged and hostile images, made by mke2fs and then patched at offsets debugfs reports (imap,
 * stat's extent tree blocks, blocks): checksum mismatches of a metadata_csum image (superblock,
 * group descriptor, inode, directory block, extent block) must be a
 * {@link CorruptFileSystemException} naming the structure and its offset; extents and block
 * pointers past the device, an extent node pointing at itself, rec_len 0 or past the block, a
 * planted {@code ".."} or {@code '/'}, a folder entry naming an ancestor must end in an exception or a
 * sanitized name, within seconds.
 */
class ExtDamageTest {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    Path tmp;

    private Path image(String type, String... options) throws Exception {
        Tools.assumeTool("mke2fs", "debugfs");
        Path src = tmp.resolve("src");
        if (!Files.exists(src)) {
            Files.createDirectories(src.resolve("dir/sub"));
            Files.write(src.resolve("dir/Case"), new byte[] {1});
            Files.write(src.resolve("dir/case"), new byte[] {2});
            Files.write(src.resolve("file"), ExtImages.bytes(5000, 1));
            Files.write(src.resolve("big"), ExtImages.bytes(3 << 20, 2));
            // ten separate data blocks: more extents than i_block holds, so a tree of depth 1
            try (FileChannel ch = FileChannel.open(src.resolve("frag"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                for (int i = 0; i < 10; i++) {
                    ch.write(ByteBuffer.wrap(ExtImages.bytes(4096, 10 + i)), i * 65536L);
                }
            }
        }
        return ExtImages.mkfs(tmp.resolve(type + String.join("", options).replace(',', '_') + ".img"), type,
                32L << 20, src, options);
    }

    /** The byte offset of {@code path}'s inode, from debugfs imap. */
    private static long inodeOffset(Path img, String path) throws Exception {
        String out = Tools.ok("debugfs", "-R", "imap " + path, img.toString()).out();
        Matcher m = Pattern.compile("located at block (\\d+), offset (0x[0-9a-f]+)").matcher(out);
        assertTrue(m.find(), out);
        return Long.parseLong(m.group(1)) * blockSize(img) + Long.decode(m.group(2));
    }

    private static int blockSize(Path img) throws Exception {
        Matcher m = Pattern.compile("Block size:\\s+(\\d+)").matcher(Tools.ok("dumpe2fs", "-h", img.toString()).out());
        assertTrue(m.find());
        return Integer.parseInt(m.group(1));
    }

    /** The first data block of {@code path}, from debugfs blocks. */
    private static long firstBlock(Path img, String path) throws Exception {
        return Long.parseLong(Tools.ok("debugfs", "-R", "blocks " + path, img.toString()).out().strip().split("\\s+")[0]);
    }

    private static long inodeNumber(Path img, String path) throws Exception {
        String out = Tools.ok("debugfs", "-R", "stat " + path, img.toString()).out();
        Matcher m = Pattern.compile("Inode: (\\d+)").matcher(out);
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    private static void patch(Path img, long at, byte... bytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(at);
            f.write(bytes);
        }
    }

    private static void flip(Path img, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x40);
        }
    }

    private static byte[] le32(long v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }

    /** Runs {@code body} on the opened image within the time limit. */
    private interface Body {
        void run(DiskFs fs) throws Exception;
    }

    private static void with(Path img, Body body) throws Exception {
        assertTimeoutPreemptively(LIMIT, () -> {
            try (Device d = Device.open(img, false); DiskFs fs = ExtImages.open(d)) {
                body.run(fs);
            }
        });
    }

    private static void readAll(DiskFs fs, Node n) throws IOException {
        Content c = fs.open(n, null);
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        for (long at = 0; at < c.size(); at += b.position()) {
            b.clear();
            if (c.read(b, at) < 0) {
                break;
            }
        }
    }

    private static CorruptFileSystemException corrupt(Path img, Body body) throws Exception {
        CorruptFileSystemException[] e = new CorruptFileSystemException[1];
        assertTimeoutPreemptively(LIMIT, () -> {
            e[0] = assertThrows(CorruptFileSystemException.class, () -> {
                try (Device d = Device.open(img, false); DiskFs fs = new ExtDriver().open(d,
                        org.vectorjce.fs.spi.FsOptions.defaults())) {
                    body.run(fs);
                }
            });
        });
        return e[0];
    }

    @Test
    void inodeChecksum() throws Exception {
        Path img = image("ext4");
        long at = inodeOffset(img, "/file");
        long number = inodeNumber(img, "/file");
        flip(img, at + 0x10);
        CorruptFileSystemException e = corrupt(img, fs -> fs.lookup(fs.root(), "file"));
        assertTrue(e.getMessage().contains("inode " + number + ":") && e.getMessage().contains("checksum"),
                e.getMessage());
        assertEquals(at, e.offset());
    }

    @Test
    void directoryBlockChecksum() throws Exception {
        Path img = image("ext4");
        long block = firstBlock(img, "/dir");
        int bs = blockSize(img);
        long number = inodeNumber(img, "/dir");
        flip(img, block * bs + 30);
        CorruptFileSystemException e = corrupt(img, fs -> fs.list(fs.lookup(fs.root(), "dir")).next());
        assertTrue(e.getMessage().contains("directory inode " + number + ":")
                && e.getMessage().contains("checksum"), e.getMessage());
        assertEquals(block * bs, e.offset());
    }

    @Test
    void extentBlockChecksum() throws Exception {
        Path img = image("ext4");
        String stat = Tools.ok("debugfs", "-R", "stat /frag", img.toString()).out();
        Matcher m = Pattern.compile("\\(ETB0\\):(\\d+)").matcher(stat);
        assertTrue(m.find(), "frag has an extent tree block: " + stat);
        long at = Long.parseLong(m.group(1)) * blockSize(img);
        flip(img, at + 12 + 12 * 3 + 4);
        CorruptFileSystemException e = corrupt(img, fs -> readAll(fs, fs.lookup(fs.root(), "frag")));
        assertTrue(e.getMessage().contains("extent block checksum"), e.getMessage());
        assertEquals(at, e.offset());
    }

    @Test
    void groupDescriptorAndSuperblockChecksums() throws Exception {
        Path img = image("ext4", "-b", "4096");
        Path copy = Files.copy(img, tmp.resolve("copy.img"));
        flip(img, 4096 + 0x10); // group 0's descriptor, bg_used_dirs_count
        CorruptFileSystemException e = corrupt(img, fs -> fs.root());
        assertTrue(e.getMessage().contains("group descriptor 0") && e.getMessage().contains("checksum"),
                e.getMessage());
        assertEquals(4096, e.offset());
        flip(copy, 1024 + 0x78); // the label
        try (Device d = Device.open(copy, false)) {
            assertTrue(new ExtDriver().probe(d), "still recognised as ext");
        }
        e = corrupt(copy, fs -> fs.root());
        assertTrue(e.getMessage().contains("superblock") && e.getMessage().contains("checksum"), e.getMessage());
        assertEquals(1024, e.offset());
    }

    @Test
    void extentPastTheDevice() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        patch(img, inodeOffset(img, "/file") + 0x28 + 12 + 8, le32(0x7ffffff0L));
        CorruptFileSystemException e = corrupt(img, fs -> readAll(fs, fs.lookup(fs.root(), "file")));
        assertTrue(e.getMessage().contains("extent"), e.getMessage());
    }

    @Test
    void extentNodePointingAtItself() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        String stat = Tools.ok("debugfs", "-R", "stat /frag", img.toString()).out();
        Matcher m = Pattern.compile("\\(ETB0\\):(\\d+)").matcher(stat);
        assertTrue(m.find(), stat);
        long block = Long.parseLong(m.group(1));
        long at = block * blockSize(img);
        // the leaf becomes an index node of depth 1 whose first entry points at itself
        patch(img, at + 6, (byte) 1, (byte) 0);
        patch(img, at + 12 + 4, le32(block));
        patch(img, at + 12 + 8, (byte) 0, (byte) 0);
        CorruptFileSystemException e = corrupt(img, fs -> readAll(fs, fs.lookup(fs.root(), "frag")));
        assertTrue(e.getMessage().contains("depth"), e.getMessage());
        assertEquals(at, e.offset());
    }

    @Test
    void indirectBlockPastTheDevice() throws Exception {
        Path img = image("ext3");
        patch(img, inodeOffset(img, "/big") + 0x28 + 4 * 12, le32(0xfffffff0L));
        CorruptFileSystemException e = corrupt(img, fs -> readAll(fs, fs.lookup(fs.root(), "big")));
        assertTrue(e.getMessage().contains("block map"), e.getMessage());
    }

    /** The byte offset in /dir's first block of the entry named {@code name}. */
    private static long entry(Path img, String name) throws Exception {
        long at = firstBlock(img, "/dir") * blockSize(img);
        byte[] b = new byte[blockSize(img)];
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "r")) {
            f.seek(at);
            f.readFully(b);
        }
        for (int i = 0; i + 8 + name.length() <= b.length; i += 4) {
            if ((b[i + 6] & 0xff) == name.length()
                    && new String(b, i + 8, name.length(), java.nio.charset.StandardCharsets.ISO_8859_1).equals(name)) {
                return at + i;
            }
        }
        throw new AssertionError(name + " not in /dir's first block");
    }

    @Test
    void recLenZeroOrPastTheBlock() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        Path copy = Files.copy(img, tmp.resolve("copy.img"));
        patch(img, entry(img, "Case") + 4, (byte) 0, (byte) 0);
        CorruptFileSystemException e = corrupt(img, fs -> ExtImages.ourLs(fs, fs.lookup(fs.root(), "dir")));
        assertTrue(e.getMessage().contains("rec_len 0"), e.getMessage());
        patch(copy, entry(copy, "Case") + 4, (byte) 0xfc, (byte) 0x7f);
        e = corrupt(copy, fs -> ExtImages.ourLs(fs, fs.lookup(fs.root(), "dir")));
        assertTrue(e.getMessage().contains("rec_len 32764"), e.getMessage());
    }

    @Test
    void plantedDotDotAndSlash() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        long caseUpper = entry(img, "Case");
        patch(img, caseUpper + 6, (byte) 2);
        patch(img, caseUpper + 8, (byte) '.', (byte) '.');
        patch(img, entry(img, "case") + 8, (byte) 'c', (byte) '/');
        with(img, fs -> {
            Map<String, String> ls = ExtImages.ourLs(fs, fs.lookup(fs.root(), "dir"));
            assertEquals(java.util.Set.of("c_se", "sub"), ls.keySet());
        });
    }

    @Test
    void folderEntryNamingAnAncestor() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        Path copy = Files.copy(img, tmp.resolve("copy.img"));
        patch(img, entry(img, "sub"), le32(2));
        CorruptFileSystemException e = corrupt(img, fs -> ExtImages.ourLs(fs, fs.lookup(fs.root(), "dir")));
        assertTrue(e.getMessage().contains("ancestors"), e.getMessage());
        patch(copy, entry(copy, "sub"), le32(inodeNumber(copy, "/dir")));
        e = corrupt(copy, fs -> ExtImages.ourLs(fs, fs.lookup(fs.root(), "dir")));
        assertTrue(e.getMessage().contains("ancestors"), e.getMessage());
    }

    @Test
    void unsupportedFeatureRefusedByName() throws Exception {
        Path img = image("ext4", "-O", "^metadata_csum");
        // s_feature_incompat |= dirdata (0x1000), compression (0x1), an unnamed bit 0x1000000
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(1024 + 0x60);
            byte[] b = new byte[4];
            f.readFully(b);
            b[0] |= 1;
            b[1] |= 0x10;
            b[3] |= 1;
            f.seek(1024 + 0x60);
            f.write(b);
        }
        try (Device d = Device.open(img, false)) {
            assertTrue(new ExtDriver().probe(d));
        }
        CorruptFileSystemException e = corrupt(img, fs -> fs.root());
        assertTrue(e.getMessage().contains("compression, dirdata, 0x1000000"), e.getMessage());
        try (Device d = Device.open(tmp.resolve("src/file"), false)) {
            assertFalse(new ExtDriver().probe(d), "a plain file is not ext");
        }
    }

    @Test
    void encryptedFolderRefusedOthersRead() throws Exception {
        Path img = image("ext4");
        Tools.ok("debugfs", "-w", "-R", "feature encrypt", img.toString());
        Tools.ok("debugfs", "-w", "-R", "sif /dir flags 0x80800", img.toString());
        assertTrue(Tools.ok("debugfs", "-R", "stat /dir", img.toString()).out().contains("Flags: 0x80800"));
        with(img, fs -> {
            Node dir = fs.lookup(fs.root(), "dir");
            assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.list(dir));
            readAll(fs, fs.lookup(fs.root(), "file"));
        });
    }
}
