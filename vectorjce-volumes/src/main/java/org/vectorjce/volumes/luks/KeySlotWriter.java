package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.Argon2;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * Adds, removes and changes key slots, in an order that leaves a volume which opens with the old or
 * the new set of key slots whichever write is the last to reach the disk. The header is read again
 * and validated whole before each change; everything is computed (KDF, AF split, encryption, the
 * new JSON, checked) before the first write.
 *
 * <ul>
 * <li>LUKS1 add: the key material into the free slot's area, forced; the slot's entry with its
 * iterations and salt, still disabled, forced; then the 4-byte state ENABLED, forced (the commit).
 * <li>LUKS1 remove: the state DISABLED, forced (the commit); iterations and salt zeroed; the key
 * material overwritten with random bytes, forced.
 * <li>LUKS2 add: the key material into a free stretch of the keyslots area (found as cryptsetup
 * does: the first gap from the end of the second header copy), forced; then the metadata with
 * the key slot and its digest assignment ({@link Luks2Writer}: secondary, then primary).
 * <li>LUKS2 remove: the metadata without the key slot (and without it in digests and tokens),
 * then its area overwritten with random bytes, forced.
 * <li>LUKS2 change: the new key material into a free stretch, then metadata whose key slot of the
 * same id points at it (one metadata update: old or new), then the old area overwritten.
 * <li>LUKS1 change: add in a free slot, then remove the old one (cryptsetup's luksChangeKey moves
 * LUKS1 keys to a free slot too); a crash in between leaves both passphrases working.
 * </ul>
 * A change needs room for the new key material beside the old: with every LUKS1 slot in use, or no
 * free stretch in the LUKS2 keyslots area, it is refused (cryptsetup would overwrite the slot in
 * place, which a crash can leave with neither key).
 */
final class KeySlotWriter {
    static final int LUKS2_SLOTS = 32;
    private static final int STRIPES = 4000;

    private KeySlotWriter() {
    }

    // ---------------------------------------------------------------- shared

    /**
     * {@code vk} AF-split into {@code stripes} with {@code afHash}, zero-padded to whole 512-byte
     * sectors, encrypted with {@code cipher} under {@code areaKey} (512-byte sectors from IV 0).
     */
    static byte[] material(byte[] vk, HashAlgorithm afHash, SectorCipher cipher, byte[] areaKey, SecureRandom rnd)
            throws VolumeException {
        byte[] split = AfSplitter.split(vk, STRIPES, afHash, rnd);
        byte[] m = Arrays.copyOf(split, (split.length + 511) / 512 * 512);
        Arrays.fill(split, (byte) 0);
        try (SectorCipher.Decryptor e = cipher.encryptor(areaKey, 512, 0)) {
            e.decrypt(m, 0, m.length, 0);
            return m;
        } catch (GeneralSecurityException ex) {
            Arrays.fill(m, (byte) 0);
            throw new VolumeException("Encrypting the key material failed: " + ex.getMessage());
        }
    }

    private static void wipe(Image img, long offset, long length, SecureRandom rnd) throws IOException {
        byte[] noise = new byte[(int) Math.min(length, 1 << 20)];
        for (long at = 0; at < length; at += noise.length) {
            int n = (int) Math.min(noise.length, length - at);
            rnd.nextBytes(noise);
            img.writeFully(offset + at, ByteBuffer.wrap(noise, 0, n));
        }
        img.force();
    }

    private static void write(Image img, long offset, byte[] b) throws IOException {
        img.writeFully(offset, ByteBuffer.wrap(b));
        img.force();
    }

    // ---------------------------------------------------------------- LUKS1

    static int addLuks1(Image header, Image data, byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        int slot = freeLuks1Slot(h, o.keySlot);
        KdfCost.Cost cost = KdfCost.luks1(o, h.hashSpec, h.keyBytes);
        storeLuks1(header, h, slot, vk, passphrase, cost, o.rng(), set);
        return slot;
    }

