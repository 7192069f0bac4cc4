package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Arrays;
import java.util.zip.CRC32C;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;

import org.vectorjce.RawKey;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * A FileVault 2 (Core Storage) physical volume's header and encrypted metadata, parsed and checked
 * in one place before anything uses them. The layout is cryptsetup's ({@code lib/fvault2/fvault2.c},
 * {@code FVAULT2_read_metadata}; its struct names are kept in the field names below), with
 * libfvde's "FileVault Drive Encryption (FVDE) format" document for what the blocks are:
 *
 * <ul>
 * <li>the physical volume header, 512 bytes at byte 0: CRC-32C (seed {@code 0xffffffff}) over bytes
 *     8 to 511, version 1, the signature {@code CS} at 88, the block size at 96, the disk label's
 *     block number at 104, the metadata key's size (16) at 168, the key at 176 and the physical
 *     volume's UUID at 304;</li>
 * <li>the disk label, an 8192-byte metadata block of type 0x0011 at that block (CRC-32C), whose
 *     field at 220 is the byte offset (from the block) of the volume groups descriptor: the number
 *     of encrypted metadata blocks at 8, their first block number at 32;</li>
 * <li>the encrypted metadata: 8192-byte blocks, each one AES-XTS-128 data unit with the tweak = its
 *     index (little-endian) and the key = the header's 16-byte key ‖ the physical volume UUID; read
 *     until an all-zero block or the count, each decrypted block checked by its CRC-32C. Block type
 *     0x0019 holds the key bag (its XML: {@link KeyBag}), 0x001A the logical volume's size and
 *     family UUID (XML), 0x0305 the logical volume's first block (u32 at 104). All three must be
 *     found.</li>
 * </ul>
 *
 * Every offset is checked against the image's size and, as cryptsetup does
 * ({@code FVAULT2_MAX_OFF}), against 1 GiB before it is read; every size is bounded by the 8192-byte
 * block before it is used, so nothing is allocated from a header field. The metadata blocks are
 * decrypted with the provider's AES-XTS ({@code AES/XTS/NoPadding}).
 */
final class CoreStorage {
    static final int HEADER = 512, BLOCK = 8192, UUID_BYTES = 16, AES_KEY = 16;
    /** cryptsetup's {@code FVAULT2_MAX_OFF}: no metadata is read beyond 1 GiB. */
    static final long MAX_OFF = 1L << 30;
    static final int MAGIC = 0x4353; // "CS", big-endian
    static final int TYPE_DISK_LABEL = 0x0011, TYPE_KEY_BAG = 0x0019, TYPE_LV_XML = 0x001A, TYPE_LV = 0x0305;
    private static final int VOL_GR_DES = 40;

    final String physicalVolumeUuid;
    final long blockSize;
    final long logicalVolumeOffset;
    final KeyBag.LogicalVolume logicalVolume;
    final KeyBag.Passphrase keyBag;
    final long imageSize;

    private CoreStorage(String pvUuid, long blockSize, long lvOffset, KeyBag.LogicalVolume lv, KeyBag.Passphrase kb,
            long imageSize) {
        this.physicalVolumeUuid = pvUuid;
        this.blockSize = blockSize;
        this.logicalVolumeOffset = lvOffset;
        this.logicalVolume = lv;
        this.keyBag = kb;
        this.imageSize = imageSize;
    }

    /** Whether the 512 bytes {@code h} carry the Core Storage header's signature, version and CRC-32C. */
    static boolean looksLike(byte[] h) {
        return h.length >= HEADER && u16be(h, 88) == MAGIC && u16(h, 8) == 1 && crcOk(h, HEADER);
    }

