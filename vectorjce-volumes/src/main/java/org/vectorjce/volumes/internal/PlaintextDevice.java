package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import org.vectorjce.SectorChannel;
import org.vectorjce.device.Device;

/**
 * A volume's plaintext as a {@link Device}: the provider's {@link SectorChannel} read and written
 * at offsets through its positional calls, which many threads run at once (each with a cipher of
 * its own, and without a lock on a file image). Alignment is the channel's sector size. Closing
 * the device closes its channel (the volume's keys and image stay); {@link #flush()} is the
 * volume's.
 */
public record PlaintextDevice(SectorChannel channel, long size, boolean readOnly, PlaintextDevice.Flush volumeFlush,
        String name) implements Device {
    /** What {@link #flush()} runs: the volume's own flush. */
    @FunctionalInterface
    public interface Flush {
        void flush() throws IOException;
    }

    /** Over {@code channel}, of its size now; {@code name} says what it is in messages. */
    public static PlaintextDevice of(SectorChannel channel, boolean readOnly, Flush flush, String name)
            throws IOException {
        return new PlaintextDevice(channel, channel.size(), readOnly, flush, name);
    }

    @Override
    public int alignment() {
        return channel.sectorSize();
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        return channel.read(dst, offset);
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        if (readOnly) {
            throw new NonWritableChannelException();
        }
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        channel.write(src, offset);
    }

    @Override
    public void flush() throws IOException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        if (!readOnly) {
            volumeFlush.flush();
        }
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
