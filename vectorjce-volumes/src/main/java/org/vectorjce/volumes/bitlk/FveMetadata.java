package org.vectorjce.volumes.bitlk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * A BitLocker volume's header and FVE metadata, parsed and checked in one place before anything
 * uses them. The layout is cryptsetup's ({@code lib/bitlk/bitlk.c}, {@code BITLK_read_sb}, whose
 * struct names the fields below keep), with libbde's "BitLocker Drive Encryption (BDE) format"
 * document and dislocker's {@code metadata/} for the entry and value types:
 *
 * <ul>
 * <li>the volume header at byte 0: boot code {@code EB 58 90} (Windows 7 and later; {@code EB 52
 *     90} is Vista's, refused by name), OEM signature {@code -FVE-FS-}, or {@code MSWIN4.1} for
 *     BitLocker To Go, the bytes per sector at 11 (0 means 512; 512 or 4096), and at byte 160
 *     (To Go: 424) the encryption-type GUID and the three FVE metadata offsets;</li>
 * <li>each FVE metadata block: the 64-byte block header ({@code -FVE-FS-}, version 2, its size in
 *     16-byte units, the conversion states, volume size, the relocated volume header's size and
 *     offset, the three offsets again), the 48-byte metadata header (size, version, volume GUID,
 *     encryption method, creation time) and the entries; then the validation record, whose CRC-32
 *     covers the block. The first copy that reads whole, has the signature and version, and
 *     passes its CRC-32 is used, and it must name its own offset among the three; a copy that fails
 *     is reported in {@link #warnings()}. Its SHA-256 is kept: the validation record holds it
 *     again, AES-CCM under the VMK, and {@link BitlkVolume} checks it once a VMK has opened;</li>
 * <li>the entries: VMKs (GUID, protection, and nested values: stretch salt, AES-CCM encrypted key,
 *     clear key, name), the FVEK (AES-CCM encrypted), the relocated volume header's place, the
 *     description.</li>
 * </ul>
 *
 * Every size and offset is checked against the block and the image before it is used: the block
 * is at most 64 KiB (cryptsetup's {@code BITLK_FVE_METADATA_SIZE}), every entry inside its parent,
 * every area inside the image and aligned to the sector size; nothing is allocated from a header
 * field without that bound.
 */
final class FveMetadata {
    static final int FVE_AREA = 64 * 1024;
    static final int BLOCK_HEADER = 64, METADATA_HEADER = 48, ENTRY_HEADER = 8, VMK_HEADER = 28;
    static final int NONCE = 12, TAG = 16;
    static final byte[] SIGNATURE = "-FVE-FS-".getBytes(StandardCharsets.US_ASCII);
    static final byte[] SIGNATURE_TOGO = "MSWIN4.1".getBytes(StandardCharsets.US_ASCII);
    /** The encryption-type GUIDs of the header (cryptsetup's BITLK_GUID_NORMAL and BITLK_GUID_EOW), as stored. */
    static final byte[] GUID_NORMAL = {0x3b, (byte) 0xd6, 0x67, 0x49, 0x29, 0x2e, (byte) 0xd8, 0x4a, (byte) 0x83,
        (byte) 0x99, (byte) 0xf6, (byte) 0xa3, 0x39, (byte) 0xe3, (byte) 0xd0, 0x01};
    static final byte[] GUID_EOW = {0x3b, 0x4d, (byte) 0xa8, (byte) 0x92, (byte) 0x80, (byte) 0xdd, 0x0e, 0x4d,
        (byte) 0x9e, 0x4e, (byte) 0xb1, (byte) 0xe3, 0x28, 0x4e, (byte) 0xae, (byte) 0xd8};
    /**
     * The conversion states of the block header (offsets 12 and 14), as dislocker's {@code metadata.priv.h} names them:
     * 1 decrypted, 2 switching (a conversion running), 3 encrypt-on-write activated, 4 encrypted, 5 conversion
     * paused. libbde's format document has 5 current / 1 next on a volume whose decryption was paused.
     */
    static final int STATE_DECRYPTED = 1, STATE_SWITCHING = 2, STATE_EOW_ACTIVATED = 3, STATE_NORMAL = 4,
            STATE_PAUSED = 5;
    /** The signature of an encrypt-on-write descriptor ({@code FVE-EOW} and a NUL; dislocker, libbde, keramics). */
    static final byte[] SIGNATURE_EOW = "FVE-EOW\0".getBytes(StandardCharsets.US_ASCII);

    // entry types and value types (cryptsetup's BITLKFVEEntryType, BITLKFVEEntryValue)
    static final int TYPE_PROPERTY = 0, TYPE_VMK = 2, TYPE_FVEK = 3, TYPE_STARTUP_KEY = 6, TYPE_DESCRIPTION = 7,
            TYPE_VOLUME_HEADER = 0xf, TYPE_VOLUME_GUID = 0x19;
    static final int VALUE_ERASED = 0, VALUE_KEY = 1, VALUE_STRING = 2, VALUE_STRETCH_KEY = 3, VALUE_USE_KEY = 4,
            VALUE_ENCRYPTED_KEY = 5, VALUE_TPM_KEY = 6, VALUE_VALIDATION = 7, VALUE_VMK = 8, VALUE_EXTERNAL_KEY = 9,
            VALUE_OFFSET_SIZE = 0xf, VALUE_RECOVERY_TIME = 0x15, VALUE_GUID = 0x17, VALUE_HINT = 0x18;

    /** A VMK protector: how its key is protected, and the values its entry holds. */
    enum Protection {
        CLEAR_KEY(0x0000, "VMK protected with clear key"),
        TPM(0x0100, "VMK protected with TPM"),
        STARTUP_KEY(0x0200, "VMK protected with startup key"),
        TPM_PIN(0x0500, "VMK protected with TPM and PIN"),
        RECOVERY_PASSPHRASE(0x0800, "VMK protected with recovery passphrase"),
        SMART_CARD(0x1000, "VMK protected with smart card"),
        PASSPHRASE(0x2000, "VMK protected with passphrase"),
        UNKNOWN(-1, "VMK with unknown protection");

        final int code;
        final String text;

        Protection(int code, String text) {
            this.code = code;
            this.text = text;
        }

        static Protection of(int code) {
            for (Protection p : values()) {
                if (p.code == code) {
                    return p;
                }
            }
            return UNKNOWN;
        }

        /** Whether this library can open it (cryptsetup's "supported" VMKs). */
        boolean usable() {
            return this == CLEAR_KEY || this == STARTUP_KEY || this == RECOVERY_PASSPHRASE || this == PASSPHRASE;
        }
    }

    /** An AES-CCM wrapped key: nonce, tag, ciphertext. */
    record Wrapped(byte[] nonce, byte[] tag, byte[] data) {
    }

    /** One VMK entry: its GUID (text), protection, name, salt, wrapped keys, clear key. */
    static final class Vmk {
        final String guid;
        final byte[] guidBytes;
        final Protection protection;
        String name;
        byte[] salt = new byte[16];
        final List<Wrapped> wrapped = new ArrayList<>();
        byte[] clearKey;

        Vmk(String guid, byte[] guidBytes, Protection protection) {
            this.guid = guid;
            this.guidBytes = guidBytes;
            this.protection = protection;
        }
    }

    boolean togo;
    int sectorSize;
    boolean eow, typeKnown;
    int currState, nextState;
    /** The block header's "encrypted volume size" (cryptsetup's volume_size; libbde, dislocker: encrypted size). */
    long volumeSize;
    /** The block header's u32 at 24: dislocker's convert_size, the region at volumeSize a running conversion holds. */
    long convertSize;
    /** Encrypt-on-write only: the two FVE-EOW descriptor offsets of the volume header (bytes 200 and 208). */
    long[] eowOffsets = new long[2];
    /** Whether each of them holds the FVE-EOW signature in this image. */
    boolean[] eowFound = new boolean[2];
    int version;
    String guid;
    byte[] guidBytes;
    long creationTime;   // Unix seconds
    String description;
    int encryption;
    long[] metadataOffset = new long[3];
    long volumeHeaderOffset, volumeHeaderSize;
    boolean volumeHeaderSeen;
    byte[] blockSha256;
    Wrapped validation;
    final List<Vmk> vmks = new ArrayList<>();
    Wrapped fvek;
    final List<String> warnings = new ArrayList<>();

    List<String> warnings() {
        return warnings;
    }

    /** The volume's cipher, as cryptsetup names it: {@code {cipher, mode, key bits}}. */
    Object[] cipher() throws UnsupportedVolumeException {
        return switch (encryption) {
            case 0x8000 -> new Object[] {"aes", "cbc-elephant", 256};
            case 0x8001 -> new Object[] {"aes", "cbc-elephant", 512};
            case 0x8002 -> new Object[] {"aes", "cbc-eboiv", 128};
            case 0x8003 -> new Object[] {"aes", "cbc-eboiv", 256};
            case 0x8004 -> new Object[] {"aes", "xts-plain64", 256};
            case 0x8005 -> new Object[] {"aes", "xts-plain64", 512};
            default -> throw new UnsupportedVolumeException(String.format(
                    "Unknown or unsupported BitLocker encryption method 0x%04x (AES-CBC with or without the Elephant "
                    + "diffuser, 0x8000-0x8003, and AES-XTS, 0x8004-0x8005, are known)", encryption));
        };
    }

    static int u16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    static long u32(byte[] b, int o) {
        return u16(b, o) | (long) u16(b, o + 2) << 16;
    }

    static long u64(byte[] b, int o) {
        return u32(b, o) | u32(b, o + 4) << 32;
    }

    /** A GUID as stored (little-endian first three fields) in its usual text form, lower case (cryptsetup's guid_to_string). */
    static String guid(byte[] b, int o) {
        return String.format("%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", u32(b, o), u16(b, o + 4),
                u16(b, o + 6), b[o + 8], b[o + 9], b[o + 10], b[o + 11], b[o + 12], b[o + 13], b[o + 14], b[o + 15]);
    }

    /** UTF-16LE up to the first NUL; a malformed string is an error naming {@code what}. */
    static String utf16(byte[] b, int o, int len, String what) throws CorruptHeaderException {
        int n = len & ~1;
        int end = o;
        while (end + 1 < o + n && (b[end] != 0 || b[end + 1] != 0)) {
            end += 2;
        }
        try {
            return StandardCharsets.UTF_16LE.newDecoder().decode(ByteBuffer.wrap(b, o, end - o)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new CorruptHeaderException("Invalid UTF-16 string in the " + what);
        }
    }

    static void readFully(SeekableByteChannel ch, long at, byte[] b, int len) throws IOException {
        ImageIo.readFully(ch, at, ByteBuffer.wrap(b, 0, len));
    }

    /** Reads and checks the header and metadata of the image {@code img} ({@code name} for messages). */
    static FveMetadata read(SeekableByteChannel img, String name) throws IOException, VolumeException {
        long size = img.size();
        FveMetadata m = new FveMetadata();
        if (size < 512) {
            throw new CorruptHeaderException("Not a BitLocker volume: " + name + " is " + size
                    + " bytes, smaller than its 512-byte volume header");
        }
        byte[] h = new byte[512];
        readFully(img, 0, h, 512);
        int sbOffset;
        if (Arrays.equals(h, 3, 11, SIGNATURE, 0, 8)) {
            sbOffset = 160;
        } else if (Arrays.equals(h, 3, 11, SIGNATURE_TOGO, 0, 8)) {
            m.togo = true;
            sbOffset = 424;
        } else {
            throw new CorruptHeaderException("Not a BitLocker volume: no -FVE-FS- (or To Go MSWIN4.1) signature at "
                    + "byte 3 of " + name);
        }
        if ((h[0] & 0xff) == 0xeb && (h[1] & 0xff) == 0x52 && (h[2] & 0xff) == 0x90) {
            throw new UnsupportedVolumeException("BitLocker version 1 (Windows Vista; boot code EB 52 90) is not "
                    + "supported, as in cryptsetup");
        }
        if ((h[0] & 0xff) != 0xeb || (h[1] & 0xff) != 0x58 || (h[2] & 0xff) != 0x90) {
            throw new CorruptHeaderException(String.format("Invalid or unknown boot code %02x %02x %02x of the "
                    + "BitLocker volume header (EB 58 90 expected)", h[0], h[1], h[2]));
        }
        m.sectorSize = u16(h, 11);
        if (m.sectorSize == 0) {
            m.sectorSize = 512;
        }
        if (m.sectorSize != 512 && m.sectorSize != 4096) {
            throw new UnsupportedVolumeException("Unsupported BitLocker sector size " + m.sectorSize
                    + " (512 or 4096)");
        }
        m.typeKnown = true;
        if (Arrays.equals(h, sbOffset, sbOffset + 16, GUID_EOW, 0, 16)) {
            m.eow = true;
        } else if (!Arrays.equals(h, sbOffset, sbOffset + 16, GUID_NORMAL, 0, 16)) {
            m.typeKnown = false;
        }
        long[] offsets = new long[3];
        for (int i = 0; i < 3; i++) {
            offsets[i] = u64(h, sbOffset + 16 + 8 * i);
        }
        if (m.eow && !m.togo) {
            // the used-space-only header adds two descriptor offsets after the metadata's (dislocker's
            // eow_information_off at 0xc8; keramics' eow_descriptor_offset1/2)
            for (int i = 0; i < 2; i++) {
                long o = u64(h, sbOffset + 40 + 8 * i);
                m.eowOffsets[i] = o;
                if (o > 0 && o <= size - SIGNATURE_EOW.length) {
                    byte[] sig = new byte[SIGNATURE_EOW.length];
                    readFully(img, o, sig, sig.length);
                    m.eowFound[i] = Arrays.equals(sig, SIGNATURE_EOW);
                }
            }
        }

        // the three copies: the first that reads whole, has the signature and version, and passes its CRC-32
        byte[] block = null;
        int valid = -1;
        byte[] vrec = new byte[88];
        for (int i = 0; i < 3 && valid < 0; i++) {
            String problem = null;
            long at = offsets[i];
            byte[] b = null;
            int real = 0;
            if (at < 0 || at > size - BLOCK_HEADER - METADATA_HEADER) {
                problem = "its offset " + Long.toUnsignedString(at) + " lies outside the " + size + "-byte image";
            } else {
                byte[] head = new byte[BLOCK_HEADER];
                readFully(img, at, head, BLOCK_HEADER);
                real = u16(head, 8) << 4;
                if (!Arrays.equals(head, 0, 8, SIGNATURE, 0, 8)) {
                    problem = "no -FVE-FS- signature";
                } else if (u16(head, 10) != 2) {
                    problem = "version " + u16(head, 10) + " (2 expected)";
                } else if (real > FVE_AREA || real < BLOCK_HEADER + METADATA_HEADER) {
                    problem = "block size " + real + " bytes (" + (BLOCK_HEADER + METADATA_HEADER) + " to " + FVE_AREA
                            + ")";
                } else if (at > size - real - vrec.length) {
                    problem = "the block and its validation record (" + (real + vrec.length) + " bytes) end past the "
                            + size + "-byte image";
                } else {
                    b = new byte[real];
                    readFully(img, at, b, real);
                    readFully(img, at + real, vrec, vrec.length);
                    int vsize = u16(vrec, 0), vver = u16(vrec, 2);
                    CRC32 crc = new CRC32();
                    crc.update(b, 0, real);
                    if (vsize < 8 || vver > 2) {
                        problem = "validation record of size " + vsize + ", version " + vver;
                    } else if (crc.getValue() != u32(vrec, 4)) {
                        problem = "CRC-32 mismatch";
                    }
                }
            }
            if (problem != null) {
                m.warnings.add("FVE metadata copy " + i + " at byte " + Long.toUnsignedString(at) + " is invalid: "
                        + problem);
            } else {
                block = b;
                valid = i;
            }
        }
        if (valid < 0) {
            throw new CorruptHeaderException("Failed to read and validate the BitLocker FVE metadata of " + name + ": "
                    + String.join("; ", m.warnings));
        }
        byte[] b = block;
        for (int i = 0; i < 3; i++) {
            m.metadataOffset[i] = u64(b, 32 + 8 * i);
        }
        if (m.metadataOffset[valid] != offsets[valid]) {
            throw new CorruptHeaderException("FVE metadata copy " + valid + " at byte " + offsets[valid]
                    + " names another offset for itself (" + Long.toUnsignedString(m.metadataOffset[valid]) + ")");
        }
        try {
            m.blockSha256 = MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
        // the validation record's nested, encrypted SHA-256 (cryptsetup's parse_fve_metadata_validation)
        if (u16(vrec, 0) < vrec.length || u16(vrec, 8) != 8 + 72 || u16(vrec, 10) != 0 || u16(vrec, 12) != 5) {
            throw new CorruptHeaderException("Failed to parse the BitLocker FVE validation record of " + name
                    + " (size " + u16(vrec, 0) + ", nested entry size " + u16(vrec, 8) + ", type " + u16(vrec, 12)
                    + ")");
        }
        m.validation = new Wrapped(Arrays.copyOfRange(vrec, 16, 28), Arrays.copyOfRange(vrec, 28, 44),
                Arrays.copyOfRange(vrec, 44, 88));

        m.currState = u16(b, 12);
        m.nextState = u16(b, 14);
        m.volumeSize = u64(b, 16);
        m.convertSize = u32(b, 24);
        m.version = u16(b, 10);
        m.guidBytes = Arrays.copyOfRange(b, 80, 96);
        m.guid = guid(b, 80);
        m.encryption = u16(b, 100);
        long ft = u64(b, 104);
        // signed: a hostile FILETIME stays within what Instant and the dump's date can show
        m.creationTime = (ft - 116444736000000000L) / 10000000L;
        long msize = u32(b, 64);
        if (msize < METADATA_HEADER + 4 || msize > FVE_AREA || BLOCK_HEADER + msize > b.length) {
            throw new CorruptHeaderException("BitLocker FVE metadata size " + msize + " does not fit its "
                    + b.length + "-byte block");
        }
        m.entries(b, BLOCK_HEADER + METADATA_HEADER, BLOCK_HEADER + (int) msize);
        if (m.fvek == null) {
            throw new CorruptHeaderException("The BitLocker FVE metadata of " + name + " has no FVEK entry");
        }
        if (!m.volumeHeaderSeen) {
            throw new CorruptHeaderException("The BitLocker FVE metadata of " + name
                    + " does not say where the volume header was moved");
        }
        m.checkAreas(size);
        return m;
    }

    /** The top-level entries in {@code b[start, end)}. */
    private void entries(byte[] b, int start, int end) throws CorruptHeaderException {
        while (end - start >= 4) {
            int esize = u16(b, start);
            if (esize == 0) {
                break;
            }
            if (esize < ENTRY_HEADER || esize > end - start) {
                throw new CorruptHeaderException("FVE metadata entry at byte " + start + " of the block has size "
                        + esize + " (8 to the " + (end - start) + " bytes left)");
            }
            int type = u16(b, start + 2);
            switch (type) {
                case TYPE_VMK -> {
                    if (esize < ENTRY_HEADER + VMK_HEADER) {
                        throw new CorruptHeaderException("VMK entry of " + esize + " bytes at byte " + start
                                + " of the FVE metadata: at least " + (ENTRY_HEADER + VMK_HEADER));
                    }
                    int o = start + ENTRY_HEADER;
                    Vmk v = new Vmk(guid(b, o), Arrays.copyOfRange(b, o, o + 16), Protection.of(u16(b, o + 26)));
                    vmkValues(v, b, o + VMK_HEADER, start + esize);
                    vmks.add(v);
                }
                case TYPE_FVEK -> {
                    if (fvek == null) {
                        fvek = wrapped(b, start, esize, "FVEK");
                    }
                }
                case TYPE_VOLUME_HEADER -> {
                    if (esize < ENTRY_HEADER + 16) {
                        throw new CorruptHeaderException("Volume header entry of " + esize + " bytes at byte "
                                + start + " of the FVE metadata: at least 24");
                    }
                    volumeHeaderOffset = u64(b, start + 8);
                    volumeHeaderSize = u64(b, start + 16);
                    volumeHeaderSeen = true;
                }
                case TYPE_DESCRIPTION -> {
                    if (description == null) {
                        description = utf16(b, start + ENTRY_HEADER, esize - ENTRY_HEADER, "volume description");
                    }
                }
                default -> {
                    // properties and entries this reader does not use (cryptsetup skips them too)
                }
            }
            start += esize;
        }
    }

    private static Wrapped wrapped(byte[] b, int start, int esize, String what) throws CorruptHeaderException {
        if (esize <= ENTRY_HEADER + NONCE + TAG) {
            throw new CorruptHeaderException(what + " entry of " + esize + " bytes: too small for an AES-CCM key");
        }
        int o = start + ENTRY_HEADER;
        return new Wrapped(Arrays.copyOfRange(b, o, o + NONCE), Arrays.copyOfRange(b, o + NONCE, o + NONCE + TAG),
                Arrays.copyOfRange(b, o + NONCE + TAG, start + esize));
    }

    /** A VMK's nested values in {@code b[start, end)} (cryptsetup's parse_vmk_entry). */
    private static void vmkValues(Vmk v, byte[] b, int start, int end) throws CorruptHeaderException {
        boolean usable = v.protection.usable();
        while (end - start >= 6) {
            int esize = u16(b, start);
            if (esize == 0) {
                break;
            }
            if (esize < ENTRY_HEADER || esize > end - start) {
                throw new CorruptHeaderException("Value of size " + esize + " in VMK " + v.guid + " (8 to the "
                        + (end - start) + " bytes left)");
            }
            int type = u16(b, start + 2), value = u16(b, start + 4);
            if (type != TYPE_PROPERTY && usable) {
                throw new CorruptHeaderException("Unexpected metadata entry type " + type + " in VMK " + v.guid);
            }
            switch (value) {
                case VALUE_STRETCH_KEY -> {
                    if (esize < ENTRY_HEADER + 4 + 16) {
                        throw new CorruptHeaderException("Stretch key value of " + esize + " bytes in VMK " + v.guid);
                    }
                    v.salt = Arrays.copyOfRange(b, start + ENTRY_HEADER + 4, start + ENTRY_HEADER + 20);
                }
                case VALUE_ENCRYPTED_KEY -> v.wrapped.add(wrapped(b, start, esize, "VMK " + v.guid + "'s key"));
                case VALUE_KEY -> {
                    if (esize <= ENTRY_HEADER + 4) {
                        throw new CorruptHeaderException("Clear key value of " + esize + " bytes in VMK " + v.guid);
                    }
                    if (v.clearKey == null) {
                        v.clearKey = Arrays.copyOfRange(b, start + ENTRY_HEADER + 4, start + esize);
                    }
                }
                case VALUE_STRING -> {
                    String s = utf16(b, start + ENTRY_HEADER, esize - ENTRY_HEADER, "name of VMK " + v.guid);
                    if (v.name == null) {
                        v.name = s;
                    } else if (usable) {
                        throw new CorruptHeaderException("A second name in VMK " + v.guid);
                    }
                }
                case VALUE_RECOVERY_TIME, VALUE_HINT -> {
                    // timestamps of recovery VMKs and an optional hint: not needed to open
                }
                default -> {
                    boolean expected = (value == VALUE_USE_KEY && v.protection == Protection.STARTUP_KEY)
                            || (value == VALUE_TPM_KEY && v.protection == Protection.TPM);
                    if (!expected && usable) {
                        throw new CorruptHeaderException("Unexpected metadata value type " + value + " in VMK "
                                + v.guid + " (" + v.protection.text + ")");
                    }
                }
            }
            start += esize;
        }
    }

    /**
     * The areas cryptsetup maps ({@code _activate}: the three metadata areas and the volume header's
     * new place read as zeros, the first {@code volumeHeaderSize} bytes from that place): inside
     * the image, whole sectors, and not overlapping the relocated header's window at byte 0.
     */
    private void checkAreas(long size) throws CorruptHeaderException {
        long s = sectorSize;
        for (int i = 0; i < 3; i++) {
            long o = metadataOffset[i];
            if (o < 0 || o > size - FVE_AREA || o % s != 0) {
                throw new CorruptHeaderException("FVE metadata area " + i + " at byte " + Long.toUnsignedString(o)
                        + " is not a whole-sector area inside the " + size + "-byte image");
            }
        }
        long vo = volumeHeaderOffset, vs = volumeHeaderSize;
        if (vo < 0 || vs < 0 || vs > size || vo > size - vs || vo % s != 0 || vs % s != 0) {
            throw new CorruptHeaderException("The relocated volume header (offset " + Long.toUnsignedString(vo)
                    + ", " + Long.toUnsignedString(vs) + " bytes) is not a whole-sector area inside the " + size
                    + "-byte image");
        }
        if (size % s != 0) {
            throw new CorruptHeaderException("The " + size + "-byte image is not a whole number of " + s
                    + "-byte sectors");
        }
        long[][] zero = zeroAreas();
        for (long[] z : zero) {
            if (z[0] < vs && z[1] > 0) {
                throw new CorruptHeaderException("A BitLocker metadata area at byte " + z[0]
                        + " overlaps the first " + vs + " bytes, where the volume header is mapped back");
            }
        }
    }

    /** {start, length} of the areas that read as zeros: the three metadata areas and the volume header's new place. */
    long[][] zeroAreas() {
        return new long[][] {{metadataOffset[0], FVE_AREA}, {metadataOffset[1], FVE_AREA}, {metadataOffset[2], FVE_AREA},
            {volumeHeaderOffset, volumeHeaderSize}};
    }
}
