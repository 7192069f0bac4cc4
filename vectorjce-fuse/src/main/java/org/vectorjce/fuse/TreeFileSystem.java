package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.cryptomator.jfuse.api.DirFiller;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.FileInfo;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.FuseConnInfo;
import org.cryptomator.jfuse.api.FuseOperations;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.api.Statvfs;
import org.cryptomator.jfuse.api.TimeSpec;

/**
 * The FUSE operations of a read-only file tree: a folder of any {@link java.nio.file.FileSystem}
 * (a disk image's, read by vectorjce-filesystems; or the default one) as libfuse's high-level
 * API asks for it, path by path (fuse.h, {@code struct fuse_operations}).
 *
 * <p>Reads: {@code getattr} from {@link TreeAttributes}; {@code readdir} streamed with offsets
 * ({@link TreeDirectory}), with each entry's attributes when the kernel asks for READDIRPLUS.
 * Files are read without OPEN and RELEASE where the kernel allows it (fuse_common.h,
 * {@code FUSE_CAP_NO_OPEN_SUPPORT}, Linux 4.19 and later): the first {@code open} answers
 * {@code ENOSYS}, which the kernel takes as success for every later open of the mount, keeping
 * each file's page cache; each {@code read} then opens the file's {@link SeekableByteChannel} by
 * its path, reads at its offset and closes it. That spares every file two requests, and the
 * wait for one, of the three or four a {@code cp} of a small file costs. Where the kernel does
 * not offer it, {@code open} opens the channel and each {@code read} reads it at its offset (a
 * {@link FileChannel} positionally, any other channel under its own lock: libfuse's threads may
 * read one open file at once). Nothing is buffered here;
 * {@code readlink} the target as the filesystem stores it; {@code statfs} from the
 * {@link FileStore}. Every call that would change something answers {@code EROFS} (the kernel
 * refuses most of them itself on the {@code ro} mount).
 *
 * <p>Every operation returns an errno rather than throwing: an exception leaving an upcall would
 * end the JVM (FFM's rule for upcalls) and leave the mount behind.
 */
final class TreeFileSystem implements FuseOperations {
    /** errno values jfuse's {@link Errno} does not name (asm-generic/errno-base.h, errno.h). */
    static final int ELOOP = 40;
    /** open(2)'s access mode bits and read-only mode (fcntl.h); access(2)'s W_OK (unistd.h). */
    static final int O_ACCMODE = 3, O_RDONLY = 0, W_OK = 2;
    /** statfs's f_namemax: what ext, XFS, NTFS and VFAT allow. */
    static final int NAME_MAX = 255;

    private final Path root;
    private final TreeAttributes attributes;
    private final InodeFields fields;
    private final Errno errno;
    private final FileStore store;
    private final AtomicLong handles = new AtomicLong();
    private final Map<Long, SeekableByteChannel> files = new ConcurrentHashMap<>();
    private final Map<Long, TreeDirectory> dirs = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** Whether files may be opened without OPEN requests where the kernel offers it. */
    private final boolean zeroMessageOpensAllowed;
    /** Whether the kernel opens files without asking (init's {@code FUSE_CAP_NO_OPEN_SUPPORT}, when allowed). */
    private volatile boolean zeroMessageOpens;

    TreeFileSystem(Path root, TreeAttributes attributes, InodeFields fields, Errno errno, boolean zeroMessageOpensAllowed) {
        this.root = root;
        this.zeroMessageOpensAllowed = zeroMessageOpensAllowed;
        this.fields = fields;
        this.attributes = attributes;
        this.errno = errno;
        FileStore s;
        try {
            s = Files.getFileStore(root);
        } catch (IOException | RuntimeException e) {
            s = null;
        }
        this.store = s;
    }

    @Override
    public Errno errno() {
        return errno;
    }

    @Override
    public Set<Operation> supportedOperations() {
        return EnumSet.of(Operation.INIT, Operation.GET_ATTR, Operation.READLINK, Operation.OPEN, Operation.READ,
                Operation.RELEASE, Operation.OPEN_DIR, Operation.READ_DIR, Operation.RELEASE_DIR, Operation.STATFS,
                Operation.ACCESS,
                // each answered EROFS
                Operation.WRITE, Operation.CREATE, Operation.MKDIR, Operation.RMDIR, Operation.UNLINK,
                Operation.RENAME, Operation.SYMLINK, Operation.CHMOD, Operation.CHOWN, Operation.TRUNCATE,
                Operation.UTIMENS, Operation.SET_XATTR, Operation.REMOVE_XATTR);
    }

