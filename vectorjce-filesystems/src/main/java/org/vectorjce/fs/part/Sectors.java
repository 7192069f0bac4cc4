package org.vectorjce.fs.part;

import java.io.IOException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Checks;

/** Reads of the tables' sectors, each checked against the device's end first so that a bad offset is named. */
final class Sectors {
    private Sectors() {
    }

    /**
     * The {@code length} bytes at {@code offset}; a {@link org.vectorjce.fs.CorruptFileSystemException}
     * naming {@code what} when they pass the device's end.
     */
    static byte[] read(Device device, long offset, int length, String what) throws IOException {
        Checks.within(offset, length, device.size(), what);
        byte[] b = new byte[length];
        device.readFully(offset, b, 0, length);
        return b;
    }

    /** The unsigned 16-bit little-endian value at {@code off}. */
    static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    /** The unsigned 32-bit little-endian value at {@code off}. */
    static long u32(byte[] b, int off) {
        return (u16(b, off) | (long) u16(b, off + 2) << 16) & 0xffffffffL;
    }

    /** The 64-bit little-endian value at {@code off} (negative when its top bit is set). */
    static long u64(byte[] b, int off) {
        return u32(b, off) | u32(b, off + 4) << 32;
    }
}
