package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.Argon2;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * LUKS2 key slots of type {@code luks2} (LUKS2 On-Disk Format Specification, section 3.2): the
 * slot's KDF gives the area key, which decrypts the raw area ({@code area.encryption}, 512-byte
 * sectors from IV 0); AF-merge ({@code af.hash}) gives a candidate volume key, accepted when the
 * PBKDF2 digest that binds the slot to the segment matches. Slots are tried as cryptsetup does:
 * priority 2 ("prefer") first, then 1 ("normal"); priority 0 ("ignore") only when asked for.
 *
 * <p>Key-slot changes ({@link KeySlotWriter}): add writes the key material into a free stretch of
 * the keyslots area (found as cryptsetup does: the first gap from the end of the second header
 * copy), forced, then the metadata with the key slot and its digest assignment
 * ({@link Luks2Writer}: secondary, then primary); remove writes the metadata without the key slot
 * (and without it in digests and tokens), then overwrites its area with random bytes, forced;
 * change writes the new key material into a free stretch, then metadata whose key slot of the same
 * id points at it (one metadata update: old or new), then overwrites the old area.
 */
final class Luks2Layout implements Layout {
    /** Key slots 0..31, as cryptsetup numbers them. */
    static final int SLOTS = 32;

    private final Luks2Metadata m;
    private final Image header;
    private final Image data;
    private final LuksInfo info;
    private final Luks2Metadata.Segment segment;
    private final Luks2Metadata.Digest digest;
    private final long payloadSize;

    /** The JSON area of the header copy this layout was read from: the newest, unless its metadata is invalid. */
    private final String json;

    @Override
    public void luksDump(StringBuilder b, String device, Integer only) throws CorruptHeaderException {
        info.luks2Dump(b, json, only);
    }

    Luks2Layout(Luks2Header hdr, Luks2Metadata m, Image header, Image data) throws CorruptHeaderException {
        this.m = m;
        this.json = hdr.json;
        this.header = header;
        this.segment = m.segment();
        this.digest = m.digestOfSegment(segment.id());
        this.data = data;
        this.payloadSize = !segment.dynamic() ? segment.size()
                : Long.compareUnsigned(segment.offset(), data.size) <= 0 ? data.size - segment.offset() : 0;
        List<LuksKeySlot> slots = new ArrayList<>();
        List<Luks2Metadata.Keyslot> ks = new ArrayList<>(m.keyslots.values());
        ks.sort(Comparator.comparingInt(Luks2Metadata.Keyslot::id));
        for (Luks2Metadata.Keyslot k : ks) {
            Luks2Metadata.Digest d = m.digestOfKeyslot(k.id());
            Luks2Metadata.Kdf f = k.kdf();
            slots.add(new LuksKeySlot(k.id(), true, f.type(), f.hash(), f.iterations(), f.time(), f.memory(), f.cpus(),
                    k.stripes(), k.afHash(), k.areaOffset(), k.areaSize(), k.areaEncryption(), k.areaKeySize() * 8,
                    k.keySize() * 8, k.priority(), d == null ? OptionalInt.empty() : OptionalInt.of(d.id())));
        }
        int keyBits = 0;
        if (digest != null) {
            for (int id : digest.keyslots()) {
                keyBits = m.keyslots.get(id).keySize() * 8;
                break;
            }
        }
        info = new LuksInfo(2, hdr.uuid, hdr.label, hdr.subsystem, hdr.seqid, hdr.hdrSize, m.keyslotsSize,
                segment.encryption(), keyBits, digest == null ? null : digest.hash(), segment.offset(), payloadSize,
                segment.dynamic(), segment.sectorSize(), segment.ivTweak(), m.flags, m.requirements, m.tokens, slots, hdr.warnings);
    }

    @Override
    public LuksInfo info() {
        return info;
    }

    @Override
    public VolumeCipher payloadCipher(org.vectorjce.VectorJceProvider provider) throws VolumeException {
        if (digest == null) {
            throw new CorruptHeaderException("LUKS2 metadata: no digest is assigned to segment " + segment.id());
        }
        if (!m.requirements.isEmpty()) {
            throw new UnsupportedVolumeException("LUKS2 mandatory requirement " + String.join(", ", m.requirements)
                    + " is not supported");
        }
        m.openableSegment(data.size);
        if (info.keyBits() == 0) {
            throw new VolumeException("No usable key slot is available (the volume has no key slot left)");
        }
        VolumeCipher c = VolumeCipher.parse(segment.encryption()).using(provider);
        // The key size against the cipher, before any KDF runs.
        c.checkKey(info.keyBits() / 8, segment.sectorSize(), segment.ivTweak());
        return c;
    }

