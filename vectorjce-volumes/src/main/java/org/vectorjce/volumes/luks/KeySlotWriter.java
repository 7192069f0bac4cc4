package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * What adding, removing and changing key slots share, in both LUKS versions (the steps of each are
 * {@link Luks1Layout}'s and {@link Luks2Layout}'s): an order that leaves a volume which opens with
 * the old or the new set of key slots whichever write is the last to reach the disk. The header is
 * read again and validated whole before each change; everything is computed (KDF, AF split,
 * encryption, the new JSON, checked) before the first write, and each write is forced before the
 * next. A change needs room for the new key material beside the old: with every LUKS1 slot in use,
 * or no free stretch in the LUKS2 keyslots area, it is refused (cryptsetup would overwrite the
 * slot in place, which a crash can leave with neither key).
 */
final class KeySlotWriter {
    /** AF stripes of every key slot written here, as cryptsetup writes them. */
    static final int STRIPES = 4000;

    private KeySlotWriter() {
    }

    /**
     * {@code vk} AF-split into {@code stripes} with {@code afHash}, zero-padded to whole 512-byte
     * sectors, encrypted with {@code cipher} under {@code areaKey} (512-byte sectors from IV 0).
     */
    static byte[] material(byte[] vk, HashAlgorithm afHash, VolumeCipher cipher, byte[] areaKey, SecureRandom rnd)
            throws VolumeException {
        byte[] split = AfSplitter.split(vk, STRIPES, afHash, rnd);
        byte[] m = Arrays.copyOf(split, (split.length + 511) / 512 * 512);
        Arrays.fill(split, (byte) 0);
        boolean done = false;
        try (org.vectorjce.SectorCipher e = cipher.keyMaterial(areaKey, true)) {
            e.encrypt(0, m, 0, m.length);
            done = true;
            return m;
        } finally {
            if (!done) {
                Arrays.fill(m, (byte) 0);
            }
        }
    }

    /** Overwrites {@code length} bytes at {@code offset} with random bytes from {@code rnd}, forced. */
    static void overwrite(Image img, long offset, long length, SecureRandom rnd) throws IOException {
        byte[] noise = new byte[(int) Math.min(length, 1 << 20)];
        for (long at = 0; at < length; at += noise.length) {
            int n = (int) Math.min(noise.length, length - at);
            rnd.nextBytes(noise);
            img.writeFully(offset + at, ByteBuffer.wrap(noise, 0, n));
        }
        img.force();
    }

    /** Writes {@code b} at {@code offset}, forced. */
    static void write(Image img, long offset, byte[] b) throws IOException {
        img.writeFully(offset, ByteBuffer.wrap(b));
        img.force();
    }
}
