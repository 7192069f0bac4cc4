package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.cryptomator.jfuse.api.FuseBuilder;

/**
 * A read-only FUSE mount of a file tree: a folder of any {@link java.nio.file.FileSystem} — in
 * practice a disk image's, opened by {@code org.vectorjce.fs.DiskFileSystems} — shown under a
 * folder of this machine, through jfuse over the system's libfuse3, so that {@code ls -l},
 * {@code stat}, {@code cat}, {@code cp -a}, {@code find}, {@code grep -r} and symbolic links work
 * as on a read-only mount of the same filesystem.
 *
 * <pre>{@code
 * try (FileSystem fs = DiskFileSystems.open(Path.of("disk.img"), Map.of());
 *      FileTreeMount m = FileTreeMount.mount(fs.getPath("/"), Path.of("/mnt/files"),
 *              FileTreeMount.Options.defaults().source("disk.img"))) {
 *     m.awaitUnmount();                      // until fusermount3 -u /mnt/files, or close()
 * }
 * }</pre>
 *
 * <p><b>What is shown:</b> names, types, sizes, times (with their nanoseconds), modes, owners,
 * link counts and inode numbers as {@link TreeAttributes} reads them from the filesystem's
 * attribute views: from ext and XFS their modes and owner numbers, with hard links sharing an
 * inode number; from FAT, exFAT and NTFS 0755 folders and 0644 files (0444 when read-only)
 * owned by the user running the JVM. Symbolic links read as the filesystem stores their targets
 * (an absolute target points into this machine's tree, as on a kernel mount). Folders are listed
 * as the filesystem streams them, with bounded memory; a file is read at each offset through its
 * {@link java.nio.channels.SeekableByteChannel}, by several of libfuse's threads at once, with no
 * copy of it kept. Everything that would change the tree fails with {@code EROFS} ("Read-only
 * file system"): the mount is {@code ro}.
 *
 * <p><b>Who sees it:</b> the user running the JVM only (no {@code allow_other}), and the kernel
 * checks the modes shown ({@code default_permissions}), as it would on a kernel mount of the image.
 * The kernel keeps pages, names and attributes ({@link Options#cacheTimeout}): the tree must not
 * change while mounted, which a disk image's read-only filesystem does not.
 *
 * <p><b>Threads and lifetime:</b> libfuse runs the requests on a few threads of its own, and jfuse
 * a loop thread. {@link #close()} unmounts, waits for the loop (10 s at most) and closes the files
 * and folders still open; an unmount from outside ({@code fusermount3 -u DIR}, {@code umount}) is
 * noticed by {@link #awaitUnmount()}, which then does the same. No thread is left either way. If
 * the JVM dies, libfuse's {@code auto_unmount} helper unmounts. The {@code FileSystem} stays the
 * caller's: close it after this mount.
 *
 * <p><b>Needs</b> what {@link VolumeMount} needs: Java 22 or later with native access for jfuse,
 * Linux, libfuse3 and {@code fusermount3} (Debian and Ubuntu: the package {@code fuse3}), and a
 * usable {@code /dev/fuse}; {@link #problem()} checks them.
 */
public final class FileTreeMount extends FuseMount {
    private final boolean inodes;
    private final TreeFileSystem fs;

    private FileTreeMount(FuseSession session, boolean inodes, TreeFileSystem fs) {
        super(session);
        this.inodes = inodes;
        this.fs = fs;
    }

    /** How a tree is mounted; immutable, each setter returns a copy. */
    public static final class Options {
        private static final Options DEFAULTS = new Options("vectorjce", Duration.ofSeconds(60), false);

        private final String source;
        private final Duration cacheTimeout;
        /** Whether every file is opened with an OPEN request, even where the kernel can do without (tests). */
        private final boolean openRequests;

        private Options(String source, Duration cacheTimeout, boolean openRequests) {
            this.source = source;
            this.cacheTimeout = cacheTimeout;
            this.openRequests = openRequests;
        }

        /** The source {@code vectorjce}, names and attributes kept by the kernel for 60 s. */
        public static Options defaults() {
            return DEFAULTS;
        }

