package org.vectorjce.volumes.fvault2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;

/**
 * Damaged and hostile FileVault 2 images, made from {@code small} in memory: bit flips in the Core
 * Storage header, the disk label and an encrypted metadata block; header fields (block size,
 * version, key size, offsets) rewritten with a good CRC-32C; offsets and sizes beyond the image
 * and beyond cryptsetup's 1 GiB; truncation; the key bag's XML replaced (re-encrypted with the
 * metadata key, its CRC fixed) by a DOCTYPE with an external entity, by XML that is not XML, by
 * wrong sizes and values. Each ends in the documented exception with one line naming the problem.
 * The images are read-only channels: nothing is written.
 *
 * <p>The {@code volume} command's tests extend this class ({@code Fvault2BadInputCommandTest} in
 * the tool module) and check through the {@code command*} hooks, which do nothing here, that the
 * command ends in exit 1 with that line alone; there {@link #libraryChecks} is false, so the
 * library's own checks, which this class runs, are not run twice, and the tests that have no
 * command part are skipped.
 */
public class Fvault2BadInputTest {
    private static final long LABEL = 4096, VGD = 4096 + 8192, METADATA = 2049L * 4096;

    @TempDir
    protected Path dir;

    /**
     * Whether the library's own checks run: true here; a subclass that checks the command through
     * the hooks returns false, the library's checks being this class's run.
     */
    protected boolean libraryChecks() {
        return true;
    }

    private void libraryOnly() {
        org.junit.jupiter.api.Assumptions.assumeTrue(libraryChecks(),
                "the library's check alone, run by Fvault2BadInputTest");
    }

    /**
     * A subclass's check that {@code decrypt} of {@code image} with the volume key in
     * {@code volumeKey} into {@code out} exits 1 with {@code message} alone and leaves no
     * {@code out}.
     */
    protected void commandDecryptRefuses(Path image, Path volumeKey, Path out, String message) throws Exception {
    }

    /**
     * A subclass's check that {@code test} of {@code image} with {@code password} exits 1 with one
     * line starting with {@code start}, no stack trace.
     */
    protected void commandSaysOneLine(Path image, String password, String start) throws Exception {
    }

    private static SparseImages.Image image() throws Exception {
        return Fvault2Images.small().copy();
    }

