package org.vectorjce.fuse;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseMountFailedException;
import org.vectorjce.volumes.Volume;

/**
 * One {@link Volume}'s plaintext payload as a single file {@code DIR/NAME} in a FUSE mount,
 * through jfuse over the system's libfuse3: what {@code cryptsetup open} shows as a device, here
 * a regular file any program can read, {@code losetup}, or hand to {@code mtools}, {@code 7z},
 * {@code debugfs} or {@code fsck}.
 *
 * <pre>{@code
 * String p = VolumeMount.problem();          // null, or one line: what to install
 * try (Volume v = Volumes.open(image).passphrase(pw).readWrite().open();
 *      VolumeMount m = VolumeMount.mount(v, Path.of("/mnt/disk"), "disk.img", false)) {
 *     m.awaitUnmount();                      // until fusermount3 -u /mnt/disk, or close()
 * }
 * }</pre>
 *
 * <p><b>The file:</b> the mount's root folder holds exactly this one regular file, of
 * {@link Volume#payloadSize()} bytes, mode {@code 0600} ({@code 0400} read-only), owned by the user
 * running the JVM; the mount is visible to that user only (no {@code allow_other}) and the kernel
 * checks the modes ({@code default_permissions}). Reads and writes at any offset go through the
 * volume's payload channels, so writes are encrypted in place. The file never changes size: a
 * write starting at or beyond its end is answered {@code ENOSPC} (a longer write ending past the
 * end writes what fits and returns the shorter count, as a block device does), a truncate to any
 * other size {@code EPERM}. {@code fsync} is {@link Volume#flush()} (the image's
 * {@code force(true)}). <b>Read-only</b> when asked, or when the volume is
 * ({@link Volume#readOnly()}): the mount is {@code ro}, and an open for writing, a write or a
 * truncate is answered {@code EROFS}. An I/O error of the image is {@code EIO}. The kernel's page
 * cache is used between an open and its close, and dropped at each open: a write made through
 * the volume's API while the file is open may not be seen by that open file.
 *
 * <p><b>Threads and memory:</b> libfuse runs the requests on a few threads of its own, and jfuse a
 * loop thread; reads run side by side, a write alone. At most four payload channels are open
 * (each with its 1 MiB work buffer); nothing is allocated per request. {@link #close()} unmounts,
 * waits for the loop (10 s at most) and closes those channels; no thread is left.
 *
 * <p><b>Ownership:</b> the volume stays the caller's, who closes it after this mount's
 * {@link #close()} (which does not close it). While mounted, the volume must not be closed.
 *
 * <p><b>Needs</b> Java 22 or later, and native access for jfuse (the java option
 * {@code --enable-native-access=ALL-UNNAMED} on the class path, {@code
 * --enable-native-access=org.cryptomator.jfuse.linux.amd64} or {@code .aarch64} on the module
 * path, or {@code Enable-Native-Access: ALL-UNNAMED} in an executable jar's manifest; without it
 * Java prints a warning). On the system: Linux, libfuse3 and {@code fusermount3} (Debian and
 * Ubuntu: the package {@code fuse3}), and a usable {@code /dev/fuse}. {@link #problem()} checks
 * these. A mount is also undone by {@code fusermount3 -u DIR}; if the JVM dies, libfuse's
 * {@code auto_unmount} helper unmounts it.
 */
public final class VolumeMount implements AutoCloseable {
    /** The system property naming libfuse3's file, for a system where it is in no usual place. */
    public static final String LIBRARY_PROPERTY = "vectorjce.fuse.library";
    /** The file system's name in the mount table ({@code fuse.vectorjce}). */
    static final String FS_NAME = "vectorjce";
    static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");
    /** How often {@link #awaitUnmount()} looks whether the mount is still there. */
    static final long POLL_MILLIS = 200;

    private final Fuse fuse;
    private final PayloadFileSystem fs;
    private final Path dir, file;
    private final boolean readOnly;
    private final Set<String> mountIds;
    private final CountDownLatch closed = new CountDownLatch(1);
    private boolean closing;

    private VolumeMount(Fuse fuse, PayloadFileSystem fs, Path dir, String fileName, boolean readOnly,
            Set<String> mountIds) {
        this.fuse = fuse;
        this.fs = fs;
        this.dir = dir;
        this.file = dir.resolve(fileName);
        this.readOnly = readOnly;
        this.mountIds = mountIds;
    }

