package org.vectorjce.volumes;

import java.util.Locale;

/**
 * The volume formats this library opens, named as cryptsetup's {@code --type} names them.
 */
public enum VolumeFormat {
    /** LUKS version 1 ({@link org.vectorjce.volumes.luks.LuksVolume}). */
    LUKS1,
    /** LUKS version 2 ({@link org.vectorjce.volumes.luks.LuksVolume}). */
    LUKS2,
    /** TrueCrypt and VeraCrypt ({@link org.vectorjce.volumes.tcrypt.TcryptVolume}). */
    TCRYPT,
    /** BitLocker and BitLocker To Go ({@link org.vectorjce.volumes.bitlk.BitlkVolume}). */
    BITLK,
    /** FileVault 2, Core Storage ({@link org.vectorjce.volumes.fvault2.Fvault2Volume}). */
    FVAULT2;

    /** cryptsetup's name of the format: {@code luks1}, {@code luks2}, {@code tcrypt}, {@code bitlk}, {@code fvault2}. */
    public String typeName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
