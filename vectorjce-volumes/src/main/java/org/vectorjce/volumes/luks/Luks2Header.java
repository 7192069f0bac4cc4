package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * The two LUKS2 binary headers and their JSON areas ("LUKS2 On-Disk Format Specification" version
 * 1.1.x, section 2 "Binary header" and 3 "JSON area"; cryptsetup {@code lib/luks2/luks2_disk_metadata.c}):
 *
 * <pre>
 * offset size field                offset size field
 *      0    6 magic LUKS\xba\xbe /      168   40 uuid
 *             SKUL\xba\xbe (secondary)  208   48 subsystem
 *      6    2 version (2)             256    8 hdr_offset
 *      8    8 hdr_size                 264  184 (padding)
 *     16    8 seqid                    448   64 csum (over hdr_size bytes, this field zeroed)
 *     24   48 label                    512 3584 (padding to 4096)
 *     72   32 checksum_alg            4096  ... JSON text, NUL-terminated, up to hdr_size
 *    104   64 salt
 * </pre>
 * Integers are big-endian. {@code hdr_size} is one of the metadata sizes cryptsetup writes,
 * 16 KiB..4 MiB (powers of two); the secondary copy follows the primary at {@code hdr_size}.
 * The primary's {@code hdr_size} says where to look; when the primary is bad, the secondary is
 * looked for at every allowed offset, as cryptsetup does. The valid copy with the highest
 * {@code seqid} wins; a copy that fails its checksum is reported in {@link #warnings}. When the
 * winner's JSON then fails validation and the other copy differs, the other is tried
 * ({@link LuksVolume}), as cryptsetup recovers from a damaged copy.
 */
final class Luks2Header {
    static final int BINARY = 4096;
    static final long[] SIZES = {16L << 10, 32L << 10, 64L << 10, 128L << 10, 256L << 10, 512L << 10,
            1L << 20, 2L << 20, 4L << 20};
    static final byte[] MAGIC_2 = {'S', 'K', 'U', 'L', (byte) 0xba, (byte) 0xbe};

    final long hdrSize, seqid, offset;
    final String label, checksumAlg, uuid, subsystem;
    final String json;
    final List<String> warnings;
    /** The other copy, when it is valid too and its JSON differs (a fallback if this one's JSON is bad). */
    final Luks2Header other;

    private Luks2Header(long hdrSize, long seqid, long offset, String label, String checksumAlg, String uuid,
            String subsystem, String json, List<String> warnings) {
        this(hdrSize, seqid, offset, label, checksumAlg, uuid, subsystem, json, warnings, null);
    }

    private Luks2Header(long hdrSize, long seqid, long offset, String label, String checksumAlg, String uuid,
            String subsystem, String json, List<String> warnings, Luks2Header other) {
        this.other = other;
        this.hdrSize = hdrSize;
        this.seqid = seqid;
        this.offset = offset;
        this.label = label;
        this.checksumAlg = checksumAlg;
        this.uuid = uuid;
        this.subsystem = subsystem;
        this.json = json;
        this.warnings = warnings;
    }

    /** A copy that could not be used, and why. */
    private static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean checksum;

        Bad(String m, boolean checksum) {
            super(m, null, false, false);
            this.checksum = checksum;
        }
    }

    static boolean isLuks2(byte[] first8) {
        return Luks1Header.isLuks(first8, 2);
    }

    /** Reads both copies and returns the one to use. */
    static Luks2Header read(Image img) throws IOException, CorruptHeaderException, UnsupportedVolumeException {
        if (img.size < BINARY) {
            throw new CorruptHeaderException("The image is " + img.size + " bytes: too small for a LUKS2 header");
        }
        List<String> warnings = new ArrayList<>();
        Luks2Header primary = null;
        String primaryError = null;
        try {
            primary = copy(img, 0, true);
        } catch (Bad e) {
            primaryError = e.getMessage();
        }
        Luks2Header secondary = null;
        String secondaryError = null;
        if (primary != null) {
            try {
                secondary = copy(img, primary.hdrSize, false);
            } catch (Bad e) {
                secondaryError = e.getMessage();
            }
        } else {
            for (long at : SIZES) {
                if (at + BINARY > img.size) {
                    break;
                }
                try {
                    secondary = copy(img, at, false);
                    break;
                } catch (Bad e) {
                    if (secondaryError == null || e.checksum) {
                        secondaryError = e.getMessage();
                    }
                }
            }
        }
        if (primary == null && secondary == null) {
            throw new CorruptHeaderException("No valid LUKS2 header: " + primaryError
                    + (secondaryError != null ? "; " + secondaryError : "; no secondary header found"));
        }
        if (primaryError != null) {
            warnings.add(primaryError + ": using the secondary header");
        }
        if (secondaryError != null && primary != null) {
            warnings.add(secondaryError + ": using the primary header");
        }
        Luks2Header use;
        if (primary != null && secondary != null) {
            use = Long.compareUnsigned(secondary.seqid, primary.seqid) > 0 ? secondary : primary;
            if (primary.seqid != secondary.seqid) {
                warnings.add("The LUKS2 headers differ (seqid " + Long.toUnsignedString(primary.seqid) + " and "
                        + Long.toUnsignedString(secondary.seqid) + "): using the "
                        + (use == primary ? "primary" : "secondary") + " header");
            } else if (!primary.json.equals(secondary.json)) {
                warnings.add("The LUKS2 headers have the same seqid but different JSON: using the primary header");
            }
        } else {
            use = primary != null ? primary : secondary;
        }
        Luks2Header other = null;
        if (primary != null && secondary != null && !primary.json.equals(secondary.json)) {
            other = use == primary ? secondary : primary;
        }
        return new Luks2Header(use.hdrSize, use.seqid, use.offset, use.label, use.checksumAlg, use.uuid,
                use.subsystem, use.json, List.copyOf(warnings), other);
    }

    /** A header holding only what {@link Luks2Metadata#parse} reads: to validate JSON before it is written. */
    static Luks2Header of(long hdrSize, long seqid, String json) {
        return new Luks2Header(hdrSize, seqid, 0, "", "sha256", "", "", json, List.of());
    }

    /** This header with {@code warning} added (and no fallback). */
    Luks2Header withWarning(String warning) {
        List<String> w = new ArrayList<>(warnings);
        w.add(warning);
        return new Luks2Header(hdrSize, seqid, offset, label, checksumAlg, uuid, subsystem, json, List.copyOf(w));
    }

    String which() {
        return offset == 0 ? "primary" : "secondary";
    }

    private static Luks2Header copy(Image img, long at, boolean primary) throws IOException, Bad,
            UnsupportedVolumeException {
        String which = primary ? "primary LUKS2 header" : "secondary LUKS2 header at " + at;
        if (!img.holds(at, BINARY)) {
            throw new Bad("The " + which + " lies outside the image", false);
        }
        byte[] bin;
        try {
            bin = img.read(which, at, BINARY);
        } catch (CorruptHeaderException e) {
            throw new Bad(e.getMessage(), false);
        }
        ByteBuffer b = ByteBuffer.wrap(bin);
        if (!Arrays.equals(bin, 0, 6, primary ? Luks1Header.MAGIC : MAGIC_2, 0, 6)) {
            throw new Bad("The " + which + " has no LUKS2 magic", false);
        }
        if (b.getShort(6) != 2) {
            throw new Bad("The " + which + ": version " + b.getShort(6) + " is not 2", false);
        }
        long hdrSize = b.getLong(8);
        if (Arrays.binarySearch(SIZES, hdrSize) < 0) {
            throw new Bad("The " + which + ": hdr_size " + Long.toUnsignedString(hdrSize)
                    + " is not a LUKS2 metadata size (16 KiB..4 MiB, a power of two)", false);
        }
        if (!primary && hdrSize != at) {
            throw new Bad("The " + which + ": hdr_size " + hdrSize + " does not match its offset", false);
        }
        long hdrOffset = b.getLong(256);
        if (hdrOffset != at) {
            throw new Bad("The " + which + ": hdr_offset " + Long.toUnsignedString(hdrOffset)
                    + " is not where the header lies (" + at + ")", false);
        }
        if (!img.holds(at, hdrSize)) {
            throw new Bad("The " + which + ": hdr_size " + hdrSize + " reaches beyond the end of the image", false);
        }
        String alg;
        try {
            alg = text(bin, 72, 32, "checksum_alg", which);
        } catch (Bad e) {
            throw e;
        }
        HashAlgorithm h = HashAlgorithm.forLuksName(alg);
        byte[] area;
        try {
            area = img.read(which, at, (int) hdrSize);
        } catch (CorruptHeaderException e) {
            throw new Bad(e.getMessage(), false);
        }
        byte[] stored = Arrays.copyOfRange(area, 448, 448 + h.length());
        Arrays.fill(area, 448, 512, (byte) 0);
        HashAlgorithm.HashFunction f = h.newHash();
        f.update(area, 0, area.length);
        byte[] sum = new byte[h.length()];
        f.doFinal(sum, 0);
        if (!MessageDigest.isEqual(sum, stored)) {
            throw new Bad("The " + which + "'s checksum (" + alg + ") does not match", true);
        }
        int end = BINARY;
        while (end < area.length && area[end] != 0) {
            end++;
        }
        if (end == area.length) {
            throw new Bad("The " + which + "'s JSON area is not NUL-terminated within hdr_size " + hdrSize, false);
        }
        for (int i = end; i < area.length; i++) {
            if (area[i] != 0) {
                throw new Bad("The " + which + "'s JSON area holds non-zero bytes after the JSON text (at "
                        + (at + i) + ")", false);
            }
        }
        if (end == BINARY || area[BINARY] != '{') {
            throw new Bad("The " + which + "'s JSON area does not start with '{'", false);
        }
        String json;
        try {
            json = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(area, BINARY, end - BINARY)).toString();
        } catch (CharacterCodingException e) {
            throw new Bad("The " + which + "'s JSON area is not UTF-8", false);
        }
        return new Luks2Header(hdrSize, b.getLong(16), at, text(bin, 24, 48, "label", which),
                alg, text(bin, 168, 40, "uuid", which), text(bin, 208, 48, "subsystem", which), json, List.of());
    }

    private static String text(byte[] a, int off, int len, String field, String which) throws Bad {
        int end = off;
        while (end < off + len && a[end] != 0) {
            end++;
        }
        if (end == off + len) {
            throw new Bad("The " + which + ": " + field + " is not NUL-terminated", false);
        }
        return new String(a, off, end - off, StandardCharsets.UTF_8);
    }
}
