package org.vectorjce.fs.ntfs;

import java.util.ArrayList;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * One MFT record ("FILE" entry) with its fix-ups applied and its attributes walked: the header's
 * sequence number at 16, first attribute offset at 20, flags at 22 (1 in use, 2 a folder's index),
 * used size at 24, the base record reference at 32 (0 for a base record) and, in NTFS 3.1 records,
 * the record's own number at 44 (keramics ntfs.md "MFT entry header", TSK {@code ntfs_mft}). The
 * attributes follow one another, each {@code length} bytes, to the 0xFFFFFFFF end marker; every
 * length is checked to be positive and within the used size.
 */
final class MftRecord {
    static final int IN_USE = 0x0001;
    static final int DIRECTORY = 0x0002;

    final long number;
    final int sequence;
    final int flags;
    final long baseReference;
    final List<Attribute> attributes;

    private MftRecord(long number, int sequence, int flags, long baseReference, List<Attribute> attributes) {
        this.number = number;
        this.sequence = sequence;
        this.flags = flags;
        this.baseReference = baseReference;
        this.attributes = attributes;
    }

    /**
     * Record {@code number}, whose raw bytes {@code b} were read from device offset {@code at}.
     *
     * @throws CorruptFileSystemException when its signature, fix-ups or attribute chain is wrong
     */
    static MftRecord parse(byte[] b, long number, long at) throws CorruptFileSystemException {
        String what = "NTFS: MFT record " + number;
        int afterUsa = Fixups.apply(b, b.length, "FILE", what, at);
        int sequence = Le.u16(b, 16);
        int first = Le.u16(b, 20);
        int flags = Le.u16(b, 22);
        long used = Le.u32(b, 24);
        long base = Le.s64(b, 32);
        if (used > b.length || used < first + 4 || first < afterUsa || (first & 7) != 0) {
            throw new CorruptFileSystemException(what + ": first attribute at " + first + ", used size " + used
                    + " of " + b.length, at + 20);
        }
        if (Le.u16(b, 4) >= 0x30 && Le.u32(b, 44) != (number & 0xFFFFFFFFL)) {
            throw new CorruptFileSystemException(what + ": the record says it is number " + Le.u32(b, 44), at + 44);
        }
        List<Attribute> attrs = new ArrayList<>();
        int off = first;
        while (true) {
            if (off + 4 > used) {
                throw new CorruptFileSystemException(what + ": attributes run past the used size without the end marker",
                        at + off);
            }
            if (Le.u32(b, off) == 0xFFFFFFFFL) {
                break;
            }
            if (off + 8 > used) {
                throw new CorruptFileSystemException(what + ": attribute header passes the used size", at + off);
            }
            long len = Le.u32(b, off + 4);
            if (len < 24 || len > used - off || (len & 7) != 0) {
                throw new CorruptFileSystemException(what + ": attribute length " + len + " at its byte " + off
                        + " is out of range", at + off);
            }
            attrs.add(Attribute.parse(b, off, (int) len, what, at));
            off += (int) len;
        }
        return new MftRecord(number, sequence, flags, base & 0xFFFFFFFFFFFFL, attrs);
    }

    boolean inUse() {
        return (flags & IN_USE) != 0;
    }
}
