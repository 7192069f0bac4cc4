package org.vectorjce.fs.ntfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
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
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * One volume made by mkntfs (4 KiB clusters) and filled through ntfs-3g: its whole tree, every
 * file's bytes, size and mtime against what was written, and the listing, inode numbers, label,
 * serial and free space against The Sleuth Kit (fls, icat), blkid and statfs of the mount.
 */
class NtfsDriverTest {
    @TempDir
    static Path tmp;
    static Path img;
    static Device device;
    static DiskFs fs;
    /** Every regular file written (path from the root, '/' between names) and its bytes. */
    static final Map<String, byte[]> files = new TreeMap<>();
    static final Map<String, FileTime> mtimes = new TreeMap<>();
    static final TreeSet<String> dirs = new TreeSet<>();
    static final Map<String, String> links = new TreeMap<>();
    static final Map<String, String> ntfs3gLinks = new TreeMap<>();
    static long freeBytes = -1;
    static final long BIG = 5L << 30;
    static final long BIG_AT = (4L << 30) + 12345;
    static final String LONG = "L".repeat(230) + ".txt";
    static final String UNICODE = "Ünïcødé 名前 😀.txt";
    static final String LINKNAME = "-link-with-a-long-name-to-fill-the-record-" + "x".repeat(60);

    /** Sets a symbolic link's or junction's reparse data (MS-FSCC 2.1.2.4, 2.1.2.5) through ntfs-3g. */
    static final String REPARSE = String.join("\n",
            "import os, struct, sys",
            "path, kind, target = sys.argv[1:4]",
            "pr = target.encode('utf-16le')",
            "if kind == 'sym':",
            "    sub = pr",
            "    buf = struct.pack('<HHHHI', 0, len(sub), len(sub), len(pr), 1) + sub + pr",
            "    tag = 0xA000000C",
            "else:",
            "    sub = ('\\\\??\\\\' + target).encode('utf-16le')",
            "    buf = struct.pack('<HHHH', 0, len(sub), len(sub) + 2, len(pr)) + sub + b'\\0\\0' + pr + b'\\0\\0'",
            "    tag = 0xA0000003",
            "os.setxattr(path, 'system.ntfs_reparse_data', struct.pack('<IHH', tag, len(buf), 0) + buf)");

