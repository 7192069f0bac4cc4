package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * One LUKS version's header as {@link LuksVolume} uses it: information, key slots (unlocking,
 * adding, removing, changing), payload. What differs between LUKS1 and LUKS2 lives in
 * {@link Luks1Layout} and {@link Luks2Layout}; unlocking a key slot once its area is known
 * (LUKS1 On-Disk Format Specification section 3.2, the same steps in LUKS2's section 3.2) is
 * written once, here.
 */
sealed interface Layout permits Luks1Layout, Luks2Layout {
    LuksInfo info();

    /**
     * {@code cryptsetup luksDump}'s sections for this header, read from {@code device} ({@code
     * only}: that key slot alone, null for all), before {@link LuksInfo#luksDump} adds the warnings.
     */
    void luksDump(StringBuilder b, String device, Integer only) throws VolumeException;

    /**
     * The payload's cipher on {@code provider}'s ciphers (refused here when unsupported, before any
     * KDF runs).
     */
    VolumeCipher payloadCipher(org.vectorjce.VectorJceProvider provider) throws VolumeException;

    /** The key slots to try, in cryptsetup's order, or only {@code requested} (which must be active). */
    List<Integer> slotsToTry(Integer requested) throws VolumeException;

    /**
     * Key slot {@code slot}'s area as unlocking it reads it, checked (its KDF, cipher and hash
     * known and in bounds) before anything is read or derived; its ciphers are {@code settings}'.
     */
    KeySlotArea keySlotArea(int slot, Settings settings) throws VolumeException;

    /** Whether {@code key} is this volume's key (its digest matches). */
    boolean isVolumeKey(byte[] key) throws VolumeException;

    /**
     * Adds a key slot holding {@code vk} under {@code passphrase} ({@code options}' slot or the
     * first free one) and returns its number; crash-safe as {@link KeySlotWriter} says. The
     * header is read again and validated first.
     */
    int addKeySlot(byte[] vk, byte[] passphrase, KeySlotOptions options, Settings settings)
            throws IOException, VolumeException;

    /** Removes key slot {@code slot}: the header stops naming it, then its area is overwritten from {@code rnd}. */
    void removeKeySlot(int slot, SecureRandom rnd) throws IOException, VolumeException;

    /** Gives key slot {@code slot}'s key {@code passphrase} instead, and returns the slot that now holds it. */
    int changeKeySlot(int slot, byte[] vk, byte[] passphrase, KeySlotOptions options, Settings settings)
            throws IOException, VolumeException;

    long payloadOffset();

    long payloadSize();

    int sectorSize();

    /** The IV offset in 512-byte sectors. */
    long ivOffset();

    /**
     * The volume key {@code slot} yields for {@code passphrase}, or null when its digest does not
     * match: the area read, its key derived, the area decrypted (512-byte sectors from IV 0),
     * AF-merged and checked against the digest; every intermediate wiped.
     */
    default byte[] unlock(int slot, byte[] passphrase, Settings settings) throws IOException, VolumeException {
        KeySlotArea a = keySlotArea(slot, settings);
        byte[] material = a.image().read(a.areaName(), a.offset(), a.length());
        byte[] derived = a.kdf().derive(passphrase);
        byte[] key = null;
        try (org.vectorjce.SectorCipher d = a.cipher().keyMaterial(derived, false)) {
            d.decrypt(0, material, 0, material.length);
            key = AfSplitter.merge(material, a.keyBytes(), a.stripes(), a.afHash());
            if (isVolumeKey(key)) {
                byte[] r = key;
                key = null;
                return r;
            }
            return null;
        } finally {
            Arrays.fill(derived, (byte) 0);
            Arrays.fill(material, (byte) 0);
            if (key != null) {
                Arrays.fill(key, (byte) 0);
            }
        }
    }

    /** The KDF of one key slot: the area key from the passphrase. */
    @FunctionalInterface
    interface AreaKdf {
        byte[] derive(byte[] passphrase) throws VolumeException;
    }

    /**
     * Where a key slot's encrypted, AF-split key material is ({@code length} bytes at
     * {@code offset} of {@code image}, read as {@code areaName}), how it is encrypted and split,
     * and its KDF; {@code what} names the slot in errors.
     */
    record KeySlotArea(String what, Image image, String areaName, long offset, int length, VolumeCipher cipher,
            HashAlgorithm afHash, int keyBytes, int stripes, AreaKdf kdf) {
    }
}
