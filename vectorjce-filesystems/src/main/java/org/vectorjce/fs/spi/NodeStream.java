package org.vectorjce.fs.spi;

import java.io.Closeable;
import java.io.IOException;

/**
 * A folder's entries, read as they are asked for: a listing holds one directory block (or index
 * node) at a time, never the whole folder, so memory stays bounded whatever the folder's size.
 * {@code "."} and {@code ".."} are never returned; nor are entries the filesystem hides from users
 * (NTFS's metadata files, DOS 8.3 twins of long names, deleted entries, volume labels).
 */
public interface NodeStream extends Closeable {
    /** The next entry, or {@code null} at the end. */
    Node next() throws IOException;

    @Override
    default void close() throws IOException {
    }
}