    @BeforeAll
    static void build() throws Exception {
        img = NtfsImages.make(tmp, "vol.img", 200L << 20, 4096, "VJCELABEL", "compression,streams_interface=xattr",
                NtfsDriverTest::fill);
        // what ntfs-3g itself reads back as each link's target (it shows a junction to another drive
        // under its own .NTFS-3G folder)
        NtfsImages.readBack(img, m -> {
            for (String l : links.keySet()) {
                String t = Files.readSymbolicLink(m.resolve(l)).toString();
                ntfs3gLinks.put(l, t.startsWith(m.resolve(".NTFS-3G").toString() + "/")
                        ? t.substring(m.resolve(".NTFS-3G").toString().length() + 1) : t);
            }
        });
        device = Device.open(img, false);
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

    private static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void put(Path m, String path, byte[] data) throws Exception {
        Path p = m.resolve(path);
        Files.createDirectories(p.getParent());
        Files.write(p, data);
        files.put(path, data);
    }

    private static void fill(Path m) throws Exception {
        dirs.addAll(List.of("a", "a/b", "a/b/c", "emptydir", "many", "frag", "comp", "hard", "al"));
        for (String d : dirs) {
            Files.createDirectories(m.resolve(d));
        }
        put(m, "a/b/c/deep.txt", "deep inside\n".getBytes(StandardCharsets.UTF_8));
        put(m, LONG, "long name".getBytes(StandardCharsets.UTF_8));
        put(m, UNICODE, "non-ASCII name".getBytes(StandardCharsets.UTF_8));
        put(m, "empty.txt", new byte[0]);
        for (int i = 0; i < 2000; i++) {
            put(m, String.format("many/file-%04d.txt", i), ("file " + i + "\n").getBytes(StandardCharsets.UTF_8));
        }
        put(m, "s1.bin", random(1, 1));
        put(m, "s700.bin", random(2, 700));
        put(m, "s4097.bin", random(3, 4097));
        put(m, "s3m.bin", random(4, 3 << 20));
        put(m, "frag/one.bin", random(5, 1 << 20));
        // a 5 GiB sparse file with bytes past 4 GiB
        try (RandomAccessFile f = new RandomAccessFile(m.resolve("sparse.bin").toFile(), "rw")) {
            f.setLength(BIG);
            f.seek(100);
            f.write("head".getBytes(StandardCharsets.US_ASCII));
            f.seek(BIG_AT);
            f.write(random(6, 4096));
        }
        // a cluster written every other cluster: 1200 runs, too many for one record, so ntfs-3g
        // splits $DATA by VCN ranges over extension records named by an $ATTRIBUTE_LIST
        byte[] runs = new byte[599 * 8192 + 4096];
        try (var ch = java.nio.channels.FileChannel.open(m.resolve("runs.bin"), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE)) {
            for (int k = 0; k < 600; k++) {
                java.util.Arrays.fill(runs, k * 8192, k * 8192 + 4096, (byte) (k % 251 + 1));
                ch.write(ByteBuffer.wrap(runs, k * 8192, 4096), k * 8192L);
            }
        }
        files.put("runs.bin", runs);
        // compression: the folder marked FILE_ATTRIBUTE_COMPRESSED (0x800) through ntfs-3g's attribute xattr
        Tools.assumeTool("python3");
        Tools.ok("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'system.ntfs_attrib_be', bytes([0,0,8,0]))",
                m.resolve("comp").toString());
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 300_000; i++) {
            text.append("line ").append(i).append(" of a compressible text file, repeated.\n");
        }
        put(m, "comp/text.txt", text.toString().getBytes(StandardCharsets.US_ASCII));
        byte[] mixed = new byte[200_000];
        System.arraycopy(random(7, 70_000), 0, mixed, 0, 70_000);
        System.arraycopy(files.get("comp/text.txt"), 0, mixed, 140_000, 60_000);
        put(m, "comp/mixed.bin", mixed);
        // hard links
        put(m, "hard/orig.txt", "linked".getBytes(StandardCharsets.US_ASCII));
        Files.createLink(m.resolve("hard/link1.txt"), m.resolve("hard/orig.txt"));
        Files.createLink(m.resolve("a/link2.txt"), m.resolve("hard/orig.txt"));
        files.put("hard/link1.txt", files.get("hard/orig.txt"));
        files.put("a/link2.txt", files.get("hard/orig.txt"));
        // 60 long-named hard links: $FILE_NAMEs overflow the record into an $ATTRIBUTE_LIST
        put(m, "al/target.txt", "many names".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 60; i++) {
            String name = String.format("al/%03d%s", i, LINKNAME);
            Files.createLink(m.resolve(name), m.resolve("al/target.txt"));
            files.put(name, files.get("al/target.txt"));
        }
        // a symbolic link (ntfs-3g writes an Interix link)
        Files.createSymbolicLink(m.resolve("sym"), Path.of("a/b/c/deep.txt"));
        links.put("sym", "a/b/c/deep.txt");
        // POSIX names differing only in case, in a folder big enough to have index blocks
        put(m, "many/case.txt", "lower".getBytes(StandardCharsets.US_ASCII));
        put(m, "many/CASE.txt", "upper".getBytes(StandardCharsets.US_ASCII));
        // a Win32 long name with a DOS 8.3 twin (namespaces 1 and 2), set through ntfs-3g's xattr
        put(m, "Long File Name.txt", "dos twin".getBytes(StandardCharsets.US_ASCII));
        Tools.ok("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'system.ntfs_dos_name', b'LONGFI~1.TXT')",
                m.resolve("Long File Name.txt").toString());
        // reparse points written as raw MS-FSCC data: a relative symbolic link and a junction
        Files.createFile(m.resolve("rlink"));
        Tools.ok("python3", "-c", REPARSE, m.resolve("rlink").toString(), "sym", "a\\b\\c\\deep.txt");
        Files.createDirectory(m.resolve("junc"));
        Tools.ok("python3", "-c", REPARSE, m.resolve("junc").toString(), "junction", "C:\\Windows");
        links.put("rlink", "a/b/c/deep.txt");
        // a WSL symbolic link (tag 0xA000001D: version 2, UTF-8 target)
        Files.createFile(m.resolve("wsl"));
        Tools.ok("python3", "-c", "import os,struct,sys; d=struct.pack('<I',2)+sys.argv[2].encode();"
                + " os.setxattr(sys.argv[1],'system.ntfs_reparse_data',struct.pack('<IHH',0xA000001D,len(d),0)+d)",
                m.resolve("wsl").toString(), "a/b/c/deep.txt");
        links.put("wsl", "a/b/c/deep.txt");
        // special files, which ntfs-3g writes as Interix files
        Tools.ok("mkfifo", m.resolve("fifo").toString());
        Tools.ok("mknod", m.resolve("chardev").toString(), "c", "1", "3");
        links.put("junc", "C:/Windows");
        // DOS attributes hidden, system and read-only, set through ntfs-3g's attribute xattr
        put(m, "attrs.txt", "attributes".getBytes(StandardCharsets.US_ASCII));
        Tools.ok("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'system.ntfs_attrib_be', bytes([0,0,0,0x27]))",
                m.resolve("attrs.txt").toString());
        // named streams
        put(m, "streams.txt", "main".getBytes(StandardCharsets.US_ASCII));
        UserDefinedFileAttributeView x = Files.getFileAttributeView(m.resolve("streams.txt"),
                UserDefinedFileAttributeView.class);
        x.write("s1", ByteBuffer.wrap("stream one".getBytes(StandardCharsets.US_ASCII)));
        x.write("big", ByteBuffer.wrap(random(8, 60_000)));
        // times: 100 ns apart, as NTFS keeps them
        int i = 0;
        for (String f : files.keySet()) {
            FileTime t = FileTime.from(Instant.ofEpochSecond(1_600_000_000L + 1000L * i++, 1234567L * 100 % 1_000_000_000));
            Files.setLastModifiedTime(m.resolve(f), t);
        }
        for (String f : files.keySet()) {
            mtimes.put(f, Files.getLastModifiedTime(m.resolve(f)));
        }
        for (String d : dirs) {
            mtimes.put(d, Files.getLastModifiedTime(m.resolve(d)));
        }
        Tools.ok("sync");
        Tools.Run df = Tools.ok("stat", "-f", "-c", "%f %S", m.toString());
        String[] p = df.out().trim().split(" ");
        freeBytes = Long.parseLong(p[0]) * Long.parseLong(p[1]);
    }

