package org.vectorjce.fs.ext;

/** Little-endian fields of an on-disk structure held in a byte array (ext is little-endian throughout). */
final class Le {
    private Le() {
    }

    static int u8(byte[] b, int at) {
        return b[at] & 0xff;
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static long u32(byte[] b, int at) {
        return i32(b, at) & 0xffffffffL;
    }

    static int i32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    static void put32(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
