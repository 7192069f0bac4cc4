package org.vectorjce.fs.spi;

import java.nio.file.attribute.FileTime;

/**
 * One file, folder or link of a {@link DiskFs}, as the driver read it from its directory entry or
 * inode: immutable. Each driver subclasses it to carry where its data is (a first cluster, an MFT
 * record number); only that driver reads those fields.
 *
 * <p>Times are {@code null} where the filesystem keeps none (FAT's access date is a day, given as
 * its midnight UTC; FAT keeps no creation time when the field is zero).
 */
public abstract class Node {
    /** DOS attribute bits, as {@link java.nio.file.attribute.DosFileAttributes} reads them. */
    public static final int READ_ONLY = 0x01;
    public static final int HIDDEN = 0x02;
    public static final int SYSTEM = 0x04;
    public static final int ARCHIVE = 0x20;

    private final String name;
    private final Kind kind;
    private final long size;
    private final FileTime modified;
    private final FileTime accessed;
    private final FileTime created;
    private final int dosAttributes;
    private final long fileKey;

    /**
     * @param name the name in its directory (the root's is {@code ""}), never containing {@code '/'}
     *     or NUL: a driver that reads such a name from the disk replaces those characters with
     *     {@code '_'} (U+FFFD for undecodable bytes)
     * @param kind what it is
     * @param size bytes of its data (the main stream); 0 for a folder
     * @param fileKey what identifies it in its filesystem: the first cluster (FAT, exFAT), the MFT
     *     record number (NTFS), the inode (ext, XFS)
     */
    protected Node(String name, Kind kind, long size, FileTime modified, FileTime accessed, FileTime created,
            int dosAttributes, long fileKey) {
        this.name = name;
        this.kind = kind;
        this.size = size;
        this.modified = modified;
        this.accessed = accessed;
        this.created = created;
        this.dosAttributes = dosAttributes;
        this.fileKey = fileKey;
    }

    public final String name() {
        return name;
    }

    public final Kind kind() {
        return kind;
    }

    public final boolean isDirectory() {
        return kind == Kind.DIRECTORY;
    }

    public final long size() {
        return size;
    }

    public final FileTime modified() {
        return modified;
    }

    public final FileTime accessed() {
        return accessed;
    }

    public final FileTime created() {
        return created;
    }

    public final int dosAttributes() {
        return dosAttributes;
    }

    public final long fileKey() {
        return fileKey;
    }

    /** POSIX owner, or -1 where the filesystem keeps none (FAT, exFAT, NTFS). */
    public int uid() {
        return -1;
    }

    /** POSIX group, or -1. */
    public int gid() {
        return -1;
    }

    /** POSIX mode bits ({@code 07777}), or -1. */
    public int mode() {
        return -1;
    }

    /** The number of names of the inode (its hard links; a folder's subfolders + 2), or -1 where unknown. */
    public int links() {
        return -1;
    }

    /** The inode's change time ({@code st_ctime}), or {@code null} where the filesystem keeps none. */
    public FileTime changed() {
        return null;
    }

    @Override
    public String toString() {
        return kind + " " + name + " (" + size + " bytes, key " + fileKey + ")";
    }
}
