package org.vectorjce.fs.part;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.Partition;

/**
 * The MBR partition table and its extended partitions' EBR chains (UEFI 2.10 section 5.2.1,
 * "Legacy Master Boot Record"; the EBR layout is the one DOS, Windows and Linux share).
 *
 * <p>The MBR is sector 0: four 16-byte entries at byte 446 (status, CHS start, type, CHS end, LBA
 * start, sector count; the CHS fields are ignored, as every current system does) and {@code 55 AA}
 * at byte 510. An entry is unused when its type or its sector count is 0. An extended entry
 * (0x05, 0x0F, 0x85) is a chain of EBRs: each EBR is a sector like the MBR whose data entry starts
 * relative to the EBR itself and whose extended entry links to the next EBR, relative to the start
 * of the extended partition named in the MBR. Every data entry of an EBR is a logical partition;
 * the first extended entry is the link (the others are ignored, as Linux does).
 *
 * <p>Numbering: the primary data partitions in slot order (empty and extended slots skipped), then
 * the logical partitions in chain order. The extended partitions themselves are not in the list:
 * they hold tables, not a filesystem ({@code mmls} lists them as "Meta"). So with three primaries
 * and one extended partition holding three logicals, ours are 1, 2, 3 (Linux's sda1 to sda3,
 * {@code mmls}'s slots 000:000 to 000:002) then 4, 5, 6 (Linux's sda5 to sda7, {@code mmls}'s
 * 001:000, 002:000, 003:000).
 *
 * <p>Once sector 0 is taken for an MBR (see {@link PartitionTables}), anything inconsistent is a
 * {@link CorruptFileSystemException} rather than a guess: an entry past the device (not clipped: a
 * truncated image is reported as such, as TSK does for the first entries), primary entries that
 * overlap, a logical partition outside its extended partition or over its own EBR, an EBR without
 * its signature or outside the extended partition, a chain that loops or has more than
 * {@value #MAX_EBRS} EBRs.
 */
final class Mbr {
    private Mbr() {
    }

    /** Bytes of an MBR sector and the unit of its LBAs. */
    static final int SECTOR = 512;
    /** Where the four entries start (UEFI 5.2.1 table 5-1: PartitionRecord). */
    static final int TABLE = 446;
    /** Bytes of one entry. */
    static final int ENTRY = 16;
    /** The most EBRs followed over all extended partitions: a chain longer than this is taken for a loop. */
    static final int MAX_EBRS = 128;

    /** One 16-byte entry of an MBR or EBR. */
    record Entry(int slot, int status, int type, long start, long count) {
        boolean used() {
            return type != 0 && count != 0;
        }

        long end() {
            return start + count;
        }
    }

    /** Whether {@code sector} ends with the {@code 55 AA} signature (UEFI 5.2.1: Signature at 510). */
    static boolean hasSignature(byte[] sector) {
        return (sector[510] & 0xff) == 0x55 && (sector[511] & 0xff) == 0xaa;
    }

    /** The four entries of an MBR or EBR sector. */
    static Entry[] entries(byte[] sector) {
        Entry[] e = new Entry[4];
        for (int i = 0; i < 4; i++) {
            int at = TABLE + ENTRY * i;
            e[i] = new Entry(i, sector[at] & 0xff, sector[at + 4] & 0xff, Sectors.u32(sector, at + 8),
                    Sectors.u32(sector, at + 12));
        }
        return e;
    }

