package org.vectorjce.volumes.fvault2;

import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

/**
 * What a FileVault 2 volume's Core Storage header and encrypted metadata say, without secrets: the
 * fields {@code cryptsetup fvault2Dump} prints.
 *
 * @param physicalVolumeUuid  the physical volume's UUID (the header's)
 * @param familyUuid          the logical volume family's UUID (the volume key's second half hashes it)
 * @param logicalVolumeOffset where the logical volume starts in the image, in bytes
 * @param logicalVolumeSize   the logical volume's size in bytes (the plaintext's)
 * @param cipher              {@code aes}
 * @param mode                {@code xts-plain64}: 512-byte sectors numbered from the logical volume's start
 * @param pbkdf2Iterations    PBKDF2-SHA256 iterations of the passphrase
 * @param pbkdf2Salt          the PBKDF2 salt (not secret; cryptsetup prints it)
 * @param blockSize           the Core Storage block size in bytes
 * @param imageSize           the image's size in bytes
 */
public record Fvault2Info(String physicalVolumeUuid, String familyUuid, long logicalVolumeOffset,
        long logicalVolumeSize, String cipher, String mode, long pbkdf2Iterations, byte[] pbkdf2Salt, long blockSize,
        long imageSize) implements VolumeInfo {
    /** {@link VolumeFormat#FVAULT2}. */
    @Override
    public VolumeFormat format() {
        return VolumeFormat.FVAULT2;
    }

    /** The logical volume's size. */
    @Override
    public long payloadSize() {
        return logicalVolumeSize;
    }

    /** 512: the XTS data unit of Core Storage's sectors. */
    @Override
    public int sectorSize() {
        return Fvault2Volume.SECTOR;
    }

    /** {@link #cipher} and {@link #mode}: {@code aes-xts-plain64}. */
    @Override
    public String cipherSpec() {
        return cipher + "-" + mode;
    }

    /** The logical volume family's UUID (what cryptsetup's fvault2Dump calls the family UUID). */
    @Override
    public String uuid() {
        return familyUuid;
    }



    /** The volume key's size in bits: AES-XTS-128, two 128-bit keys. */
    public int keyBits() {
        return 256;
    }

    /** The defensive copy of the salt. */
    @Override
    public byte[] pbkdf2Salt() {
        return pbkdf2Salt.clone();
    }

    /**
     * Why the logical volume cannot be read from this image, or null when it can: it must lie
     * inside the image and be whole 512-byte sectors (cryptsetup maps {@code size / 512} sectors;
     * the kernel refuses a device that is too small).
     */
    public String activationProblem() {
        long end = logicalVolumeOffset + logicalVolumeSize;
        if (logicalVolumeSize < 0 || end < 0 || end > imageSize) {
            return "The logical volume (offset " + logicalVolumeOffset + ", size "
                    + Long.toUnsignedString(logicalVolumeSize) + " bytes) ends beyond the image's " + imageSize
                    + " bytes";
        }
        if (logicalVolumeOffset % 512 != 0) {
            return "The logical volume's offset " + logicalVolumeOffset + " is not a multiple of 512 bytes";
        }
        return null;
    }

    /** {@code cryptsetup fvault2Dump}'s text (cryptsetup 2.6's {@code FVAULT2_dump}) for {@code device}. */
    @Override
    public String dump(String device) {
        return "Header information for FVAULT2 device " + device + ".\n"
                + "Physical volume UUID: \t" + physicalVolumeUuid + "\n"
                + "Family UUID:          \t" + familyUuid + "\n"
                + "Logical volume offset:\t" + Long.toUnsignedString(logicalVolumeOffset) + " [bytes]\n"
                + "Logical volume size:  \t" + Long.toUnsignedString(logicalVolumeSize) + " [bytes]\n"
                + "Cipher:               \t" + cipher + "\n"
                + "Cipher mode:          \t" + mode + "\n"
                + "PBKDF2 iterations:    \t" + pbkdf2Iterations + "\n"
                + "PBKDF2 salt:          \t" + hex(pbkdf2Salt) + "\n";
    }

    /** {@code fvault2Dump --dump-volume-key}'s text: {@link #dump} and the key's line. */
    @Override
    public String dumpWithKey(String device, byte[] key) {
        return dump(device) + "Volume key:       \t" + hex(key) + "\n";
    }

    /** cryptsetup's {@code crypt_log_hex(cd, b, n, " ", 0, NULL)}: each byte in lower-case hex and a space. */
    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 3);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16)).append(' ');
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return "Fvault2Info[" + physicalVolumeUuid + ", family " + familyUuid + ", " + cipher + "-" + mode + ", "
                + logicalVolumeSize + " bytes at " + logicalVolumeOffset + "]";
    }
}
