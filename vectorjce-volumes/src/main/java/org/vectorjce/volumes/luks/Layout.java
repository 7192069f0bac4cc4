package org.vectorjce.volumes.luks;

import java.io.IOException;
import java.util.List;

import org.vectorjce.volumes.VolumeException;

/** One LUKS version's header as {@link LuksVolume} uses it: information, key slots, payload. */
interface Layout {
    LuksInfo info();

    /** The payload's cipher (refused here when unsupported, before any KDF runs). */
    SectorCipher payloadCipher() throws VolumeException;

    /** The key slots to try, in cryptsetup's order, or only {@code requested} (which must be active). */
    List<Integer> slotsToTry(Integer requested) throws VolumeException;

    /**
     * The volume key {@code slot} yields for {@code passphrase}, or null when its digest does not
     * match; the key slot's KDF and cipher run as {@code settings} say.
     */
    byte[] unlock(int slot, byte[] passphrase, Settings settings) throws IOException, VolumeException;

    /** Whether {@code key} is this volume's key (its digest matches). */
    boolean isVolumeKey(byte[] key) throws VolumeException;

    long payloadOffset();

    long payloadSize();

    int sectorSize();

    /** The IV offset in 512-byte sectors. */
    long ivOffset();
}
