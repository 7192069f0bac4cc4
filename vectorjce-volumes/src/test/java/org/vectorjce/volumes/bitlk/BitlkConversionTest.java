package org.vectorjce.volumes.bitlk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.SectorChannel;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volumes;

/**
 * Encrypt-on-write and partially converted BitLocker volumes.
 *
 * <p>The two cryptsetup images cryptsetup refuses to activate, {@code bitlk-aes-xts-128-eow} and
 * {@code bitlk-partially-encrypted-aes-cbc-128}, both carry the encrypt-on-write ("used space only")
 * GUID in their volume header and conversion states 4/4 with an encrypted size of the whole volume;
 * their FVE-EOW descriptors (volume header bytes 200 and 208) lie in what cryptsetup's authors trimmed
 * away, so the map of encrypted blocks is not in the images and the payload is refused by name. Their
 * first sectors, moved and encrypted like any other volume's, still decrypt to the NTFS boot sector
 * Windows wrote (the UUID {@code images.conf} gives). A paused conversion (state 5) has no image here:
 * it is made from a fully encrypted image by rewriting the states and the encrypted size in its three
 * metadata copies (and their CRC-32s) and opened with the volume key, which skips the validation
 * record that would otherwise notice the change; what it must read is the fully encrypted image's
 * plaintext (whose SHA-256 cryptsetup gives) below the encrypted size and the image's bytes past it.
 */
class BitlkConversionTest {
    private static final long[] METADATA = {35213312, 46256128, 57909248};
    /** The volume keys {@code cryptsetup bitlkDump --dump-volume-key} prints for the two images (password anaconda). */
    private static final byte[] EOW_KEY = HexFormat.of().parseHex(
            "e853f8c548b1fa93c5de32b647bbc098c79bad9f0eea3984f2d95fe8be9d1027");
    private static final byte[] PARTIAL_KEY = HexFormat.of().parseHex("02231620db184d75154c1bedb921e416");

    @Test
    void encryptOnWriteMetadataFacts() throws Exception {
        for (String name : new String[] {"bitlk-aes-xts-128-eow", "bitlk-partially-encrypted-aes-cbc-128"}) {
            SparseImages.Image im = BitlkImages.images().get(name);
            BitlkInfo info = BitlkVolume.info(im.channel(), name);
            assertEquals("encrypt-on-write", info.type(), name);
            assertEquals(4, info.currentState(), name);
            assertEquals(4, info.nextState(), name);
            assertEquals(104857600, info.encryptedSize(), name + ": cryptsetup's 'Volume size'");
            assertEquals(0, info.convertSize(), name);
            assertEquals(List.of(35352576L, 52080640L), info.eowDescriptors(), name);
            assertFalse(info.eowDescriptorFound(), name + ": the descriptors are in what was trimmed away");
            assertTrue(im.read(35352576, 4096).length == 4096 && Arrays.equals(im.read(35352576, 4096), new byte[4096]),
                    name + ": zeros where the descriptor was");
            assertFalse(info.fullyEncrypted(), name);
            assertTrue(info.conversionDump().contains("\tType:         \tencrypt-on-write (used space only)\n"),
                    info.conversionDump());
            assertTrue(info.conversionDump().contains("\tEOW descriptor:\t35352576 [bytes]\n"), info.conversionDump());
            assertTrue(info.conversionDump().contains("\tPayload:      \tnot read: BitLocker volumes of type "
                    + "'encrypt-on-write'"), info.conversionDump());
        }
        // a normal fully encrypted volume: nothing past the encrypted size, no descriptors
        BitlkInfo normal = BitlkVolume.info(BitlkImages.images().get("bitlk-aes-xts-128").channel(), "n");
        assertEquals(List.of(), normal.eowDescriptors());
        assertTrue(normal.fullyEncrypted());
        assertEquals(normal.payloadSize(), normal.plaintextFrom());
        assertTrue(normal.conversionDump().endsWith("\tPayload:      \tdecrypted throughout\n"), normal.conversionDump());
    }

