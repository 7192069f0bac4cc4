package org.vectorjce.volumes.luks;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.CorruptHeaderException;

/**
 * The LUKS1 partition header ({@code phdr}), parsed and validated in one place: "LUKS1 On-Disk
 * Format Specification" version 1.2.3, section 2.4 (figure "PHDR layout") and the checks
 * cryptsetup makes before it uses a field ({@code lib/luks1/keymanage.c}: magic and version; key
 * slot states; each active or inactive slot's key material after the header, before the payload,
 * with cryptsetup's 4000 stripes, none overlapping the next; the payload inside the data image).
 *
 * <pre>
 * offset  size  field                 offset  size  field
 *      0     6  magic LUKS\xba\xbe        108     4  key-bytes
 *      6     2  version (1)               112    20  mk-digest
 *      8    32  cipher-name               132    32  mk-digest-salt
 *     40    32  cipher-mode               164     4  mk-digest-iter
 *     72    32  hash-spec                 168    40  uuid
 *    104     4  payload-offset (sectors)  208  8x48  key slots: active, iterations,
 *                                                     salt[32], key-material-offset, stripes
 * </pre>
 * All integers big-endian.
 */
final class Luks1Header {
    static final int SIZE = 592;
    static final int SECTOR = 512;
    static final int SLOTS = 8;
    static final int STRIPES = 4000;
    static final int ACTIVE = 0x00AC71F3;
    static final int INACTIVE = 0x0000DEAD;
    static final byte[] MAGIC = {'L', 'U', 'K', 'S', (byte) 0xba, (byte) 0xbe};

    final String cipherName, cipherMode, hashSpec, uuid;
    final long payloadOffsetSectors;
    final int keyBytes;
    final byte[] mkDigest, mkDigestSalt;
    final long mkDigestIterations;
    final List<Slot> slots;

    record Slot(int id, boolean active, long iterations, byte[] salt, long keyMaterialSector, int stripes) {
        /** Bytes of key material: keyBytes × stripes, rounded up to whole sectors. */
        long areaBytes(int keyBytes) {
            return ((long) keyBytes * stripes + SECTOR - 1) / SECTOR * SECTOR;
        }
    }

