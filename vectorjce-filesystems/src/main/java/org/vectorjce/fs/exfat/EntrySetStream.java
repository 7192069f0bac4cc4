package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * The files and folders of one exFAT folder, read entry set by entry set (specification section 6.3
 * and 7.4 to 7.7): a File entry (0x85), then its SecondaryCount secondary entries, of which the first
 * is a Stream Extension (0xC0) and the next ceil(NameLength / 15) are File Name entries (0xC1); any
 * further secondaries (vendor extensions) are passed over.
 *
 * <p>Entries whose InUse bit (bit 7 of the type) is clear are deleted or unused and skipped; an entry
 * of type 0x00 ends the folder (6.2.1.1); other primary entries (allocation bitmap, up-case table,
 * volume label, volume GUID) and secondaries outside a set are skipped one by one.
 *
 * <p>A set whose SetChecksum (6.3.3) does not match, whose SecondaryCount passes the folder's end or
 * whose stream or name entries are missing is a {@link CorruptFileSystemException} naming the set
 * and its byte offset, not a silent omission: a reader that hid it would show a folder that seems
 * whole while files are missing. Names are decoded from UTF-16; a '/' or NUL in them becomes '_', an
 * unpaired surrogate U+FFFD, and a name of "." or ".." has its dots turned into '_'.
 */
final class EntrySetStream implements NodeStream {
    private final ExfatFs fs;
    private final EntryReader entries;
    private final String what;
    private long pos;
    private boolean done;

    EntrySetStream(ExfatFs fs, ClusterContent content, String what) {
        this.fs = fs;
        this.entries = new EntryReader(content, what);
        this.what = what;
    }

    @Override
    public Node next() throws IOException {
        while (!done) {
            if (pos + EntryReader.ENTRY > entries.size()) {
                done = true;
                break;
            }
            int type = entries.type(pos);
            if (type == 0x00) {
                done = true; // 6.2.1.1: end of directory
                break;
            }
            if (type == 0x85) {
                return readSet();
            }
            pos += EntryReader.ENTRY;
        }
        return null;
    }

    private ExfatNode readSet() throws IOException {
        long start = pos;
        long at = entries.deviceOffset(start);
        byte[] first = new byte[EntryReader.ENTRY];
        entries.copy(start, first, 0);
        int secondaries = first[1] & 0xff;
        if (secondaries < 2) {
            throw new CorruptFileSystemException(what + ": File entry's SecondaryCount " + secondaries
                    + " leaves no room for its stream and name entries", at);
        }
        int setBytes = (secondaries + 1) * EntryReader.ENTRY;
        if (start + setBytes > entries.size()) {
            throw new CorruptFileSystemException(what + ": entry set of " + (secondaries + 1)
                    + " entries passes the folder's end", at);
        }
        byte[] set = new byte[setBytes];
        for (int i = 0; i < setBytes; i += EntryReader.ENTRY) {
            entries.copy(start + i, set, i);
        }
        ByteBuffer b = ByteBuffer.wrap(set).order(ByteOrder.LITTLE_ENDIAN);
        int sum = setChecksum(set);
        int stored = b.getShort(2) & 0xffff;
        if (sum != stored) {
            throw new CorruptFileSystemException(String.format(
                    "%s: entry set's SetChecksum is 0x%04x, its %d entries sum to 0x%04x", what, stored,
                    secondaries + 1, sum), at);
        }
        if ((set[32] & 0xff) != 0xC0) {
            throw new CorruptFileSystemException(String.format(
                    "%s: the File entry's first secondary is of type 0x%02x, not a Stream Extension (0xC0)", what,
                    set[32] & 0xff), at);
        }
        int nameLength = set[32 + 3] & 0xff;
        int nameEntries = (nameLength + 14) / 15;
        if (nameLength == 0 || secondaries < 1 + nameEntries) {
            throw new CorruptFileSystemException(what + ": NameLength " + nameLength + " needs " + nameEntries
                    + " File Name entries; the set has room for " + (secondaries - 1), at);
        }
        char[] name = new char[nameLength];
        for (int i = 0; i < nameLength; i++) {
            int entry = 64 + 32 * (i / 15);
            if ((set[entry] & 0xff) != 0xC1) {
                throw new CorruptFileSystemException(String.format(
                        "%s: secondary %d of the set is of type 0x%02x, not a File Name entry (0xC1)", what,
                        entry / 32, set[entry] & 0xff), at);
            }
            name[i] = b.getChar(entry + 2 + 2 * (i % 15));
        }
        pos = start + setBytes;
        return node(b, sanitize(name), at);
    }

    private ExfatNode node(ByteBuffer b, String name, long at) throws IOException {
        int attributes = b.getShort(4) & 0xffff;
        boolean dir = (attributes & 0x10) != 0; // 7.4.4: FileAttributes.Directory
        int flags = b.get(32 + 1) & 0xff;
        boolean contiguous = (flags & 0x02) != 0; // 7.6.2: GeneralSecondaryFlags.NoFatChain
        long valid = b.getLong(32 + 8);
        long firstCluster = Integer.toUnsignedLong(b.getInt(32 + 20));
        long length = b.getLong(32 + 24);
        String kind = dir ? "folder" : "file";
        String nodeWhat = fs.describe(kind, name);
        if (dir && (length < 0 || length > ExfatFs.MAX_DIRECTORY_BYTES)) {
            throw new CorruptFileSystemException(nodeWhat + ": DataLength " + Long.toUnsignedString(length)
                    + " passes the 256 MiB a folder may have", at);
        }
        // checks the cluster range now, so that a listing shows no entry whose data cannot be read
        fs.content(firstCluster, contiguous, length, valid, nodeWhat, at);
        return new ExfatNode(name, dir ? Kind.DIRECTORY : Kind.FILE,
                ExfatTimes.toFileTime(b.getInt(12), b.get(21) & 0xff, b.get(23) & 0xff),
                ExfatTimes.toFileTime(b.getInt(16), 0, b.get(24) & 0xff),
                ExfatTimes.toFileTime(b.getInt(8), b.get(20) & 0xff, b.get(22) & 0xff),
                attributes & (Node.READ_ONLY | Node.HIDDEN | Node.SYSTEM | Node.ARCHIVE),
                firstCluster, contiguous, length, valid, at);
    }

    /** 6.3.3: the 16-bit rotating sum of every byte of the set but the SetChecksum field itself. */
    static int setChecksum(byte[] set) {
        int sum = 0;
        for (int i = 0; i < set.length; i++) {
            if (i == 2 || i == 3) {
                continue;
            }
            sum = (((sum & 1) != 0 ? 0x8000 : 0) + (sum >>> 1) + (set[i] & 0xff)) & 0xffff;
        }
        return sum;
    }

    /** The name as a path element: no '/', NUL, unpaired surrogate, "." or "..". */
    static String sanitize(char[] c) {
        for (int i = 0; i < c.length; i++) {
            if (c[i] == '/' || c[i] == 0) {
                c[i] = '_';
            } else if (Character.isHighSurrogate(c[i])) {
                if (i + 1 < c.length && Character.isLowSurrogate(c[i + 1])) {
                    i++;
                } else {
                    c[i] = '\uFFFD';
                }
            } else if (Character.isLowSurrogate(c[i])) {
                c[i] = '\uFFFD';
            }
        }
        String s = new String(c);
        return s.equals(".") || s.equals("..") ? s.replace('.', '_') : s;
    }
}
