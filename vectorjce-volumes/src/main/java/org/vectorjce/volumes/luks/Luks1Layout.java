package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * LUKS1 key slots (LUKS1 On-Disk Format Specification, section 3.2 "Recovering a master key"):
 * PBKDF2 with the header's hash over the slot's salt and iterations gives the key that decrypts
 * the slot's key material (the volume's cipher, 512-byte sectors from IV 0); AF-merge with the
 * same hash gives a candidate master key, accepted when PBKDF2 of it over the digest salt and
 * iterations equals mk-digest.
 *
 * <p>Key-slot changes, each forced before the next ({@link KeySlotWriter}): add writes the key
 * material into the free slot's area, then the slot's entry with its iterations and salt still
 * disabled, then the 4-byte state ENABLED (the commit); remove writes the state DISABLED (the
 * commit), zeroes iterations and salt, and overwrites the key material with random bytes; change
 * adds in a free slot and then removes the old one, so a crash in between leaves both passphrases
 * working.
 */
final class Luks1Layout implements Layout {
    private final Luks1Header h;
    private final Image header, data;
    private final LuksInfo info;
    private final long payloadSize;

    @Override
    public void luksDump(StringBuilder b, String device, Integer only) {
        info.luks1Dump(b, device, h, only);
    }

    Luks1Layout(Luks1Header h, Image header, Image data) {
        this.h = h;
        this.header = header;
        this.data = data;
        this.payloadSize = data.size - h.payloadOffsetSectors * Luks1Header.SECTOR;
        List<LuksKeySlot> slots = new ArrayList<>();
        for (Luks1Header.Slot s : h.slots) {
            if (s.active()) {
                slots.add(new LuksKeySlot(s.id(), true, "pbkdf2", h.hashSpec, s.iterations(), 0, 0, 0, s.stripes(),
                        h.hashSpec, s.keyMaterialSector() * Luks1Header.SECTOR, s.areaBytes(h.keyBytes),
                        h.cipherName + "-" + h.cipherMode, h.keyBytes * 8, h.keyBytes * 8, 1, OptionalInt.of(0)));
            }
        }
        info = new LuksInfo(1, h.uuid, "", "", 0, Luks1Header.SIZE, 0, h.cipherName + "-" + h.cipherMode,
                h.keyBytes * 8, h.hashSpec, h.payloadOffsetSectors * Luks1Header.SECTOR, payloadSize, true, 512, 0,
                List.of(), List.of(), 0, slots, List.of());
    }

    @Override
    public LuksInfo info() {
        return info;
    }

    @Override
    public VolumeCipher payloadCipher(org.vectorjce.VectorJceProvider provider) throws VolumeException {
        VolumeCipher c = VolumeCipher.parse(h.cipherName, h.cipherMode).using(provider);
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        if (hash.length() < 20) {
            throw new VolumeException("LUKS1 hash " + h.hashSpec + " is shorter than the 20-byte mk-digest");
        }
        // Checks the key size against the cipher before any KDF runs.
        c.checkKey(h.keyBytes, 512, 0);
        return c;
    }

    @Override
    public List<Integer> slotsToTry(Integer requested) throws VolumeException {
        List<Integer> ids = new ArrayList<>();
        for (Luks1Header.Slot s : h.slots) {
            if (s.active() && (requested == null || requested == s.id())) {
                ids.add(s.id());
            }
        }
        if (requested != null && ids.isEmpty()) {
            throw new VolumeException(requested < 0 || requested >= Luks1Header.SLOTS
                    ? "Key slot " + requested + " is out of range 0..7"
                    : "Key slot " + requested + " is not active");
        }
        return ids;
    }

    @Override
    public KeySlotArea keySlotArea(int slot, Settings settings) throws VolumeException {
        Luks1Header.Slot s = h.slots.get(slot);
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        VolumeCipher cipher = VolumeCipher.parse(h.cipherName, h.cipherMode).using(settings.provider());
        return new KeySlotArea("LUKS1 key slot " + slot, header, "LUKS1 key slot " + slot + " key material",
                s.keyMaterialSector() * Luks1Header.SECTOR, (int) s.areaBytes(h.keyBytes), cipher, hash, h.keyBytes,
                s.stripes(), p -> Pbkdf2.derive(hash, p, s.salt(), s.iterations(), h.keyBytes));
    }

    @Override
    public boolean isVolumeKey(byte[] key) throws VolumeException {
        if (key.length != h.keyBytes) {
            return false;
        }
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        byte[] d = Pbkdf2.derive(hash, key, h.mkDigestSalt, h.mkDigestIterations, 20);
        return MessageDigest.isEqual(d, h.mkDigest);
    }

