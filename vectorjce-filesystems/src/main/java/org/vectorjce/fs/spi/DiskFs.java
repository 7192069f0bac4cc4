package org.vectorjce.fs.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.vectorjce.fs.FsInfo;

/**
 * One open filesystem, read-only, as its driver reads it: the interface every driver fills, like
 * The Sleuth Kit's {@code TSK_FS_INFO}. The {@code java.nio.file} layer, the commands and the servers
 * use only this.
 *
 * <p>Every method is safe to call from many threads at once. Every count and offset read from the
 * disk is checked against the device before use; a structure that is out of range, loops or fails
 * its checksum is a {@link org.vectorjce.fs.CorruptFileSystemException} naming it and its offset.
 */
public interface DiskFs extends Closeable {
    /** The filesystem's facts. */
    FsInfo info();

    /** The root folder (name {@code ""}). */
    Node root();

    /** Whether names are compared case-sensitively (false for FAT, exFAT and NTFS). */
    boolean caseSensitive();

    /**
     * The entries of {@code dir}, read lazily.
     *
     * @throws java.nio.file.NotDirectoryException when {@code dir} is not a folder
     */
    NodeStream list(Node dir) throws IOException;

    /**
     * The entry of {@code dir} called {@code name}, compared as the filesystem compares names
     * (FAT and exFAT: case-insensitively, the long or the 8.3 name; NTFS: through {@code $UpCase}),
     * or {@code null} when there is none.
     */
    Node lookup(Node dir, String name) throws IOException;

    /**
     * The bytes of {@code file}: its main stream when {@code stream} is {@code null}, else the named
     * stream (NTFS's alternate data streams).
     *
     * @throws java.nio.file.NoSuchFileException when there is no such stream
     * @throws java.io.IOException when {@code file} is a folder
     */
    Content open(Node file, String stream) throws IOException;

    /** The names and sizes of {@code file}'s named streams (NTFS); empty elsewhere. */
    default List<StreamInfo> streams(Node file) throws IOException {
        return List.of();
    }

    /**
     * The target of a symbolic link, with {@code '/'} between names, as the filesystem stores it
     * (NTFS: a junction's or a symbolic link's print name, {@code \} turned into {@code /}).
     *
     * @throws java.nio.file.NotLinkException when {@code link} is not one
     */
    default String readLink(Node link) throws IOException {
        throw new java.nio.file.NotLinkException(link.name());
    }

    /** A named stream. */
    record StreamInfo(String name, long size) {
    }
}
