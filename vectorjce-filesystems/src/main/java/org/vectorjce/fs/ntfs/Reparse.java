package org.vectorjce.fs.ntfs;

import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * Symbolic link targets: the $REPARSE_POINT attribute (0xC0: tag at 0, data length at 4, data at
 * 8) of a symbolic link (tag 0xA000000C: substitute name offset and length at 8 and 10, print name
 * offset and length at 12 and 14, flags at 16 with 1 for a relative link, path buffer at 20) or a
 * junction / mount point (0xA0000003: the same without the flags, path buffer at 16), per
 * MS-FSCC 2.1.2.4 and 2.1.2.5; and the Interix symbolic link ntfs-3g writes for {@code ln -s} (a
 * file with the SYSTEM attribute whose data is {@code "IntxLNK\1"} then the UTF-16LE target).
 * The target is given with '/' for '\'; the driver never follows it.
 */
final class Reparse {
    static final long TAG_MOUNT_POINT = 0xA0000003L;
    static final long TAG_SYMLINK = 0xA000000CL;
    /** The largest reparse data NTFS allows. */
    static final int MAX = 16 * 1024 + 8;
    static final byte[] INTERIX_LINK = "IntxLNK\1".getBytes(StandardCharsets.US_ASCII);

    private Reparse() {
    }

    /** The tag of reparse data {@code b}, or 0 when it is too short to have one. */
    static long tag(byte[] b) {
        return b.length < 8 ? 0 : Le.u32(b, 0);
    }

    static boolean isLink(long tag) {
        return tag == TAG_SYMLINK || tag == TAG_MOUNT_POINT;
    }

    /** The target of symbolic link or junction data {@code b}. */
    static String target(byte[] b, long at) throws CorruptFileSystemException {
        long tag = tag(b);
        int buffer = tag == TAG_SYMLINK ? 20 : 16;
        if (!isLink(tag) || b.length < buffer) {
            throw new CorruptFileSystemException("NTFS: reparse point with tag 0x" + Long.toHexString(tag)
                    + " is not a link", at);
        }
        int subOff = Le.u16(b, 8);
        int subLen = Le.u16(b, 10);
        int printOff = Le.u16(b, 12);
        int printLen = Le.u16(b, 14);
        String name = null;
        if (printLen > 0 && (printLen & 1) == 0 && buffer + printOff + printLen <= b.length) {
            name = new String(b, buffer + printOff, printLen, StandardCharsets.UTF_16LE);
        } else if (subLen > 0 && (subLen & 1) == 0 && buffer + subOff + subLen <= b.length) {
            name = new String(b, buffer + subOff, subLen, StandardCharsets.UTF_16LE);
            if (name.startsWith("\\??\\")) {
                name = name.substring(4);
            }
        }
        if (name == null) {
            throw new CorruptFileSystemException("NTFS: link reparse point names no target within its "
                    + b.length + " bytes", at);
        }
        return clean(name);
    }

    /** Whether {@code head} (a SYSTEM file's first bytes) is an Interix symbolic link. */
    static boolean isInterixLink(byte[] head) {
        if (head.length < INTERIX_LINK.length) {
            return false;
        }
        for (int i = 0; i < INTERIX_LINK.length; i++) {
            if (head[i] != INTERIX_LINK[i]) {
                return false;
            }
        }
        return true;
    }

    /** The target of Interix link data {@code b}. */
    static String interixTarget(byte[] b) {
        int chars = (b.length - INTERIX_LINK.length) / 2;
        return clean(Le.utf16(b, INTERIX_LINK.length, chars));
    }

    private static String clean(String s) {
        return s.replace('\\', '/').replace('\0', '_');
    }
}
