package org.vectorjce.fs.ntfs;

import java.nio.charset.StandardCharsets;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * The multi-sector header shared by MFT records ("FILE") and index blocks ("INDX"): a signature,
 * then at 4 the update sequence array's offset and at 6 its count of 16-bit words. Word 0 is the
 * update sequence number, which the writer stored in the last two bytes of every 512-byte stride;
 * words 1.. are the bytes those two replaced (keramics ntfs.md "Fix-up values", TSK
 * {@code ntfs_fix_idxrec}/{@code ntfs_dinode_lookup}). A stride whose last two bytes do not hold the
 * number was torn in writing: the structure is corrupt.
 */
final class Fixups {
    /** The fix-up stride: 512 bytes whatever the sector size (NTFS_BLOCK_SIZE). */
    static final int STRIDE = 512;

    private Fixups() {
    }

    /**
     * Checks the signature of the {@code len}-byte structure in {@code b} and puts the saved words
     * back in place.
     *
     * @param what the structure, for messages ("NTFS: MFT record 37")
     * @param at its byte offset on the device, for messages
     * @return the offset of the first byte after the update sequence array
     */
    static int apply(byte[] b, int len, String signature, String what, long at) throws CorruptFileSystemException {
        if (len < STRIDE || len % STRIDE != 0 || b.length < len) {
            throw new CorruptFileSystemException(what + ": " + len + " bytes is not a whole number of 512-byte strides", at);
        }
        if (!signature.equals(new String(b, 0, 4, StandardCharsets.US_ASCII))) {
            throw new CorruptFileSystemException(what + ": signature is not \"" + signature + "\"", at);
        }
        int usa = Le.u16(b, 4);
        int count = Le.u16(b, 6);
        int strides = len / STRIDE;
        if (count != strides + 1) {
            throw new CorruptFileSystemException(what + ": update sequence of " + count + " words, expected "
                    + (strides + 1), at + 6);
        }
        if ((usa & 1) != 0 || usa < 8 || usa + 2 * count > STRIDE - 2) {
            throw new CorruptFileSystemException(what + ": update sequence array offset " + usa + " is out of range",
                    at + 4);
        }
        int usn = Le.u16(b, usa);
        for (int i = 1; i <= strides; i++) {
            int end = i * STRIDE - 2;
            if (Le.u16(b, end) != usn) {
                throw new CorruptFileSystemException(String.format("%s: update sequence 0x%04x at its byte %d does not match 0x%04x",
                        what, Le.u16(b, end), end, usn), at + end);
            }
            b[end] = b[usa + 2 * i];
            b[end + 1] = b[usa + 2 * i + 1];
        }
        return usa + 2 * count;
    }
}