    private static Map<String, Node> tree;

    /** The whole tree, walked once (the tests only read it). */
    private static synchronized Map<String, Node> walk() throws Exception {
        if (tree == null) {
            tree = NtfsImages.walk(fs);
        }
        return tree;
    }

    static byte[] readAll(Content c) throws Exception {
        return NtfsImages.readAll(c);
    }

    @Test
    void treeMatchesWhatWasWritten() throws Exception {
        Map<String, Node> tree = walk();
        TreeSet<String> expected = new TreeSet<>(files.keySet());
        expected.addAll(dirs);
        expected.addAll(links.keySet());
        expected.add("sparse.bin");
        expected.add("fifo");
        expected.add("chardev");
        assertEquals(Kind.OTHER, tree.get("fifo").kind());
        assertEquals(Kind.OTHER, tree.get("chardev").kind());
        assertEquals(expected, new TreeSet<>(tree.keySet()));
        for (String d : dirs) {
            assertEquals(Kind.DIRECTORY, tree.get(d).kind(), d);
            assertEquals(mtimes.get(d), tree.get(d).modified(), d);
        }
        for (var e : files.entrySet()) {
            Node n = tree.get(e.getKey());
            assertEquals(Kind.FILE, n.kind(), e.getKey());
            assertEquals(e.getValue().length, n.size(), e.getKey());
            assertEquals(mtimes.get(e.getKey()), n.modified(), e.getKey());
            assertArrayEquals(e.getValue(), readAll(fs.open(n, null)), e.getKey());
        }
    }

    @Test
    void sleuthKitListsTheSameNamesAndInodes() throws Exception {
        Tools.assumeTool("fls");
        Map<String, Node> tree = walk();
        Map<String, Long> fls = NtfsImages.fls(img);
        Map<String, Long> ours = new TreeMap<>();
        tree.forEach((k, v) -> ours.put(k, v.fileKey()));
        assertEquals(fls, ours);
    }

