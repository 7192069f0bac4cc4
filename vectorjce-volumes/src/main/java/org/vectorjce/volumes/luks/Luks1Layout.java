package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * LUKS1 key slots (LUKS1 On-Disk Format Specification, section 3.2 "Recovering a master key"):
 * PBKDF2 with the header's hash over the slot's salt and iterations gives the key that decrypts
 * the slot's key material (the volume's cipher, 512-byte sectors from IV 0); AF-merge with the
 * same hash gives a candidate master key, accepted when PBKDF2 of it over the digest salt and
 * iterations equals mk-digest.
 */
final class Luks1Layout implements Layout {
    private final Luks1Header h;
    private final Image header;
    private final LuksInfo info;
    private final long payloadSize;

    Luks1Layout(Luks1Header h, Image header, Image data) {
        this.h = h;
        this.header = header;
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
    public SectorCipher payloadCipher() throws VolumeException {
        SectorCipher c = SectorCipher.parse(h.cipherName, h.cipherMode);
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        if (hash.length() < 20) {
            throw new VolumeException("LUKS1 hash " + h.hashSpec + " is shorter than the 20-byte mk-digest");
        }
        // Checks the key size against the cipher before any KDF runs.
        c.decryptor(new byte[h.keyBytes], 512, 0).close();
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
    public byte[] unlock(int slot, byte[] passphrase, Settings settings) throws IOException, VolumeException {
        Luks1Header.Slot s = h.slots.get(slot);
        HashAlgorithm hash = HashAlgorithm.forLuksName(h.hashSpec);
        SectorCipher cipher = SectorCipher.parse(h.cipherName, h.cipherMode).using(settings.provider());
        long areaBytes = s.areaBytes(h.keyBytes);
        byte[] material = header.read("LUKS1 key slot " + slot + " key material",
                s.keyMaterialSector() * Luks1Header.SECTOR, (int) areaBytes);
        byte[] derived = Pbkdf2.derive(hash, passphrase, s.salt(), s.iterations(), h.keyBytes);
        byte[] key = null;
        try (SectorCipher.Decryptor d = cipher.decryptor(derived, 512, 0)) {
            d.decrypt(material, 0, material.length, 0);
            key = AfSplitter.merge(material, h.keyBytes, s.stripes(), hash);
            if (isVolumeKey(key)) {
                byte[] r = key;
                key = null;
                return r;
            }
            return null;
        } catch (GeneralSecurityException e) {
            throw new VolumeException("LUKS1 key slot " + slot + ": decryption failed: " + e.getMessage());
        } finally {
            Arrays.fill(derived, (byte) 0);
            Arrays.fill(material, (byte) 0);
            if (key != null) {
                Arrays.fill(key, (byte) 0);
            }
        }
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
