package org.vectorjce.fs.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * The ext tests' fixture: a source tree on the host filesystem (every shape of file the driver must
 * read), images made from it by the real {@code mke2fs -d}, and the comparisons of what the driver
 * reads with the source tree (bytes, size, mtime, mode, owner, symlink targets) and with e2fsprogs'
 * {@code debugfs} (names, inode numbers, mode, owner, size per folder).
 */
final class ExtImages {
    static final long GIB = 1L << 30;
    /** Where the huge sparse file has bytes: just past 4 GiB. */
    static final long HUGE_AT = 4 * GIB + 12345;

    private ExtImages() {
    }

    static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * Writes the source tree under {@code src}: files of 0, 1, 1023, 1024, 1025, 4095, 4096, 4097
     * bytes and 3 MiB; a sparse file with holes; non-ASCII names; nested folders; a fast and a slow
     * symlink; a hard link; modes and owners set; mtimes with nanoseconds; and, when {@code huge}, a
     * 5 GiB sparse file with bytes just past 4 GiB.
     */
    static Path tree(Path src, boolean huge) throws IOException {
        return tree(src, huge, true);
    }

    /**
     * {@link #tree(Path, boolean)}, the sparse file ending in a hole when {@code holeAtEnd}: mke2fs
     * 1.47 with inline_data sets such a file's size to the end of its last block (debugfs shows the
     * short size), so the inline_data image is made without one.
     */
    static Path tree(Path src, boolean huge, boolean holeAtEnd) throws IOException {
        Files.createDirectories(src);
        int seed = 1;
        for (int n : new int[] {0, 1, 1023, 1024, 1025, 4095, 4096, 4097, 3 << 20}) {
            Files.write(src.resolve("size-" + n), bytes(n, seed++));
        }
        try (FileChannel ch = FileChannel.open(src.resolve("sparse"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes(5000, 40)), 0);
            ch.write(ByteBuffer.wrap(bytes(7000, 41)), 1 << 20);
            ch.write(ByteBuffer.wrap(bytes(3, 42)), (6 << 20) + 5);
        }
        // 400 separate pieces: 400 extents, an extent tree of depth 2 with 1 KiB blocks
        try (FileChannel ch = FileChannel.open(src.resolve("fragmented"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            for (int i = 0; i < 400; i++) {
                ch.write(ByteBuffer.wrap(bytes(1000, 100 + i)), i * 8192L + (i % 3) * 1024);
            }
        }
        if (holeAtEnd) {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(src.resolve("sparse").toFile(), "rw")) {
                f.setLength((9 << 20) + 77);
            }
        }
        if (huge) {
            try (FileChannel ch = FileChannel.open(src.resolve("huge"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(bytes(100, 43)), 0);
                ch.write(ByteBuffer.wrap(bytes(70_000, 44)), HUGE_AT);
            }
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(src.resolve("huge").toFile(), "rw")) {
                f.setLength(5 * GIB);
            }
        }
        Path d = Files.createDirectories(src.resolve("dir/sub/deeper"));
        Files.write(d.resolve("deep.txt"), "deep\n".getBytes(StandardCharsets.UTF_8));
        Files.write(src.resolve("dir/Grüße.txt"), "grüße\n".getBytes(StandardCharsets.UTF_8));
        Files.write(src.resolve("dir/日本語のファイル名"), bytes(2000, 45));
        Files.write(src.resolve("dir/Case"), bytes(10, 46));
        Files.write(src.resolve("dir/case"), bytes(11, 47));
        Files.createDirectories(src.resolve("empty-dir"));
        Files.createSymbolicLink(src.resolve("fast-link"), Path.of("size-1"));
        String longName = "dir/sub/deeper/a-rather-long-file-name-so-that-the-target-passes-sixty-bytes.txt";
        Files.write(src.resolve(longName), "long\n".getBytes(StandardCharsets.UTF_8));
        Files.createSymbolicLink(src.resolve("slow-link"), Path.of(longName));
        Files.createLink(src.resolve("dir/hard-link"), src.resolve("size-4097"));
        Files.setPosixFilePermissions(src.resolve("size-1"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(src.resolve("dir/sub"), PosixFilePermissions.fromString("rwx--x--x"));
        try {
            // setuid and sticky bits, which PosixFilePermissions cannot set
            Tools.ok("chmod", "4755", src.resolve("size-1023").toString());
            Tools.ok("chmod", "1777", src.resolve("empty-dir").toString());
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        try {
            Files.setAttribute(src.resolve("size-1024"), "unix:uid", 1234, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(src.resolve("size-1024"), "unix:gid", 70000, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException notRoot) {
            // not root: the owners stay ours, still compared
        }
        long t = 1_500_000_000L;
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : all.toList()) {
                if (!Files.isSymbolicLink(p)) {
                    Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(t, 123_456_789L + t % 1000)));
                    t += 86_400 + 7;
                }
            }
        }
        return src;
    }

    /** A folder of {@code n} small files, for an htree once {@code e2fsck -fD} has indexed it. */
    static void many(Path dir, int n) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < n; i++) {
            // some names with bytes over 0x7f, which the signed and unsigned hashes treat differently
            Files.write(dir.resolve(manyName(i)), ("#" + i).getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** The name of file {@code i} of {@link #many}. */
    static String manyName(int i) {
        return "file-with-a-longish-name-" + i + (i % 7 == 0 ? "-été-日本" : "");
    }

    /** {@code mke2fs -t TYPE -d src} into a new sparse image of {@code size} bytes; the extra options as given. */
    static Path mkfs(Path img, String type, long size, Path src, String... options) throws Exception {
        Tools.assumeTool("mke2fs", "debugfs");
        Tools.sparse(img, size);
        List<String> cmd = new ArrayList<>(List.of("mke2fs", "-q", "-F", "-t", type, "-L", "vjce-" + type,
                "-E", "lazy_itable_init=1,root_owner=0:0"));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("-d", src.toString(), img.toString()));
        Tools.ok(cmd.toArray(String[]::new));
        return img;
    }

    /** What debugfs {@code ls -p} lists of {@code dir}: name → "inode mode uid gid size" (size for files only). */
    static Map<String, String> debugfsLs(Path img, String dir) throws Exception {
        Tools.Run r = Tools.ok("debugfs", "-R", "ls -p \"" + dir + "\"", img.toString());
        Map<String, String> m = new TreeMap<>();
        for (String line : r.out().split("\n")) {
            // /inode/mode/uid/gid/name/size/
            if (!line.startsWith("/")) {
                continue;
            }
            String[] f = line.split("/", -1);
            if (f.length < 8) {
                continue;
            }
            String name = String.join("/", java.util.Arrays.copyOfRange(f, 5, f.length - 2));
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                continue;
            }
            int mode = Integer.parseInt(f[2], 8);
            String size = (mode & 0170000) == 0100000 ? f[f.length - 2] : "-";
            m.put(name, f[1] + " " + (mode & 07777) + " " + f[3] + " " + f[4] + " " + size);
        }
        return m;
    }

    /** What the driver lists of {@code dir}, in debugfsLs's form. */
    static Map<String, String> ourLs(DiskFs fs, Node dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                String size = n.kind() == Kind.FILE ? Long.toString(n.size()) : "-";
                m.put(n.name(), n.fileKey() + " " + n.mode() + " " + n.uid() + " " + n.gid() + " " + size);
            }
        }
        return m;
    }

