package org.vectorjce.volumes.luks;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.kdf.Argon2;

/**
 * The LUKS2 JSON metadata, validated as a whole against the specification ("LUKS2 On-Disk Format
 * Specification", section 3: objects {@code keyslots}, {@code tokens}, {@code segments},
 * {@code digests}, {@code config}) and the image before any field is used, as cryptsetup's
 * {@code LUKS2_hdr_validate} does: types of every member; offsets and sizes as decimal strings of
 * unsigned 64-bit integers; key slot areas inside the key slot area and not overlapping; segments
 * after it; digests naming existing key slots and segments; {@code config.json_size} equal to the
 * JSON area. What is well formed but not supported here — a key slot type other than
 * {@code luks2}, a segment other than {@code crypt}, integrity, segment flags, any mandatory
 * requirement — is refused with {@link UnsupportedVolumeException} naming it.
 */
final class Luks2Metadata {
    record Kdf(String type, String hash, long iterations, long time, long memory, long cpus, byte[] salt) {
    }

    record Keyslot(int id, int keySize, int stripes, String afHash, long areaOffset, long areaSize,
            String areaEncryption, int areaKeySize, Kdf kdf, int priority) {
    }

    /**
     * A segment; {@code offset} and {@code size} are unsigned 64-bit ({@code size} -1 when
     * "dynamic"); {@code ivTweak}, {@code encryption}, {@code sectorSize} only for {@code crypt}.
     */
    record Segment(int id, String type, long offset, long size, long ivTweak, String encryption, int sectorSize,
            List<String> flags) {
        boolean dynamic() {
            return size == -1;
        }

        boolean backup() {
            return flags.stream().anyMatch(f -> f.startsWith("backup-"));
        }
    }

    record Digest(int id, String hash, long iterations, byte[] salt, byte[] digest, List<Integer> keyslots,
            List<Integer> segments) {
    }

    final Map<Integer, Keyslot> keyslots;
    final Map<Integer, Segment> segments;
    /** Ids of segments with an {@code integrity} object (dm-integrity: refused when opened). */
    final java.util.Set<Integer> integrity;
    final Map<Integer, Digest> digests;
    final int tokens;
    final long jsonSize, keyslotsSize;
    final List<String> flags;
    /** config.requirements.mandatory: none is known to this reader, so any refuses opening. */
    final List<String> requirements;

    private Luks2Metadata(Map<Integer, Keyslot> keyslots, Map<Integer, Segment> segments,
            java.util.Set<Integer> integrity, Map<Integer, Digest> digests, int tokens, long jsonSize,
            long keyslotsSize, List<String> flags, List<String> requirements) {
        this.requirements = requirements;
        this.keyslots = keyslots;
        this.segments = segments;
        this.integrity = integrity;
        this.digests = digests;
        this.tokens = tokens;
        this.jsonSize = jsonSize;
        this.keyslotsSize = keyslotsSize;
        this.flags = flags;
    }

    /** Segment 0, the volume's first regular segment (validated: it exists). */
    Segment segment() {
        return segments.get(0);
    }

    /** The digest that checks the volume key of {@code segment}. */
    Digest digestOfSegment(int segment) {
        for (Digest d : digests.values()) {
            if (d.segments().contains(segment)) {
                return d;
            }
        }
        return null;
    }

    /** The digest {@code keyslot} is assigned to, or null (an unbound key slot). */
    Digest digestOfKeyslot(int keyslot) {
        for (Digest d : digests.values()) {
            if (d.keyslots().contains(keyslot)) {
                return d;
            }
        }
        return null;
    }

