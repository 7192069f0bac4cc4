package org.vectorjce.fs.lvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * One LVM2 metadata area: its 512-byte {@code mda_header} and the committed metadata text it points
 * at ({@code lib/format_text/layout.h}, {@code lib/format_text/format-text.c}).
 *
 * <p>The header: a checksum of its bytes 4 to 511, the magic {@code " LVM2 x[5A%r0N*>"}, version 1,
 * the area's own start and size in bytes, then raw location descriptors ({@code raw_locn}: offset
 * from the area's start, size, checksum of the text, flags), the first being the committed text.
 * The rest of the area after the header is a circular buffer: a text whose offset plus size passes
 * the area's end continues right after the header. Its size counts a final NUL. A descriptor
 * flagged {@code RAW_LOCN_IGNORED} (the PV's copy was turned off with {@code --metadataignore}) or
 * of size 0 gives no text.
 *
 * @param offset the text's first byte on the device
 * @param text the text, without the NUL
 */
record MetadataArea(long offset, byte[] text) {
    /** Texts longer than this are refused (lvm's own default area is 1 MiB). */
    static final int MAX_TEXT = 4 << 20;
    static final int HEADER = 512;
    private static final byte[] MAGIC = " LVM2 x[5A%r0N*>".getBytes(StandardCharsets.US_ASCII);
    private static final int RAW_LOCN_IGNORED = 1;

    /**
     * The committed text of the area at {@code [start, start + size)}, or null when the area holds
     * none (ignored, or never written).
     *
     * @throws CorruptFileSystemException when the header's magic, version or checksum is wrong, its
     *     descriptor points outside the area, or the text's checksum does not match
     */
    static MetadataArea read(Device device, long start, long size) throws IOException {
        if (size < 2 * HEADER) {
            throw new CorruptFileSystemException("LVM: metadata area of " + size + " bytes is too small", start);
        }
        byte[] h = new byte[HEADER];
        device.readFully(start, h, 0, HEADER);
        ByteBuffer bb = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        int crc = LvmCrc.update(LvmCrc.INITIAL, h, 4, HEADER - 4);
        if (crc != bb.getInt(0)) {
            throw new CorruptFileSystemException(String.format(
                    "LVM: metadata area header checksum 0x%08x does not match 0x%08x", bb.getInt(0), crc), start);
        }
        if (!Arrays.equals(h, 4, 20, MAGIC, 0, 16)) {
            throw new CorruptFileSystemException("LVM: metadata area header has no LVM2 magic", start);
        }
        if (bb.getInt(20) != 1) {
            throw new CorruptFileSystemException("LVM: metadata area header version " + bb.getInt(20)
                    + " (only 1 is known)", start);
        }
        if (bb.getLong(24) != start || bb.getLong(32) != size) {
            throw new CorruptFileSystemException("LVM: metadata area header says it is " + bb.getLong(32)
                    + " bytes at " + bb.getLong(24) + ", the PV header " + size + " at " + start, start);
        }
        long textOffset = bb.getLong(40);
        long textSize = bb.getLong(48);
        int textCrc = bb.getInt(56);
        int flags = bb.getInt(60);
        if (textOffset == 0 || textSize == 0 || (flags & RAW_LOCN_IGNORED) != 0) {
            return null;
        }
        long ring = size - HEADER;
        if (textOffset < HEADER || textOffset >= size || textSize > ring || textSize > MAX_TEXT) {
            throw new CorruptFileSystemException("LVM: metadata text of " + textSize + " bytes at offset "
                    + textOffset + " does not fit the " + size + "-byte metadata area (or passes "
                    + MAX_TEXT + " bytes)", start);
        }
        int n = (int) textSize;
        byte[] t = new byte[n];
        int first = (int) Math.min(n, size - textOffset);
        device.readFully(start + textOffset, t, 0, first);
        if (first < n) {
            // wrapped: the rest follows the header (format-text.c, "wrap")
            device.readFully(start + HEADER, t, first, n - first);
        }
        int c = LvmCrc.update(LvmCrc.INITIAL, t, 0, n);
        if (c != textCrc) {
            throw new CorruptFileSystemException(String.format(
                    "LVM: metadata text checksum 0x%08x does not match 0x%08x", textCrc, c), start + textOffset);
        }
        int len = n;
        while (len > 0 && t[len - 1] == 0) {
            len--;
        }
        return new MetadataArea(start + textOffset, Arrays.copyOf(t, len));
    }
}