    @Override
    public List<Integer> slotsToTry(Integer requested) throws VolumeException {
        if (requested != null) {
            if (!m.keyslots.containsKey(requested)) {
                throw new VolumeException(requested < 0 || requested >= SLOTS ? "Key slot " + requested
                        + " is out of range 0.." + (SLOTS - 1) : "Key slot " + requested + " is not active");
            }
            if (!digest.keyslots().contains(requested)) {
                throw new VolumeException("Key slot " + requested + " is not assigned to the volume's segment (unbound)");
            }
            return List.of(requested);
        }
        List<Integer> ids = new ArrayList<>(digest.keyslots());
        ids.removeIf(id -> m.keyslots.get(id).priority() == 0);
        ids.sort(Comparator.<Integer>comparingInt(id -> -m.keyslots.get(id).priority()).thenComparing(id -> id));
        return ids;
    }

    @Override
    public KeySlotArea keySlotArea(int slot, Settings settings) throws VolumeException {
        Luks2Metadata.Keyslot k = m.keyslots.get(slot);
        String what = "LUKS2 keyslot " + slot;
        VolumeCipher areaCipher = VolumeCipher.parse(k.areaEncryption()).using(settings.provider());
        HashAlgorithm afHash = HashAlgorithm.forLuksName(k.afHash());
        Luks2Metadata.Kdf f = k.kdf();
        if (!List.of("pbkdf2", "argon2i", "argon2id").contains(f.type())) {
            throw new UnsupportedVolumeException(what + ": KDF '" + f.type()
                    + "' is not supported (pbkdf2, argon2i, argon2id)");
        }
        HashAlgorithm kdfHash = f.type().equals("pbkdf2") ? HashAlgorithm.forLuksName(f.hash()) : null;
        if (kdfHash == null) {
            Argon2.checkParameters(what, f.time(), f.memory(), f.cpus());
        }
        int materialBytes = (int) (((long) k.keySize() * k.stripes() + 511) / 512 * 512);
        AreaKdf kdf = kdfHash != null
                ? p -> Pbkdf2.derive(kdfHash, p, f.salt(), f.iterations(), k.areaKeySize())
                : p -> settings.argon2(what, f.type().equals("argon2i") ? Argon2.Type.ARGON2I : Argon2.Type.ARGON2ID,
                        p, f.salt(), f.time(), f.memory(), f.cpus(), k.areaKeySize());
        return new KeySlotArea(what, header, what + " area", k.areaOffset(), materialBytes, areaCipher, afHash,
                k.keySize(), k.stripes(), kdf);
    }

    @Override
    public boolean isVolumeKey(byte[] key) throws VolumeException {
        if (digest == null) {
            return false;
        }
        HashAlgorithm h = HashAlgorithm.forLuksName(digest.hash());
        byte[] d = Pbkdf2.derive(h, key, digest.salt(), digest.iterations(), digest.digest().length);
        return MessageDigest.isEqual(d, digest.digest());
    }

    /** The header in use and its metadata, validated. */
    private record L2(Luks2Header h, Luks2Metadata m, Luks2Metadata.Digest digest) {
    }

    private static L2 readHeader(Image header, Image data) throws IOException, VolumeException {
        Luks2Header h = Luks2Header.read(header);
        Luks2Metadata m = Luks2Metadata.parse(h, header.size, data.size, header != data);
        Luks2Metadata.Digest d = m.digestOfSegment(0);
        if (d == null) {
            throw new CorruptHeaderException("LUKS2 metadata: no digest is assigned to segment 0");
        }
        if (!m.requirements.isEmpty()) {
            throw new UnsupportedVolumeException("LUKS2 mandatory requirement "
                    + String.join(", ", m.requirements) + " is not supported");
        }
        return new L2(h, m, d);
    }

