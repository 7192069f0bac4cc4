package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

import org.vectorjce.tool.Chunks;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

/**
 * The bulk copy of {@code decrypt} and {@code encrypt}: a volume's payload over 4 MiB chunks on
 * worker threads, each worker with a payload channel (its own cipher) of its own, and a progress
 * bar on stderr when it is a terminal.
 */
final class PayloadCopy {
    /** Bytes per work item: 4 MiB (many sector-cipher runs of 1 MiB). */
    private static final int CHUNK = 4 << 20;

    /** One chunk: {@code buf} is cleared and limited to the chunk's length. */
    interface Chunk {
        void run(SeekableByteChannel payload, long at, ByteBuffer buf) throws IOException;
    }

    private PayloadCopy() {
    }

    /**
     * Runs {@code task} over the chunks of {@code [0, size)} ({@link Chunks}), on up to
     * {@code threads} workers each with a payload channel of {@code v} of its own; a progress bar
     * on stderr when it is a terminal.
     */
    static void run(Session s, Volume v, long size, int threads, String name, Chunk task)
            throws IOException, VolumeException {
        int n = (int) Math.max(1, Math.min(threads, (size + CHUNK - 1) / CHUNK));
        SeekableByteChannel[] channels = new SeekableByteChannel[n];
        for (int i = 0; i < n; i++) {
            channels[i] = v.payload();
        }
        boolean bar = s.onTerminal();
        try {
            Chunks.run(size, CHUNK, n, name, i -> (at, buf) -> task.run(channels[i], at, buf), done -> {
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
