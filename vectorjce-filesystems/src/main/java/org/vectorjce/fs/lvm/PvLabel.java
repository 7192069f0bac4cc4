package org.vectorjce.fs.lvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * An LVM2 physical volume's label and PV header ({@code lib/format_text/layout.h},
 * {@code lib/label/label.c}, {@code lib/format_text/text_label.c}).
 *
 * <p>The label is one 512-byte sector among the device's first four: {@code label_header} (the id
 * {@code "LABELONE"}, the sector's own number, a checksum of bytes 20 to 511, the offset of the
 * contents, the type {@code "LVM2 001"}), then at that offset the {@code pv_header}: the PV's
 * 32-character UUID, the device size in bytes, a zero-terminated list of data areas (offset, size
 * in bytes; one, whose offset is {@code pe_start}) and one of metadata areas (usually one at 4 KiB,
 * a second at the device's end with {@code --pvmetadatacopies 2}). Every list is bounded by the
 * sector; every area must lie within the device.
 *
 * @param sector the sector the label is in (0 to 3)
 * @param uuid the PV UUID, 32 characters without dashes
 * @param deviceSize the size the PV header records, in bytes
 * @param dataAreas the data areas
 * @param metadataAreas the metadata areas
 */
record PvLabel(int sector, String uuid, long deviceSize, List<Area> dataAreas, List<Area> metadataAreas) {
    /** One {@code disk_locn}: bytes {@code [offset, offset + size)} of the device (size 0: to its end). */
    record Area(long offset, long size) {
    }

    static final int SECTOR = 512;
    private static final byte[] ID = "LABELONE".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TYPE = "LVM2 001".getBytes(StandardCharsets.US_ASCII);

    /** The sector holding "LABELONE", or -1 when none of the first four does (not a PV). */
    static int find(Device device) throws IOException {
        int sectors = (int) Math.min(4, device.size() / SECTOR);
        byte[] b = new byte[SECTOR];
        for (int s = 0; s < sectors; s++) {
            device.readFully(s * (long) SECTOR, b, 0, SECTOR);
            if (Arrays.equals(b, 0, 8, ID, 0, 8)) {
                return s;
            }
        }
        return -1;
    }

    /**
     * The label of {@code device}, or null when it has none.
     *
     * @throws CorruptFileSystemException when a label is there but its checksum, type or areas are wrong
     */
    static PvLabel read(Device device) throws IOException {
        int s = find(device);
        if (s < 0) {
            return null;
        }
        long at = s * (long) SECTOR;
        byte[] b = new byte[SECTOR];
        device.readFully(at, b, 0, SECTOR);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        // label_header: id[8], sector_xl, crc_xl (over bytes 20 to the sector's end), offset_xl, type[8]
        if (bb.getLong(8) != s) {
            throw new CorruptFileSystemException("LVM: label says it is in sector " + bb.getLong(8)
                    + ", found in sector " + s, at);
        }
        int crc = LvmCrc.update(LvmCrc.INITIAL, b, 20, SECTOR - 20);
        if (crc != bb.getInt(16)) {
            throw new CorruptFileSystemException(String.format("LVM: label checksum 0x%08x does not match 0x%08x",
                    bb.getInt(16), crc), at);
        }
        if (!Arrays.equals(b, 24, 32, TYPE, 0, 8)) {
            throw new CorruptFileSystemException("LVM: label type is not \"LVM2 001\"", at);
        }
        long contents = bb.getInt(20) & 0xffffffffL;
        // pv_header: pv_uuid[32], device_size_xl, then the two disk_locn lists (16 bytes each entry)
        if (contents < 32 || contents > SECTOR - 32 - 8 - 32) {
            throw new CorruptFileSystemException("LVM: PV header offset " + contents + " is outside the label", at);
        }
        int p = (int) contents;
        String uuid = new String(b, p, 32, StandardCharsets.US_ASCII);
        if (!uuid.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            throw new CorruptFileSystemException("LVM: PV UUID is not 32 letters and digits", at + p);
        }
        long devSize = bb.getLong(p + 32);
        p += 40;
        List<Area> data = new ArrayList<>();
        p = areas(bb, p, data, device.size(), "data", at);
        List<Area> meta = new ArrayList<>();
        areas(bb, p, meta, device.size(), "metadata", at);
        if (data.size() != 1) {
            throw new CorruptFileSystemException("LVM: PV header has " + data.size() + " data areas, not one", at);
        }
        return new PvLabel(s, uuid, devSize, List.copyOf(data), List.copyOf(meta));
    }

    /** Reads one zero-terminated disk_locn list from {@code p}; the position after its terminator. */
    private static int areas(ByteBuffer bb, int p, List<Area> out, long deviceSize, String what, long at)
            throws CorruptFileSystemException {
        while (true) {
            if (p + 16 > SECTOR) {
                throw new CorruptFileSystemException("LVM: PV header's " + what + " area list runs past the label",
                        at);
            }
            long offset = bb.getLong(p);
            long size = bb.getLong(p + 8);
            p += 16;
            if (offset == 0) {
                return p;
            }
            // a data area of size 0 runs to the device's end
            if (offset < 0 || size < 0 || offset > deviceSize || size > deviceSize - offset) {
                throw new CorruptFileSystemException("LVM: PV " + what + " area of " + size + " bytes at " + offset
                        + " passes the end of the " + deviceSize + "-byte device", at);
            }
            out.add(new Area(offset, size));
        }
    }

    /** The data area's start, where extent 0 is ({@code pe_start} in bytes). */
    long dataStart() {
        return dataAreas.get(0).offset();
    }
}
