package org.vectorjce.fs.spi;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file's bytes (one stream of it), read at offsets: safe to use from many threads at once.
 * Holes and bytes past a valid-data length read as zeros.
 */
public interface Content {
    /** Bytes of the stream. */
    long size();

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code position}.
     *
     * @return bytes read, or -1 when {@code position >= size()} and {@code dst} has room
     */
    int read(ByteBuffer dst, long position) throws IOException;
}
