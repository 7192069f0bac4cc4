package org.vectorjce.fs.ntfs;

import java.util.Arrays;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * One attribute of an MFT record, copied out of it: the common header (type at 0, length at 4, the
 * non-resident flag at 8, the name's length and offset at 9 and 10, flags at 12, id at 14), then
 * either a resident value (its length at 16, offset at 20) or a non-resident extent: first and last
 * VCN at 16 and 24, run list offset at 32, compression unit (log2 clusters) at 34, allocated, data
 * and initialized sizes at 40, 48 and 56 (keramics ntfs.md "MFT attribute", TSK {@code ntfs_attr}).
 */
final class Attribute {
    static final int STANDARD_INFORMATION = 0x10;
    static final int ATTRIBUTE_LIST = 0x20;
    static final int FILE_NAME = 0x30;
    static final int VOLUME_NAME = 0x60;
    static final int DATA = 0x80;
    static final int INDEX_ROOT = 0x90;
    static final int INDEX_ALLOCATION = 0xA0;
    static final int REPARSE_POINT = 0xC0;

    static final int FLAG_COMPRESSED = 0x0001;
    static final int FLAG_ENCRYPTED = 0x4000;
    static final int FLAG_SPARSE = 0x8000;

    final int type;
    final String name;
    final int flags;
    final int id;
    final boolean resident;
    /** The resident value; null when non-resident. */
    final byte[] value;
    final long startVcn;
    final long lastVcn;
    final int compressionUnit;
    final long allocatedSize;
    final long dataSize;
    final long initializedSize;
    /** The run list bytes of a non-resident extent; null when resident. */
    final byte[] runs;
    /** Where the attribute lies on the device, for messages. */
    final long at;

    private Attribute(int type, String name, int flags, int id, byte[] value, long startVcn, long lastVcn,
            int compressionUnit, long allocatedSize, long dataSize, long initializedSize, byte[] runs, long at) {
        this.type = type;
        this.name = name;
        this.flags = flags;
        this.id = id;
        this.resident = value != null;
        this.value = value;
        this.startVcn = startVcn;
        this.lastVcn = lastVcn;
        this.compressionUnit = compressionUnit;
        this.allocatedSize = allocatedSize;
        this.dataSize = dataSize;
        this.initializedSize = initializedSize;
        this.runs = runs;
        this.at = at;
    }

    /**
     * The attribute of {@code len} bytes at {@code off} of record {@code b} (already within it).
     *
     * @param at the record's device offset
     */
    static Attribute parse(byte[] b, int off, int len, String what, long at) throws CorruptFileSystemException {
        long where = at + off;
        if (len < 24) {
            throw new CorruptFileSystemException(what + ": attribute of " + len + " bytes", where);
        }
        int type = (int) Le.u32(b, off);
        boolean nonResident = Le.u8(b, off + 8) != 0;
        int nameLen = Le.u8(b, off + 9);
        int nameOff = Le.u16(b, off + 10);
        int flags = Le.u16(b, off + 12);
        int id = Le.u16(b, off + 14);
        String name = "";
        if (nameLen > 0) {
            if (nameOff + 2 * nameLen > len) {
                throw new CorruptFileSystemException(what + ": attribute name passes the attribute's end", where);
            }
            name = Le.utf16(b, off + nameOff, nameLen);
        }
        if (!nonResident) {
            long vlen = Le.u32(b, off + 16);
            int voff = Le.u16(b, off + 20);
            if (voff > len || vlen > len - voff) {
                throw new CorruptFileSystemException(what + ": resident value of " + vlen + " bytes at " + voff
                        + " passes the attribute's " + len + " bytes", where);
            }
            byte[] value = Arrays.copyOfRange(b, off + voff, off + voff + (int) vlen);
            return new Attribute(type, name, flags, id, value, 0, -1, 0, vlen, vlen, vlen, null, where);
        }
        if (len < 64) {
            throw new CorruptFileSystemException(what + ": non-resident attribute of " + len + " bytes", where);
        }
        long start = Le.s64(b, off + 16);
        long last = Le.s64(b, off + 24);
        int runOff = Le.u16(b, off + 32);
        int cu = Le.u8(b, off + 34);
        long alloc = Le.s64(b, off + 40);
        long data = Le.s64(b, off + 48);
        long init = Le.s64(b, off + 56);
        if (start < 0 || last < start - 1 || last >= Long.MAX_VALUE / 4 || runOff < 64 || runOff > len) {
            throw new CorruptFileSystemException(what + ": non-resident attribute with VCNs " + start + " to " + last
                    + " and run list offset " + runOff, where);
        }
        if (start == 0 && (alloc < 0 || data < 0 || init < 0 || init > data)) {
            throw new CorruptFileSystemException(what + ": non-resident sizes allocated " + alloc + ", data " + data
                    + ", initialized " + init + " are inconsistent", where + 40);
        }
        if (cu > 16) {
            throw new CorruptFileSystemException(what + ": compression unit of 2^" + cu + " clusters", where + 34);
        }
        byte[] runs = Arrays.copyOfRange(b, off + runOff, off + len);
        return new Attribute(type, name, flags, id, null, start, last, cu, alloc, data, init, runs, where);
    }

    boolean compressed() {
        return (flags & FLAG_COMPRESSED) != 0 && compressionUnit != 0;
    }
}
