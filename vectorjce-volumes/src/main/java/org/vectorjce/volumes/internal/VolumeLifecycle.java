package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The lifecycle the volume formats that read their payload through {@link SectorPayload} share:
 * the image (closed with the volume when the volume opened it), every payload channel handed out
 * (each a reader of its own: NBD connections, threads; all closed with the volume), the check that
 * the volume is still open, and {@link #close()}, which wipes the format's keys first
 * ({@link #wipe}). {@link #close()} is idempotent.
 */
public abstract class VolumeLifecycle {
    /** The encrypted image. */
    protected final SeekableByteChannel image;
    private final boolean ownsImage;
    private final List<SeekableByteChannel> payloads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Over {@code image}, closed by {@link #close()} when {@code ownsImage}. */
    protected VolumeLifecycle(SeekableByteChannel image, boolean ownsImage) {
        this.image = image;
        this.ownsImage = ownsImage;
    }

    /** Throws {@code IllegalStateException} once the volume is closed. */
    protected final void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The volume is closed");
        }
    }

    /** Keeps {@code payload} to close with the volume (dropping those closed by their readers) and returns it. */
    protected final <C extends SeekableByteChannel> C handOut(C payload) {
        payloads.removeIf(p -> !p.isOpen());
        payloads.add(payload);
        return payload;
    }

    /** Wipes the format's keys; called once, by the first {@link #close()}, before the channels close. */
    protected abstract void wipe();

    /** Wipes the keys, closes every payload channel, and the image if this volume opened it. */
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        wipe();
        for (SeekableByteChannel p : payloads) {
            p.close();
        }
        payloads.clear();
        if (ownsImage) {
            image.close();
        }
    }
}
