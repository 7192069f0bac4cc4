package org.vectorjce.fs.ext;

import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * One inode under one name as a {@link Node}: {@link #fileKey()} is the inode number, so the
 * names of a hard-linked file share it. Owner, group and mode bits come from the inode, for the
 * nio layer's PosixFileAttributes. The parent is kept (a chain to the root, at most
 * {@link #MAX_DEPTH} long) so that a directory entry naming one of its own ancestors, which would
 * make a walk endless, is caught when it is listed.
 */
final class ExtNode extends Node {
    /** Folders nest at most this deep (PATH_MAX 4096 allows 2048 one-character names). */
    static final int MAX_DEPTH = 2048;

    final Inode inode;
    final ExtNode parent;
    final int depth;

    ExtNode(String name, Inode inode, ExtNode parent) {
        super(name, kind(inode), inode.type() == Inode.S_IFDIR ? 0 : inode.size, inode.mtime, inode.atime,
                inode.crtime, 0, inode.number);
        this.inode = inode;
        this.parent = parent;
        this.depth = parent == null ? 0 : parent.depth + 1;
    }

    private static Kind kind(Inode inode) {
        return switch (inode.type()) {
            case Inode.S_IFDIR -> Kind.DIRECTORY;
            case Inode.S_IFREG -> Kind.FILE;
            case Inode.S_IFLNK -> Kind.SYMLINK;
            default -> Kind.OTHER;
        };
    }

    @Override
    public int uid() {
        return inode.uid;
    }

    @Override
    public int gid() {
        return inode.gid;
    }

    @Override
    public int mode() {
        return inode.mode & 07777;
    }

    @Override
    public int links() {
        return inode.links;
    }

    @Override
    public java.nio.file.attribute.FileTime changed() {
        return inode.ctime;
    }
}