    private static byte[] le(long v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < Math.min(n, 8); i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    /** Sets {@code b}'s CRC-32C (cryptsetup's: the register without its final inversion) over {@code b[8..]}. */
    private static void fixCrc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 8, b.length - 8);
        System.arraycopy(le(~c.getValue(), 4), 0, b, 0, 4);
    }

    /** Patches the header at {@code off} and fixes its CRC. */
    private static SparseImages.Image header(int off, byte[] v) throws Exception {
        SparseImages.Image im = image();
        byte[] h = im.read(0, 512);
        System.arraycopy(v, 0, h, off, v.length);
        fixCrc(h);
        im.put(0, h);
        return im;
    }

    private static String fails(Class<? extends VolumeException> type, SparseImages.Image im) {
        VolumeException e = assertThrows(type, () -> Fvault2Volume.info(im.channel(), im.name()));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    @Test
    void headerDamage() throws Exception {
        libraryOnly();
        SparseImages.Image im = image();
        im.put(200, new byte[] {(byte) (im.read(200, 1)[0] ^ 4)});
        assertEquals("The Core Storage volume header's CRC-32C does not match: the metadata is damaged",
                fails(CorruptHeaderException.class, im));
        im = image();
        im.put(88, "CX".getBytes(StandardCharsets.US_ASCII));
        assertEquals("small is not a FileVault 2 (Core Storage) volume: no 'CS' signature at byte 88",
                fails(CorruptHeaderException.class, im));
        assertEquals("Unsupported FVAULT2 version 2 (1 is read)",
                fails(UnsupportedVolumeException.class, header(8, le(2, 2))));
        assertEquals("The Core Storage header's metadata key is 32 bytes; AES-128 (16) is read",
                fails(UnsupportedVolumeException.class, header(168, le(32, 4))));
        assertEquals("The Core Storage header's block size is 0",
                fails(CorruptHeaderException.class, header(96, le(0, 4))));
        String m = fails(CorruptHeaderException.class, header(104, le(-1, 8)));
        assertTrue(m.startsWith("The disk label at block 18446744073709551615 × 4096 bytes lies beyond 1 GiB"), m);
        m = fails(CorruptHeaderException.class, header(104, le(200_000, 8)));
        assertEquals("The disk label at byte 819200000 lies beyond the image's end (536829952)", m);
        m = fails(CorruptHeaderException.class, header(4, le(0, 4)));
        assertTrue(m.contains("CRC-32C seed is 0x0"), m);
    }

    @Test
    void labelAndDescriptorDamage() throws Exception {
        libraryOnly();
        SparseImages.Image im = image();
        im.put(LABEL + 100, new byte[] {(byte) (im.read(LABEL + 100, 1)[0] ^ 1)});
        assertEquals("The disk label block's CRC-32C does not match: the metadata is damaged",
                fails(CorruptHeaderException.class, im));
        im = image();
        byte[] d = im.read(LABEL, 8192);
        System.arraycopy(le(0xfffffff0L, 4), 0, d, 220, 4);
        fixCrc(d);
        im.put(LABEL, d);
        assertTrue(fails(CorruptHeaderException.class, im).startsWith("The volume groups descriptor at byte "
                + (LABEL + 0xfffffff0L) + " lies beyond 1 GiB"));
        im = image();
        im.put(VGD + 32, le(1L << 40, 8));
        assertTrue(fails(CorruptHeaderException.class, im).startsWith("The encrypted metadata at block 1099511627776"
                + " × 4096 bytes lies beyond 1 GiB"));
        im = image();
        im.put(VGD + 32, le(131_100, 8));   // inside 1 GiB, beyond the 512 MiB image
        assertEquals("The encrypted metadata at byte 536985600 lies beyond the image's end (536829952)",
                fails(CorruptHeaderException.class, im));
        // a count of 2^64 - 1 blocks: the reading still ends at the first all-zero block
        im = image();
        im.put(VGD + 8, le(-1, 8));
        assertEquals(Fvault2Images.PV_UUID, Fvault2Volume.info(im.channel(), "x").physicalVolumeUuid());
        im = image();
        im.put(VGD + 8, le(2, 8));   // stops before the blocks it needs
        assertTrue(fails(CorruptHeaderException.class, im).startsWith("The encrypted metadata lacks its "));
    }

    @Test
    void truncation() throws Exception {
        SparseImages.Image cut = image().truncated(100 << 20);
        if (libraryChecks()) {
            assertEquals("small is 300 bytes: too small for a Core Storage header (512)",
                    fails(CorruptHeaderException.class, image().truncated(300)));
            assertEquals("The disk label at byte 4096 lies beyond the image's end (8192)",
                    fails(CorruptHeaderException.class, image().truncated(8192)));
            assertEquals("Encrypted metadata block 1 at byte 8400896 lies beyond the image's end (8400896)",
                    fails(CorruptHeaderException.class, image().truncated(METADATA + 8192)));
            // the metadata whole, the logical volume cut: info and the key read, the payload is refused
            try (Fvault2Volume v = Fvault2Volume.of(cut.channel()).volumeKey(Fvault2Images.volumeKey()).open()) {
                CorruptHeaderException e = assertThrows(CorruptHeaderException.class, v::payload);
                assertEquals("The logical volume (offset 67108864, size 167772160 bytes) ends beyond the image's "
                        + "104857600 bytes", e.getMessage());
            }
        }
        Path f = cut.write(dir);
        Path key = dir.resolve("vk");
        Files.write(key, Fvault2Images.volumeKey());
        commandDecryptRefuses(f, key, dir.resolve("out"), "The logical volume (offset 67108864, size 167772160 bytes) "
                + "ends beyond the image's 104857600 bytes");
    }

    @Test
    void encryptedBlockDamage() throws Exception {
        libraryOnly();
        SparseImages.Image im = image();
        long at = METADATA + 8192 + 777;
        im.put(at, new byte[] {(byte) (im.read(at, 1)[0] ^ 0x80)});
        assertEquals("The encrypted metadata block 1 (after decryption)'s CRC-32C does not match: the metadata is "
                + "damaged", fails(CorruptHeaderException.class, im));
    }

    /** The metadata blocks of {@code im}, decrypted, with their key; {@link #put} re-encrypts one. */
    private record Md(SparseImages.Image im, byte[] key, byte[][] blocks) {
        static Md of(SparseImages.Image im) throws Exception {
            byte[] h = im.read(0, 512);
            byte[] key = new byte[32];
            System.arraycopy(h, 176, key, 0, 16);
            System.arraycopy(h, 304, key, 16, 16);
            byte[][] b = new byte[4][];
            for (int i = 0; i < 4; i++) {
                b[i] = xts(Cipher.DECRYPT_MODE, key, i, im.read(METADATA + 8192L * i, 8192));
            }
            return new Md(im, key, b);
        }

        /** The last block of {@code type} (a later block of a type replaces an earlier one, as in cryptsetup). */
        int index(int type) {
            for (int i = 3; i >= 0; i--) {
                if (CoreStorage.u16(blocks[i], 10) == type) {
                    return i;
                }
            }
            throw new AssertionError("no block of type " + type);
        }

        /** The XML of block {@code i} whose offset and size are at {@code at}. */
        String xml(int i, int at) {
            int off = (int) CoreStorage.u32(blocks[i], at), len = (int) CoreStorage.u32(blocks[i], at + 4);
            return new String(blocks[i], off, len, StandardCharsets.UTF_8);
        }

        /** Replaces block {@code i}'s XML (offset and size at {@code at}) with {@code xml}, fixes the CRC, writes it. */
        SparseImages.Image withXml(int i, int at, String xml) throws Exception {
            byte[] b = blocks[i].clone();
            int off = (int) CoreStorage.u32(b, at);
            byte[] x = xml.getBytes(StandardCharsets.UTF_8);
            Arrays.fill(b, off, b.length, (byte) 0);
            System.arraycopy(x, 0, b, off, x.length);
            System.arraycopy(le(x.length, 4), 0, b, at + 4, 4);
            return with(i, b);
        }

        SparseImages.Image with(int i, byte[] plain) throws Exception {
            byte[] b = plain.clone();
            fixCrc(b);
            SparseImages.Image out = im.copy();
            out.put(METADATA + 8192L * i, xts(Cipher.ENCRYPT_MODE, key, i, b));
            return out;
        }

        private static byte[] xts(int mode, byte[] key, long i, byte[] in) throws Exception {
            Cipher c = Cipher.getInstance("AES/XTS/NoPadding", new VectorJceProvider());
            c.init(mode, new SecretKeySpec(key, "AES"), new IvParameterSpec(le(i, 16)));
            return c.doFinal(in);
        }
    }

    @Test
    void hostileKeyBag() throws Exception {
        libraryOnly();
        Md md = Md.of(image());
        int kb = md.index(CoreStorage.TYPE_KEY_BAG);
        String xml = md.xml(kb, 112);
        assertTrue(xml.contains("<key>PassphraseWrappedKEKStruct</key>"), xml);
        assertFalse(xml.contains("<!DOCTYPE"), xml);
        // an external entity naming a file whose text would be a well-formed key bag: it must not be read
        Path secret = dir.resolve("secret.xml");
        Files.writeString(secret, "FETCHED");
        String hostile = "<?xml version=\"1.0\"?><!DOCTYPE dict [<!ENTITY e SYSTEM \"" + secret.toUri() + "\">]>"
                + "<dict><key>PassphraseWrappedKEKStruct</key><data>&e;</data></dict>";
        String m = fails(CorruptHeaderException.class, md.withXml(kb, 112, hostile));
        assertTrue(m.startsWith("The key bag (block type 0x0019) is not well-formed XML or has a DOCTYPE (refused): "),
                m);
        assertTrue(m.contains("DOCTYPE"), m);
        assertFalse(m.contains("FETCHED"), m);
        // a billion-laughs DTD is refused the same way, before any expansion
        m = fails(CorruptHeaderException.class, md.withXml(kb, 112, "<!DOCTYPE a [<!ENTITY a \"aaaa\"><!ENTITY b "
                + "\"&a;&a;&a;&a;&a;&a;&a;&a;\">]><dict>&b;</dict>"));
        assertTrue(m.contains("DOCTYPE"), m);
        m = fails(CorruptHeaderException.class, md.withXml(kb, 112, "<dict><key>PassphraseWrappedKEKStruct</key>"));
        assertTrue(m.startsWith("The key bag (block type 0x0019) is not well-formed XML"), m);
        assertEquals("The encrypted metadata has no <data> for PassphraseWrappedKEKStruct", fails(
                CorruptHeaderException.class, md.withXml(kb, 112, xml.replace("PassphraseWrappedKEKStruct", "X"))));
        m = fails(CorruptHeaderException.class, md.withXml(kb, 112, xml.replaceFirst(
                "(<key>KEKWrappedVolumeKeyStruct</key><data[^>]*>)[^<]*", "$1AAAA")));
        assertEquals("The key bag's KEKWrappedVolumeKeyStruct is 3 bytes (256 expected)", m);
        m = fails(CorruptHeaderException.class, md.withXml(kb, 112, xml.replaceFirst(
                "(<key>KEKWrappedVolumeKeyStruct</key><data[^>]*>)[^<]*", "$1!!!!")));
        assertTrue(m.startsWith("The key bag's KEKWrappedVolumeKeyStruct is not base64"), m);
        // the XML's size beyond its block
        byte[] b = md.blocks()[kb].clone();
        System.arraycopy(le(9000, 4), 0, b, 116, 4);   // xml_size (xml_off is at 112)
        m = fails(CorruptHeaderException.class, md.with(kb, b));
        assertTrue(m.startsWith("The XML of metadata block type 0x0019 (offset "), m);
        assertTrue(m.endsWith("size 9000) does not fit its 8192-byte block"), m);
    }

    @Test
    void badLogicalVolumeXml() throws Exception {
        libraryOnly();
        Md md = Md.of(image());
        int lv = md.index(CoreStorage.TYPE_LV_XML);
        String xml = md.xml(lv, 128);
        assertTrue(xml.contains("com.apple.corestorage.lv.size"), xml);
        String m = fails(CorruptHeaderException.class, md.withXml(lv, 128, xml.replaceFirst(
                "(<key>com.apple.corestorage.lv.size</key><integer[^>]*>)[^<]*", "$1zz")));
        assertEquals("The logical volume's size 'zz' is not a size", m);
        m = fails(CorruptHeaderException.class, md.withXml(lv, 128, xml.replaceFirst(
                "(<key>com.apple.corestorage.lv.familyUUID</key><string[^>]*>)[^<]*", "$1not-a-uuid")));
        assertEquals("The logical volume's family UUID 'not-a-uuid' is not a UUID", m);
        // a size far beyond the image: info reads it, the payload is refused by name
        SparseImages.Image big = md.withXml(lv, 128, xml.replaceFirst(
                "(<key>com.apple.corestorage.lv.size</key><integer[^>]*>)[^<]*", "$10x7fffffffffff0000"));
        assertEquals(0x7fffffffffff0000L, Fvault2Volume.info(big.channel(), "x").logicalVolumeSize());
        try (Fvault2Volume v = Fvault2Volume.of(big.channel()).volumeKey(Fvault2Images.volumeKey()).open()) {
            m = assertThrows(CorruptHeaderException.class, v::payload).getMessage();
            assertTrue(m.endsWith("ends beyond the image's 536829952 bytes"), m);
        }
        // the 0x0305 block gone: its type changed
        int b305 = md.index(CoreStorage.TYPE_LV);
        byte[] b = md.blocks()[b305].clone();
        b[10] = 0x06;
        assertEquals("The encrypted metadata lacks its logical volume's block (block type 0x0305)",
                fails(CorruptHeaderException.class, md.with(b305, b)));
    }

    /** A key bag with a DOCTYPE, in an image file: refused with one line, as the command shows it. */
    @Test
    void aDoctypeInAFileIsOneLine() throws Exception {
        Md md = Md.of(image());
        int kb = md.index(CoreStorage.TYPE_KEY_BAG);
        Path f = md.withXml(kb, 112, "<!DOCTYPE x SYSTEM \"http://127.0.0.1:9/x.dtd\"><dict/>").write(dir);
        String start = "The key bag (block type 0x0019) is not well-formed XML or has a DOCTYPE";
        if (libraryChecks()) {
            VolumeException e = assertThrows(VolumeException.class, () -> Fvault2Volume.at(f)
                    .passphrase(Fvault2Images.PASSWORD.toCharArray()).open().close());
            assertTrue(e.getMessage().startsWith(start), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertStrictStrtoull();
        }
        commandSaysOneLine(f, Fvault2Images.PASSWORD, start);
    }

    private static void assertStrictStrtoull() {
        assertEquals(0xa000000L, KeyBag.strtoull16("0xa000000"));
        assertEquals(0xa000000L, KeyBag.strtoull16(" a000000x"));
        assertEquals(0, KeyBag.strtoull16("0x"));
        assertEquals(-1, KeyBag.strtoull16("0x1ffffffffffffffff"));
    }
}