    /**
     * Asks libfuse to pass the inode numbers {@link TreeAttributes} gives (fuse.h: {@code use_ino}),
     * and notes whether the kernel opens files without an OPEN request.
     */
    @Override
    public void init(FuseConnInfo conn, FuseConfig config) {
        fields.useInodes(config);
        zeroMessageOpens = zeroMessageOpensAllowed && (conn.capable() & FuseConnInfo.FUSE_CAP_NO_OPEN_SUPPORT) != 0;
    }

    /** Whether files are opened without OPEN requests (known once the kernel has called {@link #init}). */
    boolean opensWithoutRequests() {
        return zeroMessageOpens;
    }

    /** The tree's path for libfuse's {@code "/a/b"} (never holding "." or "..": the kernel resolves those). */
    private Path resolve(String p) {
        return p.length() <= 1 ? root : root.resolve(p.substring(1));
    }

    @Override
    public int getattr(String p, Stat stat, FileInfo fi) {
        try {
            attributes.fill(attributes.read(resolve(p), p), stat);
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    @Override
    public int readlink(String p, ByteBuffer buf, long len) {
        try {
            byte[] target = Files.readSymbolicLink(resolve(p)).toString().getBytes(StandardCharsets.UTF_8);
            int room = (int) Math.min(Math.min(len, buf.remaining()), Integer.MAX_VALUE);
            if (room <= 0) {
                return -errno.einval();
            }
            int n = Math.min(target.length, room - 1); // readlink in fuse.h: truncated, NUL-terminated
            buf.put(target, 0, n).put((byte) 0);
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    @Override
    public int open(String p, FileInfo fi) {
        if ((fi.getFlags() & O_ACCMODE) != O_RDONLY) {
            return -errno.erofs();
        }
        if (closed) {
            return -errno.eio();
        }
        try {
            Path path = resolve(p);
            if (attributes.read(path, p).isDirectory()) {
                return -errno.eisdir();
            }
            if (zeroMessageOpens) {
                // success, and no OPEN or RELEASE again for any file of the mount: each read opens
                // the file (fi's handle stays 0, which no channel here has)
                return -errno.enosys();
            }
            SeekableByteChannel c = Files.newByteChannel(path, StandardOpenOption.READ);
            long fh = handles.incrementAndGet();
            files.put(fh, c);
            fi.setFh(fh);
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    @Override
    public int read(String p, ByteBuffer buf, long count, long offset, FileInfo fi) {
        if (offset < 0 || count < 0) {
            return -errno.einval();
        }
        if (fi.getFh() == 0) {   // opened without an OPEN request (zeroMessageOpens)
            if (closed) {
                return -errno.eio();
            }
            try (SeekableByteChannel c = Files.newByteChannel(resolve(p), StandardOpenOption.READ)) {
                return readAt(c, buf, count, offset);
            } catch (IOException | RuntimeException e) {
                return -errno(e);
            }
        }
        SeekableByteChannel c = files.get(fi.getFh());
        if (c == null) {
            return -errno.ebadf();
        }
        try {
            return readAt(c, buf, count, offset);
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    /** Up to {@code count} bytes of {@code c} from {@code offset} into {@code buf}: how many, fewer only at the end. */
    private static int readAt(SeekableByteChannel c, ByteBuffer buf, long count, long offset) throws IOException {
        buf.limit(buf.position() + (int) Math.min(count, buf.remaining()));
        int done = 0;
        if (c instanceof FileChannel f) {
            while (buf.hasRemaining()) {
                int k = f.read(buf, offset + done);
                if (k < 0) {
                    break;
                }
                done += k;
            }
            return done;
        }
        synchronized (c) {
            c.position(offset);
            while (buf.hasRemaining()) {
                int k = c.read(buf);
                if (k < 0) {
                    break;
                }
                done += k;
            }
        }
        return done;
    }

    @Override
    public int release(String p, FileInfo fi) {
        SeekableByteChannel c = files.remove(fi.getFh());
        if (c != null) {
            closeQuietly(c);
        }
        return 0;
    }

    @Override
    public int opendir(String p, FileInfo fi) {
        if (closed) {
            return -errno.eio();
        }
        Path path = resolve(p);
        try {
            if (!attributes.read(path, p).isDirectory()) {
                return -errno.enotdir();
            }
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
        long fh = handles.incrementAndGet();
        dirs.put(fh, new TreeDirectory(path));
        fi.setFh(fh);
        return 0;
    }

    @Override
    public int readdir(String p, DirFiller filler, long offset, FileInfo fi, int flags) {
        TreeDirectory d = dirs.get(fi.getFh());
        if (d == null) {
            return -errno.ebadf();
        }
        String prefix = p.length() <= 1 ? "/" : p + "/";
        // READDIRPLUS (fuse.h FUSE_READDIR_PLUS): each entry carries getattr's attributes, so
        // that `ls -l`, `find` and `cp -a` over a folder need no LOOKUP of each name after it
        boolean plus = (flags & FuseOperations.FUSE_READDIR_PLUS) != 0;
        try {
            d.list(offset, new TreeDirectory.Sink() {
                @Override
                public boolean dot(String name, long next) {
                    // "." is the folder, ".." its parent (the root's is the root): both need an inode
                    // number, as readdir(3) skips an entry whose d_ino is 0
                    String of = name.equals(".") || p.length() <= 1 ? p
                            : p.substring(0, Math.max(1, p.lastIndexOf('/')));
                    return fill(filler, name, resolve(of), of, next, false);
                }

                @Override
                public boolean entry(Path entry, long next) {
                    String name = entry.getFileName().toString();
                    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                            || name.indexOf('\0') >= 0) {
                        return true; // a crafted disk's entry no path can name: left out, as the kernel would refuse it
                    }
                    return fill(filler, name, entry, prefix + name, next, plus);
                }
            });
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    /**
     * Adds one entry with its type and inode number, or with all its attributes when {@code plus}
     * (and they could be read); false when libfuse's buffer is full.
     */
    private boolean fill(DirFiller filler, String name, Path path, String fusePath, long next, boolean plus) {
        TreeAttributes.Info info;
        try {
            info = attributes.read(path, fusePath);
        } catch (IOException | RuntimeException e) {
            info = null; // listed without a type; its getattr reports the error
        }
        TreeAttributes.Info i = info;
        if (plus && i != null) {
            return filler.fill(name, st -> attributes.fill(i, st), next, DirFiller.FUSE_FILL_DIR_PLUS) == 0;
        }
        return filler.fill(name, st -> attributes.fillEntry(i, fusePath, st), next, 0) == 0;
    }

    @Override
    public int releasedir(String p, FileInfo fi) {
        TreeDirectory d = dirs.remove(fi.getFh());
        if (d != null) {
            d.close();
        }
        return 0;
    }

    @Override
    public int statfs(String p, Statvfs st) {
        long block = attributes.blockSize();
        st.setBsize(block);
        st.setFrsize(block);
        st.setNameMax(NAME_MAX);
        if (store != null) {
            try {
                st.setBlocks(store.getTotalSpace() / block);
                st.setBfree(store.getUnallocatedSpace() / block);
                st.setBavail(store.getUsableSpace() / block);
            } catch (IOException | RuntimeException e) {
                return -errno(e);
            }
        }
        return 0;
    }

    @Override
    public int access(String p, int mask) {
        try {
            attributes.read(resolve(p), p);
            return (mask & W_OK) != 0 ? -errno.erofs() : 0;
        } catch (IOException | RuntimeException e) {
            return -errno(e);
        }
    }

    // Every change: EROFS.

    @Override
    public int write(String p, ByteBuffer buf, long count, long offset, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int create(String p, int mode, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int mkdir(String p, int mode) {
        return -errno.erofs();
    }

    @Override
    public int rmdir(String p) {
        return -errno.erofs();
    }

    @Override
    public int unlink(String p) {
        return -errno.erofs();
    }

    @Override
    public int rename(String from, String to, int flags) {
        return -errno.erofs();
    }

    @Override
    public int symlink(String target, String p) {
        return -errno.erofs();
    }

    @Override
    public int chmod(String p, int mode, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int chown(String p, int uid, int gid, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int truncate(String p, long size, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int utimens(String p, TimeSpec atime, TimeSpec mtime, FileInfo fi) {
        return -errno.erofs();
    }

    @Override
    public int setxattr(String p, String name, ByteBuffer value, int flags) {
        return -errno.erofs();
    }

    @Override
    public int removexattr(String p, String name) {
        return -errno.erofs();
    }

    /** The errno of a failed read: a missing path, a wrong type, a loop, else an I/O error. */
    private int errno(Exception e) {
        if (e instanceof NoSuchFileException || e instanceof InvalidPathException) {
            return errno.enoent();
        }
        if (e instanceof NotDirectoryException) {
            return errno.enotdir();
        }
        if (e instanceof NotLinkException) {
            return errno.einval(); // readlink(2) of what is not a link
        }
        if (e instanceof AccessDeniedException) {
            return errno.eacces();
        }
        if (e instanceof FileSystemLoopException) {
            return ELOOP;
        }
        if (e instanceof ReadOnlyFileSystemException) {
            return errno.erofs();
        }
        return errno.eio();
    }

    /** Closes the files and folders left open (after libfuse's loop has ended). */
    void close() {
        closed = true;
        for (SeekableByteChannel c : files.values()) {
            closeQuietly(c);
        }
        files.clear();
        for (TreeDirectory d : dirs.values()) {
            d.close();
        }
        dirs.clear();
    }

    private static void closeQuietly(SeekableByteChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // read-only: nothing is lost
        }
    }
}
