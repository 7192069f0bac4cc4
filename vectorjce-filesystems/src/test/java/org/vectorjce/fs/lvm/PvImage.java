package org.vectorjce.fs.lvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.NonWritableChannelException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.vectorjce.device.Device;

/**
 * The hostile tests' and the fuzz target's PV: the first 64 KiB of an 8 MiB PV that lvm2 2.03.16
 * made ({@code pvcreate --metadatasize 32k --dataalignment 64k}; {@code vgcreate -s 64k vgf};
 * {@code lvcreate -an -Zn -l 8 -n lin}, {@code -l 4 -n second}, {@code lvextend -l +4 vgf/lin},
 * {@code lvcreate --type zero -l 2 -n z}), kept in {@code pv-head.bin.gz}: label in sector 1, the
 * metadata area at 4096 (61440 bytes), extents from 65536; the rest of the device reads as zeros.
 * {@link #withText} puts another metadata text in the area with the checksums lvm would write, so
 * that a test reaches the text parser past the checksums.
 */
final class PvImage implements Device {
    static final long SIZE = 8 << 20;
    static final int MDA = 4096;
    static final int MDA_SIZE = 61440;
    /** Where the template's committed text is, in the metadata area, and its size with the NUL. */
    static final int TEXT_OFFSET = 6656;
    static final int TEXT_SIZE = 1803;

    private final byte[] head;

    PvImage(byte[] head) {
        this.head = head;
    }

    /** The template as lvm wrote it. */
    static PvImage template() {
        try (InputStream in = new GZIPInputStream(PvImage.class.getResourceAsStream("pv-head.bin.gz"))) {
            return new PvImage(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template's committed metadata text, without its NUL. */
    String text() {
        return new String(head, MDA + TEXT_OFFSET, TEXT_SIZE - 1, StandardCharsets.UTF_8);
    }

    byte[] bytes() {
        return head.clone();
    }

    /**
     * This PV with {@code text} (and a NUL) as the committed metadata at offset {@code at} of the
     * area (wrapping past its end to just after the header, as lvm does), checksums recomputed.
     */
    PvImage withText(byte[] text, int at) {
        byte[] h = head.clone();
        int n = Math.min(text.length + 1, MDA_SIZE - 512);
        byte[] t = new byte[n];
        System.arraycopy(text, 0, t, 0, Math.min(text.length, n));
        for (int i = 0; i < n; i++) {
            int o = at + i < MDA_SIZE ? at + i : 512 + (at + i - MDA_SIZE);
            h[MDA + o] = t[i];
        }
        ByteBuffer bb = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        bb.putLong(MDA + 40, at).putLong(MDA + 48, n).putInt(MDA + 56, LvmCrc.update(LvmCrc.INITIAL, t, 0, n));
        bb.putInt(MDA, LvmCrc.update(LvmCrc.INITIAL, h, MDA + 4, 508));
        return new PvImage(h);
    }

    PvImage withText(String text) {
        return withText(text.getBytes(StandardCharsets.UTF_8), TEXT_OFFSET);
    }

    /** This PV with the committed text's descriptor set to {@code (offset, size)}, the header's checksum fixed. */
    PvImage withLocn(long offset, long size) {
        byte[] h = head.clone();
        ByteBuffer bb = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        bb.putLong(MDA + 40, offset).putLong(MDA + 48, size);
        bb.putInt(MDA, LvmCrc.update(LvmCrc.INITIAL, h, MDA + 4, 508));
        return new PvImage(h);
    }

    /** This PV with byte {@code at} of the head xor {@code x}, no checksum fixed. */
    PvImage flip(int at, int x) {
        byte[] h = head.clone();
        h[at] ^= (byte) x;
        return new PvImage(h);
    }

    @Override
    public long size() {
        return SIZE;
    }

    @Override
    public boolean readOnly() {
        return true;
    }

    @Override
    public int read(ByteBuffer dst, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= SIZE) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), SIZE - offset);
        for (int i = 0; i < n; i++) {
            long at = offset + i;
            dst.put(at < head.length ? head[(int) at] : 0);
        }
        return n;
    }

    @Override
    public void write(ByteBuffer src, long offset) {
        throw new NonWritableChannelException();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
