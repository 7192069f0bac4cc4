package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.cryptomator.jfuse.api.DirFiller;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.FileInfo;
import org.cryptomator.jfuse.api.FuseOperations;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.api.Statvfs;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * The FUSE operations of a root folder holding one regular file, the volume's payload.
 *
 * <p>Calls come on libfuse's worker threads, several at once, and each reads or writes the
 * volume's {@link Volume#device() device} at its own offset. Reads share a lock and writes take it
 * alone (a write of part of a sector reads, patches and re-encrypts the whole sector, which a
 * concurrent write to the same sector would undo; a read beside a write could see half of it), the
 * same discipline as the NBD server's. At most {@link #CALLS} calls are on the device at once (each
 * holds one of the device's ciphers and its 1 MiB work buffer), so memory stays bounded whatever the
 * number of threads; the data moves between libfuse's own request buffer and the device, with no
 * buffer here sized by a request.
 *
 * <p>Every operation returns an errno rather than throwing: an exception leaving an upcall would
 * end the JVM (FFM's rule for upcalls) and leave the mount behind.
 */
final class PayloadFileSystem implements FuseOperations {
    /**
     * errno values jfuse's {@link Errno} does not name; asm-generic/errno-base.h, the same on
     * every Linux architecture (and in BSD's errno.h).
     */
    static final int EPERM = 1, EFBIG = 27, ENOSPC = 28;
    /** open(2)'s access mode bits and read-only mode (fcntl.h). */
    static final int O_ACCMODE = 3, O_RDONLY = 0;
    /** Calls on the device at once at most: concurrent calls beyond this wait for one to end. */
    static final int CALLS = 4;

    private final Volume volume;
    private final String path;
    private final String name;
    private final long size;
    private final boolean readOnly;
    private final int uid, gid;
    private final Errno errno;
    private final Instant mounted = Instant.now();
    private volatile Instant modified = mounted;

    private final ReadWriteLock io = new ReentrantReadWriteLock();
    private final Semaphore permits = new Semaphore(CALLS);
    /** The volume's device, opened by the first read or write; guarded by {@code this}. */
    private Device device;
    private boolean closed;

    PayloadFileSystem(Volume volume, String name, boolean readOnly, int uid, int gid, Errno errno) {
        this.volume = volume;
        this.name = name;
        this.path = "/" + name;
        this.size = volume.payloadSize();
        this.readOnly = readOnly;
        this.uid = uid;
        this.gid = gid;
        this.errno = errno;
    }

    @Override
    public Errno errno() {
        return errno;
    }

    @Override
    public Set<Operation> supportedOperations() {
        return EnumSet.of(Operation.GET_ATTR, Operation.OPEN, Operation.READ, Operation.WRITE, Operation.TRUNCATE,
                Operation.FLUSH, Operation.FSYNC, Operation.RELEASE, Operation.OPEN_DIR, Operation.READ_DIR,
                Operation.RELEASE_DIR, Operation.STATFS);
    }

    @Override
    @SuppressWarnings("OctalInteger")
    public int getattr(String p, Stat stat, FileInfo fi) {
        boolean root = "/".equals(p);
        if (!root && !path.equals(p)) {
            return -errno.enoent();
        }
        int perm = root ? (readOnly ? 0500 : 0700) : (readOnly ? 0400 : 0600);
        stat.setMode((root ? Stat.S_IFDIR : Stat.S_IFREG) | perm);
        stat.setNLink((short) (root ? 2 : 1));
        stat.setUid(uid);
        stat.setGid(gid);
        stat.setSize(root ? 0 : size);
        Instant m = root ? mounted : modified;
        stat.aTime().set(m);
        stat.mTime().set(m);
        stat.cTime().set(m);
        return 0;
    }

    @Override
    public int open(String p, FileInfo fi) {
        if (!path.equals(p)) {
            return "/".equals(p) ? -errno.eisdir() : -errno.enoent();
        }
        if (readOnly && (fi.getFlags() & O_ACCMODE) != O_RDONLY) {
            return -errno.erofs();
        }
        return 0;
    }

    @Override
    public int read(String p, ByteBuffer buf, long count, long offset, FileInfo fi) {
        if (!path.equals(p)) {
            return -errno.enoent();
        }
        if (offset < 0 || count < 0) {
            return -errno.einval();
        }
        if (offset >= size) {
            return 0;
        }
        int n = (int) Math.min(Math.min(count, buf.remaining()), size - offset);
        buf.limit(buf.position() + n);
        io.readLock().lock();
        try {
            return transfer(buf, offset, false);
        } finally {
            io.readLock().unlock();
        }
    }

    @Override
    public int write(String p, ByteBuffer buf, long count, long offset, FileInfo fi) {
        if (!path.equals(p)) {
            return -errno.enoent();
        }
        if (readOnly) {
            return -errno.erofs();
        }
        if (offset < 0 || count < 0) {
            return -errno.einval();
        }
        if (count == 0) {
            return 0;
        }
        if (offset >= size) {
            return -ENOSPC; // what a block device answers at its end; the part before the end of a longer write is written
        }
        int n = (int) Math.min(Math.min(count, buf.remaining()), size - offset);
        buf.limit(buf.position() + n);
        io.writeLock().lock();
        try {
            int w = transfer(buf, offset, true);
            if (w > 0) {
                modified = Instant.now();
            }
            return w;
        } finally {
            io.writeLock().unlock();
        }
    }

    /** Moves {@code buf}'s remaining bytes from or to the payload at {@code offset}: the count, or -errno. */
    private int transfer(ByteBuffer buf, long offset, boolean write) {
        permits.acquireUninterruptibly();
        try {
            Device d = device();
            int done = 0;
            if (write) {
                done = buf.remaining();
                d.write(buf, offset);
            } else {
                while (buf.hasRemaining()) {
                    int k = d.read(buf, offset + done);
                    if (k < 0) {
                        break;
                    }
                    done += k;
                }
            }
            return done;
        } catch (NonWritableChannelException e) {
            return -errno.erofs();
        } catch (IOException | VolumeException | RuntimeException e) {
            return -errno.eio();
        } finally {
            permits.release();
        }
    }

    /** The volume's device, opened on first use (once, by one thread: {@code Volume.device()} is not promised to be thread-safe). */
    private synchronized Device device() throws IOException, VolumeException {
        if (closed) {
            throw new IOException("The mount is closed");
        }
        if (device == null) {
            device = volume.device();
        }
        return device;
    }

    @Override
    public int truncate(String p, long length, FileInfo fi) {
        if (!path.equals(p)) {
            return "/".equals(p) ? -errno.eisdir() : -errno.enoent();
        }
        if (length == size) {
            return 0;
        }
        return readOnly ? -errno.erofs() : -EPERM; // the payload's size is the volume's
    }

    @Override
    public int flush(String p, FileInfo fi) {
        return 0; // close(2): nothing is buffered here; fsync makes writes durable
    }

    @Override
    public int fsync(String p, int datasync, FileInfo fi) {
        if (!path.equals(p)) {
            return -errno.enoent();
        }
        try {
            volume.flush();
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno.eio();
        }
    }

    @Override
    public int release(String p, FileInfo fi) {
        return 0;
    }

    @Override
    public int opendir(String p, FileInfo fi) {
        if ("/".equals(p)) {
            return 0;
        }
        return path.equals(p) ? -errno.enotdir() : -errno.enoent();
    }

    @Override
    public int readdir(String p, DirFiller filler, long offset, FileInfo fi, int flags) {
        if (!"/".equals(p)) {
            return -errno.enoent();
        }
        try {
            filler.fill(".");
            filler.fill("..");
            filler.fill(name);
            return 0;
        } catch (IOException | RuntimeException e) {
            return -errno.eio();
        }
    }

    @Override
    public int releasedir(String p, FileInfo fi) {
        return 0;
    }

    @Override
    public int statfs(String p, Statvfs st) {
        long block = volume.sectorSize();
        st.setBsize(block);
        st.setFrsize(block);
        st.setBlocks((size + block - 1) / block);
        st.setBfree(0);
        st.setBavail(0);
        st.setNameMax(255);
        return 0;
    }

    /** Closes the device this file system opened (after the FUSE loop has ended). */
    synchronized void close() {
        closed = true;
        if (device != null) {
            try {
                device.close();
            } catch (IOException e) {
                // a device's close wipes and releases; the volume closes it again
            }
            device = null;
        }
    }
}
