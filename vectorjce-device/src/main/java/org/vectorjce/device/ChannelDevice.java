package org.vectorjce.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * {@link Device#over}: a device over a channel that has a position and no positional calls (a
 * volume's payload channel): each call sets the position and reads or writes under one lock, so
 * threads take turns. Closing the device closes the channel; {@link #flush()} does nothing (the
 * channel's owner, a volume, makes its writes durable).
 */
final class ChannelDevice implements Device {
    private final SeekableByteChannel channel;
    private final long size;
    private final boolean readOnly;
    private final int alignment;

    private final String name;

    ChannelDevice(SeekableByteChannel channel, long size, boolean readOnly, int alignment, String name) {
        if (alignment < 1 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment " + alignment + " is not a power of two");
        }
        this.channel = channel;
        this.size = size;
        this.readOnly = readOnly;
        this.alignment = alignment;
        this.name = name;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public int alignment() {
        return alignment;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= size) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), size - offset);
        int limit = dst.limit();
        dst.limit(dst.position() + want);
        try {
            synchronized (this) {
                channel.position(offset);
                int total = 0;
                while (dst.hasRemaining()) {
                    int n = channel.read(dst);
                    if (n < 0) {
                        break;
                    }
                    total += n;
                }
                return total == 0 ? -1 : total;
            }
        } finally {
            dst.limit(limit);
        }
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        if (readOnly) {
            throw new NonWritableChannelException();
        }
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (offset > size - src.remaining()) {
            throw new IOException("a " + src.remaining() + "-byte write at " + offset + " passes the end of the "
                    + size + "-byte device");
        }
        synchronized (this) {
            channel.position(offset);
            while (src.hasRemaining()) {
                channel.write(src);
            }
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return name;
    }
}
