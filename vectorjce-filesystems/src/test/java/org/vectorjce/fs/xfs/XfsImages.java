package org.vectorjce.fs.xfs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.vectorjce.fs.testing.Tools;

/**
 * XFS images made by mkfs.xfs and filled through the kernel's own XFS driver on a loop device: the
 * oracle of the XFS tests. What the kernel shows of the mounted tree (names, sizes, inode numbers,
 * owners, modes, nanosecond mtimes, SHA-256 of the bytes, link targets) is recorded before unmounting.
 */
final class XfsImages {
    static final String LABEL = "VJCEXFS";

    private XfsImages() {
    }

    /** What the kernel showed of one file. */
    record Seen(String kind, long size, long ino, int uid, int gid, int mode, int nlink, FileTime mtime, FileTime ctime,
            String sha256, String link) {
    }

    /** An image and what was seen in it, by path relative to the root ("" for the root). */
    record Image(Path file, Map<String, Seen> tree) {
    }

    static void assumeTools() {
        Tools.assumeTool("mkfs.xfs", "xfs_db", "losetup", "mount", "umount");
    }

    /**
     * A 300 MiB sparse image made by mkfs.xfs with the label above, the UUID {@code uuid} (each image
     * its own: the kernel refuses to mount two filesystems with one UUID, and test classes run at
     * once), and {@code extra} options.
     */
    static Path mkfs(Path image, String uuid, String... extra) throws Exception {
        Tools.sparse(image, 300L << 20);
        String[] cmd = Stream.concat(Stream.of("mkfs.xfs", "-f", "-q", "-L", LABEL, "-m", "uuid=" + uuid),
                Stream.concat(Stream.of(extra), Stream.of(image.toString()))).toArray(String[]::new);
        Tools.ok(cmd);
        return image;
    }

    /** What is done with the mounted root. */
    interface Mounted {
        void run(Path root) throws Exception;
    }

    /** Mounts {@code image} on a loop device (skipping when that is not possible), runs, unmounts, detaches. */
    static void mounted(Path image, Path dir, Mounted action) throws Exception {
        Tools.Run r = Tools.run("losetup", "-f", "--show", image.toString());
        assumeTrue(r.exit() == 0, "losetup cannot attach a loop device (" + r.stderr().strip() + "): test skipped");
        String loop = r.out().strip();
        boolean mounted = false;
        try {
            Files.createDirectories(dir);
            Tools.Run m = Tools.run("mount", "-t", "xfs", loop, dir.toString());
            assumeTrue(m.exit() == 0, "mount -t xfs fails here (" + m.stderr().strip() + "): test skipped");
            mounted = true;
            action.run(dir);
        } finally {
            if (mounted) {
                Tools.run("umount", dir.toString());
            }
            Tools.run("losetup", "-d", loop);
        }
    }

