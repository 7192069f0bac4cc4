package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * A folder's entries as {@link DirectoryStream} asks: read lazily from the driver's
 * {@link NodeStream} (one directory block at a time, whatever the folder's size), each the folder's
 * path resolved against the entry's name, filtered; one iterator only; closing ends the iteration.
 * A read error is a {@link DirectoryIteratorException}. Names a driver should not have given
 * ({@code ""}, {@code "."}, {@code ".."}, with {@code '/'} or NUL) are skipped.
 */
final class DiskDirectoryStream implements DirectoryStream<Path> {
    private final DiskPath dir;
    private final NodeStream nodes;
    private final Resolver resolver;
    private final String dirReal;
    private final Filter<? super Path> filter;
    private boolean closed;
    private boolean iterated;

    /** {@code resolver} keeps each entry listed under {@code dirReal}, the folder's real path. */
    DiskDirectoryStream(DiskPath dir, NodeStream nodes, Filter<? super Path> filter, Resolver resolver,
            String dirReal) {
        this.dir = dir;
        this.nodes = nodes;
        this.resolver = resolver;
        this.dirReal = dirReal;
        this.filter = filter;
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new IllegalStateException("directory stream is closed");
        }
        if (iterated) {
            throw new IllegalStateException("iterator() already called");
        }
        iterated = true;
        return new Entries();
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            nodes.close();
        }
    }

    private static boolean acceptable(String name) {
        return !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0
                && name.indexOf('\0') < 0;
    }

    private final class Entries implements Iterator<Path> {
        private Path next;
        private boolean done;

        @Override
        public boolean hasNext() {
            synchronized (DiskDirectoryStream.this) {
                while (next == null && !done) {
                    if (closed || !dir.getFileSystem().isOpen()) {
                        done = true;
                        break;
                    }
                    try {
                        Node n = nodes.next();
                        if (n == null) {
                            done = true;
                        } else if (acceptable(n.name())) {
                            resolver.listed(dirReal, n);
                            Path p = dir.resolve(n.name());
                            if (filter == null || filter.accept(p)) {
                                next = p;
                            }
                        }
                    } catch (IOException e) {
                        done = true;
                        throw new DirectoryIteratorException(e);
                    }
                }
                return next != null;
            }
        }

        @Override
        public Path next() {
            synchronized (DiskDirectoryStream.this) {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Path p = next;
                next = null;
                return p;
            }
        }
    }
}
