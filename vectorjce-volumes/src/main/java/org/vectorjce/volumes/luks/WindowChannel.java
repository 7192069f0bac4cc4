package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.vectorjce.volumes.internal.FixedSizeChannel;

/**
 * A view of bytes {@code [offset, offset + size)} of an image: the encrypted payload, as
 * {@code SectorChannel} expects an image that starts at sector 0. Read-only unless made
 * {@code writable}; a write never reaches past the window's end (an {@code IOException} naming its
 * size, nothing written) and the window's size never changes ({@code truncate} is refused).
 * Closing it leaves the image open (the volume owns it).
 */
final class WindowChannel extends FixedSizeChannel {
    private final Image image;
    private final long offset;

    WindowChannel(Image image, long offset, long size, boolean writable) {
        super(size, writable);
        this.image = image;
        this.offset = offset;
    }

    @Override
    protected void readAt(long position, ByteBuffer dst) throws IOException {
        image.readFully(offset + position, dst);
    }

    @Override
    protected void writeAt(long position, ByteBuffer src) throws IOException {
        image.writeFully(offset + position, src);
    }
}
