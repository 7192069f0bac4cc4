package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The critical and benign primary entries of the exFAT root folder that describe the volume, read
 * once at open: the Allocation Bitmap entry of the active FAT (0x81, specification section 7.1), the
 * Up-case Table entry (0x82, section 7.2) and the Volume Label entry (0x83, section 7.3).
 *
 * <p>The up-case table is required (without it names cannot be compared), so its absence refuses
 * the volume; a label's CharacterCount over 11 is a {@link CorruptFileSystemException}. The free
 * bytes count the bitmap's clear bits over ClusterCount clusters, read 64 KiB at a time, when the
 * bitmap is at most 16 MiB (2^27 clusters); for a larger bitmap, or none, they are -1. The scan
 * stops at the folder's end mark (0x00) or once all three entries are found.
 *
 * @param upcase the volume's up-case table, its checksum verified
 * @param label the label, or "" when there is none
 * @param freeBytes unallocated bytes of the cluster heap, or -1
 */
record RootEntries(UpcaseTable upcase, String label, long freeBytes) {
    private static final int MAX_BITMAP_COUNTED = 16 << 20;

    static RootEntries read(Device device, ExfatBootSector boot, ExfatFat fat, ClusterContent root)
            throws IOException {
        EntryReader r = new EntryReader(root, "exFAT: root folder");
        byte[] bitmap = null;
        byte[] up = null;
        byte[] label = null;
        long bitmapAt = -1;
        long upAt = -1;
        for (long pos = 0; pos + EntryReader.ENTRY <= r.size(); pos += EntryReader.ENTRY) {
            int type = r.type(pos);
            if (type == 0x00 || bitmap != null && up != null && label != null) {
                break;
            }
            byte[] e = new byte[EntryReader.ENTRY];
            if (type == 0x81 && bitmap == null) {
                r.copy(pos, e, 0);
                if ((e[1] & 1) == boot.activeFat) { // 7.1.1: BitmapFlags.BitmapIdentifier
                    bitmap = e;
                    bitmapAt = r.deviceOffset(pos);
                }
            } else if (type == 0x82 && up == null) {
                r.copy(pos, e, 0);
                up = e;
                upAt = r.deviceOffset(pos);
            } else if (type == 0x83 && label == null) {
                r.copy(pos, e, 0);
                label = e;
                if ((e[1] & 0xff) > 11) {
                    throw new CorruptFileSystemException("exFAT: volume label's CharacterCount " + (e[1] & 0xff)
                            + " passes 11", r.deviceOffset(pos));
                }
            }
        }
        if (up == null) {
            throw new CorruptFileSystemException("exFAT: the root folder has no Up-case Table entry (0x82)",
                    boot.clusterOffset(boot.rootCluster));
        }
        ByteBuffer u = ByteBuffer.wrap(up).order(ByteOrder.LITTLE_ENDIAN);
        UpcaseTable upcase = UpcaseTable.read(new ClusterContent(device, boot, fat,
                Integer.toUnsignedLong(u.getInt(20)), false, u.getLong(24), u.getLong(24), "exFAT: up-case table",
                upAt), Integer.toUnsignedLong(u.getInt(4)), upAt);
        String labelText = "";
        if (label != null) {
            char[] c = new char[label[1] & 0xff];
            ByteBuffer l = ByteBuffer.wrap(label).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < c.length; i++) {
                c[i] = l.getChar(2 + 2 * i);
            }
            labelText = new String(c).replace('\0', '_');
        }
        long free = -1;
        if (bitmap != null) {
            ByteBuffer m = ByteBuffer.wrap(bitmap).order(ByteOrder.LITTLE_ENDIAN);
            ClusterContent c = new ClusterContent(device, boot, fat, Integer.toUnsignedLong(m.getInt(20)), false,
                    m.getLong(24), m.getLong(24), "exFAT: allocation bitmap", bitmapAt);
            free = countFree(boot, c, bitmapAt);
        }
        return new RootEntries(upcase, labelText, free);
    }

    /** Clusters whose bit in the allocation bitmap (7.1.3: bit n for cluster n + 2) is clear, in bytes. */
    private static long countFree(ExfatBootSector boot, ClusterContent bitmap, long at) throws IOException {
        long bytes = (boot.clusterCount + 7) / 8;
        if (bitmap.size() < bytes) {
            throw new CorruptFileSystemException("exFAT: allocation bitmap of " + bitmap.size() + " bytes cannot hold "
                    + boot.clusterCount + " clusters", at);
        }
        if (bytes > MAX_BITMAP_COUNTED) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.allocate((int) Math.min(bytes, 64 << 10));
        long used = 0;
        for (long pos = 0; pos < bytes; ) {
            b.clear().limit((int) Math.min(b.capacity(), bytes - pos));
            while (b.hasRemaining()) {
                if (bitmap.read(b, pos + b.position()) <= 0) {
                    throw new CorruptFileSystemException("exFAT: allocation bitmap ends early", at);
                }
            }
            for (int i = 0; i < b.limit(); i++) {
                int v = b.get(i) & 0xff;
                long bit = (pos + i) * 8;
                if (bit + 8 > boot.clusterCount) {
                    v &= (1 << (int) (boot.clusterCount - bit)) - 1; // bits past the last cluster
                }
                used += Integer.bitCount(v);
            }
            pos += b.limit();
        }
        return (boot.clusterCount - used) << boot.clusterShift;
    }
}
