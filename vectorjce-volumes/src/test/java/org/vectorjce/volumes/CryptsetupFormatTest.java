package org.vectorjce.volumes;

import static org.vectorjce.volumes.TestImages.dumpedKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksKeySlot;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * Volumes cryptsetup formats here (AES only: its Twofish needs the kernel; LRW needs the device
 * mapper, so LRW is covered by cryptsetup's LUKS1 image instead): three key slots (a key file, then
 * two passphrases added with luksAddKey), fast KDF costs. Each must open with each secret; the
 * volume key must equal what {@code luksDump --dump-volume-key} shows; the info fields must match
 * {@code luksDump}; the payload must equal the provider's own sector cipher over the raw ciphertext.
 */
public class CryptsetupFormatTest {
    @TempDir
    Path dir;

    public record Case(String type, String cipher, int keyBits, String pbkdf, String hash, int sectorSize) {
        @Override
        public String toString() {
            return type + " " + cipher + " " + keyBits + " " + pbkdf + "/" + hash + " " + sectorSize;
        }
    }

    public static Stream<Case> cases() {
        return Stream.of(
                new Case("luks1", "aes-xts-plain64", 256, "pbkdf2", "sha1", 512),
                new Case("luks1", "aes-xts-plain64", 512, "pbkdf2", "sha256", 512),
                new Case("luks1", "aes-cbc-essiv:sha256", 256, "pbkdf2", "sha512", 512),
                new Case("luks1", "aes-cbc-plain64", 128, "pbkdf2", "sha256", 512),
                new Case("luks1", "aes-xts-plain", 256, "pbkdf2", "sha256", 512),
                new Case("luks1", "aes-ecb", 256, "pbkdf2", "sha1", 512),
                new Case("luks2", "aes-xts-plain64", 512, "argon2id", "sha256", 4096),
                new Case("luks2", "aes-xts-plain64", 256, "argon2i", "sha512", 512),
                new Case("luks2", "aes-cbc-essiv:sha256", 256, "pbkdf2", "sha1", 4096),
                new Case("luks2", "aes-cbc-plain", 256, "pbkdf2", "sha512", 2048),
                new Case("luks2", "aes-ecb", 128, "pbkdf2", "sha256", 512));
    }

