package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;

/**
 * One open folder of a file tree mount, listed as the {@code FileSystem} streams it: entry 0 is
 * {@code "."}, entry 1 {@code ".."}, then the folder's entries in the stream's order. Only the
 * stream's position and at most one entry (the one that did not fit into libfuse's buffer last
 * time) are held, so memory does not grow with the folder.
 *
 * <p>libfuse calls {@code readdir} with the offset it was given with the last entry it took
 * ({@code fuse_fill_dir_t}'s {@code off}: "offset of the next entry", fuse.h); a listing that goes
 * on from where it stopped continues the stream, any other offset (a {@code seekdir} or
 * {@code rewinddir}) opens it again and skips to it. Calls on one handle are serialized.
 */
final class TreeDirectory {
    /** What a listing step does with one entry: false when libfuse's buffer is full. */
    interface Sink {
        boolean dot(String name, long nextOffset);

        boolean entry(Path entry, long nextOffset);
    }

    private final Path dir;
    private DirectoryStream<Path> stream;
    private Iterator<Path> entries;
    private long next;
    private Path pending;
    private boolean closed;

    TreeDirectory(Path dir) {
        this.dir = dir;
    }

    /**
     * Lists from entry {@code offset} into {@code sink} until it is full or the folder ends.
     *
     * @throws IOException when the folder cannot be read (or was closed)
     */
    synchronized void list(long offset, Sink sink) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        if (offset != next) {
            seek(offset);
        }
        try {
            while (true) {
                if (next < 2) {
                    if (!sink.dot(next == 0 ? "." : "..", next + 1)) {
                        return;
                    }
                    next++;
                    continue;
                }
                if (entries == null) {
                    open();
                }
                Path e = pending != null ? pending : entries.hasNext() ? entries.next() : null;
                if (e == null) {
                    return;
                }
                pending = e;
                if (!sink.entry(e, next + 1)) {
                    return;
                }
                pending = null;
                next++;
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    /** Starts again and skips to entry {@code offset}. */
    private void seek(long offset) throws IOException {
        closeStream();
        next = Math.min(Math.max(offset, 0), 2);
        if (offset <= 2) {
            return;
        }
        open();
        try {
            while (next < offset && entries.hasNext()) {
                entries.next();
                next++;
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        next = offset; // past the end: the listing is over
    }

    private void open() throws IOException {
        stream = Files.newDirectoryStream(dir);
        entries = stream.iterator();
    }

    private void closeStream() {
        pending = null;
        entries = null;
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException e) {
                // nothing held is lost: the next listing opens it again
            }
            stream = null;
        }
    }

    synchronized void close() {
        closed = true;
        closeStream();
    }
}
