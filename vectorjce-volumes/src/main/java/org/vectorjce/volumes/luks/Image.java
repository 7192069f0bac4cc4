package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * A header or data image (a file or any {@code SeekableByteChannel}) read at absolute offsets,
 * every read checked against the image's size first: a header field can name any offset and
 * length, and nothing is allocated or read for one the image does not hold.
 */
final class Image {
    final SeekableByteChannel channel;
    final long size;
    final String name;

    Image(SeekableByteChannel channel, String name) throws IOException {
        this.channel = channel;
        this.size = channel.size();
        this.name = name;
    }

    /** Whether {@code [offset, offset + length)} lies inside the image (no overflow). */
    boolean holds(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    /** Checks that {@code what} at {@code [offset, offset + length)} lies inside the image. */
    void check(String what, long offset, long length) throws CorruptHeaderException {
        if (!holds(offset, length)) {
            throw new CorruptHeaderException(what + " (offset " + Long.toUnsignedString(offset) + ", "
                    + Long.toUnsignedString(length) + " bytes) lies outside the " + size + "-byte image " + name);
        }
    }

    /** {@code length} bytes at {@code offset}, after {@link #check}. */
    byte[] read(String what, long offset, int length) throws IOException, CorruptHeaderException {
        check(what, offset, length);
        byte[] b = new byte[length];
        readFully(offset, ByteBuffer.wrap(b));
        return b;
    }

    /**
     * Writes all of {@code src} at {@code offset}, which must lie inside the image: a header or
     * payload write never grows the image.
     */
    void writeFully(long offset, ByteBuffer src) throws IOException {
        if (!holds(offset, src.remaining())) {
            throw new IOException("A write of " + src.remaining() + " bytes at " + offset + " lies outside the "
                    + size + "-byte image " + name);
        }
        ImageIo.write(channel, offset, src);
    }

    /** Forces what was written to the storage device, when the image is a file. */
    void force() throws IOException {
        if (channel instanceof FileChannel fc) {
            fc.force(true);
        }
    }

    void readFully(long offset, ByteBuffer dst) throws IOException {
        long end = ImageIo.read(channel, offset, dst);
        if (end >= 0) {
            throw new IOException(name + " ended at byte " + end);
        }
    }
}
