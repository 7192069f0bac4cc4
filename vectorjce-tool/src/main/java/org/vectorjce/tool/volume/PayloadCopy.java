package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.vectorjce.device.Device;
import org.vectorjce.tool.Chunks;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * The bulk copy of {@code decrypt} and {@code encrypt}: a volume's payload over 4 MiB chunks on
 * worker threads, all reading or writing the volume's one {@link Device} at their chunks' offsets
 * (each call with a cipher of its own), and a progress bar on stderr when it is a terminal.
 */
final class PayloadCopy {
    /** Bytes per work item: 4 MiB (many sector-cipher runs of 1 MiB). */
    private static final int CHUNK = 4 << 20;

    /** One chunk: {@code buf} is cleared and limited to the chunk's length. */
    interface Chunk {
        void run(Device plain, long at, ByteBuffer buf) throws IOException;
    }

    private PayloadCopy() {
    }

    /**
     * Runs {@code task} over the chunks of {@code [0, size)} ({@link Chunks}), on up to
     * {@code threads} workers sharing one device of {@code v}; a progress bar on stderr when it is
     * a terminal.
     */
    static void run(Session s, Volume v, long size, int threads, String name, Chunk task)
            throws IOException, VolumeException {
        boolean bar = s.onTerminal();
        try (Device plain = v.device()) {
            Chunks.run(size, CHUNK, threads, name, i -> (at, buf) -> task.run(plain, at, buf), done -> {
                if (bar) {
                    progress(s, done, size);
                }
            });
        } finally {
            if (bar) {
                s.err.println();
            }
        }
    }

    private static void progress(Session s, long done, long size) {
        int width = 40;
        int filled = size == 0 ? width : (int) (done * width / size);
        s.err.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] "
                + (size == 0 ? 100 : done * 100 / size) + "% " + (done >> 20) + "/" + (size >> 20) + " MiB");
        s.err.flush();
    }
}
