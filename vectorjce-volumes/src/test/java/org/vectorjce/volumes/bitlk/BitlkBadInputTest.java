package org.vectorjce.volumes.bitlk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;

/**
 * Hostile and broken BitLocker metadata, made from cryptsetup's {@code bitlk-aes-xts-128} image:
 * truncation, bad signatures, boot codes and sector sizes, metadata offsets outside the image, bad
 * copies (the next valid one is used and the bad one reported), sizes and offsets beyond their
 * block or the image with the CRC-32 made right again so that the parser has to catch them, a
 * metadata block changed under a valid CRC-32 (the validation record's SHA-256 catches it once the
 * VMK opens), and random bytes in the entries: each ends in a {@link VolumeException} naming the
 * problem, never another exception, a hang or an allocation sized by the field.
 */
class BitlkBadInputTest {
    private static final String NAME = "bitlk-aes-xts-128";
    private static final long[] COPIES = {35213312, 46256128, 57909248};

    private static SparseImages.Image image() throws IOException {
        return BitlkImages.images().get(NAME).copy();
    }

    private static int u16(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    /** The block size of copy {@code i}. */
    private static int blockSize(SparseImages.Image im, int i) throws IOException {
        return u16(im.read(COPIES[i] + 8, 2), 0) << 4;
    }

    /** Writes {@code b} at byte {@code off} of copy {@code i}'s block, and its CRC-32 again when {@code fixCrc}. */
    private static void patch(SparseImages.Image im, int i, int off, byte[] b, boolean fixCrc) throws IOException {
        patch(im, i, off, b, fixCrc, blockSize(im, i));
    }

    /** As above, the CRC-32 over {@code real} bytes (the block's size before any mutation changed it). */
    private static void patch(SparseImages.Image im, int i, int off, byte[] b, boolean fixCrc, int real)
            throws IOException {
        im.patch(COPIES[i] + off, b);
        if (fixCrc) {
            CRC32 c = new CRC32();
            c.update(im.read(COPIES[i], real));
            long v = c.getValue();
            im.patch(COPIES[i] + real + 4, new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)});
        }
    }

    private static byte[] le(long v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    private static <T extends VolumeException> String fails(Class<T> type, SparseImages.Image im) {
        T e = assertThrows(type, () -> BitlkVolume.info(im.channel(), im.name()));
        return e.getMessage();
    }

    @Test
    void truncatedImages() throws Exception {
        String m = fails(CorruptHeaderException.class, image().truncated(300));
        assertTrue(m.contains("smaller than its 512-byte volume header"), m);
        m = fails(CorruptHeaderException.class, image().truncated(100 << 10));
        assertTrue(m.contains("copy 0 at byte 35213312 is invalid: its offset 35213312 lies outside the 102400-byte"
                + " image"), m);
        // the last copy's area cut in half: copies 0 and 1 still read, but the area check finds it
        m = fails(CorruptHeaderException.class, image().truncated(COPIES[2] + 32768));
        assertTrue(m.contains("FVE metadata area 2 at byte 57909248 is not a whole-sector area inside"), m);
    }

    @Test
    void volumeHeader() throws Exception {
        SparseImages.Image im = image();
        im.patch(3, "NTFS    ".getBytes(StandardCharsets.US_ASCII));
        assertTrue(fails(CorruptHeaderException.class, im).startsWith("Not a BitLocker volume: no -FVE-FS-"));
        im = image();
        im.patch(0, new byte[] {(byte) 0xeb, 0x52, (byte) 0x90});
        assertTrue(fails(UnsupportedVolumeException.class, im).contains("BitLocker version 1 (Windows Vista"));
        im = image();
        im.patch(11, le(1000, 2));
        assertEquals("Unsupported BitLocker sector size 1000 (512 or 4096)", fails(UnsupportedVolumeException.class, im));
        im = image();
        for (int i = 0; i < 3; i++) {
            im.patch(160 + 16 + 8 * i, le(-4096L, 8));
        }
        String m = fails(CorruptHeaderException.class, im);
        assertTrue(m.contains("copy 2 at byte 18446744073709547520 is invalid: its offset 18446744073709547520 lies"
                + " outside"), m);
    }

    @Test
    void aBadCopyIsSkippedAndReported() throws Exception {
        SparseImages.Image im = image();
        patch(im, 0, 200, new byte[] {0x55}, false);
        BitlkInfo info = BitlkVolume.info(im.channel(), NAME);
        assertEquals(1, info.warnings().size(), info.warnings().toString());
        assertEquals("FVE metadata copy 0 at byte 35213312 is invalid: CRC-32 mismatch", info.warnings().get(0));
        assertEquals("8f595209-f5b9-49a0-85d4-cb8f80258c27", info.guid());
        for (int i = 1; i < 3; i++) {
            patch(im, i, 0, "-FVE-FX-".getBytes(StandardCharsets.US_ASCII), false);
        }
        String m = fails(CorruptHeaderException.class, im);
        assertTrue(m.startsWith("Failed to read and validate the BitLocker FVE metadata of bitlk-aes-xts-128: "
                + "FVE metadata copy 0 at byte 35213312 is invalid: CRC-32 mismatch; FVE metadata copy 1 at byte "
                + "46256128 is invalid: no -FVE-FS- signature"), m);
        im = image();
        patch(im, 0, 8, le(0x2000, 2), false);   // 128 KiB: larger than the 64 KiB area
        info = BitlkVolume.info(im.channel(), NAME);
        assertTrue(info.warnings().get(0).endsWith("block size 131072 bytes (112 to 65536)"), info.warnings().toString());
    }

    @Test
    void sizesAndOffsetsInsideAValidChecksum() throws Exception {
        SparseImages.Image im = image();
        patch(im, 0, 64, le(0x7fffffff, 4), true);
        assertTrue(fails(CorruptHeaderException.class, im).startsWith("BitLocker FVE metadata size 2147483647 does "
                + "not fit its"));
        im = image();
        patch(im, 0, 112, le(0xfff0, 2), true);   // the first entry claims more than the block holds
        String m = fails(CorruptHeaderException.class, im);
        assertTrue(m.startsWith("FVE metadata entry at byte 112 of the block has size 65520"), m);
        im = image();
        patch(im, 0, 112, le(3, 2), true);
        assertTrue(fails(CorruptHeaderException.class, im).contains("has size 3 (8 to"));
        im = image();
        patch(im, 0, 56, le(1L << 40, 8), true);  // the block header's copy of the volume header offset: unused
        BitlkVolume.info(im.channel(), NAME);
        // the volume header entry's offset beyond the image
        im = image();
        int at = entry(im, FveMetadata.TYPE_VOLUME_HEADER);
        patch(im, 0, at + 8, le(200L << 20, 8), true);
        m = fails(CorruptHeaderException.class, im);
        assertTrue(m.startsWith("The relocated volume header (offset 209715200, 8192 bytes) is not a whole-sector"
                + " area inside the 104857600-byte image"), m);
        im = image();
        at = entry(im, FveMetadata.TYPE_VOLUME_HEADER);
        patch(im, 0, at + 8, le(35278848 + 100, 8), true);
        assertTrue(fails(CorruptHeaderException.class, im).contains("is not a whole-sector area"));
        // a VMK's nested value larger than the VMK
        im = image();
        at = entry(im, FveMetadata.TYPE_VMK);
        patch(im, 0, at + 8 + 28, le(0x4000, 2), true);
        m = fails(CorruptHeaderException.class, im);
        assertTrue(m.startsWith("Value of size 16384 in VMK 3e55195c-8811-4d9b-97b4-2b9e5f8f5384"), m);
    }

    /** The block offset of the first top-level entry of {@code type} in copy 0. */
    private static int entry(SparseImages.Image im, int type) throws IOException {
        byte[] b = im.read(COPIES[0], blockSize(im, 0));
        int end = 64 + (int) (u16(b, 64) | u16(b, 66) << 16);
        for (int o = 112; o < end; ) {
            int s = u16(b, o);
            if (u16(b, o + 2) == type) {
                return o;
            }
            o += s;
        }
        throw new AssertionError("no entry of type " + type);
    }

    @Test
    void aChangedBlockUnderAValidCrcFailsTheValidationHash() throws Exception {
        SparseImages.Image im = image();
        int at = entry(im, FveMetadata.TYPE_DESCRIPTION);
        patch(im, 0, at + 8, "X".getBytes(StandardCharsets.UTF_16LE), true);
        assertTrue(BitlkVolume.info(im.channel(), NAME).description().startsWith("XESKTOP"));
        CorruptHeaderException e = assertThrows(CorruptHeaderException.class,
                () -> BitlkVolume.of(im.channel()).passphrase("anaconda".toCharArray()).open());
        assertEquals("The FVE metadata block does not match the SHA-256 its validation record holds: the metadata "
                + "was changed", e.getMessage());
    }

    @Test
    void wrongSecrets() throws Exception {
        SparseImages.Image im = image();
        // a recovery password with a bad check group is not tried as one (no stretch for it)
        WrongPassphraseException e = assertThrows(WrongPassphraseException.class, () -> BitlkVolume.of(im.channel())
                .recoveryPassword("235818-357951-253979-013365-241120-245575-342914-591911".toCharArray()).open());
        assertEquals("not a recovery password: group 8 of the recovery password fails its check (divisible by 11, "
                + "below 720896)", e.getMessage());
        e = assertThrows(WrongPassphraseException.class, () -> BitlkVolume.of(im.channel())
                .recoveryPassword("235818-357951-253979".toCharArray()).open());
        assertTrue(e.getMessage().contains("55 characters"), e.getMessage());
        e = assertThrows(WrongPassphraseException.class, () -> BitlkVolume.of(im.channel()).open());
        assertEquals("no secret given and no clear key in the metadata", e.getMessage());
        VolumeException v = assertThrows(VolumeException.class, () -> BitlkVolume.of(im.channel())
                .volumeKey(new byte[16]).open());
        assertEquals("The volume key is 128 bits; this volume's aes-xts-plain64 takes 256", v.getMessage());
        // a .BEK of another volume's VMK is not this volume's startup key
        byte[] bek = BitlkImages.files().get("4381F759-C4F8-4DE0-BB61-FC33A831BDA5.BEK");
        e = assertThrows(WrongPassphraseException.class, () -> BitlkVolume.of(im.channel()).startupKey(bek).open());
        assertEquals("no VMK opened with the startup key given", e.getMessage());
    }

    @Test
    void randomBytesInTheEntries() throws Exception {
        Random r = new Random(29);
        SparseImages.Image base = image();
        int real = blockSize(base, 0);
        for (int i = 0; i < 400; i++) {
            SparseImages.Image im = base.copy();
            int n = 1 + r.nextInt(4);
            for (int k = 0; k < n; k++) {
                byte[] b = new byte[1 + r.nextInt(3)];
                r.nextBytes(b);
                patch(im, 0, 8 + r.nextInt(real - 8 - b.length), b, true, real);
            }
            try {
                BitlkInfo info = BitlkVolume.info(im.channel(), NAME);
                assertTrue(info.dump(NAME, java.time.ZoneOffset.UTC).startsWith("Info for BITLK device"));
            } catch (VolumeException expected) {
                assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
            } catch (RuntimeException x) {
                fail("mutation " + i + ": " + x, x);
            }
        }
    }
}
