package org.vectorjce.fs.fat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * One FAT directory's entries, read a piece at a time (at most {@value #PIECE} bytes held):
 * the FAT12/16 root's fixed region, or any other directory's cluster chain.
 *
 * <p>Per fatgen103 "FAT Directory Structure" and "FAT Long Directory Entries": entries are 32
 * bytes; a first byte 0x00 ends the directory, 0xE5 marks a deleted entry; attribute 0x0F (under
 * mask 0x3F) is a VFAT long-name entry, whose pieces come last-first with sequence numbers 1 to 20
 * (0x40 on the last) and all carry the checksum of the short name they precede. A run that is
 * out of sequence, broken by another entry, or whose checksum does not match the short entry
 * after it is ignored and the short name is used, as Windows does. Volume-label entries and
 * {@code "."}/{@code ".."} are skipped (the first label is kept for {@link #volumeLabel()}).
 *
 * <p>Bounds: a directory is at most 65536 entries (fatgen103: 2 MiB, since entry indexes are 16
 * bits), so a chain is followed for at most {@code 2 MiB / cluster size} clusters; a longer chain
 * (including one that loops) is a {@link CorruptFileSystemException}. A subdirectory whose cluster
 * is an ancestor's is listed like any other: this reader lists one directory, never recursing.
 *
 * <p>One reader is for one thread; many readers of one volume may run at once.
 */
final class DirReader implements NodeStream {
    private static final int PIECE = 16384;
    private static final int MAX_ENTRIES = 65536;
    private static final int MAX_LFN_PIECES = 20;

    private final Device device;
    private final BootSector boot;
    private final FatTable fat;
    private final Charset codePage;
    private final String dirName;

    // The region being read: a fixed region (FAT12/16 root) or the current cluster.
    private final boolean fixed;
    private long regionOffset;
    private long regionLength;
    private long cluster;
    private long clustersRead;
    private final long maxClusters;

    private final byte[] piece;
    private int pieceLength;
    private int piecePos;
    private long pieceOffset;
    private long regionPos;
    private boolean ended;

    // The long-name run being gathered.
    private final char[] lfn = new char[MAX_LFN_PIECES * 13];
    private boolean lfnActive;
    private int lfnPieces;
    private int lfnExpect;
    private int lfnSum;

    private String volumeLabel;

    private DirReader(Device device, BootSector boot, FatTable fat, Charset codePage, String dirName, boolean fixed,
            long regionOffset, long regionLength, long cluster) {
        this.device = device;
        this.boot = boot;
        this.fat = fat;
        this.codePage = codePage;
        this.dirName = dirName;
        this.fixed = fixed;
        this.regionOffset = regionOffset;
        this.regionLength = regionLength;
        this.cluster = cluster;
        this.maxClusters = Math.min(boot.clusterCount(), Math.max(1, (long) MAX_ENTRIES * 32 / boot.clusterSize()));
        this.piece = new byte[(int) Math.min(PIECE, fixed ? Math.max(32, regionLength) : boot.clusterSize())];
    }

    /** The FAT12/16 root directory's fixed region. */
    static DirReader fixedRoot(Device device, BootSector boot, FatTable fat, Charset codePage) {
        return new DirReader(device, boot, fat, codePage, "/", true, boot.rootOffset(),
                (long) boot.rootEntries() * 32, 0);
    }

    /** A directory whose first cluster is {@code first} (checked to be a data cluster). */
    static DirReader chain(Device device, BootSector boot, FatTable fat, Charset codePage, String name, long first) {
        DirReader r = new DirReader(device, boot, fat, codePage, name, false, boot.clusterOffset(first),
                boot.clusterSize(), first);
        r.clustersRead = 1;
        return r;
    }

    /** The first volume-label entry passed so far, or null. */
    String volumeLabel() {
        return volumeLabel;
    }

    @Override
    public Node next() throws IOException {
        byte[] e = new byte[32];
        while (nextEntry(e)) {
            int first = e[0] & 0xff;
            int attr = e[11] & 0xff;
            if (first == 0xE5) {
                lfnActive = false;
                continue;
            }
            if ((attr & 0x3f) == 0x0f) {
                longPiece(e);
                continue;
            }
            String longName = takeLongName(e);
            if ((attr & 0x08) != 0) {
                if (volumeLabel == null) {
                    volumeLabel = FatNames.label(e, 0, codePage);
                }
                continue;
            }
            if (isDot(e)) {
                continue;
            }
            return node(e, attr, longName);
        }
        return null;
    }

    /** Reads the next raw entry into {@code e}; false at the directory's end (0x00 or no more space). */
    private boolean nextEntry(byte[] e) throws IOException {
        if (ended) {
            return false;
        }
        if (piecePos >= pieceLength && !fill()) {
            ended = true;
            return false;
        }
        System.arraycopy(piece, piecePos, e, 0, 32);
        piecePos += 32;
        if (e[0] == 0) {
            ended = true;
            return false;
        }
        return true;
    }

    /** The byte offset of the entry last returned by {@link #nextEntry}. */
    private long entryOffset() {
        return pieceOffset + piecePos - 32;
    }

    /** Reads the next piece of the region, moving to the next cluster of the chain when it is done. */
    private boolean fill() throws IOException {
        if (regionPos >= regionLength) {
            if (fixed || !nextCluster()) {
                return false;
            }
        }
        int n = (int) Math.min(piece.length, regionLength - regionPos);
        long at = regionOffset + regionPos;
        if (at < 0 || at > device.size() - n) {
            throw new CorruptFileSystemException("FAT: directory \"" + dirName + "\": " + n + " bytes pass the end"
                    + " of the " + device.size() + "-byte device", at);
        }
        device.readFully(ByteBuffer.wrap(piece, 0, n), at);
        pieceOffset = at;
        pieceLength = n - n % 32;
        piecePos = 0;
        regionPos += n;
        return pieceLength > 0;
    }

    private boolean nextCluster() throws IOException {
        long v = fat.get(cluster);
        switch (fat.classify(v)) {
            case END -> {
                return false;
            }
            case NEXT -> {
            }
            default -> throw new CorruptFileSystemException("FAT: directory \"" + dirName + "\": its cluster chain"
                    + " leads from cluster " + cluster + " to " + describe(v), fat.entryOffset(cluster));
        }
        if (clustersRead >= maxClusters) {
            throw new CorruptFileSystemException("FAT: directory \"" + dirName + "\": its cluster chain is longer"
                    + " than " + maxClusters + " clusters (65536 entries, or a loop)", fat.entryOffset(cluster));
        }
        clustersRead++;
        cluster = v;
        regionOffset = boot.clusterOffset(v);
        regionPos = 0;
        return true;
    }

    private String describe(long v) {
        return switch (fat.classify(v)) {
            case FREE -> "a free entry";
            case BAD -> "a bad-cluster mark";
            default -> v + ", past the last cluster " + boot.maxCluster();
        };
    }

    /** One VFAT long-name entry: its 13 UTF-16 units at bytes 1-10, 14-25 and 28-31. */
    private void longPiece(byte[] e) {
        int ord = e[0] & 0xff;
        int seq = ord & 0x3f;
        int sum = e[13] & 0xff;
        if (seq == 0 || seq > MAX_LFN_PIECES) {
            lfnActive = false;
            return;
        }
        if ((ord & 0x40) != 0) {
            lfnActive = true;
            lfnPieces = seq;
            lfnSum = sum;
            java.util.Arrays.fill(lfn, 0, seq * 13, '\uffff');
        } else if (!lfnActive || seq != lfnExpect || sum != lfnSum) {
            lfnActive = false;
            return;
        }
        int at = (seq - 1) * 13;
        int[] offsets = {1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30};
        for (int i = 0; i < 13; i++) {
            lfn[at + i] = (char) ((e[offsets[i]] & 0xff) | (e[offsets[i] + 1] & 0xff) << 8);
        }
        lfnExpect = seq - 1;
    }

    /** The long name of the run just before short entry {@code e}, if it is complete and its checksum matches. */
    private String takeLongName(byte[] e) {
        boolean ok = lfnActive && lfnExpect == 0 && FatNames.checksum(e, 0) == lfnSum;
        lfnActive = false;
        if (!ok) {
            return null;
        }
        int len = 0;
        int max = lfnPieces * 13;
        while (len < max && lfn[len] != 0) {
            len++;
        }
        return len == 0 ? null : FatNames.clean(new String(lfn, 0, len));
    }

    private static boolean isDot(byte[] e) {
        if (e[0] != '.') {
            return false;
        }
        int i = e[1] == '.' ? 2 : 1;
        for (; i < 11; i++) {
            if (e[i] != ' ') {
                return false;
            }
        }
        return true;
    }

    private Node node(byte[] e, int attr, String longName) {
        ByteBuffer b = ByteBuffer.wrap(e).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        String shortName = FatNames.shortName(e, 0, e[12] & 0xff, codePage);
        boolean dir = (attr & 0x10) != 0;
        long lo = b.getShort(26) & 0xffff;
        long hi = boot.type() == 32 ? b.getShort(20) & 0xffff : 0;
        long size = dir ? 0 : b.getInt(28) & 0xffffffffL;
        int created = b.getShort(16) & 0xffff;
        return new FatNode(longName != null ? longName : shortName, shortName, dir ? Kind.DIRECTORY : Kind.FILE, size,
                FatTimes.of(b.getShort(24) & 0xffff, b.getShort(22) & 0xffff, 0),
                FatTimes.ofDate(b.getShort(18) & 0xffff),
                FatTimes.of(created, b.getShort(14) & 0xffff, e[13] & 0xff),
                attr & (Node.READ_ONLY | Node.HIDDEN | Node.SYSTEM | Node.ARCHIVE), hi << 16 | lo, entryOffset(),
                false);
    }
}
