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
 * @param volumeSize      the volume size the metadata gives, in bytes
 * @param created         creation time, Unix seconds
 * @param description     the volume's description (computer, drive, date)
 * @param cipher          {@code aes}
 * @param mode            {@code xts-plain64}, {@code cbc-eboiv} or {@code cbc-elephant}
 * @param keyBits         bits of the volume key (the FVEK) cryptsetup maps
 * @param type            {@code normal}, {@code encrypt-on-write} or {@code unknown} (the header's GUID)
 * @param currentState    the metadata's current conversion state (4: fully encrypted)
 * @param nextState       the metadata's next conversion state (4: fully encrypted)
 * @param protectors      the VMKs, in the metadata's order
 * @param fvekDataSize    bytes of the FVEK entry's encrypted data
 * @param metadataOffsets byte offsets of the three FVE metadata copies
 * @param headerOffset    where the volume's first sectors were moved, in bytes
 * @param headerSize      how many bytes were moved
 * @param payloadSize     bytes of the plaintext device (the image's size, as cryptsetup maps it)
 * @param warnings        bad metadata copies that were skipped
 */
public record BitlkInfo(boolean togo, int version, String guid, int sectorSize, long volumeSize, long created,
        String description, String cipher, String mode, int keyBits, String type, int currentState, int nextState,
        List<Protector> protectors, int fvekDataSize, List<Long> metadataOffsets, long headerOffset, long headerSize,
        long payloadSize, List<String> warnings) implements VolumeInfo {
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

    /**
     * Why the payload cannot be read (cryptsetup's {@code _activate_check}), or null when it can:
     * a volume in the middle of encryption or decryption, or of the encrypt-on-write type.
     */
    public String activationProblem() {
        if (currentState != FveMetadata.STATE_NORMAL || nextState != FveMetadata.STATE_NORMAL) {
            return "This BitLocker volume is partially encrypted or decrypted (conversion state " + currentState
                    + ", next state " + nextState + "; 4 is fully encrypted): its payload is not read, as cryptsetup"
                    + " does not activate it";
        }
        if (!type.equals("normal")) {
            return "BitLocker volumes of type '" + type + "' (used-space-only encryption that encrypts on write)"
                    + " are not read, as cryptsetup does not activate them";
        }
        return null;
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
