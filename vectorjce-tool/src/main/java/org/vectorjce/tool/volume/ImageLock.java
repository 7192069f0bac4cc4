package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.vectorjce.volumes.VolumeException;

/**
 * The advisory lock ({@code fcntl}, {@link FileChannel#tryLock}) {@code serve} and {@code mount}
 * hold on the image while they use it: exclusive when they write, shared when they only read, so
 * that a second writer, or a writer beside a reader, is refused instead of two processes writing
 * one volume. POSIX locks belong to the process and fall when any of its descriptors of the file
 * closes, and unlocking a volume opens and closes some: so {@link #probe} checks before a secret is
 * asked, and {@link #hold} takes the lock once the volume is open (an open volume keeps its one
 * descriptor of the image until it is closed).
 */
final class ImageLock implements AutoCloseable {
    private final FileChannel channel;

    private ImageLock(FileChannel channel) {
        this.channel = channel;
    }

    /** Refuses, before any secret is read, an image another process uses in a way that conflicts. */
    static void probe(Path image, boolean write) throws IOException, VolumeException {
        FileChannel c;
        boolean shared = !write;
        try {
            c = write ? FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(image, StandardOpenOption.READ);
        } catch (AccessDeniedException e) {
            // not writable by this user: the volume then opens read-only or not at all
            c = FileChannel.open(image, StandardOpenOption.READ);
            shared = true;
        }
        try (FileChannel probe = c) {
            FileLock l = tryLock(probe, shared);
            if (l == null) {
                throw inUse(image);
            }
            l.release();
        }
    }

    /** Takes the lock until {@link #close()}: exclusive when {@code write}, else shared. */
    static ImageLock hold(Path image, boolean write) throws IOException, VolumeException {
        FileChannel c = write ? FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(image, StandardOpenOption.READ);
        try {
            if (tryLock(c, !write) == null) {
                throw inUse(image);
            }
        } catch (IOException | VolumeException | RuntimeException e) {
            c.close();
            throw e;
        }
        return new ImageLock(c);
    }

    private static FileLock tryLock(FileChannel c, boolean shared) throws IOException {
        try {
            return c.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            return null;    // this JVM holds it already
        }
    }

    private static VolumeException inUse(Path image) {
        return new VolumeException(image + " is in use by another volume serve or mount (it holds a lock on the"
                + " image): stop that one first, or use both with --read-only");
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
