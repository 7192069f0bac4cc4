package org.vectorjce.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/** {@link Device#window}: a range of another device, at offset 0. Closing it leaves the parent open. */
final class Window implements Device {
    private final Device parent;
    private final long start;
    private final long length;

    private Window(Device parent, long start, long length) {
        this.parent = parent;
        this.start = start;
        this.length = length;
    }

    static Device of(Device parent, long offset, long length) {
        Objects.requireNonNull(parent, "parent");
        if (offset < 0 || length < 0 || offset > parent.size() - length) {
            throw new IllegalArgumentException("window of " + length + " bytes at " + offset
                    + " does not fit a " + parent.size() + "-byte device");
        }
        if (parent instanceof Window w) {
            return new Window(w.parent, w.start + offset, length);
        }
        return new Window(parent, offset, length);
    }

    @Override
    public long size() {
        return length;
    }

    @Override
    public boolean readOnly() {
        return parent.readOnly();
    }

    @Override
    public int alignment() {
        return parent.alignment();
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= length) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), length - offset);
        if (want == dst.remaining()) {
            return parent.read(dst, start + offset);
        }
        ByteBuffer part = dst.slice(dst.position(), want);
        int n = parent.read(part, start + offset);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (offset > length - src.remaining()) {
            throw new IOException("a " + src.remaining() + "-byte write at " + offset + " passes the end of the "
                    + length + "-byte window");
        }
        parent.write(src, start + offset);
    }

    @Override
    public void flush() throws IOException {
        parent.flush();
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "bytes " + start + " to " + (start + length) + " of " + parent;
    }
}