    /**
     * Whether every entry's status byte is 0x00 or 0x80 (UEFI 5.2.1: BootIndicator); boot code or a
     * filesystem's bytes in that place are not a partition table.
     */
    static boolean statusBytesValid(Entry[] entries) {
        for (Entry e : entries) {
            if (e.status() != 0 && e.status() != 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The partitions of the MBR whose entries are {@code primary}. */
    static List<Partition> read(Device device, Entry[] primary) throws IOException {
        long sectors = device.size() / SECTOR;
        for (Entry e : primary) {
            if (e.used() && e.end() > sectors) {
                throw new CorruptFileSystemException("MBR: partition entry " + (e.slot() + 1) + " (sectors "
                        + e.start() + " to " + (e.end() - 1) + ") passes the end of the " + sectors
                        + "-sector device", TABLE + ENTRY * e.slot());
            }
        }
        for (Entry a : primary) {
            for (Entry b : primary) {
                if (a.slot() < b.slot() && a.used() && b.used() && a.start() < b.end() && b.start() < a.end()) {
                    throw new CorruptFileSystemException("MBR: partition entries " + (a.slot() + 1) + " and "
                            + (b.slot() + 1) + " overlap", TABLE + ENTRY * b.slot());
                }
            }
        }
        List<Partition> out = new ArrayList<>();
        List<long[]> logicals = new ArrayList<>();
        int[] ebrs = {0};
        for (Entry e : primary) {
            if (!e.used()) {
                continue;
            }
            if (PartitionTypes.isExtended(e.type())) {
                chain(device, e, logicals, ebrs);
            } else {
                out.add(partition(out.size() + 1, e.type(), e.start(), e.count()));
            }
        }
        for (long[] l : logicals) {
            out.add(partition(out.size() + 1, (int) l[0], l[1], l[2]));
        }
        return out;
    }

    /**
     * Follows the EBR chain of extended entry {@code ext}, adding each logical partition as
     * {type, first sector, sectors} to {@code logicals}; {@code ebrs[0]} counts the EBRs read over
     * all chains.
     */
    private static void chain(Device device, Entry ext, List<long[]> logicals, int[] ebrs) throws IOException {
        long base = ext.start();
        long end = ext.end();
        String where = "MBR: extended partition " + (ext.slot() + 1) + " (sectors " + base + " to " + (end - 1) + ")";
        Set<Long> seen = new HashSet<>();
        seen.add(0L); // the MBR itself: an extended partition at sector 0 would loop at once
        long ebr = base;
        while (true) {
            if (!seen.add(ebr)) {
                throw new CorruptFileSystemException(where + ": the EBR chain loops back to sector " + ebr,
                        ebr * SECTOR);
            }
            if (++ebrs[0] > MAX_EBRS) {
                throw new CorruptFileSystemException(where + ": more than " + MAX_EBRS + " EBRs", ebr * SECTOR);
            }
            byte[] sector = Sectors.read(device, ebr * SECTOR, SECTOR, where + ": EBR at sector " + ebr);
            if (!hasSignature(sector)) {
                throw new CorruptFileSystemException(where + ": EBR at sector " + ebr + " has no 55 AA signature",
                        ebr * SECTOR + 510);
            }
            Entry link = null;
            for (Entry e : entries(sector)) {
                if (!e.used()) {
                    continue;
                }
                long at = ebr * SECTOR + TABLE + ENTRY * e.slot();
                if (PartitionTypes.isExtended(e.type())) {
                    if (link == null) {
                        link = e;
                    }
                    continue;
                }
                // a logical partition starts relative to its own EBR, after it
                long first = ebr + e.start();
                if (e.start() == 0 || first + e.count() > end) {
                    throw new CorruptFileSystemException(where + ": the logical partition in the EBR at sector "
                            + ebr + " (sectors " + first + " to " + (first + e.count() - 1)
                            + ") is not inside it after the EBR", at);
                }
                logicals.add(new long[] {e.type(), first, e.count()});
            }
            if (link == null) {
                return;
            }
            // the next EBR is relative to the extended partition's start
            long next = base + link.start();
            if (next >= end) {
                throw new CorruptFileSystemException(where + ": the EBR at sector " + ebr + " links to sector "
                        + next + ", outside the extended partition", ebr * SECTOR + TABLE + ENTRY * link.slot());
            }
            ebr = next;
        }
    }

    private static Partition partition(int number, int type, long start, long count) {
        return new Partition(number, "MBR", PartitionTypes.mbrType(type), PartitionTypes.mbrDescription(type), "",
                start * SECTOR, count * SECTOR);
    }
}