    @Override
    public int addKeySlot(byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        L2 l = readHeader(header, data);
        int id = freeId(l.m(), o.keySlot);
        long[] area = findArea(l, vk.length);
        Stored st = prepare(l, vk, passphrase, o, area, set);
        try {
            JsonSplice j = new JsonSplice(l.h().json);
            j.insert(new String[] {"keyslots"}, String.valueOf(id), st.json());
            List<String> ids = new ArrayList<>();
            for (int k : l.digest().keyslots()) {
                ids.add(String.valueOf(k));
            }
            ids.add(String.valueOf(id));
            j.replace(new String[] {"digests", String.valueOf(l.digest().id()), "keyslots"}, JsonSplice.stringArray(ids));
            checkJson(l, j.text());
            KeySlotWriter.write(header, area[0], st.material());
            Luks2Writer.update(header, l.h(), j.text(), o.rng(), data.size, header != data);
        } finally {
            Arrays.fill(st.material(), (byte) 0);
        }
        return id;
    }

    @Override
    public void removeKeySlot(int slot, SecureRandom rnd) throws IOException, VolumeException {
        L2 l = readHeader(header, data);
        Luks2Metadata.Keyslot k = l.m().keyslots.get(slot);
        if (k == null) {
            throw new VolumeException(slot < 0 || slot >= SLOTS ? "Key slot " + slot + " is out of range 0.."
                    + (SLOTS - 1) : "Key slot " + slot + " is not active");
        }
        String sid = String.valueOf(slot);
        JsonSplice j = new JsonSplice(l.h().json);
        j.remove(new String[] {"keyslots"}, sid);
        for (Luks2Metadata.Digest d : l.m().digests.values()) {
            if (d.keyslots().contains(slot)) {
                List<String> ids = new ArrayList<>();
                for (int x : d.keyslots()) {
                    if (x != slot) {
                        ids.add(String.valueOf(x));
                    }
                }
                j.replace(new String[] {"digests", String.valueOf(d.id()), "keyslots"}, JsonSplice.stringArray(ids));
            }
        }
        for (String t : j.names("tokens")) {
            String[] path = {"tokens", t, "keyslots"};
            List<String> ids = strings(j.value(path));
            if (ids.remove(sid)) {
                j.replace(path, JsonSplice.stringArray(ids));
            }
        }
        checkJson(l, j.text());
        Luks2Writer.update(header, l.h(), j.text(), rnd, data.size, header != data);
        KeySlotWriter.overwrite(header, k.areaOffset(), k.areaSize(), rnd);
    }

    @Override
    public int changeKeySlot(int slot, byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        L2 l = readHeader(header, data);
        Luks2Metadata.Keyslot old = l.m().keyslots.get(slot);
        if (old == null) {
            throw new VolumeException("Key slot " + slot + " is not active");
        }
        long[] area;
        try {
            area = findArea(l, vk.length);
        } catch (VolumeException e) {
            throw new VolumeException(e.getMessage() + " beside the old one (a crash-safe change needs both)");
        }
        Stored st = prepare(l, vk, passphrase, o, area, set);
        try {
            JsonSplice j = new JsonSplice(l.h().json);
            j.replace(new String[] {"keyslots", String.valueOf(slot)}, st.json());
            checkJson(l, j.text());
            KeySlotWriter.write(header, area[0], st.material());
            Luks2Writer.update(header, l.h(), j.text(), o.rng(), data.size, header != data);
        } finally {
            Arrays.fill(st.material(), (byte) 0);
        }
        KeySlotWriter.overwrite(header, old.areaOffset(), old.areaSize(), o.rng());
        return slot;
    }

    /** The new JSON fits and validates: checked before the first write. */
    private static void checkJson(L2 l, String json) throws VolumeException {
        Luks2Writer.checkFits(l.h().hdrSize, json);
        Luks2Metadata.parse(Luks2Header.of(l.h().hdrSize, l.h().seqid + 1, json), Long.MAX_VALUE, Long.MAX_VALUE,
                true);
    }

    private static List<String> strings(String arrayJson) throws VolumeException {
        List<String> out = new ArrayList<>();
        for (Object v : (List<?>) Json.parse(arrayJson)) {
            out.add(String.valueOf(v));
        }
        return out;
    }

    private static int freeId(Luks2Metadata m, int wanted) throws VolumeException {
        if (wanted != -1) {
            if (wanted < 0 || wanted >= SLOTS) {
                throw new VolumeException("Key slot " + wanted + " is out of range 0.." + (SLOTS - 1));
            }
            if (m.keyslots.containsKey(wanted)) {
                throw new VolumeException("Key slot " + wanted + " is full: choose another one");
            }
            return wanted;
        }
        for (int i = 0; i < SLOTS; i++) {
            if (!m.keyslots.containsKey(i)) {
                return i;
            }
        }
        throw new VolumeException("All key slots full (" + SLOTS + " LUKS2 key slots in use)");
    }