    /** Every folder of the filesystem compared with debugfs's listing of it; returns the folders walked. */
    static int compareWithDebugfs(DiskFs fs, Path img) throws Exception {
        return walkDebugfs(fs, img, fs.root(), "/", 0);
    }

    private static int walkDebugfs(DiskFs fs, Path img, Node dir, String path, int depth) throws Exception {
        assertEquals(debugfsLs(img, path), ourLs(fs, dir), "listing of " + path);
        int n = 1;
        try (NodeStream s = fs.list(dir)) {
            for (Node c = s.next(); c != null; c = s.next()) {
                if (c.isDirectory() && depth < 10) {
                    n += walkDebugfs(fs, img, c, path + c.name() + "/", depth + 1);
                }
            }
        }
        return n;
    }

    /**
     * The folder {@code dir} compared with the source folder {@code src}, recursively: the same
     * names (but lost+found at the root), kinds, sizes, bytes, mtimes (to the second: what mke2fs
     * copies), modes, owners, symlink targets.
     */
    static int compareWithSource(DiskFs fs, Node dir, Path src) throws IOException {
        Map<String, Node> ours = new TreeMap<>();
        try (NodeStream s = fs.list(dir)) {
            for (Node c = s.next(); c != null; c = s.next()) {
                ours.put(c.name(), c);
            }
        }
        if (dir == fs.root()) {
            ours.remove("lost+found");
        }
        Map<String, Path> theirs = new TreeMap<>();
        try (Stream<Path> l = Files.list(src)) {
            l.forEach(p -> theirs.put(p.getFileName().toString(), p));
        }
        assertEquals(theirs.keySet(), ours.keySet(), "names in " + src);
        int files = 0;
        for (Map.Entry<String, Node> e : ours.entrySet()) {
            Node n = e.getValue();
            Path p = theirs.get(e.getKey());
            Map<String, Object> a = Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
            assertEquals(((Integer) a.get("mode")) & 07777, n.mode(), "mode of " + p);
            assertEquals(a.get("uid"), n.uid(), "uid of " + p);
            assertEquals(a.get("gid"), n.gid(), "gid of " + p);
            if (Files.isSymbolicLink(p)) {
                assertEquals(Kind.SYMLINK, n.kind(), p.toString());
                assertEquals(Files.readSymbolicLink(p).toString(), fs.readLink(n), "target of " + p);
                continue;
            }
            FileTime m = (FileTime) a.get("lastModifiedTime");
            // mke2fs 1.47 -d copies whole seconds only; ExtTimesTest checks nanoseconds set by debugfs
            Instant want = Instant.ofEpochSecond(m.toInstant().getEpochSecond());
            assertEquals(want, n.modified().toInstant(), "mtime of " + p);
            if (Files.isDirectory(p)) {
                assertEquals(Kind.DIRECTORY, n.kind(), p.toString());
                files += compareWithSource(fs, n, p);
            } else {
                assertEquals(Kind.FILE, n.kind(), p.toString());
                assertEquals(Files.size(p), n.size(), "size of " + p);
                compareBytes(fs.open(n, null), p);
                files++;
            }
        }
        return files;
    }

