package org.vectorjce.fs.ntfs;

import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * Symbolic link targets: the $REPARSE_POINT attribute (0xC0: tag at 0, data length at 4, data at
 * 8) of a symbolic link (tag 0xA000000C: substitute name offset and length at 8 and 10, print name
 * offset and length at 12 and 14, flags at 16 with 1 for a relative link, path buffer at 20) or a
 * junction / mount point (0xA0000003: the same without the flags, path buffer at 16), per
 * MS-FSCC 2.1.2.4 and 2.1.2.5; and the Interix symbolic link ntfs-3g writes for {@code ln -s} (a
 * file with the SYSTEM attribute whose data is {@code "IntxLNK\1"} then the UTF-16LE target), and
 * the WSL symbolic link (tag 0xA000001D: a 32-bit version, 2, then the UTF-8 target, MS-FSCC
 * 2.1.2.1's list of tags) which ntfs-3g also reads. The target is given with '/' for '\'; the
 * driver never follows it. Other special files (WSL's FIFO, socket and device tags, ntfs-3g's
 * Interix FIFO, socket and "IntxCHR"/"IntxBLK" devices) are told apart so that they are not shown
 * as regular files.
 */
final class Reparse {
    static final long TAG_MOUNT_POINT = 0xA0000003L;
    static final long TAG_SYMLINK = 0xA000000CL;
    static final long TAG_LX_SYMLINK = 0xA000001DL;
    /** WSL's AF_UNIX socket, FIFO, character and block device tags. */
    static final long TAG_AF_UNIX = 0x80000023L;
    static final long TAG_LX_BLK = 0x80000026L;
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
        return tag == TAG_SYMLINK || tag == TAG_MOUNT_POINT || tag == TAG_LX_SYMLINK;
    }

    /** Whether the tag marks a WSL socket, FIFO or device. */
    static boolean isSpecial(long tag) {
        return tag >= TAG_AF_UNIX && tag <= TAG_LX_BLK;
    }

    /** The target of symbolic link or junction data {@code b}. */
    static String target(byte[] b, long at) throws CorruptFileSystemException {
        long tag = tag(b);
        if (tag == TAG_LX_SYMLINK && b.length >= 12) {
            return clean(new String(b, 12, b.length - 12, StandardCharsets.UTF_8));
        }
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

    /**
     * Whether {@code head} (the first 8 bytes of a SYSTEM file of {@code size} bytes) is one of the
     * special files ntfs-3g writes as Interix files: a FIFO (empty), a socket (one byte) or a device.
     */
    static boolean isInterixSpecial(byte[] head, long size) {
        if (size == 0 || size == 1) {
            return true;
        }
        String h = new String(head, StandardCharsets.ISO_8859_1);
        return size == 24 && (h.equals("IntxCHR\0") || h.equals("IntxBLK\0"));
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
