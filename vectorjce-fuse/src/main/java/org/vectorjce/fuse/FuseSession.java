package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseMountFailedException;
import org.cryptomator.jfuse.api.FuseOperations;

/**
 * One running jfuse mount, the part every mount of this module shares: mounting on a folder,
 * telling whether the mount is still there (this process's mount table, which
 * {@code fusermount3 -u} changes), waiting for it to go, and ending libfuse's loop and the
 * operations' resources exactly once, whether {@link #close()} or an unmount from outside comes
 * first.
 */
final class FuseSession {
    /** The file system's name in the mount table ({@code fuse.vectorjce}). */
    static final String FS_NAME = "vectorjce";
    static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");
    /** How often {@link #awaitUnmount(Duration)} looks whether the mount is still there. */
    static final long POLL_MILLIS = 200;

    private final Fuse fuse;
    private final Path dir;
    private final Set<String> mountIds;
    private final Runnable release;
    private final CountDownLatch closed = new CountDownLatch(1);
    private boolean closing;
    private IOException closeFailure;

    private FuseSession(Fuse fuse, Path dir, Set<String> mountIds, Runnable release) {
        this.fuse = fuse;
        this.dir = dir;
        this.mountIds = mountIds;
        this.release = release;
    }

    /**
     * Mounts {@code operations} on {@code dir} with the mount options {@code options} (the
     * argument of {@code -o}) and returns once the mount answers.
     *
     * @param builder from {@link FuseLibrary#builder()}; {@code operations} use its errno
     * @param dir the mount point, an existing folder with its links resolved
     * @param release run once after libfuse's loop has ended (closes what the operations opened)
     * @throws FuseUnavailableException when libfuse3 cannot be loaded
     * @throws IOException when the mount fails (libfuse's reason); {@code release} has then run
     */
    static FuseSession mount(FuseBuilder builder, FuseOperations operations, Path dir, String options,
            Runnable release) throws IOException {
        Fuse fuse;
        try {
            fuse = builder.build(operations);
        } catch (UnsatisfiedLinkError e) {
            release.run();
            throw new FuseUnavailableException("libfuse3 could not be loaded (" + e.getMessage()
                    + "): install it (Debian, Ubuntu: apt-get install fuse3)", e);
        }
        Set<String> before = fuseMounts(dir);
        try {
            fuse.mount(FS_NAME, dir, "-o", options);
        } catch (FuseMountFailedException | RuntimeException e) {
            try {
                fuse.close();
            } catch (TimeoutException | RuntimeException e2) {
                // the mount failed already; that is the error reported
            }
            release.run();
            throw new IOException("Cannot mount on " + dir + ": " + e.getMessage(), e);
        }
        Set<String> ids = fuseMounts(dir);
        ids.removeAll(before);
        return new FuseSession(fuse, dir, ids, release);
    }

    Path directory() {
        return dir;
    }

    /** Not closed, and still in this process's mount table. */
    boolean mounted() {
        return closed.getCount() > 0 && stillMounted();
    }

    /**
     * Waits at most {@code timeout} for the mount to go: {@link #close()}, or an unmount from
     * outside, noticed within {@value #POLL_MILLIS} ms, after which this session closes itself
     * (libfuse's loop ends, {@code release} runs).
     *
     * @return whether the mount is gone
     */
    boolean awaitUnmount(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (closed.getCount() == 0) {
                return true;
            }
            if (!stillMounted()) {
                try {
                    close();
                } catch (IOException e) {
                    // kept: close() throws it again to its caller
                }
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (closed.await(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, POLL_MILLIS), TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
    }

    /**
     * Unmounts (lazily: a process still holding a file open keeps only its descriptor), waits for
     * libfuse's loop to end (10 s at most), then runs {@code release}. Idempotent; a later call
     * throws what the first one did.
     *
     * @throws IOException when libfuse's loop did not end in time
     */
    void close() throws IOException {
        synchronized (this) {
            if (closing) {
                if (closeFailure != null) {
                    throw closeFailure;
                }
                return;
            }
            closing = true;
            try {
                fuse.close();
            } catch (TimeoutException e) {
                closeFailure = new IOException("The FUSE loop of " + dir + " did not end within 10 s", e);
                throw closeFailure;
            } finally {
                release.run();
                closed.countDown();
            }
        }
    }

    private boolean stillMounted() {
        if (mountIds.isEmpty()) {
            return true; // no mount table to read: only close() ends the wait
        }
        Set<String> now = fuseMounts(dir);
        now.retainAll(mountIds);
        return !now.isEmpty();
    }

    /**
     * The ids of the FUSE mounts on {@code dir} in /proc/self/mountinfo (proc(5): field 1 the
     * mount id, field 5 the mount point with space, tab, newline and backslash as octal escapes,
     * the file system type after the separator "-"), empty when it cannot be read.
     */
    static Set<String> fuseMounts(Path dir) {
        Set<String> ids = new HashSet<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(MOUNTINFO);
        } catch (IOException | RuntimeException e) {
            return ids;
        }
        String want = dir.toString();
        for (String line : lines) {
            String[] f = line.split(" ");
            int sep = List.of(f).indexOf("-");
            if (f.length < 5 || sep < 0 || sep + 1 >= f.length) {
                continue;
            }
            if (unescape(f[4]).equals(want) && (f[sep + 1].equals("fuse") || f[sep + 1].startsWith("fuse."))) {
                ids.add(f[0]);
            }
        }
        return ids;
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && isOctal(s, i + 1, 3)) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isOctal(String s, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }
}