        /**
         * The mount's source as the mount table and {@code df} show it (e.g. the image's file
         * name); a comma, backslash, space or control character in it becomes {@code _}.
         */
        public Options source(String source) {
            Objects.requireNonNull(source, "source");
            StringBuilder b = new StringBuilder(source.length());
            source.codePoints().forEach(c -> b.appendCodePoint(
                    c == ',' || c == '\\' || c <= ' ' || c == 0x7f ? '_' : c));
            return new Options(b.isEmpty() ? "vectorjce" : b.toString(), cacheTimeout, openRequests);
        }

        /**
         * How long the kernel may keep a name, a missing name and a file's attributes before it asks
         * again (libfuse's {@code entry_timeout}, {@code negative_timeout}, {@code attr_timeout});
         * file contents stay in the page cache while mounted ({@code kernel_cache}). Zero to a day.
         */
        public Options cacheTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("cacheTimeout must be from 0 to 1 day: " + timeout);
            }
            return new Options(source, timeout, openRequests);
        }

        /** These options with an OPEN and a RELEASE request for every file, as on kernels before Linux 4.19. */
        Options openRequests() {
            return new Options(source, cacheTimeout, true);
        }

        String source() {
            return source;
        }

        Duration cacheTimeout() {
            return cacheTimeout;
        }

        @Override
        public String toString() {
            return "Options[source=" + source + ", cacheTimeout=" + cacheTimeout + "]";
        }
    }

    /**
     * Why FUSE cannot be used here, or {@code null} when it can: one line naming what is missing
     * and what to install (as {@link VolumeMount#problem()}). Loads nothing.
     */
    public static String problem() {
        return FuseLibrary.problem();
    }

    /** {@link #mount(Path, Path, Options)} with {@link Options#defaults()}. */
    public static FileTreeMount mount(Path root, Path dir) throws IOException {
        return mount(root, dir, Options.defaults());
    }

    /**
     * {@link #mount(Path, Path, Options)} with {@link Options#defaults()} and the source
     * {@code source} (e.g. the image's file name), for a caller that reaches this class by name.
     */
    public static FileTreeMount mount(Path root, Path dir, String source) throws IOException {
        return mount(root, dir, Options.defaults().source(source));
    }

    /**
     * Mounts the folder {@code root} (of any {@code FileSystem}) read-only on {@code dir} and
     * returns once the mount answers.
     *
     * @param root the folder whose tree is shown, e.g. {@code fs.getPath("/")}
     * @param dir an existing folder of the default filesystem, the mount point (its own files are
     *     hidden while mounted)
     * @throws FuseUnavailableException when FUSE cannot be used here ({@link #problem()}'s line)
     * @throws java.nio.file.NotDirectoryException when {@code root} is not a folder
     * @throws IOException when {@code dir} is not a folder or the mount fails (libfuse's reason)
     */
    public static FileTreeMount mount(Path root, Path dir, Options options) throws IOException {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        String problem = problem();
        if (problem != null) {
            throw new FuseUnavailableException(problem);
        }
        if (!Files.isDirectory(root)) {
            throw new java.nio.file.NotDirectoryException(root + " (the tree to mount is not a folder)");
        }
        if (dir.getFileSystem() != java.nio.file.FileSystems.getDefault() || !Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a folder: the mount point must be an existing folder");
        }
        Path real = dir.toRealPath();
        FuseBuilder builder = FuseLibrary.builder();
        int[] owner = FuseLibrary.owner(real);
        InodeFields fields = InodeFields.of(builder);
        TreeAttributes attributes = new TreeAttributes(root, owner[0], owner[1], fields);
        TreeFileSystem fs = new TreeFileSystem(root, attributes, fields, builder.errno(), !options.openRequests);
        String timeout = seconds(options.cacheTimeout());
        String mountOptions = "fsname=" + options.source() + ",subtype=" + FuseSession.FS_NAME
                + ",ro,default_permissions,auto_unmount,kernel_cache"
                + ",entry_timeout=" + timeout + ",negative_timeout=" + timeout + ",attr_timeout=" + timeout;
        return new FileTreeMount(FuseSession.mount(builder, fs, real, mountOptions, fs::close), fields.available(), fs);
    }

    private static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    /**
     * Whether the inode numbers shown are the filesystem's (hard links share one); when false,
     * libfuse numbers the inodes itself (a platform whose {@code struct stat} is not known here).
     */
    public boolean filesystemInodes() {
        return inodes;
    }

    /** Whether files are read without OPEN and RELEASE requests (the kernel offered it and the options allow it). */
    boolean opensWithoutRequests() {
        return fs.opensWithoutRequests();
    }
}
