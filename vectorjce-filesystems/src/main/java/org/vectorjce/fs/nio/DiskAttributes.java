package org.vectorjce.fs.nio;

import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * A node's attributes, read once: basic, DOS and (where the node carries an owner) POSIX. A time
 * the filesystem does not keep is the last-modified time, as {@link
 * java.nio.file.attribute.BasicFileAttributes}' contract suggests (the epoch when that too is
 * missing). A named stream (NTFS) is a regular file of the stream's size with its file's times.
 */
final class DiskAttributes implements DosFileAttributes, PosixFileAttributes {
    private static final FileTime EPOCH = FileTime.fromMillis(0);
    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    private final Node node;
    private final boolean stream;
    private final long size;

    DiskAttributes(Resolved r) {
        this.node = r.node();
        this.stream = r.stream() != null;
        this.size = r.size();
    }

    Node node() {
        return node;
    }

    @Override
    public FileTime lastModifiedTime() {
        return node.modified() != null ? node.modified() : EPOCH;
    }

    @Override
    public FileTime lastAccessTime() {
        return node.accessed() != null ? node.accessed() : lastModifiedTime();
    }

    @Override
    public FileTime creationTime() {
        return node.created() != null ? node.created() : lastModifiedTime();
    }

    @Override
    public boolean isRegularFile() {
        return stream || node.kind() == Kind.FILE;
    }

    @Override
    public boolean isDirectory() {
        return !stream && node.kind() == Kind.DIRECTORY;
    }

    @Override
    public boolean isSymbolicLink() {
        return !stream && node.kind() == Kind.SYMLINK;
    }

    @Override
    public boolean isOther() {
        return !stream && node.kind() == Kind.OTHER;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public Object fileKey() {
        return node.fileKey();
    }

    @Override
    public boolean isReadOnly() {
        return (node.dosAttributes() & Node.READ_ONLY) != 0;
    }

    @Override
    public boolean isHidden() {
        return (node.dosAttributes() & Node.HIDDEN) != 0;
    }

    @Override
    public boolean isArchive() {
        return (node.dosAttributes() & Node.ARCHIVE) != 0;
    }

    @Override
    public boolean isSystem() {
        return (node.dosAttributes() & Node.SYSTEM) != 0;
    }

    /** The owner's uid as its name ({@code "1000"}): the image's users are not this machine's. */
    @Override
    public UserPrincipal owner() {
        return new Principal(String.valueOf(node.uid()));
    }

    @Override
    public GroupPrincipal group() {
        return new Group(String.valueOf(node.gid()));
    }

    @Override
    public Set<PosixFilePermission> permissions() {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        int mode = Math.max(0, node.mode());
        for (int bit = 0; bit < BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(BITS[bit]);
            }
        }
        return set;
    }

    /**
     * stat(2)'s {@code st_mode}: the type bits (sys/stat.h: 040000 folder, 0100000 file, 0120000
     * link; 0 for another kind) and the mode bits.
     */
    int unixMode() {
        int type = isDirectory() ? 0040000 : isSymbolicLink() ? 0120000 : isRegularFile() ? 0100000 : 0;
        return type | Math.max(0, node.mode());
    }

    /** A user named by its number. */
    static class Principal implements UserPrincipal {
        private final String name;

        Principal(String name) {
            this.name = name;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean equals(Object o) {
            return o != null && o.getClass() == getClass() && ((Principal) o).name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A group named by its number. */
    static final class Group extends Principal implements GroupPrincipal {
        Group(String name) {
            super(name);
        }
    }
}