    private static List<String> kdfOptions(Case c) {
        List<String> o = new ArrayList<>();
        if (c.type().equals("luks2")) {
            o.addAll(List.of("--pbkdf", c.pbkdf()));
        }
        o.addAll(List.of("--hash", c.hash()));
        if (c.pbkdf().startsWith("argon2")) {
            o.addAll(List.of("--pbkdf-memory", "1024", "--pbkdf-force-iterations", "4", "--pbkdf-parallel", "1"));
        } else {
            o.addAll(List.of("--pbkdf-force-iterations", "1000"));
        }
        return o;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void cryptsetupVolumesOpen(Case c) throws Exception {
        Made m = make(c, dir);
        Path img = m.img(), key = m.key();
        byte[] expectedKey = m.expectedKey(), cipherText = m.cipherText();
        String dump = m.dump();
        byte[] vk;
        try (LuksVolume v = LuksVolume.at(img).keyFile(key).open()) {
            assertEquals(0, v.keySlot().getAsInt());
            vk = v.volumeKey();
            assertArrayEquals(expectedKey, vk, "volume key");
            checkInfo(c, v.info(), dump);
            SeekableByteChannel p = v.payload();
            byte[] plain = new byte[cipherText.length];
            ByteBuffer b = ByteBuffer.wrap(plain);
            while (b.hasRemaining() && p.read(b) > 0) {
                // fill
            }
            assertArrayEquals(oracle(c, vk, cipherText), plain, "payload");
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase("second passphrase".toCharArray()).open()) {
            assertEquals(1, v.keySlot().getAsInt());
            assertArrayEquals(expectedKey, v.volumeKey());
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase("third ünïcode".toCharArray()).keySlot(3).open()) {
            assertEquals(3, v.keySlot().getAsInt());
        }
        assertThrows(WrongPassphraseException.class,
                () -> LuksVolume.at(img).passphrase("second passphrase".toCharArray()).keySlot(0).open());

        cryptsetupAgrees(c, img);
    }

    /**
     * A volume cryptsetup formatted as {@code c} says in {@code dir}: {@code key} in slot 0, the
     * passphrases "second passphrase" and "third ünïcode" in slots 1 and 3, random ciphertext
     * {@code cipherText} at the start of the payload; {@code dump} and {@code vkDump} are
     * {@code luksDump}'s and {@code luksDump --dump-volume-key}'s output, {@code expectedKey} the
     * key the latter shows.
     */
    public record Made(Path img, Path key, byte[] expectedKey, byte[] cipherText, String dump, String vkDump) {
    }

    /** Formats {@link Made}'s volume for {@code c} with cryptsetup (skipped without it). */
    public static Made make(Case c, Path dir) throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = dir.resolve("v.img");
        Path key = dir.resolve("key");
        byte[] keyBytes = new byte[64];
        new Random(c.hashCode()).nextBytes(keyBytes);
        keyBytes[10] = '\n'; // a key file is bytes, newline and all
        Files.write(key, keyBytes);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.truncate(0);
            f.write(ByteBuffer.allocate(1), 20L * 1024 * 1024 - 1);
        }
        List<String> fmt = new ArrayList<>(List.of("cryptsetup", "luksFormat", "-q", "--type", c.type(), "--cipher",
                c.cipher(), "--key-size", String.valueOf(c.keyBits())));
        fmt.addAll(kdfOptions(c));
        if (c.type().equals("luks2")) {
            fmt.addAll(List.of("--sector-size", String.valueOf(c.sectorSize())));
        }
        fmt.addAll(List.of(img.toString(), key.toString()));
        TestImages.ok(null, fmt.toArray(String[]::new));
        Path pass1 = dir.resolve("p1"), pass3 = dir.resolve("p3");
        Files.writeString(pass1, "second passphrase");
        Files.writeString(pass3, "third ünïcode");
        List<String> add = new ArrayList<>(List.of("cryptsetup", "luksAddKey", "-q"));
        add.addAll(kdfOptions(c));
        List<String> add1 = new ArrayList<>(add);
        add1.addAll(List.of("--key-file", key.toString(), img.toString(), pass1.toString()));
        TestImages.ok(null, add1.toArray(String[]::new));
        List<String> add3 = new ArrayList<>(add);
        add3.addAll(List.of("--key-slot", "3", "--key-file", key.toString(), img.toString(), pass3.toString()));
        TestImages.ok(null, add3.toArray(String[]::new));

