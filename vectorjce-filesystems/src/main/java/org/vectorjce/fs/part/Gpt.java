package org.vectorjce.fs.part;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.spi.Checks;

/**
 * The GUID partition table (UEFI 2.10 section 5.3). The primary header is at LBA 1, the backup at
 * the device's last LBA; each names its partition entry array and the CRC32s of both. A header is
 * valid (5.3.2) when its signature is {@code "EFI PART"}, its size is 92 bytes to a sector, its
 * CRC32 (over its size with the CRC field zeroed) matches, its MyLBA is the LBA it was read from,
 * its usable range and entry array lie within the device and apart, and the array's CRC32 matches.
 * The primary is used when it is valid and its used entries are too (below); else the backup,
 * and {@link PartitionTable#notes()} says so; else a {@link CorruptFileSystemException} naming
 * both failures. (sgdisk too falls back to the backup when the primary fails its CRCs; a primary
 * whose CRCs match but whose entries leave the usable LBAs is taken for damage here as well, so that
 * a consistent backup still gives the disk's partitions.)
 *
 * <p>The LBA is 512 bytes unless the header is found at byte 4096 (LBA 1 of a 4Kn disk) and not
 * at byte 512.
 *
 * <p>Entries (5.3.3, table 5-6): type GUID, unique GUID, first and last LBA (inclusive),
 * attributes, and a 36-character UTF-16LE name ending at its first NUL. An entry whose type GUID
 * is zero is unused and skipped. The list is in entry order, numbered from 1 without the unused
 * entries: {@code mmls} shows entry index {@code i} as slot {@code i} and {@code sgdisk} as
 * partition {@code i + 1}, so ours match {@code sgdisk}'s numbers when no entry before the last
 * used one is unused. A used entry outside the header's usable LBAs, or ending before it starts, or
 * two entries that overlap, make their header fail.
 */
final class Gpt {
    private Gpt() {
    }

    private static final byte[] SIGNATURE = "EFI PART".getBytes(StandardCharsets.US_ASCII);
    /** Bytes of the header fields UEFI 5.3.2 table 5-5 defines; the smallest header size. */
    private static final int HEADER_MIN = 92;
    /** The most bytes of entry array read: 8192 entries of 128 bytes (sgdisk writes 128 entries, 16 KiB). */
    static final int ARRAY_MAX = 1 << 20;
    /** Bytes of the entry fields UEFI 5.3.3 table 5-6 defines: the smallest entry. */
    private static final int ENTRY_MIN = 128;

    /** A header that passed every check, and its entry array. */
    private record Header(long lba, int sectorSize, long firstUsable, long lastUsable, long entriesLba, int count,
            int entrySize, byte[] entries) {
    }

    /** The GPT of {@code device}, whose MBR is protective (an entry of type 0xEE). */
    static PartitionTable read(Device device) throws IOException {
        int ss = sectorSize(device);
        long sectors = device.size() / ss;
        String primaryFailure;
        try {
            return table(header(device, ss, 1), List.of());
        } catch (CorruptFileSystemException e) {
            primaryFailure = e.getMessage();
        }
        long last = sectors - 1;
        try {
            Header backup = header(device, ss, last);
            return table(backup, List.of("GPT: the primary header failed (" + primaryFailure
                    + "); the backup header at LBA " + last + " is used"));
        } catch (CorruptFileSystemException e) {
            throw new CorruptFileSystemException("GPT: neither header is valid: primary: " + primaryFailure
                    + "; backup: " + e.getMessage(), ss);
        }
    }

    /**
     * 512, or 4096 when a header's signature is at byte 4096 (LBA 1) or at the last 4096-byte
     * sector and not at the 512-byte places.
     */
    private static int sectorSize(Device device) throws IOException {
        long size = device.size();
        if (signatureAt(device, 512) || signatureAt(device, (size / 512 - 1) * 512)) {
            return 512;
        }
        if (signatureAt(device, 4096) || signatureAt(device, (size / 4096 - 1) * 4096)) {
            return 4096;
        }
        return 512;
    }

    private static boolean signatureAt(Device device, long offset) throws IOException {
        if (offset < 512 || offset > device.size() - SIGNATURE.length) {
            return false;
        }
        return Arrays.equals(Sectors.read(device, offset, SIGNATURE.length, "GPT signature"), SIGNATURE);
    }

