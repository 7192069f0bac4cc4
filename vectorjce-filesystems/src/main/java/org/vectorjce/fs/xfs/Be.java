package org.vectorjce.fs.xfs;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Big-endian field reads of XFS structures (every XFS field is big-endian except the CRCs), the
 * CRC32C check XFS v5 puts in every metadata block, and the decoding of names. Callers check that a
 * field lies within its array before reading it.
 */
final class Be {
    private Be() {
    }

    static int u8(byte[] b, int o) {
        return b[o] & 0xff;
    }

    static int u16(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    static long u32(byte[] b, int o) {
        return (long) u16(b, o) << 16 | u16(b, o + 2);
    }

    static int s32(byte[] b, int o) {
        return (int) u32(b, o);
    }

    static long u64(byte[] b, int o) {
        return u32(b, o) << 32 | u32(b, o + 4);
    }

    /**
     * Whether the little-endian CRC32C at {@code crcAt} matches {@code b[off, off + len)} computed
     * with that field as zeros: {@code xfs_verify_cksum} of libxfs/xfs_cksum.h (seed ~0, final
     * inversion, which is what {@link CRC32C} computes).
     */
    static boolean crcOk(byte[] b, int off, int len, int crcAt) {
        CRC32C c = new CRC32C();
        c.update(b, off, crcAt - off);
        c.update(new byte[4]);
        c.update(b, crcAt + 4, off + len - crcAt - 4);
        long stored = (b[crcAt] & 0xffL) | (b[crcAt + 1] & 0xffL) << 8 | (b[crcAt + 2] & 0xffL) << 16
                | (b[crcAt + 3] & 0xffL) << 24;
        return c.getValue() == stored;
    }

    /**
     * A name as a {@link org.vectorjce.fs.spi.Node} may carry it: XFS names are bytes, read as UTF-8
     * (undecodable bytes become U+FFFD); '/' and NUL, which no sane XFS name holds, become '_'.
     */
    static String name(byte[] b, int o, int len) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(b, o, len)).toString();
        } catch (CharacterCodingException e) {
            s = new String(b, o, len, StandardCharsets.UTF_8);
        }
        return s.replace('/', '_').replace('\0', '_');
    }
}
