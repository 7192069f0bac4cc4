package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;

/**
 * The volume's up-case table (exFAT specification, section 7.2): the upper case of each UTF-16 code
 * unit, which exFAT compares names through. Stored either whole (one 16-bit value per code unit) or
 * compressed: a value 0xFFFF followed by a count says that many code units map to themselves
 * (section 7.2.5's recommended table is stored so). Its TableChecksum (section 7.2.2) is verified
 * over the stored bytes; a mismatch refuses the volume, since lookups through a wrong table would
 * silently miss files. The table in memory is 128 KiB whatever the stored length (at most 128 KiB).
 */
final class UpcaseTable {
    /** A whole table: 65536 values of 2 bytes; a compressed one is shorter. */
    static final int MAX_BYTES = 2 * 65536;

    private final char[] upper;

    private UpcaseTable(char[] upper) {
        this.upper = upper;
    }

    /** Reads, verifies and expands the table stored in {@code content}. */
    static UpcaseTable read(Content content, long expectedChecksum, long entryOffset) throws IOException {
        long length = content.size();
        if (length > MAX_BYTES || (length & 1) != 0) {
            throw new CorruptFileSystemException("exFAT: up-case table of " + length
                    + " bytes: not an even length up to " + MAX_BYTES, entryOffset);
        }
        byte[] raw = new byte[(int) length];
        ByteBuffer b = ByteBuffer.wrap(raw);
        while (b.hasRemaining()) {
            if (content.read(b, b.position()) <= 0) {
                throw new CorruptFileSystemException("exFAT: up-case table ends early", entryOffset);
            }
        }
        int sum = 0;
        for (byte x : raw) {
            sum = ((sum & 1) != 0 ? 0x80000000 : 0) + (sum >>> 1) + (x & 0xff);
        }
        if (sum != (int) expectedChecksum) {
            throw new CorruptFileSystemException(String.format(
                    "exFAT: up-case table sums to 0x%08x, its entry's TableChecksum is 0x%08x", sum, expectedChecksum),
                    entryOffset);
        }
        char[] upper = new char[65536];
        for (int i = 0; i < upper.length; i++) {
            upper[i] = (char) i;
        }
        int code = 0;
        for (int i = 0; i + 1 < raw.length && code < 65536; i += 2) {
            int v = (raw[i] & 0xff) | (raw[i + 1] & 0xff) << 8;
            if (v == 0xFFFF && i + 3 < raw.length) {
                // a run of code units that map to themselves (7.2.5)
                int run = (raw[i + 2] & 0xff) | (raw[i + 3] & 0xff) << 8;
                code += run;
                i += 2;
            } else {
                upper[code++] = (char) v;
            }
        }
        return new UpcaseTable(upper);
    }

    /** {@code s} with each code unit up-cased through the table. */
    String upcase(String s) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            c[i] = upper[c[i]];
        }
        return new String(c);
    }
}