    /**
     * Parses {@code json} of {@code header} and validates it; {@code header} and {@code data} are
     * the sizes of the header image and the data image (equal unless the header is detached).
     */
    static Luks2Metadata parse(Luks2Header header, long headerImageSize, long dataImageSize, boolean detached)
            throws CorruptHeaderException, UnsupportedVolumeException {
        Object root = Json.parse(header.json);
        Map<String, Object> top = object(root, "the JSON metadata");
        for (String k : List.of("keyslots", "tokens", "segments", "digests", "config")) {
            if (!top.containsKey(k)) {
                throw corrupt("the JSON metadata has no \"" + k + "\" object");
            }
        }
        Map<String, Object> config = object(top.get("config"), "config");
        long jsonSize = u64(config, "json_size", "config");
        long keyslotsSize = u64(config, "keyslots_size", "config");
        if (jsonSize != header.hdrSize - Luks2Header.BINARY) {
            throw corrupt("config.json_size " + jsonSize + " does not match the header's JSON area ("
                    + (header.hdrSize - Luks2Header.BINARY) + " bytes)");
        }
        if (keyslotsSize < 0) {
            throw corrupt("config.keyslots_size " + Long.toUnsignedString(keyslotsSize) + " is larger than any image");
        }
        if (keyslotsSize % 4096 != 0) {
            throw corrupt("config.keyslots_size " + keyslotsSize + " is not a multiple of 4096");
        }
        long areaStart = 2 * header.hdrSize;
        if (keyslotsSize > Long.MAX_VALUE - areaStart) {
            throw corrupt("config.keyslots_size " + keyslotsSize + " overflows");
        }
        long areaEnd = areaStart + keyslotsSize;
        List<String> flags = new ArrayList<>();
        if (config.containsKey("flags")) {
            for (Object f : array(config.get("flags"), "config.flags")) {
                flags.add(string(f, "config.flags[]"));
            }
        }
        // Shown by info (as luksDump shows them); refused when the volume is opened.
        List<String> requirements = new ArrayList<>();
        if (config.containsKey("requirements")) {
            Map<String, Object> req = object(config.get("requirements"), "config.requirements");
            if (req.containsKey("mandatory")) {
                List<Object> mandatory = array(req.get("mandatory"), "config.requirements.mandatory");
                for (Object m : mandatory) {
                    requirements.add(string(m, "config.requirements.mandatory[]"));
                }
            }
        }

        Map<Integer, Keyslot> keyslots = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : object(top.get("keyslots"), "keyslots").entrySet()) {
            int id = id(e.getKey(), "keyslots");
            keyslots.put(id, keyslot(id, object(e.getValue(), "keyslot " + id), areaStart, areaEnd));
        }
        List<Keyslot> byArea = new ArrayList<>(keyslots.values());
        byArea.sort(Comparator.comparingLong(Keyslot::areaOffset));
        for (int i = 1; i < byArea.size(); i++) {
            Keyslot a = byArea.get(i - 1), b = byArea.get(i);
            if (b.areaOffset() < a.areaOffset() + a.areaSize()) {
                throw corrupt("keyslot " + a.id() + " and keyslot " + b.id() + ": areas overlap");
            }
        }
        if (areaEnd > headerImageSize) {
            throw corrupt("config.keyslots_size " + keyslotsSize + ": the key slot area ends at " + areaEnd
                    + ", beyond the " + headerImageSize + "-byte image");
        }