    /**
     * Why FUSE cannot be used here, or {@code null} when it can: one line naming what is missing
     * and what to install, e.g. {@code "libfuse3 was not found (libfuse3.so.3 in /lib/x86_64-linux-gnu,
     * ...): install it (Debian, Ubuntu: apt-get install fuse3)"}. Checks the operating system (Linux),
     * libfuse3's file (the usual library folders, {@code java.library.path}, or the system property
     * {@value #LIBRARY_PROPERTY}), {@code /dev/fuse} (present, readable and writable) and
     * {@code fusermount3} on the {@code PATH}. Loads nothing.
     */
    public static String problem() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "volume mount works on Linux only (libfuse3); this is " + System.getProperty("os.name");
        }
        return problem(libraryCandidates(), Path.of("/dev/fuse"), pathDirs());
    }

    /** {@link #problem()} over the given places (for the tests). */
    static String problem(List<Path> libraries, Path devFuse, List<Path> pathDirs) {
        if (library(libraries) == null) {
            return "libfuse3 was not found (" + describe(libraries) + "): install it (Debian, Ubuntu: apt-get install fuse3)"
                    + " or name its file with -D" + LIBRARY_PROPERTY + "=PATH";
        }
        if (!Files.exists(devFuse)) {
            return devFuse + " is missing: load the kernel module (modprobe fuse), or give a container the device";
        }
        if (!Files.isReadable(devFuse) || !Files.isWritable(devFuse)) {
            return devFuse + " is not readable and writable by this user";
        }
        for (Path d : pathDirs) {
            if (Files.isExecutable(d.resolve("fusermount3"))) {
                return null;
            }
        }
        return "fusermount3 was not found on the PATH: install it (Debian, Ubuntu: apt-get install fuse3)";
    }

    /**
     * Mounts {@code volume}'s payload as the one file {@code dir/fileName} and returns once the mount
     * answers. The caller keeps owning {@code volume}: close this mount first, then the volume.
     *
     * @param volume the open volume; writes reach it only when {@code readOnly} is false and the
     *        volume itself is writable ({@link Volume#readOnly()} false)
     * @param dir an existing folder, the mount point (its own files are hidden while mounted)
     * @param fileName the file's name: not empty, no {@code /}, not {@code .} or {@code ..}
     * @param readOnly whether the file refuses writes even on a writable volume
     * @return the mount; {@link #close()} unmounts
     * @throws FuseUnavailableException when FUSE cannot be used here ({@link #problem()}'s line)
     * @throws IOException when {@code dir} is not a folder or the mount fails (libfuse's reason)
     * @throws IllegalArgumentException when {@code fileName} is not a plain file name
     */
    public static VolumeMount mount(Volume volume, Path dir, String fileName, boolean readOnly) throws IOException {
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(fileName, "fileName");
        if (fileName.isEmpty() || fileName.equals(".") || fileName.equals("..") || fileName.indexOf('/') >= 0
                || fileName.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("Not a plain file name: \"" + fileName + "\"");
        }
        String problem = problem();
        if (problem != null) {
            throw new FuseUnavailableException(problem);
        }
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a folder: the mount point must be an existing folder");
        }
        Path real = dir.toRealPath();
        boolean ro = readOnly || volume.readOnly();

        FuseBuilder builder;
        try {
            builder = Fuse.builder();
        } catch (UnsupportedOperationException e) {
            throw new FuseUnavailableException("jfuse has no binding for " + System.getProperty("os.name") + " on "
                    + System.getProperty("os.arch"), e);
        }
        builder.setLibraryPath(library(libraryCandidates()).toString());
        int[] owner = owner(real);
        PayloadFileSystem fs = new PayloadFileSystem(volume, fileName, ro, owner[0], owner[1], builder.errno());
        Fuse fuse;
        try {
            fuse = builder.build(fs);
        } catch (UnsatisfiedLinkError e) {
            throw new FuseUnavailableException("libfuse3 could not be loaded (" + e.getMessage()
                    + "): install it (Debian, Ubuntu: apt-get install fuse3)", e);
        }
        Set<String> before = fuseMounts(real);
        String options = "fsname=" + FS_NAME + ",subtype=" + FS_NAME + ",default_permissions,auto_unmount"
                + (ro ? ",ro" : "");
        try {
            fuse.mount(FS_NAME, real, "-o", options);
        } catch (FuseMountFailedException | RuntimeException e) {
            closeQuietly(fuse);
            throw new IOException("Cannot mount on " + real + ": " + e.getMessage(), e);
        }
        Set<String> ids = fuseMounts(real);
        ids.removeAll(before);
        return new VolumeMount(fuse, fs, real, fileName, ro, ids);
    }

    /** The mounted file, {@code dir/fileName} (dir with its links resolved). */
    public Path file() {
        return file;
    }

    /** The mount point, with its links resolved. */
    public Path directory() {
        return dir;
    }

    /** Whether the file refuses writes (asked, or the volume is read-only). */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Whether the mount is still there: not closed, and still in this process's mount table
     * ({@code fusermount3 -u} removes it).
     */
    public boolean mounted() {
        return closed.getCount() > 0 && stillMounted();
    }

    /**
     * Waits until the mount is gone: {@link #close()} (from another thread), or an unmount from
     * outside ({@code fusermount3 -u DIR}, {@code umount}), which it notices within
     * {@value #POLL_MILLIS} ms. After an unmount from outside, call {@link #close()} still: it ends
     * libfuse's loop and closes the payload channels.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitUnmount() throws InterruptedException {
        while (!awaitUnmount(Duration.ofDays(1))) {
            // again
        }
    }

    /**
     * {@link #awaitUnmount()} for at most {@code timeout}.
     *
     * @return whether the mount is gone
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitUnmount(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (closed.getCount() == 0 || !stillMounted()) {
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
     * Unmounts (lazily: a process still holding the file open keeps only its descriptor), waits for
     * libfuse's loop to end (10 s at most) and closes the payload channels this mount opened. Does
     * not close the volume: the caller does, after this. Idempotent.
     *
     * @throws IOException when libfuse's loop did not end in time
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        try {
            fuse.close();
        } catch (TimeoutException e) {
            throw new IOException("The FUSE loop of " + dir + " did not end within 10 s", e);
        } finally {
            fs.close();
            closed.countDown();
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

    /** The first of {@code candidates} that is a file, or null. */
    static Path library(List<Path> candidates) {
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Where libfuse3 may be: the property's file alone when it is set; else libfuse3.so.3 (what
     * the runtime package installs) and libfuse3.so (the development symlink) in
     * {@code java.library.path} and the usual library folders, the multiarch ones first.
     */
    static List<Path> libraryCandidates() {
        String named = System.getProperty(LIBRARY_PROPERTY);
        if (named != null && !named.isEmpty()) {
            return List.of(Path.of(named));
        }
        String arch = System.getProperty("os.arch", "");
        String multiarch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64", "arm64" -> "aarch64-linux-gnu";
            default -> arch + "-linux-gnu";
        };
        List<String> dirs = new ArrayList<>(List.of("/lib/" + multiarch, "/usr/lib/" + multiarch, "/lib64",
                "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", "/usr/local/lib/" + multiarch));
        for (String d : System.getProperty("java.library.path", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && !dirs.contains(d)) {
                dirs.add(d);
            }
        }
        List<Path> out = new ArrayList<>();
        for (String name : new String[] {"libfuse3.so.3", "libfuse3.so"}) {
            for (String d : dirs) {
                out.add(Path.of(d, name));
            }
        }
        return out;
    }

    private static String describe(List<Path> candidates) {
        if (candidates.size() == 1) {
            return "no file " + candidates.get(0);
        }
        Set<String> dirs = new java.util.LinkedHashSet<>();
        Set<String> names = new java.util.LinkedHashSet<>();
        for (Path p : candidates) {
            dirs.add(String.valueOf(p.getParent()));
            names.add(String.valueOf(p.getFileName()));
        }
        return String.join(" or ", names) + " in " + (dirs.size() > 3
                ? String.join(", ", new ArrayList<>(dirs).subList(0, 3)) + " and " + (dirs.size() - 3) + " more folders"
                : String.join(", ", dirs));
    }

    private static List<Path> pathDirs() {
        List<Path> out = new ArrayList<>();
        String path = System.getenv("PATH");
        for (String d : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            if (!d.isEmpty()) {
                out.add(Path.of(d));
            }
        }
        return out;
    }

    /** The uid and gid of this process (its /proc entry's owner), else of the mount point. */
    private static int[] owner(Path dir) {
        for (Path p : new Path[] {Path.of("/proc/self"), dir}) {
            try {
                return new int[] {(Integer) Files.getAttribute(p, "unix:uid"), (Integer) Files.getAttribute(p, "unix:gid")};
            } catch (IOException | RuntimeException e) {
                // the next
            }
        }
        return new int[] {0, 0};
    }

    private static void closeQuietly(Fuse fuse) {
        try {
            fuse.close();
        } catch (TimeoutException | RuntimeException e) {
            // the mount failed already; that is the error reported
        }
    }
}
