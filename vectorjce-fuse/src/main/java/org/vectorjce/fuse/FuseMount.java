package org.vectorjce.fuse;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What a mounted FUSE filesystem of this module is, whatever it shows ({@link VolumeMount}: a
 * volume's plaintext as one file; {@link FileTreeMount}: a file tree): its mount point, whether it
 * is still mounted, a wait for its unmount, and {@link #close()}. One {@link FuseSession} holds
 * the mount, libfuse's loop and the poll that notices an unmount from outside.
 */
public abstract sealed class FuseMount implements AutoCloseable permits FileTreeMount, VolumeMount {
    /** How often {@link #awaitUnmount()} looks whether the mount is still there. */
    static final long POLL_MILLIS = FuseSession.POLL_MILLIS;

    final FuseSession session;

    FuseMount(FuseSession session) {
        this.session = session;
    }

    /** The mount point, with its links resolved. */
    public Path directory() {
        return session.directory();
    }

    /**
     * Whether the mount is still there: not closed, and still in this process's mount table
     * ({@code fusermount3 -u} removes it).
     */
    public boolean mounted() {
        return session.mounted();
    }

    /**
     * Waits until the mount is gone: {@link #close()} (from another thread), or an unmount from
     * outside ({@code fusermount3 -u DIR}, {@code umount}), which it notices within
     * {@value #POLL_MILLIS} ms and then finishes as {@link #close()} does.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitUnmount() throws InterruptedException {
        while (!awaitUnmount(Duration.ofDays(1))) {
            // again
        }
    }

    /**
     * {@link #awaitUnmount()} for at most {@code timeout}.
     *
     * @return whether the mount is gone
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitUnmount(Duration timeout) throws InterruptedException {
        return session.awaitUnmount(timeout);
    }

    /**
     * Unmounts (lazily: a process still holding a file open keeps only its descriptor), waits for
     * libfuse's loop to end (10 s at most) and closes what the mount opened: {@link VolumeMount}'s
     * device, {@link FileTreeMount}'s files and folders still open. Does not close what the caller
     * gave it (the volume, the {@code FileSystem}). Idempotent.
     *
     * @throws IOException when libfuse's loop did not end in time
     */
    @Override
    public void close() throws IOException {
        session.close();
    }
}