    /** {offset, length} of the first free stretch for a key of {@code keyBytes} (cryptsetup's first fit). */
    private static long[] findArea(L2 l, int keyBytes) throws VolumeException {
        long length = ((long) keyBytes * KeySlotWriter.STRIPES + 4095) / 4096 * 4096;
        long start = 2 * l.h().hdrSize, end = start + l.m().keyslotsSize;
        List<Luks2Metadata.Keyslot> used = new ArrayList<>(l.m().keyslots.values());
        used.sort(Comparator.comparingLong(Luks2Metadata.Keyslot::areaOffset));
        long at = start;
        for (Luks2Metadata.Keyslot k : used) {
            if (at + length <= k.areaOffset()) {
                break;
            }
            at = Math.max(at, (k.areaOffset() + k.areaSize() + 4095) / 4096 * 4096);
        }
        if (at + length > end) {
            throw new VolumeException("No room in the LUKS2 keyslots area (" + l.m().keyslotsSize
                    + " bytes) for another key slot area of " + length + " bytes");
        }
        return new long[] {at, length};
    }

    /** A new key slot's JSON and its encrypted key material. */
    record Stored(String json, byte[] material) {
    }

    private static Stored prepare(L2 l, byte[] vk, byte[] passphrase, KeySlotOptions o, long[] area,
            Settings set) throws VolumeException {
        String enc = l.m().segment().encryption();
        KdfCost.Cost cost = KdfCost.luks2(o, vk.length, set);
        return newKeySlot(vk, passphrase, enc, o.hash, cost, area, o.rng(), set);
    }

    /** The JSON of a {@code luks2} key slot with its area at {@code area}, and its material. */
    static Stored newKeySlot(byte[] vk, byte[] passphrase, String encryption, String afHashName, KdfCost.Cost cost,
            long[] area, SecureRandom rnd, Settings set) throws VolumeException {
        VolumeCipher cipher = VolumeCipher.parse(encryption).using(set.provider());
        HashAlgorithm afHash = HashAlgorithm.forLuksName(afHashName);
        byte[] salt = new byte[32];
        rnd.nextBytes(salt);
        byte[] derived = cost.type().equals("pbkdf2")
                ? Pbkdf2.derive(HashAlgorithm.forLuksName(cost.hash()), passphrase, salt, cost.iterations(), vk.length)
                : set.argon2("The new key slot", cost.type().equals("argon2i") ? Argon2.Type.ARGON2I
                        : Argon2.Type.ARGON2ID, passphrase, salt, cost.time(), cost.memoryKib(), cost.cpus(), vk.length);
        try {
            byte[] m = KeySlotWriter.material(vk, afHash, cipher, derived, rnd);
            String b64 = Base64.getEncoder().encodeToString(salt);
            String kdf = cost.type().equals("pbkdf2")
                    ? "{\"type\":\"pbkdf2\",\"hash\":" + JsonSplice.quote(cost.hash()) + ",\"iterations\":"
                            + cost.iterations() + ",\"salt\":\"" + b64 + "\"}"
                    : "{\"type\":\"" + cost.type() + "\",\"time\":" + cost.time() + ",\"memory\":" + cost.memoryKib()
                            + ",\"cpus\":" + cost.cpus() + ",\"salt\":\"" + b64 + "\"}";
            String json = "{\"type\":\"luks2\",\"key_size\":" + vk.length + ",\"af\":{\"type\":\"luks1\",\"stripes\":"
                    + KeySlotWriter.STRIPES + ",\"hash\":" + JsonSplice.quote(afHashName) + "},\"area\":{\"type\":\"raw\",\"offset\":\""
                    + area[0] + "\",\"size\":\"" + area[1] + "\",\"encryption\":" + JsonSplice.quote(encryption)
                    + ",\"key_size\":" + vk.length + "},\"kdf\":" + kdf + "}";
            return new Stored(json, m);
        } finally {
            Arrays.fill(derived, (byte) 0);
        }
    }

    @Override
    public long payloadOffset() {
        return segment.offset();
    }

    @Override
    public long payloadSize() {
        return payloadSize;
    }

    @Override
    public int sectorSize() {
        return segment.sectorSize();
    }

    @Override
    public long ivOffset() {
        return segment.ivTweak();
    }
}