    @Test
    void icatGivesTheSameBytes() throws Exception {
        Tools.assumeTool("icat");
        Map<String, Node> tree = walk();
        for (String f : List.of("runs.bin", "s3m.bin", "frag/one.bin", "comp/text.txt", "comp/mixed.bin", "s4097.bin")) {
            byte[] icat = Tools.ok("icat", img.toString(), Long.toString(tree.get(f).fileKey())).stdout();
            assertArrayEquals(icat, readAll(fs.open(tree.get(f), null)), f);
        }
    }

    @Test
    void labelSerialAndFreeSpace() throws Exception {
        Tools.assumeTool("blkid");
        Map<String, String> b = new HashMap<>();
        for (String line : Tools.ok("blkid", "-p", "-o", "export", img.toString()).out().split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                b.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        FsInfo info = fs.info();
        assertEquals("NTFS", info.type());
        assertEquals(b.get("LABEL"), info.label());
        assertEquals(b.get("UUID"), info.serial());
        assertEquals(4096, info.clusterSize());
        assertEquals(freeBytes, info.freeBytes());
    }

    @Test
    void dosAttributes() throws Exception {
        Node n = walk().get("attrs.txt");
        assertEquals(Node.READ_ONLY | Node.HIDDEN | Node.SYSTEM | Node.ARCHIVE, n.dosAttributes());
        assertEquals(0, walk().get("s1.bin").dosAttributes() & (Node.READ_ONLY | Node.HIDDEN | Node.SYSTEM));
    }

    @Test
    void readsFromManyThreadsAtOnce() throws Exception {
        List<String> names = List.of("comp/text.txt", "comp/mixed.bin", "s3m.bin", "runs.bin");
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            long seed = t;
            threads.add(new Thread(() -> {
                try {
                    Random r = new Random(seed);
                    for (int k = 0; k < 300; k++) {
                        String f = names.get(r.nextInt(names.size()));
                        byte[] want = files.get(f);
                        Content c = fs.open(walk().get(f), null);
                        int at = r.nextInt(want.length);
                        int len = Math.min(want.length - at, 1 + r.nextInt(20_000));
                        ByteBuffer bb = ByteBuffer.allocate(len);
                        while (bb.hasRemaining()) {
                            c.read(bb, at + bb.position());
                        }
                        assertArrayEquals(java.util.Arrays.copyOfRange(want, at, at + len), bb.array(), f + " at " + at);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void hardLinksShareTheirRecord() throws Exception {
        Map<String, Node> tree = walk();
        long key = tree.get("hard/orig.txt").fileKey();
        assertEquals(key, tree.get("hard/link1.txt").fileKey());
        assertEquals(key, tree.get("a/link2.txt").fileKey());
        long al = tree.get("al/target.txt").fileKey();
        for (int i = 0; i < 60; i++) {
            assertEquals(al, tree.get(String.format("al/%03d%s", i, LINKNAME)).fileKey());
        }
        Tools.assumeTool("istat");
        assertTrue(Tools.ok("istat", img.toString(), Long.toString(al)).out().contains("$ATTRIBUTE_LIST"),
                "60 long names did not make an attribute list: the test does not test it");
        String runs = Tools.ok("istat", img.toString(), Long.toString(tree.get("runs.bin").fileKey())).out();
        assertTrue(runs.split("Type: 128-").length > 3, "runs.bin's $DATA is not split over records: " + runs);
    }

    @Test
    void sparseFileOverFourGiB() throws Exception {
        Node n = fs.lookup(fs.root(), "sparse.bin");
        assertEquals(BIG, n.size());
        Content c = fs.open(n, null);
        byte[] head = new byte[8];
        c.read(ByteBuffer.wrap(head), 98);
        assertArrayEquals(new byte[] {0, 0, 'h', 'e', 'a', 'd', 0, 0}, head);
        byte[] at = new byte[4096 + 20];
        ByteBuffer bb = ByteBuffer.wrap(at);
        while (bb.hasRemaining()) {
            c.read(bb, BIG_AT - 10 + bb.position());
        }
        byte[] want = new byte[4096 + 20];
        System.arraycopy(random(6, 4096), 0, want, 10, 4096);
        assertArrayEquals(want, at);
        byte[] hole = new byte[1 << 20];
        Arrays2.fill(hole, (byte) 1);
        bb = ByteBuffer.wrap(hole);
        while (bb.hasRemaining()) {
            c.read(bb, (2L << 30) + bb.position());
        }
        assertArrayEquals(new byte[1 << 20], hole);
        ByteBuffer end = ByteBuffer.allocate(10);
        assertEquals(-1, c.read(end, BIG));
        assertEquals(3, c.read(ByteBuffer.allocate(10), BIG - 3));
        Attribute d = MftFile.open((NtfsFileSystem) fs, n.fileKey()).first(Attribute.DATA, "");
        assertTrue((d.flags & Attribute.FLAG_SPARSE) != 0, "ntfs-3g did not make it sparse: the test does not test holes");
    }

    @Test
    void compressedIsReallyCompressed() throws Exception {
        Node t = fs.lookup(fs.lookup(fs.root(), "comp"), "text.txt");
        assertTrue(MftFile.open((NtfsFileSystem) fs, t.fileKey()).first(Attribute.DATA, "").compressed(),
                "ntfs-3g did not compress: the test does not test LZNT1");
    }

    @Test
    void lookupIsCaseInsensitiveThroughUpCase() throws Exception {
        Map<String, Node> tree = walk();
        for (var e : tree.entrySet()) {
            Node dir = fs.root();
            for (String part : e.getKey().split("/")) {
                dir = fs.lookup(dir, part);
                assertNotNull(dir, e.getKey());
            }
            assertEquals(e.getValue().fileKey(), dir.fileKey(), e.getKey());
        }
        assertEquals(tree.get(UNICODE).fileKey(), fs.lookup(fs.root(), UNICODE.toUpperCase(java.util.Locale.ROOT)).fileKey());
        assertEquals(tree.get("many/file-1234.txt").fileKey(),
                fs.lookup(tree.get("many"), "FILE-1234.TXT").fileKey());
        assertNull(fs.lookup(tree.get("many"), "file-2000.txt"));
        assertEquals("case.txt", fs.lookup(tree.get("many"), "case.txt").name());
        assertEquals("CASE.txt", fs.lookup(tree.get("many"), "CASE.txt").name());
        assertTrue(fs.lookup(tree.get("many"), "Case.TXT").name().equalsIgnoreCase("case.txt"));
        assertNull(fs.lookup(fs.root(), "$MFT"));
        Node dos = fs.lookup(fs.root(), "longfi~1.txt");
        assertNotNull(dos, "lookup by the DOS 8.3 name");
        assertEquals(tree.get("Long File Name.txt").fileKey(), dos.fileKey());
        assertEquals("Long File Name.txt", dos.name());
        assertNull(fs.lookup(fs.root(), "."));
    }

    @Test
    void linksAndStreams() throws Exception {
        assertEquals(links, ntfs3gLinks, "ntfs-3g reads the links as written");
        for (var e : links.entrySet()) {
            Node l = fs.lookup(fs.root(), e.getKey());
            assertEquals(Kind.SYMLINK, l.kind(), e.getKey());
            assertEquals(e.getValue(), fs.readLink(l), e.getKey());
        }
        assertThrows(java.nio.file.NotLinkException.class, () -> fs.readLink(fs.lookup(fs.root(), "s1.bin")));
        Node sym = fs.lookup(fs.root(), "sym");
        assertEquals(Kind.SYMLINK, sym.kind());
        assertEquals("a/b/c/deep.txt", fs.readLink(sym));
        Node s = fs.lookup(fs.root(), "streams.txt");
        List<String> names = new ArrayList<>();
        for (DiskFs.StreamInfo i : fs.streams(s)) {
            names.add(i.name() + "=" + i.size());
        }
        assertEquals(new TreeSet<>(List.of("s1=10", "big=60000")), new TreeSet<>(names));
        assertArrayEquals("stream one".getBytes(StandardCharsets.US_ASCII), readAll(fs.open(s, "s1")));
        assertArrayEquals(random(8, 60_000), readAll(fs.open(s, "big")));
        assertArrayEquals("main".getBytes(StandardCharsets.US_ASCII), readAll(fs.open(s, null)));
    }

    /** {@link java.util.Arrays#fill} under a name that does not clash with JUnit's imports. */
    private static final class Arrays2 {
        static void fill(byte[] b, byte v) {
            java.util.Arrays.fill(b, v);
        }
    }
}
