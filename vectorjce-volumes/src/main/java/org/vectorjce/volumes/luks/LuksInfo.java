package org.vectorjce.volumes.luks;

import java.util.List;
import java.util.Optional;

/**
 * What a LUKS header says, without secrets: what {@code cryptsetup luksDump} shows, minus salts and
 * digests. Immutable; {@link #toString()} is safe to log.
 *
 * @param version        1 or 2
 * @param uuid           the header's UUID
 * @param label          LUKS2 label (empty for LUKS1)
 * @param subsystem      LUKS2 subsystem (empty for LUKS1)
 * @param epoch          LUKS2 seqid (0 for LUKS1)
 * @param metadataSize   LUKS2 hdr_size: binary header and JSON area of one copy (592 for LUKS1)
 * @param keyslotsSize   LUKS2 config.keyslots_size (LUKS1: 0)
 * @param cipher         the payload's cipher in cryptsetup's syntax, e.g. {@code aes-xts-plain64}
 * @param keyBits        the volume key's size in bits
 * @param hash           LUKS1 hash-spec; LUKS2 the segment digest's hash
 * @param payloadOffset  where the payload starts in the data image, in bytes
 * @param payloadSize    the payload's size in bytes
 * @param dynamicSize    LUKS2 segment size "dynamic" (LUKS1 always)
 * @param sectorSize     payload sector size in bytes
 * @param ivTweak        LUKS2 segment iv_tweak, in 512-byte sectors (LUKS1 0)
 * @param flags          LUKS2 config.flags
 * @param requirements   LUKS2 config.requirements.mandatory (a volume with any cannot be opened here)
 * @param tokens         how many LUKS2 tokens the header holds
 * @param keySlots       the active key slots, by id
 * @param warnings       what was wrong but worked around (a header copy's bad checksum, ...)
 */
