package org.vectorjce.fs.fat;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * The file allocation table in use, read entry by entry through a {@link BlockCache} (never loaded
 * whole), with fatgen103's meanings of an entry: 0 free, 2 to the last cluster the next cluster,
 * the bad mark, and end-of-chain ({@code >= 0xFF8}, {@code 0xFFF8}, {@code 0x0FFFFFF8}).
 *
 * <p>Entry positions (fatgen103 "FAT Data Structure"): FAT12 packs two 12-bit entries in three
 * bytes, so an entry may straddle a sector; FAT16 entries are 2 bytes; FAT32 entries are 4 bytes of
 * which the high 4 bits are reserved and masked off.
 */
final class FatTable {
    /** What {@link #classify} says of an entry. */
    enum Entry {
        FREE, NEXT, END, BAD, OUT_OF_RANGE
    }

    private final BootSector boot;
    private final BlockCache cache;
    private final long endMark;
    private final long badMark;

    FatTable(BootSector boot, BlockCache cache) {
        this.boot = boot;
        this.cache = cache;
        this.endMark = boot.type() == 12 ? 0xFF8 : boot.type() == 16 ? 0xFFF8 : 0x0FFFFFF8L;
        this.badMark = endMark - 1;
    }

    /**
     * The FAT entry of cluster {@code c}, which must be a data cluster (2 to
     * {@link BootSector#maxCluster()}); the boot sector's checks guarantee that it lies in the FAT.
     */
    long get(long c) throws IOException {
        if (c < 2 || c > boot.maxCluster()) {
            throw new CorruptFileSystemException("FAT: cluster " + c + " is not a data cluster", boot.fatOffset());
        }
        return read(c);
    }

    /** Entry {@code c} as it is stored (FAT[0] and FAT[1] included), its reserved FAT32 bits cleared. */
    long read(long c) throws IOException {
        byte[] e = new byte[4];
        switch (boot.type()) {
            case 12 -> {
                long at = boot.fatOffset() + c + c / 2;
                cache.read(at, e, 0, 2, "FAT12 entry");
                int v = (e[0] & 0xff) | (e[1] & 0xff) << 8;
                return (c & 1) != 0 ? v >>> 4 : v & 0xfff;
            }
            case 16 -> {
                long at = boot.fatOffset() + c * 2;
                cache.read(at, e, 0, 2, "FAT16 entry");
                return (e[0] & 0xff) | (e[1] & 0xff) << 8;
            }
            default -> {
                long at = boot.fatOffset() + c * 4;
                cache.read(at, e, 0, 4, "FAT32 entry");
                return ((e[0] & 0xff) | (e[1] & 0xff) << 8 | (e[2] & 0xff) << 16 | (e[3] & 0x0fL) << 24);
            }
        }
    }

    /** What entry value {@code v} means. */
    Entry classify(long v) {
        if (v == 0) {
            return Entry.FREE;
        }
        if (v >= endMark) {
            return Entry.END;
        }
        if (v == badMark) {
            return Entry.BAD;
        }
        if (v < 2 || v > boot.maxCluster()) {
            return Entry.OUT_OF_RANGE;
        }
        return Entry.NEXT;
    }

    /** Whether {@code c} is a data cluster number. */
    boolean isCluster(long c) {
        return c >= 2 && c <= boot.maxCluster();
    }

    /** The byte offset of cluster {@code c}'s FAT entry, for messages. */
    long entryOffset(long c) {
        return boot.fatOffset() + (boot.type() == 12 ? c + c / 2 : c * (boot.type() / 8));
    }

    BootSector boot() {
        return boot;
    }
}
