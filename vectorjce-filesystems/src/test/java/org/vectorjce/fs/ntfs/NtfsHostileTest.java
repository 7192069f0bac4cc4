package org.vectorjce.fs.ntfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;

/**
 * A real volume (mkntfs, ntfs-3g) with single structures damaged on purpose: a torn fix-up, a run
 * list past the volume, an index block that is its own child, names holding "/" and "..". Each
 * ends in a {@link CorruptFileSystemException} or a sanitized name, quickly.
 */
class NtfsHostileTest {
    @TempDir
    static Path tmp;
    static Path img;
    static final int VICTIM = 16 * 4096;

    @BeforeAll
    static void build() throws Exception {
        img = NtfsImages.make(tmp, "hostile.img", 32L << 20, 4096, "HOSTILE", "streams_interface=xattr", m -> {
            Files.createDirectories(m.resolve("many"));
            for (int i = 0; i < 300; i++) {
                Files.writeString(m.resolve(String.format("many/name %04d", i)), "x");
            }
            Files.write(m.resolve("victim.bin"), victim());
            Files.writeString(m.resolve("abcd"), "dots");
            Files.writeString(m.resolve("wxyz"), "slash");
            Files.writeString(m.resolve("qq"), "dotdot");
        });
    }

    private static byte[] victim() {
        byte[] b = new byte[VICTIM];
        new java.util.Random(42).nextBytes(b);
        return b;
    }

    private Path copy(String name) throws IOException {
        return Files.copy(img, tmp.resolve(name));
    }

