package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import org.cryptomator.jfuse.api.Stat;

/**
 * A path's attributes as {@code stat(2)} gives them, from whatever views its {@code FileSystem}
 * has: the {@code unix} view where present (the JDK's default filesystem: mode with its
 * set-id and sticky bits, link count, owner and group numbers, inode, change time), else
 * {@code posix} (permission bits, and owners whose names are numbers, as a disk image's are),
 * else {@code basic} and {@code dos} (0755 folders, 0644 files, 0444 read-only ones, 0777 links,
 * owned by the mounting user, as {@code vfat} and {@code ntfs3} show them with a 022 umask).
 *
 * <p>"Other" files (a device, fifo or socket) are shown as regular files of their size where the
 * view cannot tell them apart. Inode numbers: the {@code unix} view's, else the file key when it
 * is a positive number (the inode on ext and XFS, the MFT record on NTFS, the first cluster on
 * FAT and exFAT: shared by a file's hard links and by nothing else), else a number made from the path (an empty file on FAT
 * has no cluster), with bit 62 set so that it meets no file key. Link counts: the {@code unix}
 * view's, else 1 (the count is unknown, as {@code btrfs} says of folders).
 */
final class TreeAttributes {
    /** stat(2)'s set-user-id, set-group-id and sticky bits and the permission bits. */
    static final int MODE_BITS = 07777;
    static final long SYNTHETIC_INO = 1L << 62;

    private final boolean unix, posix;
    private final int uid, gid;
    private final long blockSize;
    private final InodeFields fields;

    TreeAttributes(Path root, int uid, int gid, InodeFields fields) {
        Set<String> views = root.getFileSystem().supportedFileAttributeViews();
        this.unix = views.contains("unix");
        this.posix = views.contains("posix");
        this.uid = uid;
        this.gid = gid;
        this.fields = fields;
        this.blockSize = blockSize(root);
    }

    /** The store's block size, else 4096 (ext4's and NTFS's usual one). */
    private static long blockSize(Path root) {
        try {
            FileStore store = Files.getFileStore(root);
            long b = store.getBlockSize();
            return b >= 512 && b <= (1 << 24) ? b : 4096;
        } catch (IOException | RuntimeException e) {
            return 4096;
        }
    }

    long blockSize() {
        return blockSize;
    }

    /** One path's stat, read in one go. */
    record Info(int mode, long nlink, int uid, int gid, long size, FileTime atime, FileTime mtime, FileTime ctime,
            long ino) {
        boolean isDirectory() {
            return (mode & Stat.S_IFMT) == Stat.S_IFDIR;
        }
    }

    /** The {@code unix} view's names read in one go: what stat(2) needs. */
    static final String UNIX_NAMES = "unix:mode,ino,nlink,uid,gid,size,lastAccessTime,lastModifiedTime,ctime";

    /**
     * The attributes of {@code path}, its links not followed: one read of the {@code unix} view
     * where there is one, else of {@code posix} or {@code basic}.
     *
     * @throws IOException as {@code Files.readAttributes} throws it
     */
    Info read(Path path, String fusePath) throws IOException {
        if (unix) {
            Map<String, Object> m;
            try {
                m = Files.readAttributes(path, UNIX_NAMES, LinkOption.NOFOLLOW_LINKS);
            } catch (UnsupportedOperationException e) {
                m = null; // this node keeps no owner: as a filesystem without the view
            }
            if (m != null) {
                int mode = (Integer) m.get("mode");
                int type = mode & Stat.S_IFMT;
                return new Info((type == 0 ? Stat.S_IFREG : type) | (mode & MODE_BITS),
                        ((Number) m.get("nlink")).longValue(), (Integer) m.get("uid"), (Integer) m.get("gid"),
                        (Long) m.get("size"), (FileTime) m.get("lastAccessTime"), (FileTime) m.get("lastModifiedTime"),
                        (FileTime) m.get("ctime"), ((Number) m.get("ino")).longValue());
            }
        }
        BasicFileAttributes a = null;
        if (posix) {
            try {
                a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (UnsupportedOperationException e) {
                // this node keeps no owner: basic
            }
        }
        if (a == null) {
            a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        }
        int type = a.isDirectory() ? Stat.S_IFDIR : a.isSymbolicLink() ? Stat.S_IFLNK : Stat.S_IFREG;
        int perm;
        int u = uid, g = gid;
        if (posix && a instanceof PosixFileAttributes p) {
            perm = bits(p.permissions());
            u = number(p.owner().getName(), uid);
            g = number(p.group().getName(), gid);
        } else if (type == Stat.S_IFLNK) {
            perm = 0777;
        } else if (type == Stat.S_IFDIR) {
            perm = 0755;
        } else {
            perm = a instanceof DosFileAttributes d && d.isReadOnly() ? 0444 : 0644;
        }
        long number = a.fileKey() instanceof Number n && n.longValue() > 0 ? n.longValue() : synthetic(fusePath);
        return new Info(type | perm, 1, u, g, a.size(), a.lastAccessTime(), a.lastModifiedTime(), a.lastModifiedTime(),
                number);
    }

    /** Fills {@code stat} with {@code info}. */
    void fill(Info info, Stat stat) {
        stat.setMode(info.mode());
        stat.setNLink((short) Math.min(info.nlink(), Short.MAX_VALUE));
        stat.setUid(info.uid());
        stat.setGid(info.gid());
        stat.setSize(info.size());
        stat.aTime().set(info.atime().toInstant());
        stat.mTime().set(info.mtime().toInstant());
        stat.cTime().set(info.ctime().toInstant());
        int type = info.mode() & Stat.S_IFMT;
        long blocks = type == Stat.S_IFREG || type == Stat.S_IFDIR
                ? (info.size() + blockSize - 1) / blockSize * (blockSize / 512) : 0;
        fields.set(stat, info.ino(), blocks);
    }

    /**
     * Fills only what a folder entry carries: the type, and the inode where it can be set ({@code info}
     * null: unknown type, the path's made-up number).
     */
    void fillEntry(Info info, String fusePath, Stat stat) {
        if (info != null) {
            stat.setMode(info.mode());
        }
        fields.set(stat, info != null ? info.ino() : synthetic(fusePath), 0);
    }

    private static int bits(Set<PosixFilePermission> perms) {
        int mode = 0;
        for (PosixFilePermission p : perms) {
            mode |= 0400 >> p.ordinal(); // OWNER_READ, OWNER_WRITE, ... OTHERS_EXECUTE: 0400 down to 0001
        }
        return mode;
    }

    private static int number(String name, int otherwise) {
        try {
            int n = Integer.parseInt(name);
            return n >= 0 ? n : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** A stable inode number for a path whose filesystem gives none: 62 bits of FNV-1a over its UTF-8 bytes. */
    static long synthetic(String fusePath) {
        long h = 0xcbf29ce484222325L;
        for (byte b : fusePath.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return SYNTHETIC_INO | (h & (SYNTHETIC_INO - 1));
    }
}
