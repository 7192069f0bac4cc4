package org.vectorjce.volumes.tcrypt;

import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * A decrypted TrueCrypt/VeraCrypt volume header: the 448 bytes after the salt, big-endian, as the
 * "VeraCrypt Volume Format Specification" and VeraCrypt's {@code src/Common/Volumes.c} lay them out
 * (offsets below count from the start of the decrypted part, i.e. sector byte − 64).
 *
 * <p>{@link #parse} checks the magic and both CRC32s before it reads any other field: the CRC32 of
 * bytes 0..187 (from header version 4 on; earlier TrueCrypt headers lack it) and that of the
 * 256-byte key area. A header that passes has been decrypted with the right key: the chance that
 * a wrong key gives the magic and both CRCs is about 2^-96.
 */
final class TcryptHeader {
    static final int MAGIC = 0, VERSION = 4, REQUIRED_VERSION = 6, KEYS_CRC = 8, HIDDEN_SIZE = 28,
            VOLUME_SIZE = 36, DATA_OFFSET = 44, DATA_SIZE = 52, FLAGS = 60, SECTOR_SIZE = 64, HEADER_CRC = 188,
            KEYS = 192, KEYS_LEN = 256;

    /** Flag bit 0: system encryption. */
    static final int FLAG_SYSTEM = 1;

    final boolean veracrypt;
    final int version, requiredVersion;
    final long hiddenVolumeSize, volumeSize, dataOffset, dataSize;
    final int flags, sectorSize;
    /** The 256-byte key area (the volume's master keys); wiped by {@link #wipe}. */
    final byte[] keys;

    private TcryptHeader(byte[] h, boolean veracrypt) {
        this.veracrypt = veracrypt;
        this.version = u16(h, VERSION);
        this.requiredVersion = u16(h, REQUIRED_VERSION);
        this.hiddenVolumeSize = u64(h, HIDDEN_SIZE);
        this.volumeSize = u64(h, VOLUME_SIZE);
        long mk = u64(h, DATA_OFFSET);
        this.dataOffset = mk == 0 ? 512 : mk; // TrueCrypt before 5 leaves it 0: the data follow the header
        this.dataSize = u64(h, DATA_SIZE);
        this.flags = (int) u32(h, FLAGS);
        int ss = (int) u32(h, SECTOR_SIZE);
        this.sectorSize = ss == 0 ? 512 : ss;
        this.keys = Arrays.copyOfRange(h, KEYS, KEYS + KEYS_LEN);
    }

    /**
     * The header in {@code h} (448 decrypted bytes), or null when it is not one: no {@code TRUE}
     * (or, if {@code veracryptModes}, {@code VERA}) magic, or a CRC32 that does not match.
     */
    static TcryptHeader parse(byte[] h, boolean veracryptModes) {
        if (!magic(h, veracryptModes)) {
            return null;
        }
        boolean vc = h[0] == 'V';
        if (u16(h, VERSION) > 3 && crc32(h, 0, HEADER_CRC) != u32(h, HEADER_CRC)) {
            return null;
        }
        if (crc32(h, KEYS, KEYS_LEN) != u32(h, KEYS_CRC)) {
            return null;
        }
        return new TcryptHeader(h, vc);
    }

    /** Whether {@code h} starts with {@code TRUE} (or, if {@code veracryptModes}, {@code VERA}). */
    static boolean magic(byte[] h, boolean veracryptModes) {
        return h[0] == 'T' && h[1] == 'R' && h[2] == 'U' && h[3] == 'E'
                || veracryptModes && h[0] == 'V' && h[1] == 'E' && h[2] == 'R' && h[3] == 'A';
    }

    boolean system() {
        return (flags & FLAG_SYSTEM) != 0;
    }

    void wipe() {
        Arrays.fill(keys, (byte) 0);
    }

    static long crc32(byte[] b, int off, int len) {
        CRC32 c = new CRC32();
        c.update(b, off, len);
        return c.getValue();
    }

    static int u16(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    static long u32(byte[] b, int o) {
        return (long) u16(b, o) << 16 | u16(b, o + 2);
    }

    static long u64(byte[] b, int o) {
        return u32(b, o) << 32 | u32(b, o + 4);
    }
}
