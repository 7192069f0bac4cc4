package org.vectorjce.volumes.luks;

import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.VolumeException;

/**
 * What a LUKS header says, without secrets: what {@code cryptsetup luksDump} shows, minus salts,
 * digests and tokens. Immutable; {@link #toString()} is safe to log. {@link #luksDump} gives the
 * whole of {@code luksDump}'s text for an image, from the header itself.
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
        List<LuksKeySlot> keySlots, List<String> warnings) implements VolumeInfo {
    /** {@link VolumeFormat#LUKS1} or {@link VolumeFormat#LUKS2}, by {@link #version}. */
    @Override
    public VolumeFormat format() {
        return version == 1 ? VolumeFormat.LUKS1 : VolumeFormat.LUKS2;
    }

    /** {@link #cipher}: cryptsetup's syntax is dm-crypt's. */
    @Override
    public String cipherSpec() {
        return cipher;
    }


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
    @Override
    public String dumpWithKey(String device, byte[] key) {
        int dash = cipher.indexOf('-');
        return "LUKS header information for " + device + "\n"
                + "Cipher name:   \t" + (dash < 0 ? cipher : cipher.substring(0, dash)) + "\n"
                + "Cipher mode:   \t" + (dash < 0 ? "" : cipher.substring(dash + 1)) + "\n"
                + "Payload offset:\t" + payloadOffset / 512 + "\n"
                + "UUID:          \t" + uuid + "\n"
                + "MK bits:       \t" + key.length * 8 + "\n"
                + "MK dump:\t" + org.vectorjce.volumes.internal.KeyDump.mkDump(key);
    }

    /**
     * {@link #dump()}: the summary names no device, as cryptsetup's LUKS2 {@code luksDump} names
     * none ({@link #luksDump} gives the whole text for an image).
     */
    @Override
    public String dump(String device) {
        return dump();
    }

    /**
     * A summary in the manner of {@code cryptsetup luksDump} from this record's fields alone: header
     * fields, the segment and the key slots, without salts, digests and tokens ({@link #luksDump}
     * has them).
     */
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
            b.append("\tPriority:   ").append(priority(k.priority())).append('\n');
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

    /** cryptsetup's name of a LUKS2 key slot priority. */
    private static String priority(long p) {
        return p == 0 ? "ignored" : p == 1 ? "normal" : p == 2 ? "preferred" : "invalid";
    }

    /**
     * What {@code cryptsetup luksDump} (2.6) prints for the LUKS volume {@code image} (its header in
     * {@code header} when detached, else null), line for line: for LUKS2 the header lines, then
     * {@code Data segments}, {@code Keyslots}, {@code Tokens} and {@code Digests} with salts,
     * KDF costs, AF and area fields; for LUKS1 the header, its digest and salt, and all eight key
     * slots. {@code keySlot} (null for all) shows that key slot only; cryptsetup 2.6 ignores
     * {@code --key-slot} in {@code luksDump}. The header is read and validated as {@link
     * LuksVolume.Builder#info()} does before anything is printed; nothing is unlocked and the
     * files are opened for reading only. Warnings about the header follow, one a line.
     */
    public static String luksDump(Path image, Path header, Integer keySlot) throws IOException, VolumeException {
        try (SeekableByteChannel d = Files.newByteChannel(image, StandardOpenOption.READ);
                SeekableByteChannel h = header == null ? null : Files.newByteChannel(header, StandardOpenOption.READ)) {
            Image data = new Image(d, image.toString());
            Image hdr = h == null ? data : new Image(h, header.toString());
            Layout layout = LuksVolume.layout(hdr, data);
            LuksInfo info = layout.info();
            if (keySlot != null && info.keySlot(keySlot).isEmpty()) {
                int slots = info.version() == 1 ? Luks1Header.SLOTS : Luks2Layout.SLOTS;
                throw new VolumeException(keySlot < 0 || keySlot >= slots ? "Key slot " + keySlot
                        + " is out of range 0.." + (slots - 1) : "Key slot " + keySlot + " is not active");
            }
            StringBuilder b = new StringBuilder();
            layout.luksDump(b, (header != null ? header : image).toString(), keySlot);
            for (String w : info.warnings) {
                b.append("Warning: ").append(w).append('\n');
            }
            return b.toString();
        }
    }

    /** cryptsetup's {@code LUKS_dump} (lib/luks1/keymanage.c). */
    void luks1Dump(StringBuilder b, String device, Luks1Header h, Integer only) {
        b.append("LUKS header information for ").append(device).append("\n\n");
        b.append("Version:       \t1\n");
        b.append("Cipher name:   \t").append(h.cipherName).append('\n');
        b.append("Cipher mode:   \t").append(h.cipherMode).append('\n');
        b.append("Hash spec:     \t").append(h.hashSpec).append('\n');
        b.append("Payload offset:\t").append(h.payloadOffsetSectors).append('\n');
        b.append("MK bits:       \t").append(h.keyBytes * 8).append('\n');
        b.append("MK digest:     \t");
        hex(b, h.mkDigest, h.mkDigest.length, "");
        b.append("MK salt:       \t");
        hex(b, h.mkDigestSalt, 16, "               \t");
        b.append("MK iterations: \t").append(h.mkDigestIterations).append('\n');
        b.append("UUID:          \t").append(h.uuid).append("\n\n");
        for (Luks1Header.Slot s : h.slots) {
            if (only != null && s.id() != only) {
                continue;
            }
            if (!s.active()) {
                b.append("Key Slot ").append(s.id()).append(": DISABLED\n");
                continue;
            }
            b.append("Key Slot ").append(s.id()).append(": ENABLED\n");
            b.append("\tIterations:         \t").append(s.iterations()).append('\n');
            b.append("\tSalt:               \t");
            hex(b, s.salt(), 16, "\t                      \t");
            b.append("\tKey material offset:\t").append(s.keyMaterialSector()).append('\n');
            b.append("\tAF stripes:            \t").append(s.stripes()).append('\n');
        }
    }

    /**
     * cryptsetup's {@code LUKS2_hdr_dump} (lib/luks2/luks2_json_metadata.c and the keyslot, digest
     * and token handlers' dump functions), from the validated JSON {@code root}: ids in numeric
     * order, as cryptsetup walks them.
     */
    /** cryptsetup's LUKS2 dump (lib/luks2/luks2_json_metadata.c) of the metadata copy {@code json}. */
    void luks2Dump(StringBuilder b, String json, Integer only) throws CorruptHeaderException {
        Map<String, Object> root = object(Json.parse(json));
        b.append("LUKS header information\n");
        b.append("Version:       \t2\n");
        b.append("Epoch:         \t").append(Long.toUnsignedString(epoch)).append('\n');
        b.append("Metadata area: \t").append(metadataSize).append(" [bytes]\n");
        b.append("Keyslots area: \t").append(keyslotsSize).append(" [bytes]\n");
        b.append("UUID:          \t").append(uuid.isEmpty() ? "(no UUID)" : uuid).append('\n');
        b.append("Label:         \t").append(label.isEmpty() ? "(no label)" : label).append('\n');
        b.append("Subsystem:     \t").append(subsystem.isEmpty() ? "(no subsystem)" : subsystem).append('\n');
        b.append("Flags:       \t");
        flags.forEach(f -> b.append(f).append(' '));
        b.append(flags.isEmpty() ? "(no flags)" : "").append('\n').append(requirements.isEmpty() ? "\n" : "");
        if (!requirements.isEmpty()) {
            b.append("Requirements:\t");
            requirements.forEach(r -> b.append(r).append(' '));
            b.append("\n\n");
        }

        Map<Integer, Map<String, Object>> segments = byId(root.get("segments"));
        Map<Integer, Map<String, Object>> digests = byId(root.get("digests"));
        b.append("Data segments:\n");
        Integer dataSegment = null;
        for (Map.Entry<Integer, Map<String, Object>> e : segments.entrySet()) {
            Map<String, Object> s = e.getValue();
            List<Object> segmentFlags = s.get("flags") instanceof List<?> l ? List.copyOf(l) : List.of();
            if (dataSegment == null && segmentFlags.stream().noneMatch(f -> String.valueOf(f).startsWith("backup-"))) {
                dataSegment = e.getKey();
            }
            b.append("  ").append(e.getKey()).append(": ").append(s.get("type")).append('\n');
            b.append("\toffset: ").append(s.get("offset")).append(" [bytes]\n");
            b.append("\tlength: ").append("dynamic".equals(s.get("size")) ? "(whole device)" : s.get("size") + " [bytes]")
                    .append('\n');
            if (s.containsKey("encryption")) {
                b.append("\tcipher: ").append(s.get("encryption")).append('\n');
            }
            if (s.containsKey("sector_size")) {
                b.append("\tsector: ").append(s.get("sector_size")).append(" [bytes]\n");
            }
            if (s.get("integrity") instanceof Map<?, ?> in && in.containsKey("type")) {
                b.append("\tintegrity: ").append(in.get("type")).append('\n');
            }
            if (!segmentFlags.isEmpty()) {
                b.append("\tflags : ").append(String.join(", ", segmentFlags.stream().map(String::valueOf).toList()))
                        .append('\n');
            }
            b.append('\n');
        }

        b.append("Keyslots:\n");
        for (Map.Entry<Integer, Map<String, Object>> e : byId(root.get("keyslots")).entrySet()) {
            int id = e.getKey();
            if (only != null && id != only) {
                continue;
            }
            Map<String, Object> k = e.getValue();
            boolean bound = false;
            for (Map<String, Object> d : digests.values()) {
                bound |= ids(d.get("keyslots")).contains(id) && dataSegment != null
                        && ids(d.get("segments")).contains(dataSegment);
            }
            b.append("  ").append(id).append(": ").append(k.get("type")).append(bound ? "" : " (unbound)").append('\n');
            if (k.get("key_size") instanceof BigInteger n) {
                b.append("\tKey:        ").append(n.longValue() * 8).append(" bits\n");
            }
            b.append("\tPriority:   ").append(priority(k.get("priority") instanceof BigInteger p ? p.longValue() : 1))
                    .append('\n');
            Map<String, Object> kdf = object(k.get("kdf")), af = object(k.get("af")), area = object(k.get("area"));
            b.append("\tCipher:     ").append(area.get("encryption")).append('\n');
            b.append("\tCipher key: ").append(((BigInteger) area.get("key_size")).longValue() * 8).append(" bits\n");
            b.append("\tPBKDF:      ").append(kdf.get("type")).append('\n');
            if ("pbkdf2".equals(kdf.get("type"))) {
                b.append("\tHash:       ").append(kdf.get("hash")).append('\n');
                b.append("\tIterations: ").append(kdf.get("iterations")).append('\n');
            } else {
                b.append("\tTime cost:  ").append(kdf.get("time")).append('\n');
                b.append("\tMemory:     ").append(kdf.get("memory")).append('\n');
                b.append("\tThreads:    ").append(kdf.get("cpus")).append('\n');
            }
            b.append("\tSalt:       ");
            base64Hex(b, kdf.get("salt"));
            b.append("\tAF stripes: ").append(af.get("stripes")).append('\n');
            b.append("\tAF hash:    ").append(af.get("hash")).append('\n');
            b.append("\tArea offset:").append(area.get("offset")).append(" [bytes]\n");
            b.append("\tArea length:").append(area.get("size")).append(" [bytes]\n");
            for (Map.Entry<Integer, Map<String, Object>> d : digests.entrySet()) {
                if (ids(d.getValue().get("keyslots")).contains(id)) {
                    b.append("\tDigest ID:  ").append(d.getKey()).append('\n');
                }
            }
        }

        b.append("Tokens:\n");
        for (Map.Entry<Integer, Map<String, Object>> e : byId(root.get("tokens")).entrySet()) {
            Map<String, Object> t = e.getValue();
            b.append("  ").append(e.getKey()).append(": ").append(t.get("type")).append('\n');
            if ("luks2-keyring".equals(t.get("type"))) {
                b.append("\tKey description: ").append(t.get("key_description")).append('\n');
            }
            for (int id : ids(t.get("keyslots"))) {
                b.append("\tKeyslot:    ").append(id).append('\n');
            }
        }

        b.append("Digests:\n");
        for (Map.Entry<Integer, Map<String, Object>> e : digests.entrySet()) {
            Map<String, Object> d = e.getValue();
            b.append("  ").append(e.getKey()).append(": ").append(d.get("type")).append('\n');
            b.append("\tHash:       ").append(d.get("hash")).append('\n');
            b.append("\tIterations: ").append(d.get("iterations")).append('\n');
            b.append("\tSalt:       ");
            base64Hex(b, d.get("salt"));
            b.append("\tDigest:     ");
            base64Hex(b, d.get("digest"));
        }
    }

    /** A JSON object's members whose names are ids, in numeric order (the metadata is validated). */
    private static Map<Integer, Map<String, Object>> byId(Object o) throws CorruptHeaderException {
        Map<Integer, Map<String, Object>> m = new TreeMap<>();
        if (o != null) {
            for (Map.Entry<String, Object> e : object(o).entrySet()) {
                m.put(Integer.parseInt(e.getKey()), object(e.getValue()));
            }
        }
        return m;
    }

    /** The ids of a JSON array of id strings ({@code "keyslots": ["0", "1"]}). */
    private static List<Integer> ids(Object o) {
        List<Integer> ids = new ArrayList<>();
        if (o instanceof List<?> l) {
            for (Object v : l) {
                ids.add(Integer.parseInt(String.valueOf(v)));
            }
        }
        return ids;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object o) throws CorruptHeaderException {
        if (!(o instanceof Map<?, ?>)) {
            throw new CorruptHeaderException("LUKS2 metadata: an object was expected");
        }
        return (Map<String, Object>) o;
    }

    /** A base64 member as cryptsetup's {@code hexprint_base64}: 16 bytes a line, continued under the first. */
    private static void base64Hex(StringBuilder b, Object base64) {
        byte[] v = java.util.Base64.getDecoder().decode(String.valueOf(base64));
        hex(b, v, 16, "\t            ");
    }

    /** {@code v} as lower-case hex, each byte followed by a space, {@code perLine} a line, later lines after {@code indent}. */
    private static void hex(StringBuilder b, byte[] v, int perLine, String indent) {
        for (int i = 0; i < v.length; i++) {
            if (i > 0 && i % perLine == 0) {
                b.append('\n').append(indent);
            }
            b.append(String.format("%02x ", v[i] & 0xff));
        }
        b.append('\n');
    }
}