    private Luks1Header(ByteBuffer b) throws CorruptHeaderException {
        cipherName = text(b, 8, 32, "cipher-name");
        cipherMode = text(b, 40, 32, "cipher-mode");
        hashSpec = text(b, 72, 32, "hash-spec");
        payloadOffsetSectors = Integer.toUnsignedLong(b.getInt(104));
        keyBytes = b.getInt(108);
        mkDigest = Arrays.copyOfRange(b.array(), 112, 132);
        mkDigestSalt = Arrays.copyOfRange(b.array(), 132, 164);
        mkDigestIterations = Integer.toUnsignedLong(b.getInt(164));
        uuid = text(b, 168, 40, "uuid");
        List<Slot> s = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) {
            int o = 208 + 48 * i;
            int state = b.getInt(o);
            if (state != ACTIVE && state != INACTIVE) {
                throw new CorruptHeaderException("LUKS1 key slot " + i + ": state 0x" + Integer.toHexString(state)
                        + " is neither active (0x00ac71f3) nor disabled (0x0000dead)");
            }
            s.add(new Slot(i, state == ACTIVE, Integer.toUnsignedLong(b.getInt(o + 4)),
                    Arrays.copyOfRange(b.array(), o + 8, o + 40), Integer.toUnsignedLong(b.getInt(o + 40)),
                    b.getInt(o + 44)));
        }
        slots = List.copyOf(s);
    }

    /** Whether {@code b} starts with the LUKS magic and version {@code version}. */
    static boolean isLuks(byte[] b, int version) {
        return b.length >= 8 && Arrays.equals(b, 0, 6, MAGIC, 0, 6)
                && ((b[6] & 0xff) << 8 | (b[7] & 0xff)) == version;
    }

    /**
     * Parses and validates the header at the start of {@code header}; {@code data} is the image
     * holding the payload (the same image unless the header is detached).
     */
    static Luks1Header read(Image header, Image data) throws java.io.IOException, CorruptHeaderException {
        if (header.size < SIZE) {
            throw new CorruptHeaderException("The image is " + header.size + " bytes: too small for a LUKS1 header ("
                    + SIZE + " bytes)");
        }
        byte[] raw = header.read("LUKS1 header", 0, SIZE);
        if (!isLuks(raw, 1)) {
            throw new CorruptHeaderException("LUKS1 header: bad magic or version");
        }
        Luks1Header h = new Luks1Header(ByteBuffer.wrap(raw));
        h.validate(header, data);
        return h;
    }

    private static String text(ByteBuffer b, int off, int len, String field) throws CorruptHeaderException {
        byte[] a = b.array();
        int end = off;
        while (end < off + len && a[end] != 0) {
            end++;
        }
        if (end == off + len) {
            throw new CorruptHeaderException("LUKS1 header: " + field + " is not NUL-terminated");
        }
        for (int i = off; i < end; i++) {
            if (a[i] < 0x20 || a[i] > 0x7e) {
                throw new CorruptHeaderException("LUKS1 header: " + field + " holds a byte that is not printable ASCII");
            }
        }
        return new String(a, off, end - off, StandardCharsets.US_ASCII);
    }

    private void validate(Image header, Image data) throws CorruptHeaderException {
        if (cipherName.isEmpty() || cipherMode.isEmpty() || hashSpec.isEmpty()) {
            throw new CorruptHeaderException("LUKS1 header: empty cipher-name, cipher-mode or hash-spec");
        }
        if (keyBytes < 1 || keyBytes > 512) {
            throw new CorruptHeaderException("LUKS1 header: key-bytes " + Integer.toUnsignedString(keyBytes)
                    + " outside 1..512");
        }
        if (mkDigestIterations < 1) {
            throw new CorruptHeaderException("LUKS1 header: mk-digest-iter is 0");
        }
        boolean detached = header != data;
        if (!detached && payloadOffsetSectors == 0) {
            throw new CorruptHeaderException("LUKS1 header: payload-offset 0 overlaps the header (detached header?)");
        }
        long payload = payloadOffsetSectors * SECTOR;
        if (payload > data.size) {
            throw new CorruptHeaderException("LUKS1 header: payload-offset " + payloadOffsetSectors + " ("
                    + payload + " bytes) lies beyond the end of the " + data.size + "-byte image");
        }
        for (Slot s : slots) {
            String what = "LUKS1 key slot " + s.id();
            if (s.stripes() != STRIPES) {
                throw new CorruptHeaderException(what + ": stripes " + Integer.toUnsignedString(s.stripes())
                        + " (cryptsetup requires " + STRIPES + ")");
            }
            if (s.keyMaterialSector() * SECTOR < SIZE) {
                throw new CorruptHeaderException(what + ": key-material-offset " + s.keyMaterialSector()
                        + " overlaps the header");
            }
            long end = s.keyMaterialSector() * SECTOR + s.areaBytes(keyBytes);
            if (payloadOffsetSectors != 0 && end > payload) {
                throw new CorruptHeaderException(what + ": key material (sectors " + s.keyMaterialSector() + ".."
                        + (end / SECTOR - 1) + ") overlaps the payload at sector " + payloadOffsetSectors);
            }
            if (s.active() && s.iterations() < 1) {
                throw new CorruptHeaderException(what + ": iterations is 0");
            }
            if (s.active()) {
                header.check(what + " key material", s.keyMaterialSector() * SECTOR, s.areaBytes(keyBytes));
            }
        }
        Slot[] sorted = slots.toArray(new Slot[0]);
        Arrays.sort(sorted, (a, b) -> Long.compare(a.keyMaterialSector(), b.keyMaterialSector()));
        for (int i = 1; i < sorted.length; i++) {
            Slot prev = sorted[i - 1];
            if (sorted[i].keyMaterialSector() * SECTOR < prev.keyMaterialSector() * SECTOR + prev.areaBytes(keyBytes)) {
                throw new CorruptHeaderException("LUKS1 key slots " + prev.id() + " and " + sorted[i].id()
                        + ": key material areas overlap");
            }
        }
        if ((data.size - payload) % SECTOR != 0) {
            throw new CorruptHeaderException("LUKS1 payload: " + (data.size - payload)
                    + " bytes is not a whole number of 512-byte sectors");
        }
    }
}