        // Random ciphertext in the first 64 KiB of the payload: both sides must decrypt it alike.
        String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        long payloadOffset = c.type().equals("luks1") ? 512L * field(dump, "Payload offset:\\s*(\\d+)")
                : field(dump, "offset: (\\d+) \\[bytes\\]");
        byte[] cipherText = new byte[64 * 1024];
        new Random(1).nextBytes(cipherText);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(cipherText), payloadOffset);
        }

        String vkDump = TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key", "--batch-mode",
                "--key-file", key.toString(), img.toString()).out();
        byte[] expectedKey = dumpedKey(vkDump);
        assertEquals(c.keyBits() / 8, expectedKey.length);

        return new Made(img, key, expectedKey, cipherText, dump, vkDump);
    }

    /** cryptsetup's own --test-passphrase agrees on each secret. */
    private void cryptsetupAgrees(Case c, Path img) throws Exception {
        assertEquals(0, TestImages.run("second passphrase".getBytes(StandardCharsets.UTF_8), "cryptsetup", "open",
                "--test-passphrase", "--key-file", "-", img.toString()).rc());
        assertEquals(2, TestImages.run("wrong".getBytes(StandardCharsets.UTF_8), "cryptsetup", "open",
                "--test-passphrase", "--key-file", "-", img.toString()).rc());
    }

    private static long field(String dump, String regex) {
        Matcher m = Pattern.compile(regex).matcher(dump);
        assertTrue(m.find(), regex + " in\n" + dump);
        return Long.parseLong(m.group(1));
    }

    /** Our info against luksDump's text: cipher, key size, hash, key slots, offset, sector size. */
    private static void checkInfo(Case c, LuksInfo info, String dump) {
        List<Integer> ids = info.keySlots().stream().map(LuksKeySlot::id).toList();
        assertEquals(List.of(0, 1, 3), ids);
        if (c.type().equals("luks1")) {
            assertEquals(1, info.version());
            Map<String, String> f = fields(dump);
            assertEquals(f.get("Cipher name") + "-" + f.get("Cipher mode"), info.cipher());
            assertEquals(c.cipher(), info.cipher());
            assertEquals(f.get("Hash spec"), info.hash());
            assertEquals(Long.parseLong(f.get("Payload offset")) * 512, info.payloadOffset());
            assertEquals(Integer.parseInt(f.get("MK bits")), info.keyBits());
            assertEquals(f.get("UUID"), info.uuid());
            for (LuksKeySlot k : info.keySlots()) {
                assertTrue(dump.contains("Key Slot " + k.id() + ": ENABLED"), dump);
                assertEquals(1000, k.iterations());
            }
            assertTrue(dump.contains("Key Slot 2: DISABLED"));
            assertEquals(512, info.sectorSize());
        } else {
            assertEquals(2, info.version());
            assertEquals(c.cipher(), info.cipher());
            assertEquals(field(dump, "offset: (\\d+) \\[bytes\\]"), info.payloadOffset());
            assertEquals(field(dump, "sector: (\\d+) \\[bytes\\]"), info.sectorSize());
            assertEquals(c.sectorSize(), info.sectorSize());
            assertEquals(field(dump, "Metadata area: \\s*(\\d+)"), info.metadataSize());
            assertEquals(field(dump, "Keyslots area: \\s*(\\d+)"), info.keyslotsSize());
            assertEquals(field(dump, "Epoch: \\s*(\\d+)"), info.epoch());
            assertEquals(c.keyBits(), info.keyBits());
            // per key slot: kdf, key bits, area
            Matcher m = Pattern.compile("\\n  (\\d+): luks2\\n\\tKey:\\s+(\\d+) bits[\\s\\S]*?PBKDF:\\s+(\\S+)"
                    + "[\\s\\S]*?Area offset:(\\d+) \\[bytes\\]\\n\\tArea length:(\\d+) \\[bytes\\]").matcher(dump);
            int n = 0;
            while (m.find()) {
                LuksKeySlot k = info.keySlot(Integer.parseInt(m.group(1))).orElseThrow();
                assertEquals(Integer.parseInt(m.group(2)), k.keyBits());
                assertEquals(m.group(3), k.kdf());
                assertEquals(Long.parseLong(m.group(4)), k.areaOffset());
                assertEquals(Long.parseLong(m.group(5)), k.areaSize());
                n++;
            }
            assertEquals(3, n, dump);
            assertEquals(c.hash(), info.hash()); // the digest's hash is --hash
        }
    }

    private static Map<String, String> fields(String dump) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : dump.split("\n")) {
            int i = line.indexOf(':');
            if (i > 0 && !line.startsWith("\t") && !line.startsWith(" ")) {
                m.putIfAbsent(line.substring(0, i).trim(), line.substring(i + 1).trim());
            }
        }
        return m;
    }

    /** The provider's Cipher with SectorParameterSpec (ECB: AES/ECB) over the raw ciphertext. */
    static byte[] oracle(Case c, byte[] vk, byte[] ct) throws Exception {
        String[] p = c.cipher().split("-", 3);
        String alg = p[0].equals("aes") ? "AES" : p[0].equals("serpent") ? "Serpent" : "Twofish";
        if (p[1].equals("ecb")) {
            Cipher e = Cipher.getInstance(alg + "/ECB/NoPadding", new VectorJceProvider());
            e.init(Cipher.DECRYPT_MODE, new SecretKeySpec(vk, alg));
            return e.doFinal(ct);
        }
        Cipher x = Cipher.getInstance(alg + "/" + p[1].toUpperCase() + "/NoPadding", new VectorJceProvider());
        x.init(Cipher.DECRYPT_MODE, new SecretKeySpec(vk, alg), new SectorParameterSpec(p[2], 0, c.sectorSize()));
        return x.doFinal(ct);
    }

    static PrintStream print(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    static ByteArrayInputStream in(String s) {
        return new ByteArrayInputStream(s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8));
    }
}