    @Test
    void encryptOnWriteRefusedByNameAfterOpening() throws Exception {
        Map<String, byte[]> keys = Map.of("bitlk-aes-xts-128-eow", EOW_KEY, "bitlk-partially-encrypted-aes-cbc-128",
                PARTIAL_KEY);
        for (Map.Entry<String, byte[]> e : keys.entrySet()) {
            SparseImages.Image im = BitlkImages.images().get(e.getKey());
            try (BitlkVolume v = BitlkVolume.of(im.channel()).passphrase("anaconda".toCharArray()).open()) {
                assertArrayEquals(e.getValue(), v.volumeKey(), e.getKey() + ": the key cryptsetup dumps");
                UnsupportedVolumeException u = assertThrows(UnsupportedVolumeException.class, v::payload);
                assertTrue(u.getMessage().startsWith("BitLocker volumes of type 'encrypt-on-write' (used-space-only "
                        + "encryption that encrypts on write) are not read: which blocks Windows has encrypted is "
                        + "recorded only in the encrypt-on-write block maps the FVE-EOW descriptor at byte 35352576 "
                        + "(copy at 52080640) leads to, and this image holds no FVE-EOW descriptor there"),
                        u.getMessage());
            }
        }
    }

    @Test
    void factsAgreeWithCryptsetupAndDislocker(@TempDir Path dir) throws Exception {
        assumeTrue(TestImages.have("cryptsetup") || TestImages.have("dislocker-metadata"),
                "neither cryptsetup nor dislocker-metadata is installed");
        for (String name : new String[] {"bitlk-aes-xts-128-eow", "bitlk-partially-encrypted-aes-cbc-128"}) {
            SparseImages.Image im = BitlkImages.images().get(name);
            Path f = im.write(dir);
            BitlkInfo info = BitlkVolume.info(f);
            if (TestImages.have("cryptsetup")) {
                // cryptsetup names the type only in its debug text; its "Volume size" is the encrypted size
                TestImages.Run r = TestImages.run(null, "cryptsetup", "--debug", "bitlkDump", f.toString());
                assertEquals(0, r.rc(), r.err());
                assertTrue((r.out() + r.err()).contains("BITLK type from GUID: " + info.type() + ".\n"), r.out());
                assertTrue(r.out().contains("Volume size:  \t" + info.encryptedSize() + " [bytes]\n"), r.out());
            }
            if (TestImages.have("dislocker-metadata")) {
                // dislocker reads the descriptor at the volume header's offset too, and finds none there
                TestImages.Run r = TestImages.run(null, "dislocker-metadata", "-V", f.toString());
                String all = r.out() + r.err();
                assertTrue(all.contains("Volume has EOW_INFORMATION_OFFSET_GUID."), all);
                assertTrue(all.contains("EOW information size is lesser than the size of the header"), all);
                assertFalse(info.eowDescriptorFound());
            }
        }
        if (TestImages.have("dislocker-metadata")) {
            // the crafted states and encrypted size, as dislocker reads them from the rewritten metadata
            SparseImages.Image im = BitlkImages.images().get("bitlk-aes-xts-128");
            int n = 0;
            for (int[] st : new int[][] {{5, 4}, {5, 1}, {2, 4}}) {
                SparseImages.Image crafted = states(im, st[0], st[1], 50L << 20);
                Path f = dir.resolve("crafted-" + n++);
                Files.createDirectories(f);
                f = crafted.write(f);
                BitlkInfo info = BitlkVolume.info(f);
                TestImages.Run r = TestImages.run(null, "dislocker-metadata", "-V", f.toString());
                String all = r.out() + r.err();
                assertTrue(Pattern.compile("Current state: [A-Z ]+ \\(" + info.currentState() + "\\)").matcher(all).find(),
                        all);
                assertTrue(Pattern.compile("Next state: [A-Z ]+ \\(" + info.nextState() + "\\)").matcher(all).find(),
                        all);
                assertTrue(all.contains("Encrypted volume size: " + info.encryptedSize() + " bytes"), all);
                assertTrue(all.contains("Size of conversion region: " + info.convertSize() + " ("), all);
            }
        }
    }

