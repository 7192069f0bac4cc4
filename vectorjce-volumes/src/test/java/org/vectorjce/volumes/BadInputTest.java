package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * Forged and damaged headers, made from cryptsetup's compatimage (LUKS1) and compatimage2 (LUKS2,
 * its JSON rewritten with consistent checksums so only the field under test is wrong): each ends
 * in the documented exception naming the problem, and the image is not written.
 *
 * <p>The {@code volume} command's tests extend this class ({@code BadInputCommandTest} in the tool
 * module) and run the command on the same images through the {@code command*} hooks, which do
 * nothing here; there {@link #libraryChecks} is false, so the library's own checks, which this
 * class runs, are not run twice, and the tests that have no command part are skipped.
 */
public class BadInputTest {
    @TempDir
    static Path shared;
    protected static byte[] luks1, luks2;
    static String json;

    @TempDir
    protected Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        luks1 = Files.readAllBytes(TestImages.unxz("compatimage.img.xz", shared));
        Path l2 = TestImages.unxz("compatimage2.img.xz", shared);
        luks2 = Files.readAllBytes(l2);
        json = TestImages.luks2Json(l2);
    }

    protected Path image(byte[] content) throws Exception {
        Path p = Files.createTempFile(dir, "img", ".bin");
        Files.write(p, content);
        return p;
    }

    private Path luks2With(String from, String to) throws Exception {
        assertTrue(json.contains(from), from);
        Path p = image(luks2);
        TestImages.rewriteLuks2Json(p, json.replace(from, to));
        return p;
    }

    /**
     * Whether the library's own checks run: true here; a subclass that checks the command through
     * the hooks returns false, the library's checks being this class's run.
     */
    protected boolean libraryChecks() {
        return true;
    }

    private static final String LIBRARY_ONLY = "the library's check alone, run by BadInputTest";

    /**
     * A subclass's check that the command refuses {@code img} with {@code pass}, saying
     * {@code words} in one line.
     */
    protected void commandRefuses(Path img, String words, String pass) throws Exception {
    }

    /** A subclass's check that the command's {@code info} of {@code img} shows a warning. */
    protected void commandWarns(Path img) throws Exception {
    }

    /**
     * A subclass's check that the command refuses to open key slot {@code slot} of {@code img} with
     * {@code pass}, saying {@code words}.
     */
    protected void commandRefusesSlot(Path img, String pass, int slot, String words) throws Exception {
    }

    /**
     * {@code open} fails with {@code type} whose message contains {@code words}, as does the
     * command ({@link #commandRefuses}); the image is not written.
     */
    private <T extends VolumeException> void refused(Class<T> type, Path img, String words, String pass)
            throws Exception {
        Files.setLastModifiedTime(img, FileTime.fromMillis(1_000_000_000_000L));
        byte[] before = Files.readAllBytes(img);
        if (libraryChecks()) {
            Executable open = () -> LuksVolume.at(img).passphrase(pass.toCharArray()).open().close();
            T e = assertThrows(type, open);
            assertTrue(e.getMessage().contains(words), () -> "'" + words + "' not in: " + e.getMessage());
        }
        commandRefuses(img, words, pass);
        assertArrayEquals(before, Files.readAllBytes(img), "the image was written");
        assertEquals(FileTime.fromMillis(1_000_000_000_000L), Files.getLastModifiedTime(img));
    }

    private static void putInt(byte[] b, int off, int v) {
        ByteBuffer.wrap(b).putInt(off, v);
    }

    // --- LUKS1 ---

    @Test
    void luks1TruncatedToLessThanAHeader() throws Exception {
        refused(CorruptHeaderException.class, image(java.util.Arrays.copyOf(luks1, 300)), "too small for a LUKS1 header",
                "compatkey");
    }

    @Test
    void luks1TruncatedBeforeThePayload() throws Exception {
        refused(CorruptHeaderException.class, image(java.util.Arrays.copyOf(luks1, 100 * 1024)), "payload-offset",
                "compatkey");
    }

    @Test
    void luks1PayloadNotWholeSectors() throws Exception {
        refused(CorruptHeaderException.class, image(java.util.Arrays.copyOf(luks1, luks1.length + 100)),
                "not a whole number of 512-byte sectors", "compatkey");
    }

    @ParameterizedTest
    @CsvSource({
        // field offset, value, words
        "108, 2147483647, key-bytes",                    // key-bytes
        "104, 2147483647, payload-offset",               // payload offset far outside the image
        "248, -1, key slot 0: key material",            // slot 0 key material offset (0xffffffff sectors)
        "252, -1, stripes",                              // slot 0 stripes overflow
        "296, 8, key material areas overlap",           // slot 1 key material offset = slot 0's
        "208, 305419896, neither active",                // slot 0 state 0x12345678
    })
    void luks1ForgedField(int offset, int value, String words) throws Exception {
        byte[] b = luks1.clone();
        putInt(b, offset, value);
        refused(CorruptHeaderException.class, image(b), words, "compatkey");
    }

    @Test
    void luks1UnknownVersionAndNoMagic() throws Exception {
        byte[] b = luks1.clone();
        b[7] = 3;
        refused(UnsupportedVolumeException.class, image(b), "LUKS version 3", "compatkey");
        b = luks1.clone();
        b[0] = 'X';
        refused(CorruptHeaderException.class, image(java.util.Arrays.copyOf(b, 20000)), "not a LUKS volume", "compatkey");
    }

    // --- LUKS2: the JSON ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"keyslots\":{\"0\":{\"type\"|{\"keyslots\":{\"0\":{{\"type\"|not valid JSON",
        "\"json_size\":\"12288\"|\"json_size\":\"28672\"|json_size",
        "\"keyslots_size\":\"4161536\"|\"keyslots_size\":\"999999999999\"|keyslots_size",
        "\"offset\":\"98304\"|\"offset\":\"65536\"|areas overlap",
        "\"offset\":\"98304\"|\"offset\":\"99999997952\"|outside the key slot area",
        "\"stripes\":4000,\"hash\":\"sha256\"},\"area\":{\"type\":\"raw\",\"offset\":\"32768\"|\"stripes\":40000,\"hash\":\"sha256\"},\"area\":{\"type\":\"raw\",\"offset\":\"32768\"|overflow its area",
        "\"sector_size\":512|\"sector_size\":1000|sector_size 1000",
        "\"sector_size\":512|\"sector_size\":8192|sector_size 8192",
        "\"sector_size\":512|\"sector_size\":4096|not a whole number of 4096-byte sectors",
        "\"offset\":\"4194304\"|\"offset\":\"419430400\"|beyond the end",
        "\"offset\":\"4194304\"|\"offset\":\"-5\"|not an unsigned decimal integer",
        "\"offset\":\"4194304\"|\"offset\":\"16384\"|inside the LUKS2 metadata",
        "\"size\":\"dynamic\"|\"size\":\"1048576\"|reaches beyond the end",
        "\"iterations\":1862|\"iterations\":4294967296|iterations 4294967296",
        "\"keyslots\":[\"0\",\"1\"]|\"keyslots\":[\"0\",\"7\"]|keyslot 7, which does not exist",
        "\"memory\":65536|\"memory\":5000000|memory 5000000",
        "\"tokens\":{}|\"tokens\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]|nesting",
        "\"tokens\":{}|\"tokens\":{},\"tokens\":{}|duplicate member",
    })
    void luks2ForgedJson(String from, String to, String words) throws Exception {
        refused(CorruptHeaderException.class, luks2With(from, to), words, "compatkey");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"keyslots_size\":\"4161536\"}|\"keyslots_size\":\"4161536\",\"requirements\":{\"mandatory\":[\"online-reencrypt-v2\"]}}|online-reencrypt-v2",
        "\"type\":\"crypt\"|\"type\":\"linear\"|'linear'",
        "\"sector_size\":512|\"sector_size\":512,\"integrity\":{\"type\":\"hmac(sha256)\"}|integrity",
        "{\"0\":{\"type\":\"luks2\"|{\"0\":{\"type\":\"reencrypt\"|'reencrypt'",
        "\"encryption\":\"aes-cbc-essiv:sha256\",\"sector_size\"|\"encryption\":\"serpent-xts-plain64\",\"sector_size\"|serpent",
        "\"encryption\":\"aes-cbc-essiv:sha256\",\"sector_size\"|\"encryption\":\"capi:xts(aes)-plain64\",\"sector_size\"|capi:",
    })
    void luks2Unsupported(String from, String to, String words) throws Exception {
        refused(UnsupportedVolumeException.class, luks2With(from, to), words, "compatkey");
    }

    @Test
    void luks2JsonAreaWithoutNul() throws Exception {
        Path p = image(luks2);
        byte[] b = Files.readAllBytes(p);
        for (int at : new int[] {0, 16384}) {
            java.util.Arrays.fill(b, at + 4096, at + 16384, (byte) ' ');
            b[at + 4096] = '{';
            TestImages.resum(b, at, 16384);
        }
        Files.write(p, b);
        refused(CorruptHeaderException.class, p, "not NUL-terminated", "compatkey");
    }

    @Test
    void luks2HdrSizeLies() throws Exception {
        byte[] b = luks2.clone();
        ByteBuffer.wrap(b).putLong(8, 1L << 33);
        ByteBuffer.wrap(b).putLong(16384 + 8, 1L << 33);
        refused(CorruptHeaderException.class, image(b), "hdr_size", "compatkey");
    }

    @Test
    void luks2TruncatedInsideTheKeySlotArea() throws Exception {
        refused(CorruptHeaderException.class, image(java.util.Arrays.copyOf(luks2, 64 * 1024)), "keyslots_size",
                "compatkey");
    }

    /** One copy's checksum broken: reported, the other copy used; both broken: refused. */
    @Test
    void luks2OneBadChecksumIsReportedBothAreRefused() throws Exception {
        for (int bad : new int[] {0, 16384}) {
            byte[] b = luks2.clone();
            b[bad + 16000] ^= 1; // inside the JSON area, after the text: only the checksum notices
            Path p = image(b);
            if (libraryChecks()) {
                try (LuksVolume v = LuksVolume.at(p).passphrase("compatkey".toCharArray()).keySlot(0).open()) {
                    LuksInfo i = v.info();
                    assertEquals(1, i.warnings().size(), i.warnings().toString());
                    assertTrue(i.warnings().get(0).contains("checksum"), i.warnings().get(0));
                    assertTrue(i.warnings().get(0).contains(bad == 0 ? "using the secondary" : "using the primary"),
                            i.warnings().get(0));
                }
            }
            commandWarns(p);
        }
        byte[] b = luks2.clone();
        b[16000] ^= 1;
        b[16384 + 16000] ^= 1;
        refused(CorruptHeaderException.class, image(b), "No valid LUKS2 header", "compatkey");
    }

    /** A copy whose checksum is right but whose JSON is invalid: the other copy is used, and that is reported. */
    @Test
    void luks2BadJsonInOneCopyFallsBackToTheOther() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(libraryChecks(), LIBRARY_ONLY);
        Path p = image(luks2);
        byte[] b = Files.readAllBytes(p);
        byte[] bad = json.replace("\"sector_size\":512", "\"sector_size\":1000").getBytes(StandardCharsets.UTF_8);
        java.util.Arrays.fill(b, 4096, 16384, (byte) 0);
        System.arraycopy(bad, 0, b, 4096, bad.length);
        ByteBuffer.wrap(b).putLong(16, 20); // the newer copy, so it is tried first
        TestImages.resum(b, 0, 16384);
        Files.write(p, b);
        try (LuksVolume v = LuksVolume.at(p).passphrase("compatkey".toCharArray()).keySlot(0).open()) {
            String w = String.join("; ", v.info().warnings());
            assertTrue(w.contains("sector_size 1000") && w.contains("using the secondary header"), w);
            assertEquals(9, v.info().epoch());
        }
    }

    /** The newer seqid wins when the copies differ. */
    @Test
    void luks2HighestSeqidWins() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(libraryChecks(), LIBRARY_ONLY);
        byte[] b = luks2.clone();
        ByteBuffer.wrap(b).putLong(16384 + 16, 10);
        TestImages.resum(b, 16384, 16384);
        LuksInfo i = LuksVolume.at(image(b)).info();
        assertEquals(10, i.epoch());
        assertTrue(i.warnings().get(0).contains("using the secondary"), i.warnings().toString());
    }

    /** An Argon2 slot whose memory the heap cannot hold: says how much -Xmx, no OutOfMemoryError. */
    @Test
    void argon2MemoryAboveTheHeap() throws Exception {
        long heapMiB = Runtime.getRuntime().maxMemory() >> 20;
        org.junit.jupiter.api.Assumptions.assumeTrue(heapMiB < 4000, "the heap holds 4 GiB: nothing to show");
        Path p = luks2With("\"memory\":65536", "\"memory\":4194304");
        if (libraryChecks()) {
            VolumeException e = assertThrows(VolumeException.class,
                    () -> LuksVolume.at(p).passphrase("compatkey".toCharArray()).keySlot(1).open());
            assertTrue(e.getMessage().contains("-Xmx"), e.getMessage());
            assertTrue(e.getMessage().contains("4096 MiB"), e.getMessage());
        }
        commandRefusesSlot(p, "compatkey", 1, "-Xmx");
    }

    /** A volume opened from a path never opens it for writing (a read-only file opens fine). */
    @Test
    void readOnlyFileOpens() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(libraryChecks(), LIBRARY_ONLY);
        Path p = image(luks2);
        p.toFile().setWritable(false);
        try (LuksVolume v = LuksVolume.at(p).passphrase("compatkey".toCharArray()).keySlot(0).open();
                FileChannel ignored = FileChannel.open(p, StandardOpenOption.READ)) {
            assertEquals(512, v.payload().size());
        }
    }
}
