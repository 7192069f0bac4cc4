package org.vectorjce.volumes.bitlk;

import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import org.vectorjce.volumes.internal.KeyDump;

/**
 * What a BitLocker volume's header and FVE metadata say, without secrets: the fields
 * {@code cryptsetup bitlkDump} prints, and why the payload cannot be read when it cannot.
 *
 * @param togo            BitLocker To Go (the {@code MSWIN4.1} signature)
 * @param version         the FVE metadata version (2)
 * @param guid            the volume's GUID
 * @param sectorSize      bytes per sector (512 or 4096)
 * @param volumeSize      the block header's size at byte 16, which cryptsetup prints as the volume size and
 *                        libbde and dislocker read as the encrypted volume size: the bytes from the volume's
 *                        start that are encrypted ({@link #encryptedSize})
 * @param created         creation time, Unix seconds
 * @param description     the volume's description (computer, drive, date)
 * @param cipher          {@code aes}
 * @param mode            {@code xts-plain64}, {@code cbc-eboiv} or {@code cbc-elephant}
 * @param keyBits         bits of the volume key (the FVEK) cryptsetup maps
 * @param type            {@code normal}, {@code encrypt-on-write} or {@code unknown} (the header's GUID)
 * @param currentState    the metadata's current conversion state ({@link #stateName}: 4 encrypted, 5 paused, ...)
 * @param nextState       the state the conversion goes to (4 encrypted, 1 decrypted)
 * @param protectors      the VMKs, in the metadata's order
 * @param fvekDataSize    bytes of the FVEK entry's encrypted data
 * @param metadataOffsets byte offsets of the three FVE metadata copies
 * @param headerOffset    where the volume's first sectors were moved, in bytes
 * @param headerSize      how many bytes were moved
 * @param payloadSize     bytes of the plaintext device (the image's size, as cryptsetup maps it)
 * @param warnings        bad metadata copies that were skipped
 * @param convertSize     the block header's u32 at byte 24 (dislocker's {@code convert_size}): the bytes at the
 *                        encrypted size that a running conversion (state 2) is moving
 * @param eowDescriptors  for an encrypt-on-write volume, the two FVE-EOW descriptor offsets its volume header
 *                        gives (bytes 200 and 208); empty otherwise
 * @param eowDescriptorFound whether either of them holds the {@code FVE-EOW} signature in this image
 */
