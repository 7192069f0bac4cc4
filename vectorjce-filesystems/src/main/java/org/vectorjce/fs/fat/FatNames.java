package org.vectorjce.fs.fat;

import java.nio.charset.Charset;
import java.util.Locale;

/**
 * FAT's names: the 8.3 short name of a directory entry and the checksum that ties VFAT long-name
 * entries to it (fatgen103 "FAT Long Directory Entries"), and the clean-up every returned name gets.
 */
final class FatNames {
    /** Byte 12 of a short entry (Windows NT, also Linux vfat): the base name is stored upper, shown lower. */
    static final int LOWER_BASE = 0x08;
    /** Byte 12: the extension is shown lower. */
    static final int LOWER_EXT = 0x10;

    private FatNames() {
    }

    /**
     * The 8.3 name of the entry at {@code e[off..off+11)}: base and extension with their padding
     * spaces removed, joined by a dot when there is an extension; a first byte 0x05 stands for
     * 0xE5 (fatgen103: KANJI lead byte); {@code ntFlags} lower-cases a part as Windows and Linux do.
     */
    static String shortName(byte[] e, int off, int ntFlags, Charset codePage) {
        byte[] raw = new byte[11];
        System.arraycopy(e, off, raw, 0, 11);
        if (raw[0] == 0x05) {
            raw[0] = (byte) 0xE5;
        }
        int baseLen = 8;
        while (baseLen > 0 && raw[baseLen - 1] == ' ') {
            baseLen--;
        }
        int extLen = 3;
        while (extLen > 0 && raw[8 + extLen - 1] == ' ') {
            extLen--;
        }
        String base = new String(raw, 0, baseLen, codePage);
        String ext = new String(raw, 8, extLen, codePage);
        if ((ntFlags & LOWER_BASE) != 0) {
            base = base.toLowerCase(Locale.ROOT);
        }
        if ((ntFlags & LOWER_EXT) != 0) {
            ext = ext.toLowerCase(Locale.ROOT);
        }
        return clean(ext.isEmpty() ? base : base + "." + ext);
    }

    /** The volume label of an entry or boot sector: 11 bytes, trailing spaces removed. */
    static String label(byte[] b, int off, Charset codePage) {
        int len = 11;
        while (len > 0 && (b[off + len - 1] == ' ' || b[off + len - 1] == 0)) {
            len--;
        }
        return clean0(new String(b, off, len, codePage));
    }

    /** fatgen103 ChkSum(): the rotate-right-and-add byte sum of the 11 bytes of the short name. */
    static int checksum(byte[] e, int off) {
        int sum = 0;
        for (int i = 0; i < 11; i++) {
            sum = (((sum & 1) << 7) + (sum >>> 1) + (e[off + i] & 0xff)) & 0xff;
        }
        return sum;
    }

    /**
     * A name as the driver returns it: {@code '/'} and NUL become {@code '_'}, an unpaired UTF-16
     * surrogate becomes U+FFFD, and the names {@code "."} and {@code ".."} (which a crafted long
     * name could hold) and the empty name become underscores, so that a name is always one path
     * element of its directory.
     */
    static String clean(String s) {
        String c = clean0(s);
        if (c.isEmpty() || c.equals(".") || c.equals("..")) {
            return c.isEmpty() ? "_" : c.replace('.', '_');
        }
        return c;
    }

    private static String clean0(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '/' || ch == 0) {
                b.append('_');
            } else if (Character.isHighSurrogate(ch) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(ch).append(s.charAt(++i));
            } else if (Character.isSurrogate(ch)) {
                b.append('\uFFFD');
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }
}
