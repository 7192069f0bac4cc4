package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * {@link Volumes}: the format found from the header's signature, the options a format does not take
 * refused by name before anything is unlocked, a named LUKS version checked against the header, and
 * the common {@link VolumeInfo} and {@link Volume} of a LUKS volume against its own {@code LuksInfo}.
 * The formats' own images open through {@code Volumes.open} in their image tests
 * ({@code CryptsetupImagesTest}, {@code TcryptImagesTest}, {@code BitlkImagesTest},
 * {@code Fvault2ImagesTest}).
 */
class VolumesTest {
    private static final byte[] PW = "volumes test".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path dir;
    static Path luks1, luks2, random;

    @BeforeAll
    static void images() throws Exception {
        luks1 = dir.resolve("l1.img");
        Files.write(luks1, new byte[3 << 20]);
        Luks1Format.luks1().keySize(256).iterations(1000).format(luks1, PW);
        luks2 = dir.resolve("l2.img");
        Files.write(luks2, new byte[(16 << 20) + 4096]);
        Luks2Format.luks2().keySize(256).keySlot(TestImages.fast("pbkdf2")).format(luks2, PW);
        random = dir.resolve("random.img");
        byte[] r = new byte[1 << 20];
        new Random(37).nextBytes(r);
        Files.write(random, r);
    }

    @Test
    void theDefaultProviderTakesTheScalarArithmeticUnlessThePropertyNamesOne() {
        String fromProperties = new org.vectorjce.VectorJceProvider().settings().get("arithmetic");
        java.util.Map<String, String> got = Volumes.defaultProvider().settings();
        assertEquals("auto".equals(fromProperties) ? "scalar" : fromProperties, got.get("arithmetic"));
        // every other setting is the system properties' own
        java.util.Map<String, String> rest = new java.util.HashMap<>(got);
        java.util.Map<String, String> base = new java.util.HashMap<>(new org.vectorjce.VectorJceProvider().settings());
        rest.remove("arithmetic");
        base.remove("arithmetic");
        assertEquals(base, rest);
        assertTrue(Volumes.defaultProvider() != Volumes.defaultProvider(), "a new instance per call");
    }

    @Test
    void detectsTheFormatFromTheSignature() throws Exception {
        assertEquals(VolumeFormat.LUKS1, Volumes.detect(luks1));
        assertEquals(VolumeFormat.LUKS2, Volumes.detect(luks2));
        assertNull(Volumes.detect(random));
        try (SeekableByteChannel c = FileChannel.open(luks2, StandardOpenOption.READ)) {
            c.position(1234);
            assertEquals(VolumeFormat.LUKS2, Volumes.detect(c));
            assertEquals(1234, c.position(), "the channel's position is kept");
        }
        Path empty = dir.resolve("empty.img");
        Files.write(empty, new byte[0]);
        assertNull(Volumes.detect(empty));
    }