    /** The header at {@code lba}, checked, with its entry array; else the exception saying what failed. */
    private static Header header(Device device, int ss, long lba) throws IOException {
        long sectors = device.size() / ss;
        long at = lba * ss;
        String what = "GPT header at LBA " + lba;
        if (lba < 1 || lba >= sectors) {
            throw new CorruptFileSystemException(what + ": not on the " + sectors + "-sector device", at);
        }
        byte[] h = Sectors.read(device, at, ss, what);
        if (!Arrays.equals(h, 0, 8, SIGNATURE, 0, 8)) {
            throw new CorruptFileSystemException(what + ": no \"EFI PART\" signature", at);
        }
        long headerSize = Sectors.u32(h, 12);
        if (headerSize < HEADER_MIN || headerSize > ss) {
            throw new CorruptFileSystemException(what + ": header size " + headerSize + " is not 92 to " + ss, at + 12);
        }
        long stored = Sectors.u32(h, 16);
        byte[] zeroed = Arrays.copyOf(h, (int) headerSize);
        Arrays.fill(zeroed, 16, 20, (byte) 0);
        if (crc(zeroed, zeroed.length) != stored) {
            throw new CorruptFileSystemException(what + ": header CRC32 does not match", at + 16);
        }
        long myLba = Sectors.u64(h, 24);
        if (myLba != lba) {
            throw new CorruptFileSystemException(what + ": MyLBA is " + Long.toUnsignedString(myLba), at + 24);
        }
        long firstUsable = Sectors.u64(h, 40);
        long lastUsable = Sectors.u64(h, 48);
        if (firstUsable < 1 || lastUsable < firstUsable || lastUsable >= sectors) {
            throw new CorruptFileSystemException(what + ": usable LBAs " + Long.toUnsignedString(firstUsable) + " to "
                    + Long.toUnsignedString(lastUsable) + " are not within the " + sectors + "-sector device", at + 40);
        }
        if (lba >= firstUsable && lba <= lastUsable) {
            throw new CorruptFileSystemException(what + ": the header lies in the usable LBAs", at);
        }
        long entriesLba = Sectors.u64(h, 72);
        long count = Sectors.u32(h, 80);
        long entrySize = Sectors.u32(h, 84);
        // 5.3.2: SizeOfPartitionEntry is 128 times a power of two
        if (entrySize < ENTRY_MIN || entrySize % ENTRY_MIN != 0 || Long.bitCount(entrySize / ENTRY_MIN) != 1) {
            throw new CorruptFileSystemException(what + ": entry size " + entrySize
                    + " is not 128 times a power of two", at + 84);
        }
        Checks.arraySize(entrySize, ARRAY_MAX, what + ": partition entry", at + 84); // so that count * size fits a long
        int arrayBytes = Checks.arraySize(count * entrySize, ARRAY_MAX, what + ": partition entry array", at + 80);
        long arraySectors = (arrayBytes + ss - 1L) / ss;
        // the array lies on the device, past the MBR, apart from its header and the usable LBAs
        if (entriesLba < 1 || entriesLba >= sectors || arraySectors > sectors - entriesLba
                || (lba >= entriesLba && lba < entriesLba + arraySectors)
                || (entriesLba <= lastUsable && firstUsable < entriesLba + arraySectors)) {
            throw new CorruptFileSystemException(what + ": the entry array (" + arraySectors + " sectors at LBA "
                    + Long.toUnsignedString(entriesLba) + ") is not on the device apart from the header and the usable LBAs",
                    at + 72);
        }
        byte[] entries = Sectors.read(device, entriesLba * ss, arrayBytes, what + ": partition entry array");
        if (crc(entries, arrayBytes) != Sectors.u32(h, 88)) {
            throw new CorruptFileSystemException(what + ": the partition entry array's CRC32 does not match",
                    entriesLba * ss);
        }
        return new Header(lba, ss, firstUsable, lastUsable, entriesLba, (int) count, (int) entrySize, entries);
    }

    /** The used entries of {@code h}'s array as partitions. */
    private static PartitionTable table(Header h, List<String> notes) throws CorruptFileSystemException {
        List<Partition> out = new ArrayList<>();
        byte[] a = h.entries();
        for (int i = 0; i < h.count(); i++) {
            int off = i * h.entrySize();
            if (Guids.isZero(a, off)) {
                continue;
            }
            long first = Sectors.u64(a, off + 32);
            long last = Sectors.u64(a, off + 40);
            if (first < h.firstUsable() || last < first || last > h.lastUsable()) {
                throw new CorruptFileSystemException("GPT: entry " + (i + 1) + " (LBAs " + Long.toUnsignedString(first)
                        + " to " + Long.toUnsignedString(last) + ") is not within the usable LBAs "
                        + h.firstUsable() + " to " + h.lastUsable(), h.entriesLba() * h.sectorSize() + off + 32);
            }
            String type = Guids.format(a, off);
            out.add(new Partition(out.size() + 1, "GPT", type, PartitionTypes.gptDescription(type), name(a, off + 56),
                    first * h.sectorSize(), (last - first + 1) * h.sectorSize()));
        }
        PartitionTables.noOverlap("GPT at LBA " + h.lba(), out);
        return new PartitionTable("GPT", h.sectorSize(), out, notes);
    }

    /** The UTF-16LE name of 36 code units at {@code off}, up to its first NUL (5.3.3: PartitionName). */
    private static String name(byte[] a, int off) {
        int units = 0;
        while (units < 36 && (a[off + 2 * units] != 0 || a[off + 2 * units + 1] != 0)) {
            units++;
        }
        return new String(a, off, 2 * units, StandardCharsets.UTF_16LE);
    }

    private static long crc(byte[] b, int length) {
        CRC32 c = new CRC32();
        c.update(b, 0, length);
        return c.getValue();
    }
}
