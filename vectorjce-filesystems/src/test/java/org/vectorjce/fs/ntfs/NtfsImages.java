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
