package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
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
 */
final class Luks2Layout implements Layout {
    private final Luks2Metadata m;
    private final Image header;
    private final Image data;
    private final LuksInfo info;
    private final Luks2Metadata.Segment segment;
    private final Luks2Metadata.Digest digest;
    private final long payloadSize;

    Luks2Layout(Luks2Header hdr, Luks2Metadata m, Image header, Image data) throws CorruptHeaderException {
        this.m = m;
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
    public SectorCipher payloadCipher() throws VolumeException {
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
        SectorCipher c = SectorCipher.parse(segment.encryption());
        // The key size against the cipher, before any KDF runs.
        c.decryptor(new byte[info.keyBits() / 8], segment.sectorSize(), segment.ivTweak()).close();
        return c;
    }

    @Override
    public List<Integer> slotsToTry(Integer requested) throws VolumeException {
        if (requested != null) {
            if (!m.keyslots.containsKey(requested)) {
                throw new VolumeException("Key slot " + requested + " is not active");
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
    public byte[] unlock(int slot, byte[] passphrase, Settings settings) throws IOException, VolumeException {
        Luks2Metadata.Keyslot k = m.keyslots.get(slot);
        String what = "LUKS2 keyslot " + slot;
        SectorCipher areaCipher = SectorCipher.parse(k.areaEncryption()).using(settings.provider());
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
        byte[] material = header.read(what + " area", k.areaOffset(), materialBytes);
        byte[] derived = kdfHash != null
                ? Pbkdf2.derive(kdfHash, passphrase, f.salt(), f.iterations(), k.areaKeySize())
                : settings.argon2(what, f.type().equals("argon2i") ? Argon2.Type.ARGON2I : Argon2.Type.ARGON2ID,
                        passphrase, f.salt(), f.time(), f.memory(), f.cpus(), k.areaKeySize());
        byte[] key = null;
        try (SectorCipher.Decryptor d = areaCipher.decryptor(derived, 512, 0)) {
            d.decrypt(material, 0, material.length, 0);
            key = AfSplitter.merge(material, k.keySize(), k.stripes(), afHash);
            if (isVolumeKey(key)) {
                byte[] r = key;
                key = null;
                return r;
            }
            return null;
        } catch (GeneralSecurityException e) {
            throw new VolumeException(what + ": decryption failed: " + e.getMessage());
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
        if (digest == null) {
            return false;
        }
        HashAlgorithm h = HashAlgorithm.forLuksName(digest.hash());
        byte[] d = Pbkdf2.derive(h, key, digest.salt(), digest.iterations(), digest.digest().length);
        return MessageDigest.isEqual(d, digest.digest());
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