    /** Opens {@code image} and runs {@code body} on it, in 10 s at most. */
    private static void with(Path image, Body body) {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try (Device d = Device.open(image, false); DiskFs fs = new NtfsDriver().open(d, FsOptions.defaults())) {
                body.run((NtfsFileSystem) fs);
            }
        });
    }

    interface Body {
        void run(NtfsFileSystem fs) throws Exception;
    }

    private static long find(NtfsFileSystem fs, String... path) throws IOException {
        Node n = fs.root();
        for (String p : path) {
            n = fs.lookup(n, p);
        }
        return n.fileKey();
    }

    private static byte[] read(Path image, long at, int len) throws IOException {
        try (FileChannel ch = FileChannel.open(image)) {
            ByteBuffer b = ByteBuffer.allocate(len);
            ch.read(b, at);
            return b.array();
        }
    }

    private static void write(Path image, long at, byte[] b) throws IOException {
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(b), at);
        }
    }

    private static int u16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    private static int u32(byte[] b, int o) {
        return u16(b, o) | u16(b, o + 2) << 16;
    }

    private static void put32(byte[] b, int o, long v) {
        for (int i = 0; i < 4; i++) {
            b[o + i] = (byte) (v >>> 8 * i);
        }
    }

    /** Puts a multi-sector structure's saved words back (what the reader does), for editing. */
    private static void unfix(byte[] b) {
        int usa = u16(b, 4);
        for (int i = 1; i < u16(b, 6); i++) {
            b[i * 512 - 2] = b[usa + 2 * i];
            b[i * 512 - 1] = b[usa + 2 * i + 1];
        }
    }

    /** Stores the words at the stride ends again and the update sequence number in their place. */
    private static void refix(byte[] b) {
        int usa = u16(b, 4);
        for (int i = 1; i < u16(b, 6); i++) {
            b[usa + 2 * i] = b[i * 512 - 2];
            b[usa + 2 * i + 1] = b[i * 512 - 1];
            b[i * 512 - 2] = b[usa];
            b[i * 512 - 1] = b[usa + 1];
        }
    }

    @Test
    void tornFixupOfTheRoot() throws Exception {
        Path bad = copy("fixup.img");
        long[] at = new long[1];
        with(img, fs -> at[0] = fs.recordOffset(NtfsFileSystem.ROOT));
        byte[] w = read(bad, at[0] + 510, 2);
        write(bad, at[0] + 510, new byte[] {(byte) (w[0] ^ 0x55), w[1]});
        try (Device d = Device.open(bad, false)) {
            CorruptFileSystemException e = assertThrows(CorruptFileSystemException.class,
                    () -> new NtfsDriver().open(d, FsOptions.defaults()));
            assertTrue(e.getMessage().contains("MFT record 5") && e.getMessage().contains("update sequence"),
                    e.getMessage());
            assertEquals(at[0] + 510, e.offset());
        }
    }

    @Test
    void runListPastTheVolume() throws Exception {
        Path bad = copy("runs.img");
        editVictimData(bad, (r, a) -> {
            // 16 clusters at LCN 0x40000000, far past the 8192-cluster volume
            byte[] run = {0x41, 0x10, 0, 0, 0, 0x40, 0};
            assertTrue(u32(r, a + 4) - u16(r, a + 32) >= run.length);
            System.arraycopy(run, 0, r, a + u16(r, a + 32), run.length);
        });
        with(bad, fs -> {
            Node v = fs.lookup(fs.root(), "victim.bin");
            assertEquals(VICTIM, v.size());
            CorruptFileSystemException e = assertThrows(CorruptFileSystemException.class, () -> fs.open(v, null));
            assertTrue(e.getMessage().contains("passes the volume"), e.getMessage());
        });
    }

    /** Rewrites victim.bin's record with {@code edit} applied to its non-resident $DATA header at the given offset. */
    private static void editVictimData(Path bad, java.util.function.BiConsumer<byte[], Integer> edit) throws Exception {
        long[] at = new long[1];
        with(img, fs -> at[0] = fs.recordOffset(find(fs, "victim.bin")));
        byte[] r = read(bad, at[0], 1024);
        unfix(r);
        boolean done = false;
        for (int a = u16(r, 20); u32(r, a) != -1; a += u32(r, a + 4)) {
            if (u32(r, a) == 0x80 && r[a + 8] != 0) {
                edit.accept(r, a);
                done = true;
            }
        }
        assertTrue(done, "no non-resident $DATA found");
        refix(r);
        write(bad, at[0], r);
    }

    @Test
    void bytesPastTheInitializedSizeReadAsZeros() throws Exception {
        Path bad = copy("init.img");
        // initialized size (at 56 of the attribute) cut to 5000 of the 65536 bytes
        editVictimData(bad, (r, a) -> {
            put32(r, a + 56, 5000);
            put32(r, a + 60, 0);
        });
        with(bad, fs -> {
            byte[] got = NtfsImages.readAll(fs.open(fs.lookup(fs.root(), "victim.bin"), null));
            byte[] want = new byte[VICTIM];
            System.arraycopy(victim(), 0, want, 0, 5000);
            org.junit.jupiter.api.Assertions.assertArrayEquals(want, got);
        });
    }

    @Test
    void indexBlockThatIsItsOwnChild() throws Exception {
        Path bad = copy("loop.img");
        long[] blocks = new long[2];
        with(img, fs -> {
            MftFile many = MftFile.open(fs, find(fs, "many"));
            StreamContent alloc = many.content(Attribute.INDEX_ALLOCATION, "$I30", fs::readDevice);
            blocks[0] = alloc.size() / 4096;
            blocks[1] = alloc.deviceOffset(0);
        });
        assertTrue(blocks[0] >= 2, "300 names did not make a two-level index");
        // block VCN 0 is a leaf: its last entry becomes an entry with a child, the child being itself
        byte[] b = read(bad, blocks[1], 4096);
        unfix(b);
        int h = 24;
        int p = h + u32(b, h);
        while ((u16(b, p + 12) & 2) == 0) {
            assertEquals(0, u16(b, p + 12) & 1, "block 0 is not a leaf");
            p += u16(b, p + 8);
        }
        assertEquals(16, u16(b, p + 8));
        assertTrue(u32(b, h + 4) + 8 <= u32(b, h + 8), "no room in the block");
        b[p + 8] = 24;
        b[p + 12] = 3;
        for (int i = 0; i < 8; i++) {
            b[p + 16 + i] = 0;
        }
        put32(b, h + 4, u32(b, h + 4) + 8);
        b[h + 12] = 1;
        refix(b);
        write(bad, blocks[1], b);
        with(bad, fs -> {
            Node many = fs.lookup(fs.root(), "many");
            CorruptFileSystemException e = assertThrows(CorruptFileSystemException.class,
                    () -> NtfsImages.walk(fs));
            assertTrue(e.getMessage().contains("own ancestor"), e.getMessage());
            // a lookup that descends into the block keeps descending into it: bounded too
            for (int i = 0; i < 300; i++) {
                try {
                    fs.lookup(many, String.format("name %04da", i));
                } catch (CorruptFileSystemException expected) {
                    // the loop was caught
                }
            }
        });
    }

    @Test
    void namesWithSlashAndDots() throws Exception {
        Path bad = copy("names.img");
        int patched = 0;
        patched += replaceName(bad, "abcd", "../d");
        patched += replaceName(bad, "wxyz", "w/yz");
        patched += replaceName(bad, "qq", "..");
        assertTrue(patched >= 3, "names not found in the image");
        with(bad, fs -> {
            TreeSet<String> names = new TreeSet<>();
            for (Map.Entry<String, Node> e : NtfsImages.walk(fs).entrySet()) {
                names.add(e.getKey());
                assertFalse(e.getValue().name().contains("/"), e.getKey());
                assertFalse(e.getValue().name().equals("..") || e.getValue().name().equals("."), e.getKey());
            }
            assertTrue(names.contains(".._d") && names.contains("w_yz"), names.toString());
        });
    }

    /** Replaces every UTF-16LE occurrence of {@code from} (not across a fix-up word) with {@code to}. */
    private static int replaceName(Path image, String from, String to) throws IOException {
        byte[] f = from.getBytes(StandardCharsets.UTF_16LE);
        byte[] t = to.getBytes(StandardCharsets.UTF_16LE);
        byte[] all = Files.readAllBytes(image);
        int n = 0;
        for (int i = 0; i + f.length <= all.length; i += 2) {
            if (all[i] == f[0] && java.util.Arrays.equals(all, i, i + f.length, f, 0, f.length)
                    && (i % 512) + f.length <= 510 && all[i - 2] == f.length / 2) {
                System.arraycopy(t, 0, all, i, t.length);
                n++;
            }
        }
        Files.write(image, all);
        return n;
    }
}