        Map<Integer, Segment> segments = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : object(top.get("segments"), "segments").entrySet()) {
            int id = id(e.getKey(), "segments");
            segments.put(id, segment(id, object(e.getValue(), "segment " + id), detached ? 0 : areaEnd));
        }
        if (segments.isEmpty()) {
            throw corrupt("segments: no segment");
        }
        // cryptsetup's hdr_validate_segments: regular segments 0..n-1 first, then backups (reencryption)
        int firstBackup = -1;
        for (Segment g : segments.values()) {
            if (g.backup() && (firstBackup < 0 || g.id() < firstBackup)) {
                firstBackup = g.id();
            }
        }
        for (Segment g : segments.values()) {
            if (!g.backup() && firstBackup >= 0 && g.id() >= firstBackup) {
                throw corrupt("segment " + g.id() + " is behind backup segment " + firstBackup);
            }
        }
        if (firstBackup == 0) {
            throw corrupt("segments: no regular segment");
        }
        if (firstBackup >= segments.size()) {
            throw corrupt("segments: a gap before backup segment " + firstBackup);
        }
        int regular = firstBackup < 0 ? segments.size() : firstBackup;
        for (int i = 0; i < regular; i++) {
            if (!segments.containsKey(i)) {
                throw corrupt("segments: no segment " + i + " (a gap in the segment ids)");
            }
        }
        for (int i = 1; i < regular; i++) {
            Segment a = segments.get(i - 1), b = segments.get(i);
            if (a.dynamic() || Long.compareUnsigned(b.offset(), a.offset() + a.size()) < 0
                    && Long.compareUnsigned(a.offset(), b.offset() + (b.dynamic() ? 0 : b.size())) < 0) {
                throw corrupt("segments " + (i - 1) + " and " + i + " overlap");
            }
        }

        Map<Integer, Digest> digests = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : object(top.get("digests"), "digests").entrySet()) {
            int id = id(e.getKey(), "digests");
            Digest d = digest(id, object(e.getValue(), "digest " + id));
            for (int k : d.keyslots()) {
                if (!keyslots.containsKey(k)) {
                    throw corrupt("digest " + id + " names keyslot " + k + ", which does not exist");
                }
                for (Digest o : digests.values()) {
                    if (o.keyslots().contains(k)) {
                        throw corrupt("keyslot " + k + " is assigned to digests " + o.id() + " and " + id);
                    }
                }
            }
            for (int s : d.segments()) {
                if (!segments.containsKey(s)) {
                    throw corrupt("digest " + id + " names segment " + s + ", which does not exist");
                }
            }
            digests.put(id, d);
        }
        for (int k : keyslots.keySet()) {
            if (digests.values().stream().noneMatch(d -> d.keyslots().contains(k))) {
                throw corrupt("keyslot " + k + " is assigned to no digest");
            }
        }
        Map<String, Object> tokens = object(top.get("tokens"), "tokens");
        for (Map.Entry<String, Object> e : tokens.entrySet()) {
            int id = id(e.getKey(), "tokens");
            Map<String, Object> t = object(e.getValue(), "token " + id);
            string(need(t, "type", "token " + id), "token " + id + ".type");
            for (Object k : array(need(t, "keyslots", "token " + id), "token " + id + ".keyslots")) {
                int ks = id(string(k, "token " + id + ".keyslots[]"), "token " + id + ".keyslots");
                if (!keyslots.containsKey(ks)) {
                    throw corrupt("token " + id + " names keyslot " + ks + ", which does not exist");
                }
            }
        }
        java.util.Set<Integer> integrity = new java.util.HashSet<>();
        for (Map.Entry<String, Object> e : object(top.get("segments"), "segments").entrySet()) {
            if (object(e.getValue(), "segment").containsKey("integrity")) {
                integrity.add(Integer.parseInt(e.getKey()));
            }
        }
        return new Luks2Metadata(Map.copyOf(keyslots), segments, java.util.Set.copyOf(integrity), Map.copyOf(digests),
                tokens.size(), jsonSize, keyslotsSize, List.copyOf(flags), List.copyOf(requirements));
    }

    private static Keyslot keyslot(int id, Map<String, Object> k, long areaStart, long areaEnd)
            throws CorruptHeaderException, UnsupportedVolumeException {
        String w = "keyslot " + id;
        String type = string(need(k, "type", w), w + ".type");
        if (!type.equals("luks2")) {
            throw new UnsupportedVolumeException("LUKS2 " + w + " of type '" + type + "' is not supported (luks2)");
        }
        int keySize = keySize(k, "key_size", w);
        int priority = 1;
        if (k.containsKey("priority")) {
            priority = (int) number(k, "priority", w, 0, 2);
        }
        Map<String, Object> af = object(need(k, "af", w), w + ".af");
        String afType = string(need(af, "type", w + ".af"), w + ".af.type");
        if (!afType.equals("luks1")) {
            throw new UnsupportedVolumeException("LUKS2 " + w + ": anti-forensic splitter '" + afType
                    + "' is not supported (luks1)");
        }
        int stripes = (int) number(af, "stripes", w + ".af", 1, 1 << 16);
        String afHash = string(need(af, "hash", w + ".af"), w + ".af.hash");
        Map<String, Object> area = object(need(k, "area", w), w + ".area");
        String areaType = string(need(area, "type", w + ".area"), w + ".area.type");
        if (!areaType.equals("raw")) {
            throw new UnsupportedVolumeException("LUKS2 " + w + ": area type '" + areaType + "' is not supported (raw)");
        }
        long offset = u64(area, "offset", w + ".area");
        long size = u64(area, "size", w + ".area");
        String enc = string(need(area, "encryption", w + ".area"), w + ".area.encryption");
        int areaKeySize = keySize(area, "key_size", w + ".area");
        if (offset < 0 || size < 0) {
            throw corrupt(w + ".area: offset " + Long.toUnsignedString(offset) + " or size " + Long.toUnsignedString(size)
                    + " is larger than any image");
        }
        if (offset % 512 != 0 || size % 512 != 0) {
            throw corrupt(w + ".area: offset " + offset + " or size " + size + " is not a multiple of 512");
        }
        if (offset < areaStart || size > areaEnd - areaStart || offset > areaEnd - size) {
            throw corrupt(w + ".area (offset " + offset + ", size " + size + ") lies outside the key slot area ("
                    + areaStart + ".." + areaEnd + ")");
        }
        long material = ((long) keySize * stripes + 511) / 512 * 512;
        if (material > size) {
            throw corrupt(w + ": " + stripes + " stripes of " + keySize + " bytes (" + material
                    + " bytes) overflow its area of " + size + " bytes");
        }
        Map<String, Object> kdf = object(need(k, "kdf", w), w + ".kdf");
        String kt = string(need(kdf, "type", w + ".kdf"), w + ".kdf.type");
        byte[] salt = base64(kdf, "salt", w + ".kdf", 1024);
        Kdf parsed;
        switch (kt) {
            case "pbkdf2" -> {
                // Argon2 members left over from a conversion are ignored, as cryptsetup repairs them.
                parsed = new Kdf(kt, string(need(kdf, "hash", w + ".kdf"), w + ".kdf.hash"),
                        number(kdf, "iterations", w + ".kdf", 1, 0xFFFF_FFFFL), 0, 0, 0, salt);
            }
            case "argon2i", "argon2id" -> {
                // PBKDF2 members left over from a conversion are ignored, as cryptsetup repairs them.
                parsed = new Kdf(kt, null, 0, number(kdf, "time", w + ".kdf", 1, 0xFFFF_FFFFL),
                        number(kdf, "memory", w + ".kdf", 1, 0xFFFF_FFFFL),
                        number(kdf, "cpus", w + ".kdf", 1, 0xFFFF_FFFFL), salt);
                Argon2.checkParameters("LUKS2 metadata: " + w + ".kdf", parsed.time(), parsed.memory(), parsed.cpus());
            }
            // shown by info, refused when the slot is tried (as cryptsetup's luksDump shows it)
            default -> parsed = new Kdf(kt, null, 0, 0, 0, 0, salt);
        }
        return new Keyslot(id, keySize, stripes, afHash, offset, size, enc, areaKeySize, parsed, priority);
    }

    private static Segment segment(int id, Map<String, Object> s, long minOffset) throws CorruptHeaderException {
        String w = "segment " + id;
        String type = string(need(s, "type", w), w + ".type");
        long offset = u64(s, "offset", w);
        long size;
        if ("dynamic".equals(need(s, "size", w))) {
            size = -1;
        } else {
            size = u64(s, "size", w);
            if (size == 0 || size == -1) {
                throw corrupt(w + ".size " + Long.toUnsignedString(size) + " is not a segment size");
            }
        }
        if (offset % 512 != 0 || (size != -1 && Long.remainderUnsigned(size, 512) != 0)) {
            throw corrupt(w + ": offset " + Long.toUnsignedString(offset) + " or size " + Long.toUnsignedString(size)
                    + " is not a multiple of 512");
        }
        List<String> flags = new ArrayList<>();
        if (s.containsKey("flags")) {
            for (Object f : array(s.get("flags"), w + ".flags")) {
                flags.add(string(f, w + ".flags[]"));
            }
        }
        if (Long.compareUnsigned(offset, minOffset) < 0) {
            throw corrupt(w + ".offset " + Long.toUnsignedString(offset)
                    + " lies inside the LUKS2 metadata and key slots (which end at " + minOffset + ")");
        }
        if (!type.equals("crypt")) {
            return new Segment(id, type, offset, size, 0, null, 512, List.copyOf(flags));
        }
        long ivTweak = u64(s, "iv_tweak", w);
        String enc = string(need(s, "encryption", w), w + ".encryption");
        if (enc.isEmpty()) {
            throw corrupt(w + ".encryption is empty");
        }
        long sectorSize = number(s, "sector_size", w, 0, 1 << 20);
        if (sectorSize < 512 || sectorSize > 4096 || Long.bitCount(sectorSize) != 1) {
            throw corrupt(w + ".sector_size " + sectorSize + " is not 512, 1024, 2048 or 4096");
        }
        if (offset % sectorSize != 0) {
            throw corrupt(w + ".offset " + offset + " is not a multiple of its sector_size " + sectorSize);
        }
        if (size != -1 && Long.remainderUnsigned(size, sectorSize) != 0) {
            throw corrupt(w + ".size " + Long.toUnsignedString(size) + " is not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        return new Segment(id, type, offset, size, ivTweak, enc, (int) sectorSize, List.copyOf(flags));
    }

    /**
     * The segment a reader can open, checked against the data image: exactly one segment, of type
     * {@code crypt}, no flags, no integrity, inside the image and a whole number of sectors.
     */
    Segment openableSegment(long dataSize) throws CorruptHeaderException,
            UnsupportedVolumeException {
        if (segments.size() > 1) {
            throw new UnsupportedVolumeException("LUKS2 volume with " + segments.size()
                    + " segments (a reencryption?) is not supported");
        }
        Segment g = segment();
        String w = "segment " + g.id();
        if (!g.type().equals("crypt")) {
            throw new UnsupportedVolumeException("LUKS2 " + w + " of type '" + g.type() + "' is not supported (crypt)");
        }
        if (!g.flags().isEmpty()) {
            throw new UnsupportedVolumeException("LUKS2 " + w + ": flag '" + g.flags().get(0) + "' is not supported");
        }
        if (integrity.contains(g.id())) {
            throw new UnsupportedVolumeException("LUKS2 " + w + ": integrity (dm-integrity) is not supported");
        }
        if (Long.compareUnsigned(g.offset(), dataSize) > 0) {
            throw new CorruptHeaderException("LUKS2 metadata: " + w + ".offset " + Long.toUnsignedString(g.offset())
                    + " lies beyond the end of the " + dataSize + "-byte image");
        }
        if (!g.dynamic() && Long.compareUnsigned(g.size(), dataSize - g.offset()) > 0) {
            throw new CorruptHeaderException("LUKS2 metadata: " + w + ".size " + Long.toUnsignedString(g.size())
                    + " at offset " + g.offset() + " reaches beyond the end of the " + dataSize + "-byte image");
        }
        if (g.dynamic() && (dataSize - g.offset()) % g.sectorSize() != 0) {
            throw new CorruptHeaderException("LUKS2 metadata: " + w + ": the payload (" + (dataSize - g.offset())
                    + " bytes) is not a whole number of " + g.sectorSize() + "-byte sectors");
        }
        return g;
    }

    private static Digest digest(int id, Map<String, Object> d) throws CorruptHeaderException,
            UnsupportedVolumeException {
        String w = "digest " + id;
        String type = string(need(d, "type", w), w + ".type");
        if (!type.equals("pbkdf2")) {
            throw new UnsupportedVolumeException("LUKS2 " + w + " of type '" + type + "' is not supported (pbkdf2)");
        }
        List<Integer> ks = new ArrayList<>();
        for (Object o : array(need(d, "keyslots", w), w + ".keyslots")) {
            ks.add(id(string(o, w + ".keyslots[]"), w + ".keyslots"));
        }
        List<Integer> ss = new ArrayList<>();
        for (Object o : array(need(d, "segments", w), w + ".segments")) {
            ss.add(id(string(o, w + ".segments[]"), w + ".segments"));
        }
        return new Digest(id, string(need(d, "hash", w), w + ".hash"), number(d, "iterations", w, 1, 0xFFFF_FFFFL),
                base64(d, "salt", w, 1024), base64(d, "digest", w, 1024), List.copyOf(ks), List.copyOf(ss));
    }

    // --- typed access, each error naming the member ---

    private static CorruptHeaderException corrupt(String what) {
        return new CorruptHeaderException("LUKS2 metadata: " + what);
    }

    private static Object need(Map<String, Object> o, String key, String where) throws CorruptHeaderException {
        Object v = o.get(key);
        if (v == null) {
            throw corrupt(where + " has no \"" + key + "\"");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object v, String what) throws CorruptHeaderException {
        if (!(v instanceof Map)) {
            throw corrupt(what + " is not a JSON object");
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> array(Object v, String what) throws CorruptHeaderException {
        if (!(v instanceof List)) {
            throw corrupt(what + " is not a JSON array");
        }
        return (List<Object>) v;
    }

    private static String string(Object v, String what) throws CorruptHeaderException {
        if (!(v instanceof String s)) {
            throw corrupt(what + " is not a JSON string");
        }
        return s;
    }

    private static final Set<Character> DIGITS = Set.of('0', '1', '2', '3', '4', '5', '6', '7', '8', '9');

    /** An object id ("0".."N"): decimal, below 2^31. */
    private static int id(String key, String where) throws CorruptHeaderException {
        if (key.isEmpty() || key.length() > 9 || !key.chars().allMatch(c -> DIGITS.contains((char) c))) {
            throw corrupt(where + ": \"" + key + "\" is not a decimal id");
        }
        return Integer.parseInt(key);
    }

    /** A uint64 written as a decimal string (returned as the unsigned bits of a long). */
    private static long u64(Map<String, Object> o, String key, String where) throws CorruptHeaderException {
        String s = string(need(o, key, where), where + "." + key);
        if (s.isEmpty() || s.length() > 20 || !s.chars().allMatch(c -> DIGITS.contains((char) c))) {
            throw corrupt(where + "." + key + " \"" + s + "\" is not an unsigned decimal integer");
        }
        BigInteger v = new BigInteger(s);
        if (v.bitLength() > 64) {
            throw corrupt(where + "." + key + " " + s + " overflows 64 bits");
        }
        return v.longValue();
    }

    private static long number(Map<String, Object> o, String key, String where, long min, long max)
            throws CorruptHeaderException {
        Object v = need(o, key, where);
        if (!(v instanceof BigInteger b)) {
            throw corrupt(where + "." + key + " is not a JSON integer");
        }
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
            throw corrupt(where + "." + key + " " + b + " outside " + min + ".." + max);
        }
        return b.longValue();
    }

    private static int keySize(Map<String, Object> o, String key, String where) throws CorruptHeaderException {
        return (int) number(o, key, where, 1, 512);
    }

    private static byte[] base64(Map<String, Object> o, String key, String where, int maxBytes)
            throws CorruptHeaderException {
        String s = string(need(o, key, where), where + "." + key);
        byte[] b;
        try {
            b = Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw corrupt(where + "." + key + " is not base64");
        }
        if (b.length == 0 || b.length > maxBytes) {
            throw corrupt(where + "." + key + " decodes to " + b.length + " bytes (1.." + maxBytes + ")");
        }
        return b;
    }
}
