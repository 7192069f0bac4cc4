package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.vectorjce.fs.testing.Tools;

/** Builds NTFS images with mkntfs and fills them through an ntfs-3g FUSE mount, always unmounted. */
final class NtfsImages {
    private NtfsImages() {
    }

    /** What a test writes into the mounted volume. */
    interface Filler {
        void fill(Path mount) throws Exception;
    }

    /**
     * A {@code size}-byte sparse image formatted by {@code mkntfs -F -f -L label -c cluster}, filled by
     * {@code filler} through {@code ntfs-3g img dir -o options}.
     */
    static Path make(Path dir, String name, long size, int cluster, String label, String options, Filler filler)
            throws Exception {
        Tools.assumeTool("mkntfs", "ntfs-3g");
        Tools.assumeFuse();
        Path img = Tools.sparse(dir.resolve(name), size);
        Tools.ok("mkntfs", "-F", "-f", "-q", "-L", label, "-c", Integer.toString(cluster), img.toString());
        Path mnt = Files.createDirectories(dir.resolve(name + ".mnt"));
        Tools.ok("ntfs-3g", "-o", options, img.toString(), mnt.toString());
        try {
            filler.fill(mnt);
        } finally {
            unmount(mnt, img);
        }
        return img;
    }

    /**
     * Unmounts, then waits (30 s at most) for the ntfs-3g process serving {@code img} to end: the
     * unmount of a FUSE mount of a plain file returns before ntfs-3g has written its last metadata.
     */
    /** Every node under the root of {@code fs}, by path ('/' between names). */
    static java.util.Map<String, org.vectorjce.fs.spi.Node> walk(org.vectorjce.fs.spi.DiskFs fs) throws IOException {
        java.util.Map<String, org.vectorjce.fs.spi.Node> out = new java.util.TreeMap<>();
        walk(fs, fs.root(), "", out, 0);
        return out;
    }

    private static void walk(org.vectorjce.fs.spi.DiskFs fs, org.vectorjce.fs.spi.Node dir, String prefix,
            java.util.Map<String, org.vectorjce.fs.spi.Node> out, int depth) throws IOException {
        if (depth > 16) {
            throw new IOException("tree deeper than the test made it");
        }
        try (org.vectorjce.fs.spi.NodeStream s = fs.list(dir)) {
            for (org.vectorjce.fs.spi.Node n = s.next(); n != null; n = s.next()) {
                String path = prefix + n.name();
                out.put(path, n);
                if (n.isDirectory()) {
                    walk(fs, n, path + "/", out, depth + 1);
                }
            }
        }
    }

    /** All of {@code c}, read in odd-sized pieces. */
    static byte[] readAll(org.vectorjce.fs.spi.Content c) throws IOException {
        byte[] b = new byte[Math.toIntExact(c.size())];
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            bb.limit(Math.min(b.length, bb.position() + 65536 + 17));
            if (c.read(bb, bb.position()) <= 0) {
                throw new IOException("content ended at " + bb.position() + " of " + b.length);
            }
            bb.limit(b.length);
        }
        return b;
    }

    /**
     * {@code fls -r -p}'s allocated names and their MFT record numbers, without what Windows hides
     * in the root (names starting with '$') and without named streams ({@code name:stream}).
     */
    static java.util.Map<String, Long> fls(Path img) throws IOException, InterruptedException {
        java.util.Map<String, Long> fls = new java.util.TreeMap<>();
        for (String line : Tools.ok("fls", "-r", "-p", img.toString()).out().split("\n")) {
            int tab = line.indexOf('\t');
            if (tab < 0 || line.contains(" * ")) {
                continue;
            }
            String path = line.substring(tab + 1);
            if (path.startsWith("$") || path.contains(":")) {
                continue;
            }
            String meta = line.substring(4, tab - 1).trim();
            fls.put(path, Long.parseLong(meta.split("-")[0]));
        }
        return fls;
    }

    /** Mounts {@code img} read-only through ntfs-3g and runs {@code reader} on the mount, then unmounts. */
    static void readBack(Path img, Filler reader) throws Exception {
        Path mnt = Files.createDirectories(img.resolveSibling(img.getFileName() + ".ro"));
        Tools.ok("ntfs-3g", "-o", "ro", img.toString(), mnt.toString());
        try {
            reader.fill(mnt);
        } finally {
            unmount(mnt, img);
        }
    }

    static void unmount(Path mnt, Path img) throws IOException, InterruptedException {
        if (Tools.run("umount", mnt.toString()).exit() != 0) {
            Tools.run("fusermount", "-u", mnt.toString());
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && serving(img)) {
            Thread.sleep(50);
        }
    }

    private static boolean serving(Path img) throws IOException {
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), java.nio.charset.StandardCharsets.UTF_8);
                    if (cmd.startsWith("ntfs-3g") && cmd.contains(img.toString())) {
                        return true;
                    }
                } catch (IOException | RuntimeException gone) {
                    // not a process, or it ended meanwhile
                }
            }
        }
        return false;
    }
}