    @Override
    public int addKeySlot(byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        int slot = freeSlot(h, o.keySlot);
        KdfCost.Cost cost = KdfCost.luks1(o, h.hashSpec, h.keyBytes);
        store(h, slot, vk, passphrase, cost, o.rng(), set);
        return slot;
    }

    @Override
    public void removeKeySlot(int slot, SecureRandom rnd) throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        if (slot < 0 || slot >= Luks1Header.SLOTS) {
            throw new VolumeException("Key slot " + slot + " is out of range 0..7");
        }
        Luks1Header.Slot s = h.slots.get(slot);
        if (!s.active()) {
            throw new VolumeException("Key slot " + slot + " is not active");
        }
        int o = 208 + 48 * slot;
        KeySlotWriter.write(header, o, ByteBuffer.allocate(4).putInt(Luks1Header.INACTIVE).array());
        KeySlotWriter.write(header, o + 4, new byte[36]); // iterations and salt
        KeySlotWriter.overwrite(header, s.keyMaterialSector() * Luks1Header.SECTOR, s.areaBytes(h.keyBytes), rnd);
    }

    /** Adds the new key in a free slot, then removes the old one (cryptsetup moves LUKS1 keys too). */
    @Override
    public int changeKeySlot(int slot, byte[] vk, byte[] passphrase, KeySlotOptions o, Settings set)
            throws IOException, VolumeException {
        Luks1Header h = Luks1Header.read(header, data);
        if (slot < 0 || slot >= Luks1Header.SLOTS || !h.slots.get(slot).active()) {
            throw new VolumeException(slot < 0 || slot >= Luks1Header.SLOTS ? "Key slot " + slot
                    + " is out of range 0..7" : "Key slot " + slot + " is not active");
        }
        int fresh;
        if (o.keySlot >= 0) {
            fresh = freeSlot(h, o.keySlot);
        } else if (h.slots.stream().allMatch(Luks1Header.Slot::active)) {
            throw new VolumeException("All LUKS1 key slots are in use: changing a key needs a free one (remove a key"
                    + " first)");
        } else {
            fresh = freeSlot(h, -1);
        }
        KdfCost.Cost cost = KdfCost.luks1(o, h.hashSpec, h.keyBytes);
        store(h, fresh, vk, passphrase, cost, o.rng(), set);
        removeKeySlot(slot, o.rng());
        return fresh;
    }

    private static int freeSlot(Luks1Header h, int wanted) throws VolumeException {
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

    /** The key material, forced; the slot's entry, still disabled, forced; then ENABLED, forced (the commit). */
    private void store(Luks1Header h, int slot, byte[] vk, byte[] passphrase, KdfCost.Cost cost, SecureRandom rnd,
            Settings set) throws IOException, VolumeException {
        Luks1Header.Slot s = h.slots.get(slot);
        long areaOffset = s.keyMaterialSector() * Luks1Header.SECTOR;
        header.check("LUKS1 key slot " + slot + " key material", areaOffset, s.areaBytes(h.keyBytes));
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        VolumeCipher cipher = VolumeCipher.parse(h.cipherName, h.cipherMode).using(set.provider());
        byte[] salt = new byte[32];
        rnd.nextBytes(salt);
        byte[] derived = Pbkdf2.derive(hash, passphrase, salt, cost.iterations(), h.keyBytes);
        byte[] m = null;
        try {
            m = KeySlotWriter.material(vk, hash, cipher, derived, rnd);
            if (m.length != s.areaBytes(h.keyBytes)) {
                throw new CorruptHeaderException("LUKS1 key slot " + slot + ": key material size mismatch");
            }
            ByteBuffer entry = ByteBuffer.allocate(48);
            entry.putInt(Luks1Header.INACTIVE).putInt((int) cost.iterations()).put(salt)
                    .putInt((int) s.keyMaterialSector()).putInt(Luks1Header.STRIPES);
            KeySlotWriter.write(header, areaOffset, m);
            KeySlotWriter.write(header, 208 + 48 * slot, entry.array());
            KeySlotWriter.write(header, 208 + 48 * slot, ByteBuffer.allocate(4).putInt(Luks1Header.ACTIVE).array());
        } finally {
            Arrays.fill(derived, (byte) 0);
            if (m != null) {
                Arrays.fill(m, (byte) 0);
            }
        }
    }

    @Override
    public long payloadOffset() {
        return h.payloadOffsetSectors * Luks1Header.SECTOR;
    }

    @Override
    public long payloadSize() {
        return payloadSize;
    }

    @Override
    public int sectorSize() {
        return 512;
    }

    @Override
    public long ivOffset() {
        return 0;
    }
}
