package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * Writes LUKS2 metadata ("LUKS2 On-Disk Format Specification" 1.1.x, section 2): both copies of
 * the binary header with the JSON text zero-padded to {@code hdr_size}, {@code seqid} one above
 * the copy in use, the checksum ({@code checksum_alg}, over the whole {@code hdr_size} bytes with
 * the {@code csum} field zeroed) in each. The secondary copy is written and forced first, then the
 * primary: a crash while the secondary is written leaves the primary (old metadata, valid); a
 * crash after it leaves a secondary with the higher {@code seqid} (new metadata), which readers
 * prefer; so the volume always opens with the old or the new metadata.
 *
 * <p>Label, subsystem, UUID, checksum algorithm and each copy's salt are kept from the header being
 * updated (a copy whose binary header is unreadable gets a new random salt). The JSON is checked
 * with {@link Luks2Metadata#parse} before anything is written.
 */
final class Luks2Writer {
    private Luks2Writer() {
    }

    /** Writes {@code json} as the new metadata of the volume whose header in use is {@code old}. */
    static void update(Image img, Luks2Header old, String json, SecureRandom random, long dataImageSize,
            boolean detached) throws IOException, VolumeException {
        byte[][] salts = new byte[2][];
        for (int c = 0; c < 2; c++) {
            long at = c == 0 ? 0 : old.hdrSize;
            byte[] bin = img.read("LUKS2 binary header", at, Luks2Header.BINARY);
            byte[] magic = c == 0 ? Luks1Header.MAGIC : Luks2Header.MAGIC_2;
            if (Arrays.equals(bin, 0, 6, magic, 0, 6)) {
                salts[c] = Arrays.copyOfRange(bin, 104, 168);
            } else {
                salts[c] = new byte[64];
                random.nextBytes(salts[c]);
            }
        }
        write(img, old.hdrSize, old.seqid + 1, old.label, old.checksumAlg, old.uuid, old.subsystem, salts, json,
                dataImageSize, detached);
    }

    /** Writes both copies of a header: {@code salts[0]} the primary's, {@code salts[1]} the secondary's. */
    static void write(Image img, long hdrSize, long seqid, String label, String checksumAlg, String uuid,
            String subsystem, byte[][] salts, String json, long dataImageSize, boolean detached)
            throws IOException, VolumeException {
        byte[] j = checkFits(hdrSize, json);
        if (!img.holds(0, 2 * hdrSize)) {
            throw new VolumeException(img.name + " is " + img.size + " bytes: too small for two " + hdrSize
                    + "-byte LUKS2 headers");
        }
        // What is written must read back: the same validation as any volume opened.
        Luks2Metadata.parse(Luks2Header.of(hdrSize, seqid, json), img.size, dataImageSize, detached);
        HashAlgorithm h;
        try {
            h = HashAlgorithm.forLuksName(checksumAlg);
        } catch (UnsupportedVolumeException e) {
            throw new CorruptHeaderException("LUKS2 checksum_alg " + checksumAlg + ": " + e.getMessage());
        }
        if (h.length() > 64) {
            throw new CorruptHeaderException("LUKS2 checksum_alg " + checksumAlg + " is longer than the csum field");
        }
        byte[] secondary = copy((int) hdrSize, false, seqid, label, checksumAlg, uuid, subsystem, salts[1], j, h);
        byte[] primary = copy((int) hdrSize, true, seqid, label, checksumAlg, uuid, subsystem, salts[0], j, h);
        img.writeFully(hdrSize, ByteBuffer.wrap(secondary));
        img.force();
        img.writeFully(0, ByteBuffer.wrap(primary));
        img.force();
    }

    /** {@code json} as UTF-8, refused when it and its NUL do not fit the JSON area of {@code hdrSize}. */
    static byte[] checkFits(long hdrSize, String json) throws VolumeException {
        byte[] j = json.getBytes(StandardCharsets.UTF_8);
        if (j.length + 1 > hdrSize - Luks2Header.BINARY) {
            throw new VolumeException("The LUKS2 JSON metadata would need " + (j.length + 1) + " bytes: no room in its "
                    + (hdrSize - Luks2Header.BINARY) + "-byte area");
        }
        return j;
    }

    private static byte[] copy(int hdrSize, boolean primary, long seqid, String label, String checksumAlg,
            String uuid, String subsystem, byte[] salt, byte[] json, HashAlgorithm h) throws VolumeException {
        byte[] a = new byte[hdrSize];
        ByteBuffer b = ByteBuffer.wrap(a);
        b.put(primary ? Luks1Header.MAGIC : Luks2Header.MAGIC_2).putShort((short) 2);
        b.putLong(8, hdrSize).putLong(16, seqid);
        text(a, 24, 48, label, "label");
        text(a, 72, 32, checksumAlg, "checksum_alg");
        System.arraycopy(salt, 0, a, 104, 64);
        text(a, 168, 40, uuid, "uuid");
        text(a, 208, 48, subsystem, "subsystem");
        b.putLong(256, primary ? 0 : hdrSize);
        System.arraycopy(json, 0, a, Luks2Header.BINARY, json.length);
        HashAlgorithm.HashFunction f = h.newHash();
        f.update(a, 0, a.length);
        f.doFinal(a, 448);
        return a;
    }

    private static void text(byte[] a, int off, int len, String s, String field) throws VolumeException {
        byte[] t = s.getBytes(StandardCharsets.UTF_8);
        if (t.length >= len) {
            throw new VolumeException("LUKS2 " + field + " is longer than " + (len - 1) + " bytes");
        }
        System.arraycopy(t, 0, a, off, t.length);
    }
}
