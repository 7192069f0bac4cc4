package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.vectorjce.SectorChannel;
import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.device.Device;
import org.vectorjce.volumes.UnsupportedVolumeException;

/**
 * The lifecycle every volume format shares: the images it was opened on (those this library opened
 * are closed with the volume), every payload channel handed out (each a reader of its own: NBD
 * connections, threads; all closed with the volume), the check that the volume is still open, and
 * {@link #close()}, which wipes the format's keys first ({@link #wipe}). {@link #close()} is
 * idempotent.
 */
public abstract class VolumeLifecycle {
    /** The encrypted image. */
    protected final SeekableByteChannel image;
    private final ImageSource.Images images;
    private final List<SeekableByteChannel> payloads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Over {@code images}; {@link #close()} closes those of them this library opened. */
    protected VolumeLifecycle(ImageSource.Images images) {
        this.images = images;
        this.image = images.data();
    }

    /** Whether the images were opened for writing. */
    protected final boolean imagesWritable() {
        return images.writable();
    }

    /** Whether {@link #close()} has run. */
    protected final boolean isClosed() {
        return closed;
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

    /**
     * The plaintext device over {@code plaintext}, a channel of its own (kept to close with the
     * volume; closing the device closes it): positional reads and writes through the channel's
     * positional calls, {@code flush} the volume's.
     */
    protected final Device handOutDevice(SectorChannel plaintext, boolean readOnly, PlaintextDevice.Flush flush,
            String typeName) throws IOException {
        return PlaintextDevice.of(handOut(plaintext), readOnly, flush, "the plaintext of the " + typeName + " volume");
    }

    /**
     * The payload's sector cipher ({@link SectorCipher#of(String, byte[], int, boolean, VectorJceProvider)}),
     * a refusal of the key by the provider told as a volume this library cannot read.
     */
    public static SectorCipher sectorCipher(String spec, byte[] key, int sectorSize, boolean ivLargeSectors,
            VectorJceProvider provider) throws UnsupportedVolumeException {
        try {
            return SectorCipher.of(spec, key, sectorSize, ivLargeSectors, provider);
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException(spec + ": the provider refused the " + key.length + "-byte volume key: "
                    + e.getMessage());
        }
    }

    /** Wipes the format's keys; called once, by the first {@link #close()}, before the channels close. */
    protected abstract void wipe();

    /** Wipes the keys, closes every payload channel, and the images this library opened. */
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
        images.close();
    }
}