    @Test
    void opensLuksWithTheCommonInfo() throws Exception {
        for (Path img : new Path[] {luks1, luks2}) {
            try (Volume v = Volumes.open(img).passphrase(PW).open()) {
                LuksVolume l = (LuksVolume) v;
                VolumeInfo i = v.info();
                assertEquals(img == luks1 ? VolumeFormat.LUKS1 : VolumeFormat.LUKS2, i.format());
                assertEquals(l.info().cipher(), i.cipherSpec());
                assertEquals("aes-xts-plain64", i.cipherSpec());
                assertEquals(l.info().uuid(), i.uuid());
                assertEquals(l.payloadSize(), i.payloadSize());
                assertEquals(l.info().sectorSize(), v.sectorSize());
                assertTrue(v.readOnly(), "opened for reading");
                try (SeekableByteChannel p = v.payload()) {
                    assertEquals(v.payloadSize(), p.size());
                    assertThrows(java.nio.channels.NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(512)));
                }
            }
            try (Volume v = Volumes.open(img).passphrase(new String(PW, StandardCharsets.UTF_8).toCharArray()).readWrite().open()) {
                assertFalse(v.readOnly());
                byte[] key = v.volumeKey();
                try (Volume k = Volumes.open(img).volumeKey(key).open()) {
                    assertArrayEquals(key, k.volumeKey());
                }
            }
        }
    }

    @Test
    void theDriverTableHasOneDriverPerFormatInProbeOrder() throws Exception {
        java.util.List<VolumeFormat> seen = new java.util.ArrayList<>();
        for (VolumeDriver d : Volumes.drivers()) {
            seen.addAll(new java.util.TreeSet<>(d.formats()));
        }
        assertEquals(java.util.List.of(VolumeFormat.values()), seen, "every format once, LUKS probed first");
        for (VolumeFormat f : VolumeFormat.values()) {
            assertTrue(Volumes.driver(f).formats().contains(f), f.toString());
        }
        try (SeekableByteChannel c = FileChannel.open(luks1, StandardOpenOption.READ)) {
            assertEquals(VolumeFormat.LUKS1, Volumes.driver(VolumeFormat.LUKS2).probe(c, "luks1"));
            assertNull(Volumes.driver(VolumeFormat.BITLK).probe(c, "luks1"));
            assertNull(Volumes.driver(VolumeFormat.FVAULT2).probe(c, "luks1"));
            assertNull(Volumes.driver(VolumeFormat.TCRYPT).probe(c, "luks1"), "no signature to probe");
            assertEquals(VolumeFormat.LUKS1, Volumes.driver(VolumeFormat.LUKS1).info(c, "luks1").format());
        }
    }

    @Test
    void refusesWhatTheFormatDoesNotTakeByName() {
        UnsupportedVolumeException e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(luks2).passphrase(PW).pim(5).open());
        assertTrue(e.getMessage().contains("LUKS2 volume takes no PIM"), e.getMessage());
        e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(luks1).passphrase(PW).startupKey(new byte[124]).open());
        assertTrue(e.getMessage().contains("LUKS1 volume takes no startup key"), e.getMessage());
        e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(random).type(VolumeFormat.BITLK).passphrase(PW).readWrite().open());
        assertTrue(e.getMessage().contains("BitLocker volume takes no read-write"), e.getMessage());
        e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(random).type(VolumeFormat.FVAULT2).passphrase(PW).readWrite().open());
        assertTrue(e.getMessage().contains("FileVault 2 volume takes no read-write"), e.getMessage());
        e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(luks2).passphrase(PW).keyFile(random).keyFile(luks1).open());
        assertTrue(e.getMessage().contains("one key file, not 2"), e.getMessage());
    }

    @Test
    void aNamedLuksVersionMustBeTheHeaders() {
        UnsupportedVolumeException e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(luks2).type(VolumeFormat.LUKS1).passphrase(PW).open());
        assertTrue(e.getMessage().contains("is a LUKS2 header, not LUKS1"), e.getMessage());
        e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(luks1).type(VolumeFormat.LUKS2).passphrase(PW).open());
        assertTrue(e.getMessage().contains("is a LUKS1 header, not LUKS2"), e.getMessage());
    }

    @Test
    void noSignatureSaysItMayBeTrueCrypt() {
        UnsupportedVolumeException e = assertThrows(UnsupportedVolumeException.class,
                () -> Volumes.open(random).passphrase(PW).open());
        assertTrue(e.getMessage().contains("No LUKS, BitLocker or FileVault 2 header in " + random), e.getMessage());
        assertTrue(e.getMessage().contains("TCRYPT"), e.getMessage());
    }

    @Test
    void aWrongPassphraseIsTheFormatsAnswer() {
        assertThrows(WrongPassphraseException.class, () -> Volumes.open(luks2).passphrase("nope".getBytes(StandardCharsets.UTF_8)).open());
    }
}
