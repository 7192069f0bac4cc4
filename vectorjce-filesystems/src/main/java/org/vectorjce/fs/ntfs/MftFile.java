package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Checks;

/**
 * A file's attributes, wherever they are: its base MFT record's, and, when that holds an
 * $ATTRIBUTE_LIST (type 0x20), those in the extension records the list names. Each list entry is
 * type at 0, entry length at 4, name length and offset at 6 and 7, first VCN at 8, the record
 * holding the attribute at 16 and the attribute's id at 24 (keramics ntfs.md "Attribute list", TSK
 * {@code ntfs_proc_attrlist}). Extension attributes are fetched when a type is asked for, so memory
 * follows what a caller reads, not the list's length.
 */
final class MftFile {
    /** The largest attribute list read. */
    static final int MAX_LIST = 256 << 10;

    private record ListEntry(int type, String name, long startVcn, long record, int id) {
    }

    final MftRecord base;
    private final NtfsFileSystem fs;
    private final List<ListEntry> list;

    private MftFile(NtfsFileSystem fs, MftRecord base, List<ListEntry> list) {
        this.fs = fs;
        this.base = base;
        this.list = list;
    }

    /** File {@code number}: its base record, which must be in use and be a base record. */
    static MftFile open(NtfsFileSystem fs, long number) throws IOException {
        MftRecord base = fs.record(number);
        if (!base.inUse()) {
            throw new CorruptFileSystemException("NTFS: MFT record " + number + " is not in use", fs.recordOffset(number));
        }
        if (base.baseReference != 0) {
            throw new CorruptFileSystemException("NTFS: MFT record " + number + " is an extension of record "
                    + base.baseReference, fs.recordOffset(number));
        }
        List<ListEntry> list = List.of();
        for (Attribute a : base.attributes) {
            if (a.type == Attribute.ATTRIBUTE_LIST) {
                list = parseList(fs, a, number);
                break;
            }
        }
        return new MftFile(fs, base, list);
    }

    private static List<ListEntry> parseList(NtfsFileSystem fs, Attribute a, long number) throws IOException {
        String what = "NTFS: $ATTRIBUTE_LIST of MFT record " + number;
        byte[] b;
        if (a.resident) {
            b = a.value;
        } else {
            StreamContent c = StreamContent.of(List.of(a), fs.boot.clusterSize(), fs.boot.clusterCount(),
                    fs::readDevice, what);
            b = new byte[Checks.arraySize(c.size(), MAX_LIST, what, a.at)];
            ByteBuffer bb = ByteBuffer.wrap(b);
            while (bb.hasRemaining()) {
                if (c.read(bb, bb.position()) < 0) {
                    break;
                }
            }
        }
        List<ListEntry> out = new ArrayList<>();
        int p = 0;
        while (p + 26 <= b.length) {
            int type = (int) Le.u32(b, p);
            int len = Le.u16(b, p + 4);
            if (len < 26 || len > b.length - p) {
                throw new CorruptFileSystemException(what + ": entry of " + len + " bytes at its byte " + p, a.at);
            }
            int nameLen = Le.u8(b, p + 6);
            int nameOff = Le.u8(b, p + 7);
            if (nameLen > 0 && nameOff + 2 * nameLen > len) {
                throw new CorruptFileSystemException(what + ": entry name passes the entry at its byte " + p, a.at);
            }
            String name = nameLen == 0 ? "" : Le.utf16(b, p + nameOff, nameLen);
            long ref = Le.s64(b, p + 16) & 0xFFFFFFFFFFFFL;
            out.add(new ListEntry(type, name, Le.s64(b, p + 8), ref, Le.u16(b, p + 24)));
            p += len;
        }
        return out;
    }

    long number() {
        return base.number;
    }

    /** Every attribute of {@code type}, from the base record and the extension records. */
    List<Attribute> find(int type) throws IOException {
        List<Attribute> out = new ArrayList<>();
        for (Attribute a : base.attributes) {
            if (a.type == type) {
                out.add(a);
            }
        }
        for (ListEntry e : list) {
            if (e.type == type && e.record != base.number) {
                out.add(load(e));
            }
        }
        return out;
    }

    /** The attribute a list entry names, from its extension record (read through the cache). */
    private Attribute load(ListEntry e) throws IOException {
        MftRecord ext = fs.record(e.record);
        if (!ext.inUse() || ext.baseReference != base.number) {
            throw new CorruptFileSystemException("NTFS: MFT record " + e.record + " named by the attribute list of "
                    + base.number + " is not its extension", fs.recordOffset(e.record));
        }
        for (Attribute a : ext.attributes) {
            if (a.type == e.type && a.id == e.id) {
                return a;
            }
        }
        throw new CorruptFileSystemException("NTFS: attribute 0x" + Integer.toHexString(e.type) + " id " + e.id
                + " named by the attribute list of record " + base.number + " is not in record " + e.record,
                fs.recordOffset(e.record));
    }

    /** The extents of the attribute of {@code type} called {@code name} (compared through $UpCase). */
    List<Attribute> find(int type, String name) throws IOException {
        List<Attribute> out = new ArrayList<>();
        for (Attribute a : find(type)) {
            if (a.name.equals(name)) {
                out.add(a);
            }
        }
        if (out.isEmpty() && !name.isEmpty()) {
            for (Attribute a : find(type)) {
                if (fs.upcase.compare(a.name, name) == 0) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * The first (lowest VCN) extent of the named attribute, or null: only that extent's record is
     * read, so a node's size costs one extension record however many extents its $DATA has.
     */
    Attribute first(int type, String name) throws IOException {
        Attribute f = null;
        for (Attribute a : base.attributes) {
            if (a.type == type && a.name.equals(name) && (f == null || a.startVcn < f.startVcn)) {
                f = a;
            }
        }
        ListEntry best = null;
        for (ListEntry e : list) {
            if (e.type == type && e.record != base.number && e.name.equals(name)
                    && (best == null || e.startVcn < best.startVcn)) {
                best = e;
            }
        }
        if (best != null && (f == null || best.startVcn < f.startVcn)) {
            f = load(best);
        }
        if (f == null && !name.isEmpty()) {
            for (Attribute a : find(type, name)) {
                if (f == null || a.startVcn < f.startVcn) {
                    f = a;
                }
            }
        }
        return f;
    }

    /** The named attribute's value, or null when there is none. */
    StreamContent content(int type, String name, StreamContent.Source source) throws IOException {
        List<Attribute> extents = find(type, name);
        if (extents.isEmpty()) {
            return null;
        }
        return StreamContent.of(extents, fs.boot.clusterSize(), fs.boot.clusterCount(), source,
                "NTFS: attribute 0x" + Integer.toHexString(type) + " \"" + name + "\" of MFT record " + base.number);
    }
}