    /** The tree under {@code root} as the kernel shows it. */
    static Map<String, Seen> record(Path root) throws Exception {
        Map<String, Seen> tree = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = root.relativize(p).toString();
                Map<String, Object> a = Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
                String kind = Files.isSymbolicLink(p) ? "SYMLINK" : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                        ? "DIRECTORY" : Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? "FILE" : "OTHER";
                String sha = kind.equals("FILE") ? sha256(p) : null;
                String link = kind.equals("SYMLINK") ? Files.readSymbolicLink(p).toString() : null;
                tree.put(rel, new Seen(kind, kind.equals("DIRECTORY") ? 0 : (long) a.get("size"), (long) a.get("ino"),
                        (int) a.get("uid"), (int) a.get("gid"), ((int) a.get("mode")) & 07777, (int) a.get("nlink"),
                        (FileTime) a.get("lastModifiedTime"), (FileTime) a.get("ctime"), sha, link));
            }
        }
        return tree;
    }

    /** Files larger than this are hashed in part: their first and last {@link #SAMPLE} bytes. */
    static final long WHOLE = 64 << 20;
    static final int SAMPLE = 1 << 20;

    /** The SHA-256 of the file's bytes (of its first and last MiB when it is over {@link #WHOLE}). */
    static String sha256(Path p) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (FileChannel ch = FileChannel.open(p)) {
            long size = ch.size();
            long[][] ranges = size > WHOLE ? new long[][] {{0, SAMPLE}, {size - SAMPLE, size}}
                    : new long[][] {{0, size}};
            ByteBuffer b = ByteBuffer.allocate((int) Math.max(1, Math.min(SAMPLE, size)));
            for (long[] r : ranges) {
                long pos = r[0];
                while (pos < r[1]) {
                    b.clear().limit((int) Math.min(SAMPLE, r[1] - pos));
                    int n = ch.read(b, pos);
                    if (n <= 0) {
                        throw new IOException(p + " ends early");
                    }
                    b.flip();
                    md.update(b);
                    pos += n;
                }
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Fills the mounted root with every structure the driver reads. */
    static void fill(Path root) throws Exception {
        Random rnd = new Random(42);
        Path deep = Files.createDirectories(root.resolve("a/b/c/d/e"));
        Files.writeString(deep.resolve("deep.txt"), "at the bottom\n");
        Path small = Files.createDirectories(root.resolve("small5"));
        for (int i = 0; i < 5; i++) {
            Files.writeString(small.resolve("s" + i), "short " + i);
        }
        Path block = Files.createDirectories(root.resolve("block100"));
        for (int i = 0; i < 100; i++) {
            Files.write(block.resolve("entry-" + i), new byte[i]);
        }
        Path leaf = Files.createDirectories(root.resolve("leaf2000"));
        for (int i = 0; i < 2000; i++) {
            Files.createFile(leaf.resolve("a-rather-longer-file-name-number-" + i + ".dat"));
        }
        Path leaf300 = Files.createDirectories(root.resolve("leaf300"));
        for (int i = 0; i < 300; i++) {
            Files.createFile(leaf300.resolve("a-longer-name-for-a-leaf-form-directory-" + i));
        }
        Path node = Files.createDirectories(root.resolve("node20000"));
        for (int i = 0; i < 20000; i++) {
            Files.createFile(node.resolve("n" + i));
        }
        // sizes around the block size
        for (int n : new int[] {0, 1, 4095, 4096, 4097, 3 << 20}) {
            byte[] b = new byte[n];
            rnd.nextBytes(b);
            Files.write(root.resolve("size-" + n), b);
        }
        // a fragmented file: 300 separate 4 KiB writes with holes between (an extent B+tree), a trailing hole
        fragmented(root.resolve("fragmented"), rnd);
        // sparse: data, a hole, data; and a file past 4 GiB
        try (FileChannel ch = FileChannel.open(root.resolve("sparse"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("start".getBytes(StandardCharsets.UTF_8)), 0);
            ch.write(ByteBuffer.wrap("middle".getBytes(StandardCharsets.UTF_8)), 1 << 20);
            ch.write(ByteBuffer.wrap("end".getBytes(StandardCharsets.UTF_8)), 10 << 20);
        }
        try (FileChannel ch = FileChannel.open(root.resolve("huge"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("head".getBytes(StandardCharsets.UTF_8)), 0);
            byte[] b = new byte[70000];
            rnd.nextBytes(b);
            ch.write(ByteBuffer.wrap(b), (5L << 30) + 12345);
        }
        // preallocated (unwritten) space reads as zeros
        Tools.ok("xfs_io", "-f", "-c", "falloc 0 1m", "-c", "pwrite -S 0x61 100k 4k",
                root.resolve("prealloc").toString());
        // links
        Files.createSymbolicLink(root.resolve("fast-link"), Path.of("a/b/c"));
        Files.createSymbolicLink(root.resolve("remote-link"), Path.of("x".repeat(200) + "/" + "y".repeat(300)));
        Files.createLink(root.resolve("hard-link"), root.resolve("size-4097"));
        Tools.ok("mkfifo", root.resolve("fifo").toString());
        // names beyond ASCII
        Path intl = Files.createDirectories(root.resolve("Grüße"));
        Files.writeString(intl.resolve("日本語.txt"), "nihongo");
        Files.writeString(intl.resolve("emoji-😀"), "smile");
        // owners and modes
        Path owned = root.resolve("owned");
        Files.writeString(owned, "owned");
        Tools.ok("chown", "1234:5678", owned.toString());
        Tools.ok("chmod", "4750", owned.toString());
        Tools.ok("chmod", "0700", root.resolve("a").toString());
        Tools.ok("touch", "-h", "-d", "1999-12-31 23:59:59.123456789", root.resolve("small5/s0").toString());
        Tools.ok("touch", "-d", "2100-06-01 12:00:00.5", root.resolve("small5/s1").toString());
    }

    /**
     * 300 separate 4 KiB writes with holes between (more extents than the inode holds: an extent
     * B+tree), then a trailing hole.
     */
    static void fragmented(Path file, Random rnd) throws IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            byte[] b = new byte[4096];
            for (int i = 0; i < 300; i++) {
                rnd.nextBytes(b);
                f.seek(i * 12288L + (i % 3) * 100);
                f.write(b);
            }
            f.setLength(300 * 12288L + 5_000_000L);
        }
    }

    /** {@code xfs_db -r} with {@code cmds}, its output. */
    static String db(Path image, String... cmds) throws Exception {
        String[] cmd = new String[2 + 2 * cmds.length + 1];
        cmd[0] = "xfs_db";
        cmd[1] = "-r";
        for (int i = 0; i < cmds.length; i++) {
            cmd[2 + 2 * i] = "-c";
            cmd[3 + 2 * i] = cmds[i];
        }
        cmd[cmd.length - 1] = image.toString();
        return Tools.ok(cmd).out();
    }

    /** {@code xfs_db -x} (writing) with {@code cmds}. */
    static String dbWrite(Path image, String... cmds) throws Exception {
        String[] cmd = new String[2 + 2 * cmds.length + 1];
        cmd[0] = "xfs_db";
        cmd[1] = "-x";
        for (int i = 0; i < cmds.length; i++) {
            cmd[2 + 2 * i] = "-c";
            cmd[3 + 2 * i] = cmds[i];
        }
        cmd[cmd.length - 1] = image.toString();
        return Tools.ok(cmd).out();
    }

    /** The single number {@code xfs_db} prints for {@code field = value}. */
    static long dbNumber(String out, String field) throws IOException {
        for (String line : out.split("\n")) {
            String[] kv = line.split(" = ", 2);
            if (kv.length == 2 && kv[0].strip().equals(field)) {
                return Long.decode(kv[1].strip().split(" ")[0]);
            }
        }
        throw new IOException("xfs_db printed no " + field + " in: " + out);
    }
}