    @Test
    void encryptOnWriteDescriptorPresentOrOutOfPlace() throws Exception {
        SparseImages.Image eow = BitlkImages.images().get("bitlk-aes-xts-128-eow");
        // a descriptor signature at the second offset: found, and still refused (its block maps are not read)
        SparseImages.Image c = eow.copy();
        c.put(52080640, "FVE-EOW\0".getBytes(StandardCharsets.US_ASCII));
        BitlkInfo info = BitlkVolume.info(c.channel(), "x");
        assertTrue(info.eowDescriptorFound());
        assertTrue(info.activationProblem().contains("(copy at 52080640) leads to, which this library does not read;"),
                info.activationProblem());
        assertTrue(info.conversionDump().contains("\tEOW signature:\tfound\n"), info.conversionDump());
        // offsets past the image, or at its last bytes: nothing read there, not found, no exception
        SparseImages.Image d = eow.copy();
        d.patch(200, ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(-1L)
                .putLong(eow.size() - 4).array());
        info = BitlkVolume.info(d.channel(), "y");
        assertEquals(List.of(-1L, eow.size() - 4), info.eowDescriptors());
        assertFalse(info.eowDescriptorFound());
        assertTrue(info.activationProblem().contains("descriptor at byte 18446744073709551615 (copy at "
                + (eow.size() - 4) + ")"), info.activationProblem());
    }

    @Test
    void encryptOnWriteImagesMixEncryptedAndStoredSectors() throws Exception {
        // The moved first sectors, read through the payload's own mapping without the refusal. On the
        // partially encrypted image they are encrypted and decrypt to the NTFS boot sector whose serial
        // images.conf gives: the key, cipher and relocation are right. On the encrypt-on-write image the
        // same place holds the NTFS boot sector as stored, not encrypted, although its states read 4/4
        // and its encrypted size is the whole volume: decrypting every sector of an encrypt-on-write
        // volume would turn even its boot sector into noise, which is why it is refused without its map.
        Map<String, Map<String, String>> conf = BitlkImages.conf();
        for (String name : new String[] {"bitlk-aes-xts-128-eow", "bitlk-partially-encrypted-aes-cbc-128"}) {
            SparseImages.Image im = BitlkImages.images().get(name);
            FveMetadata m = FveMetadata.read(im.channel(), name);
            BitlkInfo info = BitlkVolume.info(im.channel(), name);
            byte[] key = name.contains("eow") ? EOW_KEY : PARTIAL_KEY;
            byte[] stored = im.read(m.volumeHeaderOffset, 512);
            byte[] decrypted;
            try (SectorChannel p = SectorChannel.over(new BitlkSectors(im.channel(), 512, info.cipherSpec(),
                    key.clone(), Volumes.defaultProvider(), m.zeroAreas(), m.volumeHeaderOffset,
                    m.volumeHeaderSize, im.size()), im.size(), 512, false)) {
                ByteBuffer b = ByteBuffer.allocate(512);
                p.read(b);
                decrypted = b.array();
            }
            byte[] boot = name.contains("eow") ? stored : decrypted;
            byte[] noise = name.contains("eow") ? decrypted : stored;
            assertEquals("NTFS    ", new String(boot, 3, 8, StandardCharsets.US_ASCII), name + ": OEM id");
            assertFalse(new String(noise, 3, 8, StandardCharsets.US_ASCII).equals("NTFS    "), name);
            assertEquals(0x55, boot[510] & 0xff, name);
            assertEquals(0xaa, boot[511] & 0xff, name);
            assertEquals(512, (boot[11] & 0xff) | (boot[12] & 0xff) << 8, name + ": bytes per sector");
            long sectors = ByteBuffer.wrap(boot, 0x28, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertEquals(im.size() / 512 - 1, sectors, name + ": NTFS sectors (the last is the backup boot sector)");
            String uuid = conf.get(name).get("UUID");
            assertEquals(name.contains("eow") ? "D85A03335A030E46" : uuid, BitlkImages.uuid(boot),
                    name + ": NTFS serial (images.conf gives it for the partially encrypted image only)");
        }
    }

    @Test
    void pausedConversionReadsAsWindowsShowsIt() throws Exception {
        Map<String, Map<String, String>> conf = BitlkImages.conf();
        for (String name : new String[] {"bitlk-aes-xts-128", "bitlk-aes-cbc-128"}) {
            SparseImages.Image im = BitlkImages.images().get(name);
            byte[] key;
            try (BitlkVolume v = BitlkVolume.of(im.channel()).passphrase(conf.get(name).get("PW").toCharArray())
                    .open()) {
                key = v.volumeKey();
            }
            // the encrypted size between metadata copies 1 and 2: copy 2's area is past it and still reads as zeros
            long e = 50L << 20;
            for (int next : new int[] {4, 1}) {
                SparseImages.Image crafted = states(im, 5, next, e);
                try (BitlkVolume v = BitlkVolume.of(crafted.channel()).volumeKey(key).open()) {
                    BitlkInfo info = v.info();
                    assertTrue(info.conversionPaused(), name);
                    assertNull(info.activationProblem(), name);
                    assertEquals(e, info.plaintextFrom(), name);
                    assertTrue(info.conversionDump().contains("\tPayload:      \tdecrypted below byte 52428800, as "
                            + "stored from there to byte " + im.size() + "\n"), info.conversionDump());
                    SeekableByteChannel p = v.payload();
                    assertEquals(im.size(), p.size());
                    byte[] got = readAll(p, im.size());
                    // oracle: the fully encrypted image's plaintext (whose SHA-256 cryptsetup gives) below e ...
                    byte[] full;
                    try (BitlkVolume n = BitlkVolume.of(im.channel()).volumeKey(key).open()) {
                        full = readAll(n.payload(), im.size());
                    }
                    assertEquals(conf.get(name).get("SHA256SUM"), HexFormat.of().formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(full)), name);
                    assertTrue(Arrays.equals(full, 0, (int) e, got, 0, (int) e), name + ": decrypted below " + e);
                    assertEquals(BitlkImages.conf().get(name).get("UUID"), BitlkImages.uuid(Arrays.copyOf(got, 512)));
                    // ... and past it the image's own bytes, with the metadata area there still zeros
                    byte[] raw = crafted.read(e, (int) (im.size() - e));
                    for (long a : METADATA) {
                        if (a >= e) {
                            Arrays.fill(raw, (int) (a - e), (int) (a - e) + 65536, (byte) 0);
                        }
                    }
                    assertTrue(Arrays.equals(raw, 0, raw.length, got, (int) e, got.length), name
                            + ": as stored from " + e);
                    // and the stored bytes are not what decrypting them would give
                    assertFalse(Arrays.equals(full, (int) e, full.length, got, (int) e, got.length), name);
                }
            }
        }
    }

