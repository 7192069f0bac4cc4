package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;

/**
 * Reads and writes of an image channel at absolute offsets, for every format's headers and
 * ciphertext: a {@code FileChannel}'s positional calls (no lock: readers on several threads run at
 * once), any other channel's position and read or write under that channel's lock. The channel's
 * own position is left alone on a {@code FileChannel} and moved on any other.
 */
public final class ImageIo {
    private ImageIo() {
    }

    /**
     * Reads {@code dst.remaining()} bytes of {@code image} at {@code at}, or as many as it holds.
     *
     * @return -1 when {@code dst} was filled, else the byte offset where the image ended (the
     *     caller says what it was reading)
     */
    public static long read(SeekableByteChannel image, long at, ByteBuffer dst) throws IOException {
        if (image instanceof FileChannel fc) {
            while (dst.hasRemaining()) {
                int n = fc.read(dst, at);
                if (n < 0) {
                    return at;
                }
                at += n;
            }
            return -1;
        }
        synchronized (image) {
            image.position(at);
            while (dst.hasRemaining()) {
                if (image.read(dst) < 0) {
                    return image.position();
                }
            }
            return -1;
        }
    }

    /** Reads exactly {@code dst.remaining()} bytes at {@code at}: "The image ended at byte N" when it ends first. */
    public static void readFully(SeekableByteChannel image, long at, ByteBuffer dst) throws IOException {
        long end = read(image, at, dst);
        if (end >= 0) {
            throw new IOException("The image ended at byte " + end);
        }
    }

    /**
     * Reads exactly {@code dst.remaining()} bytes of a payload's ciphertext at {@code at}: "The image
     * ended at byte N, inside the payload" when it ends first.
     */
    public static void readPayload(SeekableByteChannel image, long at, ByteBuffer dst) throws IOException {
        long end = read(image, at, dst);
        if (end >= 0) {
            throw new IOException("The image ended at byte " + end + ", inside the payload");
        }
    }

    /** Writes all of {@code src} to {@code image} at {@code at}. */
    public static void write(SeekableByteChannel image, long at, ByteBuffer src) throws IOException {
        if (image instanceof FileChannel fc) {
            while (src.hasRemaining()) {
                at += fc.write(src, at);
            }
            return;
        }
        synchronized (image) {
            image.position(at);
            while (src.hasRemaining()) {
                image.write(src);
            }
        }
    }
}
