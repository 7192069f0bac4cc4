package org.vectorjce.fs.ntfs;

import java.nio.charset.StandardCharsets;

/**
 * Little-endian field reads of NTFS structures. Callers check that the field lies within the array
 * before reading it: these helpers do no bounds checks of their own beyond the JVM's.
 */
final class Le {
    private Le() {
    }

    static int u8(byte[] b, int o) {
        return b[o] & 0xff;
    }

    static int u16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    static long u32(byte[] b, int o) {
        return u16(b, o) | (long) u16(b, o + 2) << 16;
    }

    static long s64(byte[] b, int o) {
        return u32(b, o) | u32(b, o + 4) << 32;
    }

    /** {@code chars} UTF-16LE code units at {@code o} (an unpaired surrogate decodes to U+FFFD). */
    static String utf16(byte[] b, int o, int chars) {
        return new String(b, o, chars * 2, StandardCharsets.UTF_16LE);
    }

    /** A name as a {@link org.vectorjce.fs.spi.Node} may carry it: no '/' and no NUL. */
    static String sanitize(String name) {
        return name.replace('/', '_').replace('\0', '_');
    }
}
