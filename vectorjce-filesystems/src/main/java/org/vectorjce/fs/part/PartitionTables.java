package org.vectorjce.fs.part;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.Partition;

/**
 * Which partition table a device has, and its partitions: the one entry point of this package
 * (behind {@link org.vectorjce.fs.Partitions#read}).
 *
 * <p>The decision, on sector 0 (its first 512 bytes):
 * <ol>
 * <li>no {@code 55 AA} at byte 510, or a device under 512 bytes: no table;
 * <li>a FAT, NTFS or exFAT boot sector ({@link BootSectors}): no table, the filesystem starts at
 *     byte 0 (its boot sector ends with the same signature);
 * <li>a status byte other than 0x00 or 0x80 in any of the four entries: not an MBR (boot code or
 *     some other structure), no table;
 * <li>no used entry (type and count both non-zero): no table;
 * <li>an entry of type 0xEE (GPT protective, UEFI 5.2.3; a hybrid MBR's other entries are
 *     ignored): the GPT ({@link Gpt}), which must then be valid;
 * <li>else the MBR ({@link Mbr}).
 * </ol>
 * Past step 4 a damaged table is a {@link CorruptFileSystemException}, never a reinterpretation.
 * Partitions that overlap each other are one too. "No table" is one partition of scheme
 * {@code none} over the whole device; a valid GPT with no used entry is an empty list.
 */
public final class PartitionTables {
    private PartitionTables() {
    }

    /** The partition table of {@code device}. */
    public static PartitionTable read(Device device) throws IOException {
        long size = device.size();
        PartitionTable none = new PartitionTable("none", Mbr.SECTOR,
                List.of(new Partition(1, "none", "", "", "", 0, size)), List.of());
        if (size < Mbr.SECTOR) {
            return none;
        }
        byte[] sector0 = Sectors.read(device, 0, Mbr.SECTOR, "MBR");
        if (!Mbr.hasSignature(sector0) || BootSectors.isFilesystem(sector0)) {
            return none;
        }
        Mbr.Entry[] entries = Mbr.entries(sector0);
        if (!Mbr.statusBytesValid(entries)) {
            return none;
        }
        boolean used = false;
        boolean protective = false;
        for (Mbr.Entry e : entries) {
            used |= e.used();
            protective |= e.used() && e.type() == 0xee;
        }
        if (!used) {
            return none;
        }
        if (protective) {
            return Gpt.read(device);
        }
        List<Partition> mbr = Mbr.read(device, entries);
        noOverlap("MBR", mbr);
        return new PartitionTable("MBR", Mbr.SECTOR, mbr, List.of());
    }

    /** Two partitions of one table never share a byte: a window over another's bytes is damage. */
    static void noOverlap(String scheme, List<Partition> partitions) throws CorruptFileSystemException {
        List<Partition> byOffset = new ArrayList<>(partitions);
        byOffset.sort(Comparator.comparingLong(Partition::offset));
        for (int i = 1; i < byOffset.size(); i++) {
            Partition a = byOffset.get(i - 1);
            Partition b = byOffset.get(i);
            if (b.offset() < a.offset() + a.length()) {
                throw new CorruptFileSystemException(scheme + ": partitions " + a.number() + " and "
                        + b.number() + " overlap", b.offset());
            }
        }
    }
}