    @Test
    void pausedConversionAgreesWithDislockerBelowTheEncryptedSize(@TempDir Path dir) throws Exception {
        // dislocker-file reads a paused volume too (with a warning), but makes its output only the encrypted
        // size long (it takes that as the volume's size), where Windows shows the whole volume: the NTFS
        // boot sector still gives the whole volume's sectors. Below the encrypted size both must agree.
        TestImages.assumeTool("dislocker-file");
        SparseImages.Image im = BitlkImages.images().get("bitlk-aes-xts-128");
        byte[] key;
        try (BitlkVolume v = BitlkVolume.of(im.channel()).passphrase("anaconda".toCharArray()).open()) {
            key = v.volumeKey();
        }
        long e = 50L << 20;
        SparseImages.Image crafted = states(im, 5, 4, e);
        Path img = crafted.write(dir);
        Path fvek = dir.resolve("fvek");
        Files.write(fvek, BitlkDislockerTest.fvekFile(BitlkVolume.info(img), key));
        Path out = dir.resolve("plain");
        TestImages.Run r = TestImages.run(null, "dislocker-file", "-V", img.toString(), "-k", fvek.toString(), "--",
                out.toString());
        assertEquals(0, r.rc(), r.out() + r.err());
        byte[] theirs = Files.readAllBytes(out);
        assertEquals(e, theirs.length, "dislocker's output ends at the encrypted size");
        try (BitlkVolume v = BitlkVolume.of(crafted.channel()).volumeKey(key).open()) {
            byte[] ours = readAll(v.payload(), im.size());
            assertTrue(Arrays.equals(theirs, 0, theirs.length, ours, 0, (int) e), "below the encrypted size");
            long sectors = ByteBuffer.wrap(ours, 0x28, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertEquals(im.size() / 512 - 1, sectors, "the NTFS volume spans the whole image");
        }
    }

    @Test
    void unreadableConversionsRefusedByName() throws Exception {
        SparseImages.Image im = BitlkImages.images().get("bitlk-aes-xts-128");
        byte[] key = new byte[32];   // any key of the right length: the refusal comes before any sector is read
        long size = im.size();
        Object[][] cases = {
            {5, 4, size + 512, "partially encrypted (conversion state 5 conversion paused, next state 4 encrypted) "
                + "and its metadata gives an encrypted size of " + (size + 512) + " bytes, not a whole number of "
                + "512-byte sectors from the 8192 relocated header bytes to the " + size + "-byte volume"},
            {5, 1, -1L, "partially decrypted (conversion state 5 conversion paused, next state 1 decrypted) and its "
                + "metadata gives an encrypted size of 18446744073709551615 bytes"},
            {5, 4, 1000L, "encrypted size of 1000 bytes, not a whole number"},
            {5, 4, 4096L, "encrypted size of 4096 bytes, not a whole number"},
            {2, 4, 50L << 20, "This BitLocker volume was being encrypted when the image was taken (conversion state 2 "
                + "conversion running, next state 4 encrypted): the 0 bytes at byte 52428800 were in the middle of "
                + "conversion"},
            {1, 4, 0L, "in a conversion state this library does not read (conversion state 1 decrypted, next state 4"
                + " encrypted): only fully encrypted (4/4) and paused (5/4, 5/1) volumes are"},
            {3, 3, size, "in a conversion state this library does not read (conversion state 3 encrypt-on-write "
                + "activated"},
            {5, 5, size, "conversion state this library does not read"},
            {9, 4, size, "(conversion state 9 unknown, next state 4 encrypted)"},
        };
        for (Object[] c : cases) {
            SparseImages.Image crafted = states(im, (int) c[0], (int) c[1], (long) c[2]);
            BitlkInfo info = BitlkVolume.info(crafted.channel(), "crafted");   // the facts read, whatever they say
            assertEquals((long) c[2], info.encryptedSize());
            try (BitlkVolume v = BitlkVolume.of(crafted.channel()).volumeKey(key).open()) {
                UnsupportedVolumeException u = assertThrows(UnsupportedVolumeException.class, v::payload,
                        Arrays.toString(c));
                assertTrue(u.getMessage().contains((String) c[3]), u.getMessage());
                assertTrue(v.info().conversionDump().contains("\tPayload:      \tnot read: "));
            }
        }
    }

    /** A copy of {@code im} whose three metadata copies give states {@code curr}/{@code next} and encrypted size {@code e}. */
    static SparseImages.Image states(SparseImages.Image im, int curr, int next, long e) throws Exception {
        SparseImages.Image c = im.copy();
        for (long at : METADATA) {
            byte[] head = c.read(at, 64);
            int real = ((head[8] & 0xff) | (head[9] & 0xff) << 8) << 4;
            byte[] block = c.read(at, real);
            ByteBuffer b = ByteBuffer.wrap(block).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putShort(12, (short) curr).putShort(14, (short) next).putLong(16, e);
            CRC32 crc = new CRC32();
            crc.update(block);
            c.patch(at, block);
            c.patch(at + real + 4, ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt((int) crc.getValue()).array());
        }
        return c;
    }

    private static byte[] readAll(SeekableByteChannel p, long size) throws Exception {
        byte[] all = new byte[(int) size];
        ByteBuffer b = ByteBuffer.wrap(all);
        p.position(0);
        while (b.hasRemaining() && p.read(b) > 0) {
            // fills all
        }
        assertFalse(b.hasRemaining());
        return all;
    }
}
