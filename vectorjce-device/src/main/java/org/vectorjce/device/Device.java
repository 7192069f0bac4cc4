package org.vectorjce.device;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Path;

/**
 * A positional block device: bytes read and written at absolute offsets, a fixed size, a flush.
 * A volume's plaintext, a plain image file or block device ({@link #open(Path, boolean)}), and a
 * window of any of them ({@link #window}: a partition, a hidden volume, a logical volume) are all
 * this one type, so a server, a mount or a filesystem reader never asks which it has.
 *
 * <p>There is no position: every call names its offset, so many threads may read one device at
 * once (every implementation here is safe for that; writes to overlapping ranges from two threads
 * at once end in one of the two writes' bytes, sector by sector).
 *
 * <p>A device reads any range. {@link #alignment()} says which writes are cheap: one that starts
 * and ends on a multiple of it writes whole sectors; any other is read, merged and written back by
 * the device, which is correct but slower, and not atomic against a concurrent writer of the same
 * sector.
 */
public interface Device extends Closeable {

    /** Bytes the device holds; offsets run from 0 to {@code size()}. */
    long size();

    /** Whether {@link #write} refuses: a device opened for reading, or a format only read. */
    boolean readOnly();

    /** The sector size writes are cheapest at (a power of two; 1 for a plain file). */
    default int alignment() {
        return 1;
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code offset}, fewer only where the device
     * ends.
     *
     * @return the bytes read, or -1 when {@code offset >= size()} and {@code dst} has room
     * @throws IllegalArgumentException when {@code offset} is negative
     * @throws IOException when the bytes underneath cannot be read
     */
    int read(ByteBuffer dst, long offset) throws IOException;

    /**
     * Writes all of {@code src} at {@code offset}.
     *
     * @throws NonWritableChannelException when the device is {@link #readOnly()}
     * @throws IOException when the write would pass {@link #size()} (a device does not grow) or
     *     the bytes underneath cannot be written
     */
    void write(ByteBuffer src, long offset) throws IOException;

    /** Makes every write so far durable (the file's {@code force(true)}); nothing for a read-only device. */
    void flush() throws IOException;

    /**
     * Reads exactly {@code dst.remaining()} bytes at {@code offset}.
     *
     * @throws EOFException when the device ends first, naming the range
     */
    default void readFully(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        long at = offset;
        while (dst.hasRemaining()) {
            int n = read(dst, at);
            if (n < 0) {
                throw new EOFException("bytes " + offset + " to " + (offset + (at - offset) + dst.remaining())
                        + " pass the end of the " + size() + "-byte device");
            }
            at += n;
        }
    }

    /** {@link #readFully(ByteBuffer, long)} into {@code b[off, off + len)}. */
    default void readFully(long offset, byte[] b, int off, int len) throws IOException {
        readFully(ByteBuffer.wrap(b, off, len), offset);
    }

    /**
     * The bytes {@code [offset, offset + length)} of this device as a device of their own: offset 0
     * of the window is {@code offset} here. The window follows this device's read-only state and
     * alignment; closing it does not close this device.
     *
     * @throws IllegalArgumentException when the range is negative or passes {@link #size()}
     */
    default Device window(long offset, long length) {
        return Window.of(this, offset, length);
    }

    /**
     * A plain image file or block device, read at absolute offsets (a block device's size is its
     * end). {@code write}: opened for writing too.
     *
     * @throws IOException when it cannot be opened
     */
    static Device open(Path image, boolean write) throws IOException {
        return FileDevice.open(image, write);
    }

    /** Closes what the device opened; the device refuses every later call. Closing twice does nothing. */
    @Override
    void close() throws IOException;
}
