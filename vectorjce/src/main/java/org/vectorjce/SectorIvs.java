package org.vectorjce;

import javax.crypto.spec.IvParameterSpec;

/**
 * Tweaks (IVs) for sector-based disk encryption, as dm-crypt builds them.
 *
 * <p>{@code plain64}: the 64-bit sector number, little-endian, zero-padded to 16 bytes — the IV of
 * dm-crypt/LUKS {@code aes-xts-plain64} and {@code twofish-xts-plain64}. Sectors count 512-byte
 * units unless the volume uses {@code iv_large_sectors}.
 */
public final class SectorIvs {
    private SectorIvs() {
    }

    /**
     * The dm-crypt {@code plain64} tweak of {@code sector}, as an IV.
     *
     * @param sector the sector number, unsigned 64-bit
     * @return a new 16-byte IV: {@code sector} little-endian in the first 8 bytes, zeros after
     */
    public static IvParameterSpec plain64(long sector) {
        byte[] t = new byte[16];
        for (int i = 0; i < 8; i++) {
            t[i] = (byte) (sector >>> (8 * i));
        }
        return new IvParameterSpec(t);
    }
}