public record BitlkInfo(boolean togo, int version, String guid, int sectorSize, long volumeSize, long created,
        String description, String cipher, String mode, int keyBits, String type, int currentState, int nextState,
        List<Protector> protectors, int fvekDataSize, List<Long> metadataOffsets, long headerOffset, long headerSize,
        long payloadSize, List<String> warnings, long convertSize, List<Long> eowDescriptors,
        boolean eowDescriptorFound) implements VolumeInfo {
    /** {@link VolumeFormat#BITLK}. */
    @Override
    public VolumeFormat format() {
        return VolumeFormat.BITLK;
    }

    /** {@link #cipher} and {@link #mode}, e.g. {@code aes-xts-plain64}. */
    @Override
    public String cipherSpec() {
        return cipher + "-" + mode;
    }

    /** {@link #guid}. */
    @Override
    public String uuid() {
        return guid;
    }

    /** {@link #description}, or {@code ""}. */
    @Override
    public String label() {
        return description == null ? "" : description;
    }


    /**
     * A VMK entry.
     *
     * @param guid         its GUID
     * @param protection   as cryptsetup names it ({@code VMK protected with passphrase}, ...)
     * @param name         its name ({@code ExternalKey} for a startup key), or null
     * @param salt         the stretch salt (not secret; cryptsetup prints it)
     * @param keyDataSizes bytes of each AES-CCM encrypted key it holds
     */
    public record Protector(String guid, String protection, String name, byte[] salt, List<Integer> keyDataSizes) {
    }

    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.US);

    /** The name of conversion state {@code s} (dislocker's names; 4 is a fully encrypted volume). */
    public static String stateName(int s) {
        return switch (s) {
            case FveMetadata.STATE_DECRYPTED -> "decrypted";
            case FveMetadata.STATE_SWITCHING -> "conversion running";
            case FveMetadata.STATE_EOW_ACTIVATED -> "encrypt-on-write activated";
            case FveMetadata.STATE_NORMAL -> "encrypted";
            case FveMetadata.STATE_PAUSED -> "conversion paused";
            default -> "unknown";
        };
    }

    /** {@link #volumeSize}: the bytes from the volume's start that are encrypted (libbde, dislocker). */
    public long encryptedSize() {
        return volumeSize;
    }

    /** Whether the metadata says the volume is wholly encrypted: type normal, states 4 and 4. */
    public boolean fullyEncrypted() {
        return type.equals("normal") && currentState == FveMetadata.STATE_NORMAL
                && nextState == FveMetadata.STATE_NORMAL;
    }

    /**
     * Whether the metadata says a conversion of a normal volume stopped part way: current state 5
     * (paused), next 4 or 1 (an encrypt-on-write volume's map is elsewhere: never counted here).
     */
    public boolean conversionPaused() {
        return type.equals("normal") && currentState == FveMetadata.STATE_PAUSED
                && (nextState == FveMetadata.STATE_NORMAL || nextState == FveMetadata.STATE_DECRYPTED);
    }

    /**
     * The byte of the payload from which the image's bytes are read as stored (not decrypted): the
     * encrypted size for a paused conversion, the payload's size (nothing) for a fully encrypted volume.
     * Both directions keep the encrypted part at the front: encryption runs from the front, and decryption
     * from the back (libbde's format document), and dislocker copies every sector at or past the
     * encrypted size. The metadata areas still read as zeros and the first sectors still come decrypted
     * from their new place, on either side.
     */
    public long plaintextFrom() {
        return conversionPaused() ? volumeSize : payloadSize;
    }

    /**
     * Why the payload cannot be read, or null when it can: a fully encrypted volume (type normal, states
     * 4/4, as cryptsetup activates it), or a normal volume whose encryption or decryption was paused
     * (states 5/4 or 5/1: encrypted up to {@link #encryptedSize}, as stored past it), which cryptsetup
     * refuses. Refused by name: encrypt-on-write volumes (their map of encrypted blocks is in FVE-EOW block
     * maps this library does not read), an unknown type, a conversion that was running (state 2), any
     * other state, and an encrypted size that is not a whole number of sectors inside the volume.
     */
    public String activationProblem() {
        if (type.equals("encrypt-on-write")) {
            String where = eowDescriptors.isEmpty() ? "" : " at byte " + Long.toUnsignedString(eowDescriptors.get(0))
                    + (eowDescriptors.size() > 1 ? " (copy at " + Long.toUnsignedString(eowDescriptors.get(1)) + ")"
                    : "");
            return "BitLocker volumes of type 'encrypt-on-write' (used-space-only encryption that encrypts on write)"
                    + " are not read: which blocks Windows has encrypted is recorded only in the encrypt-on-write block"
                    + " maps the FVE-EOW descriptor" + where + " leads to, "
                    + (eowDescriptorFound ? "which this library does not read"
                    : "and this image holds no FVE-EOW descriptor there, so the map is not in it")
                    + "; the metadata's encrypted size (" + Long.toUnsignedString(volumeSize) + " bytes, state "
                    + currentState + "/" + nextState + ") does not say it, and decrypting every sector would turn"
                    + " space never written since the conversion into noise (cryptsetup, dislocker and libbde refuse"
                    + " these volumes too)";
        }
        if (!type.equals("normal")) {
            return "BitLocker volumes of type '" + type + "' (an unknown encryption-type GUID in the volume header)"
                    + " are not read";
        }
        if (fullyEncrypted()) {
            return null;
        }
        String states = " (conversion state " + currentState + " " + stateName(currentState) + ", next state "
                + nextState + " " + stateName(nextState) + ")";
        if (conversionPaused()) {
            long s = sectorSize;
            if (Long.compareUnsigned(volumeSize, headerSize) < 0 || Long.compareUnsigned(volumeSize, payloadSize) > 0
                    || volumeSize % s != 0) {
                return "This BitLocker volume is partially " + (nextState == FveMetadata.STATE_NORMAL ? "encrypted"
                        : "decrypted") + states + " and its metadata gives an encrypted size of "
                        + Long.toUnsignedString(volumeSize) + " bytes, not a whole number of " + s + "-byte sectors"
                        + " from the " + headerSize + " relocated header bytes to the " + payloadSize
                        + "-byte volume: where the encrypted part ends cannot be known, so the payload is not read";
            }
            return null;
        }
        if (currentState == FveMetadata.STATE_SWITCHING) {
            return "This BitLocker volume was being " + (nextState == FveMetadata.STATE_DECRYPTED ? "decrypted"
                    : "encrypted") + " when the image was taken" + states + ": the " + Long.toUnsignedString(convertSize)
                    + " bytes at byte " + Long.toUnsignedString(volumeSize) + " were in the middle of conversion, so"
                    + " which of their sectors are encrypted cannot be known; the payload is not read (pause the"
                    + " conversion in Windows, state 5, and take the image again)";
        }
        return "This BitLocker volume is in a conversion state this library does not read" + states
                + ": only fully encrypted (4/4) and paused (5/4, 5/1) volumes are";
    }

    /**
     * The conversion facts (not part of {@code cryptsetup bitlkDump}'s text): type, states, encrypted and
     * convert sizes, the encrypt-on-write descriptors, and how the payload is laid out or why it is not read.
     */
    public String conversionDump() {
        StringBuilder s = new StringBuilder();
        s.append("Conversion:\n");
        s.append("\tType:         \t").append(type).append(type.equals("encrypt-on-write") ? " (used space only)" : "")
                .append('\n');
        s.append("\tState:        \t").append(currentState).append(" (").append(stateName(currentState))
                .append(")\n");
        s.append("\tNext state:   \t").append(nextState).append(" (").append(stateName(nextState)).append(")\n");
        s.append("\tEncrypted size:\t").append(Long.toUnsignedString(volumeSize)).append(" [bytes]\n");
        s.append("\tConvert size: \t").append(convertSize).append(" [bytes]\n");
        for (long o : eowDescriptors) {
            s.append("\tEOW descriptor:\t").append(Long.toUnsignedString(o)).append(" [bytes]\n");
        }
        if (!eowDescriptors.isEmpty()) {
            s.append("\tEOW signature:\t").append(eowDescriptorFound ? "found" : "not in this image").append('\n');
        }
        String problem = activationProblem();
        if (problem != null) {
            s.append("\tPayload:      \tnot read: ").append(problem).append('\n');
        } else if (plaintextFrom() < payloadSize) {
            s.append("\tPayload:      \tdecrypted below byte ").append(plaintextFrom())
                    .append(", as stored from there to byte ").append(payloadSize).append('\n');
        } else {
            s.append("\tPayload:      \tdecrypted throughout\n");
        }
        return s.toString();
    }

    /** {@link #dump(String, ZoneId)} with times in the system's default zone, as {@code cryptsetup bitlkDump} prints them. */
    @Override
    public String dump(String device) {
        return dump(device, ZoneId.systemDefault());
    }

    /** {@code cryptsetup bitlkDump}'s text (cryptsetup 2.6's layout) for {@code device}, times in {@code zone}. */
    public String dump(String device, ZoneId zone) {
        StringBuilder s = new StringBuilder();
        s.append("Info for BITLK").append(togo ? " To Go" : "").append(" device ").append(device).append(".\n");
        s.append("Version:      \t").append(version).append('\n');
        s.append("GUID:         \t").append(guid).append('\n');
        s.append("Sector size:  \t").append(sectorSize).append(" [bytes]\n");
        s.append("Volume size:  \t").append(Long.toUnsignedString(volumeSize)).append(" [bytes]\n");
        s.append("Created:      \t").append(CTIME.format(Instant.ofEpochSecond(created).atZone(zone))).append('\n');
        s.append("Description:  \t").append(description).append('\n');
        s.append("Cipher name:  \t").append(cipher).append('\n');
        s.append("Cipher mode:  \t").append(mode).append('\n');
        s.append("Cipher key:   \t").append(keyBits).append(" bits\n");
        s.append('\n');
        s.append("Keyslots:\n");
        int id = 0;
        for (Protector p : protectors) {
            s.append(' ').append(id++).append(": VMK\n");
            if (p.name() != null) {
                s.append("\tName:       \t").append(p.name()).append('\n');
            }
            s.append("\tGUID:       \t").append(p.guid()).append('\n');
            s.append("\tProtection: \t").append(p.protection()).append('\n');
            s.append("\tSalt:       \t").append(hex(p.salt())).append('\n');
            for (int k : p.keyDataSizes()) {
                s.append("\tKey data size:\t").append(k).append(" [bytes]\n");
            }
        }
        s.append(' ').append(id).append(": FVEK\n");
        s.append("\tKey data size:\t").append(fvekDataSize).append(" [bytes]\n");
        s.append('\n');
        s.append("Metadata segments:\n");
        for (int i = 0; i < 3; i++) {
            s.append(' ').append(i).append(": FVE metadata area\n");
            s.append("\tOffset: \t").append(Long.toUnsignedString(metadataOffsets.get(i))).append(" [bytes]\n");
            s.append("\tSize:   \t").append(FveMetadata.FVE_AREA).append(" [bytes]\n");
        }
        s.append(" 3: Volume header\n");
        s.append("\tOffset: \t").append(Long.toUnsignedString(headerOffset)).append(" [bytes]\n");
        s.append("\tSize:   \t").append(Long.toUnsignedString(headerSize)).append(" [bytes]\n");
        s.append("\tCipher: \t").append(cipher).append('-').append(mode).append('\n');
        return s.toString();
    }

    /** {@code bitlkDump --dump-volume-key}'s text for {@code device} with the volume key {@code key}. */
    @Override
    public String dumpWithKey(String device, byte[] key) {
        return "BITLK header information for " + device + "\n"
                + "Cipher name:   \t" + cipher + "\n"
                + "Cipher mode:   \t" + mode + "\n"
                + "UUID:          \t" + guid + "\n"
                + "MK bits:       \t" + key.length * 8 + "\n"
                + "MK dump:\t" + KeyDump.mkDump(key);
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString();
    }
}
