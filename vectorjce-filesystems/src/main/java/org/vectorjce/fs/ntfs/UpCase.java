package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The volume's $UpCase table (MFT record 10): for every UTF-16 code unit, its upper-case form, 128
 * KiB, loaded once. NTFS orders and compares file names by it (collation rule 1, COLLATION_FILENAME:
 * code units upper-cased through this table, then compared as unsigned numbers; a name that is a
 * prefix of another sorts first). Code units the table does not reach (a short table) map to
 * themselves.
 */
final class UpCase {
    private final char[] table = new char[65536];

    private UpCase() {
        for (int i = 0; i < table.length; i++) {
            table[i] = (char) i;
        }
    }

    /** The table in {@code content}, or the identity where the content is shorter. */
    static UpCase load(StreamContent content) throws IOException {
        UpCase u = new UpCase();
        if (content == null) {
            return u;
        }
        byte[] b = new byte[(int) Math.min(content.size(), 131072)];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining() && content.read(bb, bb.position()) > 0) {
            // reads until the table or the content ends
        }
        for (int i = 0; i + 1 < bb.position(); i += 2) {
            u.table[i / 2] = (char) Le.u16(b, i);
        }
        return u;
    }

    char up(char c) {
        return table[c];
    }

    /** Compares two names as NTFS's file name collation does. */
    int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            int d = table[a.charAt(i)] - table[b.charAt(i)];
            if (d != 0) {
                return d;
            }
        }
        return a.length() - b.length();
    }
}