    /** Every byte (files up to 64 MiB), else the first MiB and 1 MiB around {@link #HUGE_AT}. */
    static void compareBytes(Content c, Path p) throws IOException {
        long size = Files.size(p);
        assertEquals(size, c.size(), "size of " + p);
        try (FileChannel ch = FileChannel.open(p)) {
            if (size <= 64 << 20) {
                compareRange(c, ch, 0, size, p);
            } else {
                compareRange(c, ch, 0, 1 << 20, p);
                compareRange(c, ch, HUGE_AT - (512 << 10) - 3, 1 << 20, p);
                compareRange(c, ch, size - 5000, 5000, p);
            }
        }
        ByteBuffer past = ByteBuffer.allocate(10);
        assertEquals(-1, c.read(past, size), "read at the end of " + p);
    }

    private static void compareRange(Content c, FileChannel ch, long from, long len, Path p) throws IOException {
        // odd-sized reads, so that they straddle blocks and runs
        int chunk = 100_003;
        for (long at = from; at < from + len; at += chunk) {
            int n = (int) Math.min(chunk, from + len - at);
            ByteBuffer want = ByteBuffer.allocate(n);
            while (want.hasRemaining() && ch.read(want, at + want.position()) > 0) {
                // fill
            }
            ByteBuffer got = ByteBuffer.allocate(n);
            while (got.hasRemaining()) {
                int r = c.read(got, at + got.position());
                assertTrue(r > 0, "short read of " + p + " at " + (at + got.position()));
            }
            assertArrayEquals(want.array(), got.array(), "bytes of " + p + " at " + at);
        }
    }

    static DiskFs open(Device d) throws IOException {
        ExtDriver driver = new ExtDriver();
        assertTrue(driver.probe(d), "probe");
        return driver.open(d, org.vectorjce.fs.spi.FsOptions.defaults());
    }
}
