package org.vectorjce.fs.xfs;

import org.vectorjce.fs.spi.Node;

/**
 * A file, folder or link of an XFS filesystem: its name in the folder it was listed from, its inode
 * number (the file key, shared by hard links), and its owner, group and permission bits.
 */
final class XfsNode extends Node {
    final long ino;
    private final int uid;
    private final int gid;
    private final int mode;
    private final int links;
    private final java.nio.file.attribute.FileTime changed;

    XfsNode(String name, Inode in, long size) {
        super(name, in.kind(), size, in.mtime, in.atime, in.crtime, 0, in.number);
        this.ino = in.number;
        this.uid = (int) in.uid;
        this.gid = (int) in.gid;
        this.mode = in.mode & 07777;
        this.links = (int) Math.min(in.nlink, Integer.MAX_VALUE);
        this.changed = in.ctime;
    }

    @Override
    public int uid() {
        return uid;
    }

    @Override
    public int gid() {
        return gid;
    }

    @Override
    public int mode() {
        return mode;
    }

    @Override
    public int links() {
        return links;
    }

    @Override
    public java.nio.file.attribute.FileTime changed() {
        return changed;
    }
}
