package org.vectorjce.volumes.tcrypt;

import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.VolumeInfo;

/**
 * What an opened TrueCrypt/VeraCrypt header says, without secrets: the fields {@code cryptsetup
 * tcryptDump} prints, the KDF row and cipher chain that opened it, and where the payload lies.
 *
 * @param veracrypt       magic {@code VERA} (else {@code TRUE})
 * @param headerKind      {@code normal}, {@code backup}, {@code hidden}, {@code hidden backup} or {@code system}
 * @param headerOffset    the header's byte offset in the header image
 * @param version         the header format version
 * @param requiredVersion the program version needed to open it, as 0xMMmm
 * @param flags           the header's flags (bit 0: system encryption)
 * @param sectorSize      the header's sector size (512 when the header leaves it 0)
 * @param mkOffset        the header's data ("master key scope") offset in bytes
 * @param volumeSize      the header's volume size in bytes (0 when the header has none)
 * @param hiddenSize      the header's hidden volume size in bytes (0: none)
 * @param pbkdf           {@code pbkdf2} or {@code argon2id}
 * @param hash            cryptsetup's hash name ({@code sha512}, ...), or {@code argon2id}
 * @param iterations      PBKDF2 iterations, or Argon2id's time cost
 * @param argon2MemoryKib Argon2id's memory in KiB, 0 for PBKDF2
 * @param chain           cryptsetup's chain name, in encryption order ({@code twofish-aes})
 * @param mode            cryptsetup's mode ({@code xts-plain64}, {@code lrw-benbi})
 * @param keyBits         bits of the volume key cryptsetup dumps
 * @param payloadOffset   the payload's byte offset in the image
 * @param payloadSize     the payload's size in bytes
 * @param ivOffset        the data-unit number of the payload's first 512 bytes
 */
public record TcryptInfo(boolean veracrypt, String headerKind, long headerOffset, int version, int requiredVersion,
        int flags, int sectorSize, long mkOffset, long volumeSize, long hiddenSize, String pbkdf, String hash,
        long iterations, long argon2MemoryKib, String chain, String mode, int keyBits, long payloadOffset,
        long payloadSize, long ivOffset) implements VolumeInfo {
    /** {@link VolumeFormat#TCRYPT}, for TrueCrypt and VeraCrypt alike ({@link #veracrypt} tells them apart). */
    @Override
    public VolumeFormat format() {
        return VolumeFormat.TCRYPT;
    }

    /** {@link #chain} and {@link #mode}, e.g. {@code aes-twofish-xts-plain64}. */
    @Override
    public String cipherSpec() {
        return chain + "-" + mode;
    }



    /** {@code tcryptDump}'s text (cryptsetup 2.7+'s fields) for {@code device}. */
    @Override
    public String dump(String device) {
        StringBuilder s = new StringBuilder();
        s.append(veracrypt ? "VERACRYPT" : "TCRYPT").append(" header information for ").append(device).append('\n');
        s.append("Version:       \t").append(version).append('\n');
        s.append("Driver req.:\t").append(Integer.toHexString(requiredVersion >> 8)).append('.')
                .append(Integer.toHexString(requiredVersion & 0xff)).append('\n');
        s.append("Flags:       \t0x").append(Integer.toHexString(flags)).append('\n');
        s.append("Sector size:\t").append(sectorSize).append(" [bytes]\n");
        s.append("MK offset:\t").append(mkOffset).append(" [bytes]\n");
        if (volumeSize != 0) {
            s.append("Volume size:\t").append(volumeSize).append(" [bytes]\n");
        }
        if (hiddenSize != 0) {
            s.append("Hidden size:\t").append(hiddenSize).append(" [bytes]\n");
        }
        if (pbkdf.equals("argon2id")) {
            s.append("PBKDF:\t\tArgon2id\n");
        } else {
            s.append("PBKDF:\t\tPBKDF2\n");
            s.append("PBKDF2 hash:\t").append(hash).append('\n');
        }
        s.append("Cipher chain:\t").append(chain).append('\n');
        s.append("Cipher mode:\t").append(mode).append('\n');
        s.append("MK bits:       \t").append(keyBits).append('\n');
        return s.toString();
    }

    /** {@code tcryptDump --dump-volume-key}'s text for {@code device} with the volume key {@code key}. */
    @Override
    public String dumpWithKey(String device, byte[] key) {
        StringBuilder s = new StringBuilder();
        s.append("TCRYPT header information for ").append(device).append('\n');
        s.append("Cipher chain:  \t").append(chain).append('\n');
        s.append("Cipher mode:   \t").append(mode).append('\n');
        s.append("Payload offset:\t").append(payloadOffset / 512).append('\n');
        s.append("MK bits:       \t").append(key.length * 8).append('\n');
        s.append("MK dump:\t").append(org.vectorjce.volumes.internal.KeyDump.mkDump(key));
        return s.toString();
    }
}
