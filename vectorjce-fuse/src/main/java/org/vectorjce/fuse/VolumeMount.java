package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.cryptomator.jfuse.api.FuseBuilder;
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
 * checks the modes ({@code default_permissions}). Reads and writes at any offset go to the
 * volume's {@link Volume#device() device} at that offset, so writes are encrypted in place. The file never changes size: a
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
 * loop thread; reads run side by side, a write alone. At most four requests are on the device at
 * once (each with a cipher and its 1 MiB work buffer); nothing is allocated per request.
 * {@link #close()} unmounts, waits for the loop (10 s at most) and closes the device; no thread is
 * left.
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
 * these. A mount is also undone by {@code fusermount3 -u DIR} (a thread in {@link #awaitUnmount()}
 * then ends libfuse's loop and closes the channels); if the JVM dies, libfuse's
 * {@code auto_unmount} helper unmounts it.
 */
public final class VolumeMount extends FuseMount {
    /** The system property naming libfuse3's file, for a system where it is in no usual place. */
    public static final String LIBRARY_PROPERTY = FuseLibrary.LIBRARY_PROPERTY;
    private final Path file;
    private final boolean readOnly;

    private VolumeMount(FuseSession session, String fileName, boolean readOnly) {
        super(session);
        this.file = session.directory().resolve(fileName);
        this.readOnly = readOnly;
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
        return FuseLibrary.problem();
    }

    /** {@link #problem()} over the given places (for the tests). */
    static String problem(List<Path> libraries, Path devFuse, List<Path> pathDirs) {
        return FuseLibrary.problem(libraries, devFuse, pathDirs);
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
        FuseBuilder builder = FuseLibrary.builder();
        int[] owner = FuseLibrary.owner(real);
        PayloadFileSystem fs = new PayloadFileSystem(volume, fileName, ro, owner[0], owner[1], builder.errno());
        String options = "fsname=" + FuseSession.FS_NAME + ",subtype=" + FuseSession.FS_NAME
                + ",default_permissions,auto_unmount" + (ro ? ",ro" : "");
        return new VolumeMount(FuseSession.mount(builder, fs, real, options, fs::close), fileName, ro);
    }

    /** The mounted file, {@code dir/fileName} (dir with its links resolved). */
    public Path file() {
        return file;
    }

    /** Whether the file refuses writes (asked, or the volume is read-only). */
    public boolean readOnly() {
        return readOnly;
    }

    /** The ids of the FUSE mounts on {@code dir} in this process's mount table (for the tests). */
    static Set<String> fuseMounts(Path dir) {
        return FuseSession.fuseMounts(dir);
    }

    static String unescape(String s) {
        return FuseSession.unescape(s);
    }

    static List<Path> libraryCandidates() {
        return FuseLibrary.libraryCandidates();
    }
}