public record LuksInfo(int version, String uuid, String label, String subsystem, long epoch, long metadataSize,
        long keyslotsSize, String cipher, int keyBits, String hash, long payloadOffset, long payloadSize,
        boolean dynamicSize, int sectorSize, long ivTweak, List<String> flags, List<String> requirements, int tokens,
        List<LuksKeySlot> keySlots, List<String> warnings) {

    public LuksInfo {
        flags = List.copyOf(flags);
        requirements = List.copyOf(requirements);
        keySlots = List.copyOf(keySlots);
        warnings = List.copyOf(warnings);
    }

    /** The key slot with {@code id}, if active. */
    public Optional<LuksKeySlot> keySlot(int id) {
        return keySlots.stream().filter(k -> k.id() == id).findFirst();
    }

    /**
     * What {@code cryptsetup luksDump --dump-volume-key} prints for {@code device} with the volume
     * key {@code key}: cipher name and mode, payload offset in 512-byte sectors, UUID, key bits and
     * the key.
     */
    public String dumpWithKey(String device, byte[] key) {
        int dash = cipher.indexOf('-');
        return "LUKS header information for " + device + "\n"
                + "Cipher name:   \t" + (dash < 0 ? cipher : cipher.substring(0, dash)) + "\n"
                + "Cipher mode:   \t" + (dash < 0 ? "" : cipher.substring(dash + 1)) + "\n"
                + "Payload offset:\t" + payloadOffset / 512 + "\n"
                + "UUID:          \t" + uuid + "\n"
                + "MK bits:       \t" + key.length * 8 + "\n"
                + "MK dump:\t" + org.vectorjce.volumes.KeyDump.mkDump(key);
    }

    /** A dump in the manner of {@code cryptsetup luksDump}: header fields, segment and key slots. */
    public String dump() {
        StringBuilder b = new StringBuilder();
        b.append("LUKS header information\n");
        b.append("Version:       \t").append(version).append('\n');
        if (version == 2) {
            b.append("Epoch:         \t").append(Long.toUnsignedString(epoch)).append('\n');
            b.append("Metadata area: \t").append(metadataSize).append(" [bytes]\n");
            b.append("Keyslots area: \t").append(keyslotsSize).append(" [bytes]\n");
        }
        b.append("UUID:          \t").append(uuid).append('\n');
        if (version == 2) {
            b.append("Label:         \t").append(label.isEmpty() ? "(no label)" : label).append('\n');
            b.append("Subsystem:     \t").append(subsystem.isEmpty() ? "(no subsystem)" : subsystem).append('\n');
            b.append("Flags:       \t").append(flags.isEmpty() ? "(no flags)" : String.join(" ", flags)).append('\n');
            if (!requirements.isEmpty()) {
                b.append("Requirements:\t").append(String.join(" ", requirements)).append('\n');
            }
        }
        b.append("Cipher:        \t").append(cipher).append('\n');
        b.append("Key size:      \t").append(keyBits).append(" bits\n");
        if (hash != null) {
            b.append("Hash spec:     \t").append(hash).append('\n');
        }
        b.append("Payload offset:\t").append(payloadOffset).append(" [bytes]\n");
        b.append("Payload size:  \t").append(payloadSize).append(" [bytes]").append(dynamicSize ? " (whole device)" : "")
                .append('\n');
        b.append("Sector size:   \t").append(sectorSize).append(" [bytes]\n");
        if (ivTweak != 0) {
            b.append("IV tweak:      \t").append(Long.toUnsignedString(ivTweak)).append('\n');
        }
        if (version == 2) {
            b.append("Tokens:        \t").append(tokens).append('\n');
        }
        if (version == 1) {
            // as cryptsetup's LUKS1 dump: all eight slots
            for (int id = 0; id < 8; id++) {
                Optional<LuksKeySlot> ks = keySlot(id);
                if (ks.isEmpty()) {
                    b.append("Key Slot ").append(id).append(": DISABLED\n");
                    continue;
                }
                LuksKeySlot k = ks.get();
                b.append("Key Slot ").append(id).append(": ENABLED\n");
                b.append("\tIterations:         \t").append(k.iterations()).append('\n');
                b.append("\tKey material offset:\t").append(k.areaOffset() / 512).append('\n');
                b.append("\tAF stripes:            \t").append(k.stripes()).append('\n');
            }
            for (String w : warnings) {
                b.append("Warning: ").append(w).append('\n');
            }
            return b.toString();
        }
        b.append("Keyslots:\n");
        for (LuksKeySlot k : keySlots) {
            b.append("  ").append(k.id()).append(": luks2\n");
            b.append("\tKey:        ").append(k.keyBits()).append(" bits\n");
            b.append("\tPriority:   ").append(switch (k.priority()) {
                case 0 -> "ignored";
                case 2 -> "prefer";
                default -> "normal";
            }).append('\n');
            b.append("\tCipher:     ").append(k.encryption()).append('\n');
            b.append("\tCipher key: ").append(k.areaKeyBits()).append(" bits\n");
            b.append("\tPBKDF:      ").append(k.kdf()).append('\n');
            if (k.kdf().equals("pbkdf2")) {
                b.append("\tHash:       ").append(k.hash()).append('\n');
                b.append("\tIterations: ").append(k.iterations()).append('\n');
            } else {
                b.append("\tTime cost:  ").append(k.time()).append('\n');
                b.append("\tMemory:     ").append(k.memoryKib()).append('\n');
                b.append("\tThreads:    ").append(k.cpus()).append('\n');
            }
            b.append("\tAF stripes: ").append(k.stripes()).append('\n');
            b.append("\tAF hash:    ").append(k.afHash()).append('\n');
            b.append("\tArea offset:").append(k.areaOffset()).append(" [bytes]\n");
            b.append("\tArea length:").append(k.areaSize()).append(" [bytes]\n");
            k.digest().ifPresent(d -> b.append("\tDigest ID:  ").append(d).append('\n'));
        }
        for (String w : warnings) {
            b.append("Warning: ").append(w).append('\n');
        }
        return b.toString();
    }
}