    static void removeLuks1(Image header, Image data, int slot, SecureRandom rnd) throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        if (slot < 0 || slot >= Luks1Header.SLOTS) {
            throw new VolumeException("Key slot " + slot + " is out of range 0..7");
        }
        Luks1Header.Slot s = h.slots.get(slot);
        if (!s.active()) {
            throw new VolumeException("Key slot " + slot + " is not active");
        }
        int o = 208 + 48 * slot;
        write(header, o, ByteBuffer.allocate(4).putInt(Luks1Header.INACTIVE).array());
        write(header, o + 4, new byte[36]); // iterations and salt
        wipe(header, s.keyMaterialSector() * Luks1Header.SECTOR, s.areaBytes(h.keyBytes), rnd);
    }

    static int changeLuks1(Image header, Image data, int slot, byte[] vk, byte[] passphrase, KeySlotOptions o,
            Settings set) throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        if (slot < 0 || slot >= Luks1Header.SLOTS || !h.slots.get(slot).active()) {
            throw new VolumeException(slot < 0 || slot >= Luks1Header.SLOTS ? "Key slot " + slot
                    + " is out of range 0..7" : "Key slot " + slot + " is not active");
        }
        int fresh;
        if (o.keySlot >= 0) {
            fresh = freeLuks1Slot(h, o.keySlot);
        } else if (h.slots.stream().allMatch(Luks1Header.Slot::active)) {
            throw new VolumeException("All LUKS1 key slots are in use: changing a key needs a free one (remove a key"
                    + " first)");
        } else {
            fresh = freeLuks1Slot(h, -1);
        }
        KdfCost.Cost cost = KdfCost.luks1(o, h.hashSpec, h.keyBytes);
        storeLuks1(header, h, fresh, vk, passphrase, cost, o.rng(), set);
        removeLuks1(header, data, slot, o.rng());
        return fresh;
    }

    private static int freeLuks1Slot(Luks1Header h, int wanted) throws VolumeException {
        if (wanted != -1) {
            if (wanted < 0 || wanted >= Luks1Header.SLOTS) {
                throw new VolumeException("Key slot " + wanted + " is out of range 0..7");
            }
            if (h.slots.get(wanted).active()) {
                throw new VolumeException("Key slot " + wanted + " is full: choose another one");
            }
            return wanted;
        }
        for (Luks1Header.Slot s : h.slots) {
            if (!s.active()) {
                return s.id();
            }
        }
        throw new VolumeException("All key slots full (8 LUKS1 key slots in use)");
    }

    private static void storeLuks1(Image header, Luks1Header h, int slot, byte[] vk, byte[] passphrase,
            KdfCost.Cost cost, SecureRandom rnd, Settings set) throws IOException, VolumeException {
        Luks1Header.Slot s = h.slots.get(slot);
        long areaOffset = s.keyMaterialSector() * Luks1Header.SECTOR;
        header.check("LUKS1 key slot " + slot + " key material", areaOffset, s.areaBytes(h.keyBytes));
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        SectorCipher cipher = SectorCipher.parse(h.cipherName, h.cipherMode).using(set.provider());
        byte[] salt = new byte[32];
        rnd.nextBytes(salt);
        byte[] derived = Pbkdf2.derive(hash, passphrase, salt, cost.iterations(), h.keyBytes);
        byte[] m = null;
        try {
            m = material(vk, hash, cipher, derived, rnd);
            if (m.length != s.areaBytes(h.keyBytes)) {
                throw new CorruptHeaderException("LUKS1 key slot " + slot + ": key material size mismatch");
            }
            ByteBuffer entry = ByteBuffer.allocate(48);
            entry.putInt(Luks1Header.INACTIVE).putInt((int) cost.iterations()).put(salt)
                    .putInt((int) s.keyMaterialSector()).putInt(Luks1Header.STRIPES);
            write(header, areaOffset, m);
            write(header, 208 + 48 * slot, entry.array());
            write(header, 208 + 48 * slot, ByteBuffer.allocate(4).putInt(Luks1Header.ACTIVE).array());
        } finally {
            Arrays.fill(derived, (byte) 0);
            if (m != null) {
                Arrays.fill(m, (byte) 0);
            }
        }
    }

    // ---------------------------------------------------------------- LUKS2

    /** The header in use and its metadata, validated. */
    private record L2(Luks2Header h, Luks2Metadata m, Luks2Metadata.Digest digest) {
    }

    private static L2 readLuks2(Image header, Image data) throws IOException, VolumeException {
        Luks2Header h = Luks2Header.read(header);
        Luks2Metadata m = Luks2Metadata.parse(h, header.size, data.size, header != data);
        Luks2Metadata.Digest d = m.digestOfSegment(0);
        if (d == null) {
            throw new CorruptHeaderException("LUKS2 metadata: no digest is assigned to segment 0");
        }
        if (!m.requirements.isEmpty()) {
            throw new org.vectorjce.volumes.UnsupportedVolumeException("LUKS2 mandatory requirement "
                    + String.join(", ", m.requirements) + " is not supported");
        }
        return new L2(h, m, d);
    }

    static int addLuks2(Image header, Image data, byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        L2 l = readLuks2(header, data);
        int id = freeLuks2Id(l.m(), o.keySlot);
        long[] area = findArea(l, vk.length);
        Stored st = prepareLuks2(l, vk, passphrase, o, area, set);
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
            write(header, area[0], st.material());
            Luks2Writer.update(header, l.h(), j.text(), o.rng(), data.size, header != data);
        } finally {
            Arrays.fill(st.material(), (byte) 0);
        }
        return id;
    }

    static void removeLuks2(Image header, Image data, int slot, SecureRandom rnd) throws IOException, VolumeException {
        L2 l = readLuks2(header, data);
        Luks2Metadata.Keyslot k = l.m().keyslots.get(slot);
        if (k == null) {
            throw new VolumeException(slot < 0 || slot >= LUKS2_SLOTS ? "Key slot " + slot + " is out of range 0.."
                    + (LUKS2_SLOTS - 1) : "Key slot " + slot + " is not active");
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
        wipe(header, k.areaOffset(), k.areaSize(), rnd);
    }

    static int changeLuks2(Image header, Image data, int slot, byte[] vk, byte[] passphrase, KeySlotOptions o,
            Settings set) throws IOException, VolumeException {
        L2 l = readLuks2(header, data);
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
        Stored st = prepareLuks2(l, vk, passphrase, o, area, set);
        try {
            JsonSplice j = new JsonSplice(l.h().json);
            j.replace(new String[] {"keyslots", String.valueOf(slot)}, st.json());
            checkJson(l, j.text());
            write(header, area[0], st.material());
            Luks2Writer.update(header, l.h(), j.text(), o.rng(), data.size, header != data);
        } finally {
            Arrays.fill(st.material(), (byte) 0);
        }
        wipe(header, old.areaOffset(), old.areaSize(), o.rng());
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

    private static int freeLuks2Id(Luks2Metadata m, int wanted) throws VolumeException {
        if (wanted != -1) {
            if (wanted < 0 || wanted >= LUKS2_SLOTS) {
                throw new VolumeException("Key slot " + wanted + " is out of range 0.." + (LUKS2_SLOTS - 1));
            }
            if (m.keyslots.containsKey(wanted)) {
                throw new VolumeException("Key slot " + wanted + " is full: choose another one");
            }
            return wanted;
        }
        for (int i = 0; i < LUKS2_SLOTS; i++) {
            if (!m.keyslots.containsKey(i)) {
                return i;
            }
        }
        throw new VolumeException("All key slots full (" + LUKS2_SLOTS + " LUKS2 key slots in use)");
    }

    /** {offset, length} of the first free stretch for a key of {@code keyBytes} (cryptsetup's first fit). */
    private static long[] findArea(L2 l, int keyBytes) throws VolumeException {
        long length = ((long) keyBytes * STRIPES + 4095) / 4096 * 4096;
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

    private static Stored prepareLuks2(L2 l, byte[] vk, byte[] passphrase, KeySlotOptions o, long[] area,
            Settings set) throws VolumeException {
        String enc = l.m().segment().encryption();
        KdfCost.Cost cost = KdfCost.luks2(o, vk.length);
        return luks2Slot(vk, passphrase, enc, o.hash, cost, area, o.rng(), set);
    }

    /** The JSON of a {@code luks2} key slot with its area at {@code area}, and its material. */
    static Stored luks2Slot(byte[] vk, byte[] passphrase, String encryption, String afHashName, KdfCost.Cost cost,
            long[] area, SecureRandom rnd, Settings set) throws VolumeException {
        SectorCipher cipher = SectorCipher.parse(encryption).using(set.provider());
        HashAlgorithm afHash = HashAlgorithm.forLuksName(afHashName);
        byte[] salt = new byte[32];
        rnd.nextBytes(salt);
        byte[] derived = cost.type().equals("pbkdf2")
                ? Pbkdf2.derive(HashAlgorithm.forLuksName(cost.hash()), passphrase, salt, cost.iterations(), vk.length)
                : set.argon2("The new key slot", cost.type().equals("argon2i") ? Argon2.Type.ARGON2I
                        : Argon2.Type.ARGON2ID, passphrase, salt, cost.time(), cost.memoryKib(), cost.cpus(), vk.length);
        try {
            byte[] m = material(vk, afHash, cipher, derived, rnd);
            String b64 = Base64.getEncoder().encodeToString(salt);
            String kdf = cost.type().equals("pbkdf2")
                    ? "{\"type\":\"pbkdf2\",\"hash\":" + JsonSplice.quote(cost.hash()) + ",\"iterations\":"
                            + cost.iterations() + ",\"salt\":\"" + b64 + "\"}"
                    : "{\"type\":\"" + cost.type() + "\",\"time\":" + cost.time() + ",\"memory\":" + cost.memoryKib()
                            + ",\"cpus\":" + cost.cpus() + ",\"salt\":\"" + b64 + "\"}";
            String json = "{\"type\":\"luks2\",\"key_size\":" + vk.length + ",\"af\":{\"type\":\"luks1\",\"stripes\":"
                    + STRIPES + ",\"hash\":" + JsonSplice.quote(afHashName) + "},\"area\":{\"type\":\"raw\",\"offset\":\""
                    + area[0] + "\",\"size\":\"" + area[1] + "\",\"encryption\":" + JsonSplice.quote(encryption)
                    + ",\"key_size\":" + vk.length + "},\"kdf\":" + kdf + "}";
            return new Stored(json, m);
        } finally {
            Arrays.fill(derived, (byte) 0);
        }
    }
}