    /** Reads and checks the header and metadata of {@code img} ({@code name} for messages). */
    static CoreStorage read(SeekableByteChannel img, String name, Provider provider)
            throws IOException, VolumeException {
        long size = img.size();
        if (size < HEADER) {
            throw new CorruptHeaderException(name + " is " + size + " bytes: too small for a Core Storage header ("
                    + HEADER + ")");
        }
        byte[] h = new byte[HEADER];
        readFully(img, 0, h);
        if (u16be(h, 88) != MAGIC) {
            throw new CorruptHeaderException(name + " is not a FileVault 2 (Core Storage) volume: no 'CS' signature at"
                    + " byte 88");
        }
        checkCrc(h, HEADER, "Core Storage volume header");
        if (u16(h, 8) != 1) {
            throw new UnsupportedVolumeException("Unsupported FVAULT2 version " + u16(h, 8) + " (1 is read)");
        }
        if (u32(h, 168) != AES_KEY) {
            throw new UnsupportedVolumeException("The Core Storage header's metadata key is " + u32(h, 168)
                    + " bytes; AES-128 (16) is read");
        }
        long blockSize = u32(h, 96);
        if (blockSize == 0) {
            throw new CorruptHeaderException("The Core Storage header's block size is 0");
        }
        byte[] pvUuid = Arrays.copyOfRange(h, 304, 304 + UUID_BYTES);
        String pv = KeyBag.unparseUuid(pvUuid);

        // the disk label (block type 0x0011) and the volume groups descriptor it points to
        long label = offset(u64(h, 104), blockSize, "disk label", size, BLOCK);
        byte[] d = new byte[BLOCK];
        readFully(img, label, d);
        checkCrc(d, BLOCK, "disk label block");
        long vgd = label + u32(d, 220);
        if (vgd > MAX_OFF || vgd + VOL_GR_DES > size) {
            throw new CorruptHeaderException("The volume groups descriptor at byte " + vgd + " lies beyond "
                    + (vgd > MAX_OFF ? "1 GiB, where cryptsetup stops reading" : "the image's end (" + size + ")"));
        }
        byte[] g = new byte[VOL_GR_DES];
        readFully(img, vgd, g);
        long blocks = u64(g, 8);
        long start = offset(u64(g, 32), blockSize, "encrypted metadata", size, 0);

        byte[] key = new byte[2 * AES_KEY];
        System.arraycopy(h, 176, key, 0, AES_KEY);
        System.arraycopy(pvUuid, 0, key, AES_KEY, AES_KEY);
        RawKey k = new RawKey("AES", key);
        Arrays.fill(key, (byte) 0);
        Arrays.fill(h, 176, 176 + AES_KEY, (byte) 0);
        byte[] enc = new byte[BLOCK], md = new byte[BLOCK];
        KeyBag.Passphrase kb = null;
        KeyBag.LogicalVolume lv = null;
        long lvBlock = -1;
        try {
            Cipher xts = Cipher.getInstance("AES/XTS/NoPadding", provider);
            byte[] tweak = new byte[16];
            // blocks is a header field: the loop ends at an all-zero block, at 1 GiB or at the image's end
            for (long i = 0; Long.compareUnsigned(i, blocks) < 0; i++) {
                long off = start + i * BLOCK;
                if (off > MAX_OFF) {
                    throw new CorruptHeaderException("Encrypted metadata block " + i + " at byte " + off
                            + " lies beyond 1 GiB, where cryptsetup stops reading");
                }
                if (off + BLOCK > size) {
                    throw new CorruptHeaderException("Encrypted metadata block " + i + " at byte " + off
                            + " lies beyond the image's end (" + size + ")");
                }
                readFully(img, off, enc);
                if (allZero(enc)) {
                    break;
                }
                for (int b = 0; b < 8; b++) {
                    tweak[b] = (byte) (i >>> (8 * b));
                }
                xts.init(Cipher.DECRYPT_MODE, k, new IvParameterSpec(tweak));
                xts.doFinal(enc, 0, BLOCK, md, 0);
                checkCrc(md, BLOCK, "encrypted metadata block " + i + " (after decryption)");
                switch (u16(md, 10)) {
                    case TYPE_KEY_BAG -> kb = KeyBag.passphrase(xml(md, 112, "0x0019"));
                    case TYPE_LV_XML -> lv = KeyBag.logicalVolume(xml(md, 128, "0x001A"));
                    case TYPE_LV -> lvBlock = u32(md, 104);
                    default -> {
                        // other block types carry nothing cryptsetup reads
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException("AES-XTS on the provider " + provider.getName() + " failed: "
                    + e.getMessage());
        } finally {
            k.destroy();
            Arrays.fill(md, (byte) 0);
        }
        if (kb == null || lv == null || lvBlock < 0) {
            throw new CorruptHeaderException("The encrypted metadata lacks its " + (kb == null ? "key bag (block type "
                    + "0x0019)" : lv == null ? "logical volume's XML (block type 0x001A)"
                    : "logical volume's block (block type 0x0305)"));
        }
        long lvOff;
        try {
            lvOff = Math.multiplyExact(lvBlock, blockSize);
        } catch (ArithmeticException e) {
            throw new CorruptHeaderException("The logical volume's block " + lvBlock + " × block size " + blockSize
                    + " overflows");
        }
        return new CoreStorage(pv, blockSize, lvOff, lv, kb, size);
    }

    /** The XML of a metadata block whose offset and size are u32s at {@code at}: bounded by the block, up to a NUL. */
    private static String xml(byte[] md, int at, String type) throws CorruptHeaderException {
        long off = u32(md, at), len = u32(md, at + 4);
        if (off >= BLOCK || len > BLOCK - off) {
            throw new CorruptHeaderException("The XML of metadata block type " + type + " (offset " + off + ", size "
                    + len + ") does not fit its " + BLOCK + "-byte block");
        }
        int end = (int) off;
        while (end < off + len && md[end] != 0) {
            end++;   // cryptsetup's strndup: the text ends at the first NUL
        }
        return new String(md, (int) off, end - (int) off, StandardCharsets.UTF_8);
    }

    /** {@code block} × {@code blockSize}, checked to lie below 1 GiB and, with {@code len} bytes, inside the image. */
    private static long offset(long block, long blockSize, String what, long size, int len)
            throws CorruptHeaderException {
        long off;
        try {
            off = Math.multiplyExact(block, blockSize);
        } catch (ArithmeticException e) {
            off = -1;
        }
        if (off < 0 || off > MAX_OFF) {
            throw new CorruptHeaderException("The " + what + " at block " + Long.toUnsignedString(block) + " × "
                    + blockSize + " bytes lies beyond 1 GiB, where cryptsetup stops reading");
        }
        if (off + len > size) {
            throw new CorruptHeaderException("The " + what + " at byte " + off + " lies beyond the image's end ("
                    + size + ")");
        }
        return off;
    }

    private static void checkCrc(byte[] b, int len, String what) throws CorruptHeaderException {
        if (u32(b, 4) != 0xffffffffL) {
            throw new CorruptHeaderException("The " + what + "'s CRC-32C seed is 0x" + Long.toHexString(u32(b, 4))
                    + " (0xffffffff expected)");
        }
        if (!crcOk(b, len)) {
            throw new CorruptHeaderException("The " + what + "'s CRC-32C does not match: the metadata is damaged");
        }
    }

    /**
     * cryptsetup's {@code _check_crc}: {@code crypt_crc32c(seed, ...)} is the CRC-32C register
     * without its final inversion, so it equals the complement of the JDK's {@link CRC32C}
     * (initial value 0xffffffff, inverted at the end) when the seed is 0xffffffff.
     */
    private static boolean crcOk(byte[] b, int len) {
        if (u32(b, 4) != 0xffffffffL) {
            return false;
        }
        CRC32C c = new CRC32C();
        c.update(b, 8, len - 8);
        return (~c.getValue() & 0xffffffffL) == u32(b, 0);
    }

    private static boolean allZero(byte[] b) {
        int acc = 0;
        for (byte x : b) {
            acc |= x;
        }
        return acc == 0;
    }

    static void readFully(SeekableByteChannel ch, long at, byte[] b) throws IOException, CorruptHeaderException {
        long end = ImageIo.read(ch, at, ByteBuffer.wrap(b));
        if (end >= 0) {
            throw new CorruptHeaderException("The image ends at byte " + end + ", inside the Core Storage metadata");
        }
    }

    static int u16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    static int u16be(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    static long u32(byte[] b, int o) {
        return (u16(b, o) | (long) u16(b, o + 2) << 16) & 0xffffffffL;
    }

    static long u64(byte[] b, int o) {
        return u32(b, o) | u32(b, o + 4) << 32;
    }
}
