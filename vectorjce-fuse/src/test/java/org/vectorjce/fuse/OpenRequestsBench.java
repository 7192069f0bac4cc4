package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The benchmark of bench/fuse-open.sh (a main class, not a test): mounts a disk image's file tree
 * with {@link FileTreeMount} in one JVM, alternately with OPEN and RELEASE requests for every file
 * and without them (the kernel's zero-message opens), and times {@code cp -a} of the whole mount
 * into a new folder: the first copy after the mount (the kernel's caches empty) and a second one
 * on the same mount after {@code drop_caches}, which needs root (else the second copy is skipped).
 * Prints seconds per copy, mode by mode, round by round.
 *
 * <pre>java -cp VOLUME_JAR:TEST_CLASSES org.vectorjce.fuse.OpenRequestsBench IMAGE WORK_DIR ROUNDS</pre>
 */
public final class OpenRequestsBench {
    private OpenRequestsBench() {
    }

    public static void main(String[] a) throws Exception {
        Path image = Path.of(a[0]);
        Path work = Path.of(a[1]);
        int rounds = Integer.parseInt(a[2]);
        boolean root = Files.isWritable(Path.of("/proc/sys/vm/drop_caches"));
        try (FileSystem fs = FileSystems.newFileSystem(image, Map.of())) {
            for (int r = 1; r <= rounds; r++) {
                for (boolean requests : r % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    FileTreeMount.Options o = FileTreeMount.Options.defaults();
                    Path mnt = Files.createDirectories(work.resolve("mnt"));
                    StringBuilder line = new StringBuilder("round " + r + ", " + (requests
                            ? "with OPEN and RELEASE" : "without (zero-message opens)") + ":");
                    try (FileTreeMount m = FileTreeMount.mount(fs.getPath("/"), mnt, requests ? o.openRequests() : o)) {
                        line.append(" cp -a ").append(copy(mnt, work));
                        if (root) {
                            sh("sync; echo 3 > /proc/sys/vm/drop_caches");
                            line.append(" s, again after drop_caches ").append(copy(mnt, work));
                        }
                        line.append(" s (mode in use: ").append(m.opensWithoutRequests() ? "zero-message" : "requests")
                                .append(')');
                    }
                    System.out.println(line);
                }
            }
        }
    }

    /** Seconds of {@code cp -a MNT/. WORK/out} into a new folder (removed and synced before, not timed). */
    private static String copy(Path mnt, Path work) throws IOException, InterruptedException {
        sh("rm -rf '" + work.resolve("out") + "'; sync");
        long t0 = System.nanoTime();
        sh("cp -a '" + mnt + "/.' '" + work.resolve("out") + "'");
        return String.format("%.2f", (System.nanoTime() - t0) / 1e9);
    }

    private static void sh(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", script).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("failed: " + script);
        }
    }
}
