package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * LUKS2 volumes we format, checked against cryptsetup: luksDump parses them and shows our layout
 * (cryptsetup 2.6's default: 16 KiB metadata, keyslots area to 16 MiB, data at 16 MiB, dynamic
 * segment), open --test-passphrase accepts the passphrase and refuses another (AES; its Twofish
 * needs the kernel), luksDump --dump-volume-key shows our volume key, and random ciphertext in the
 * payload decrypts through our payload channel as the provider's sector cipher decrypts it under
 * that key.
 */
class Luks2FormatTest {
    @TempDir
    Path dir;


    @ParameterizedTest
    @CsvSource({"aes-xts-plain64,512,argon2id,sha256,4096", "aes-xts-plain64,256,argon2i,sha512,512",
        "aes-cbc-essiv:sha256,256,pbkdf2,sha1,2048", "aes-cbc-plain64,128,pbkdf2,sha256,512",
        "twofish-xts-plain64,512,argon2id,sha256,4096", "twofish-cbc-essiv:sha256,256,pbkdf2,sha512,512"})
    void formattedVolumesPassCryptsetup(String cipher, int bits, String pbkdf, String hash, int sector) throws Exception {
        Path img = TestImages.sparse(dir.resolve("f.img"), 18L << 20);
        byte[] pw = "luks2 format pass".getBytes(StandardCharsets.UTF_8);
        KeySlotOptions o = KeySlotOptions.defaults().pbkdf(pbkdf).hash(hash)
                .forceIterations(pbkdf.equals("pbkdf2") ? 1000 : 4).memoryKib(1024).parallel(1);
        LuksInfo info = Luks2Format.luks2().cipher(cipher).keySize(bits).sectorSize(sector).keySlot(o).format(img, pw);
        assertEquals(2, info.version());
        assertEquals(cipher, info.cipher());
        assertEquals(16L << 20, info.payloadOffset());
        assertEquals(2L << 20, info.payloadSize());

        byte[] ct = new byte[64 * 1024];
        new Random(bits + sector).nextBytes(ct);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(ct), 16L << 20);
        }
        byte[] vk, plain = new byte[ct.length];
        try (LuksVolume v = LuksVolume.at(img).passphrase(pw).open()) {
            assertEquals(0, v.keySlot().getAsInt());
            vk = v.volumeKey();
            SeekableByteChannel p = v.payload();
            ByteBuffer b = ByteBuffer.wrap(plain);
            while (b.hasRemaining() && p.read(b) > 0) {
                // fill
            }
        }
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).passphrase("nope".toCharArray()).open());
        CryptsetupFormatTest.Case c = new CryptsetupFormatTest.Case("luks2", cipher, bits, pbkdf, hash, sector);
        if (!TestImages.have("cryptsetup")) {
            // without cryptsetup only the provider's cipher under our own key is checked
            assertArrayEquals(CryptsetupFormatTest.oracle(c, vk, ct), plain);
            return;
        }
        String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        assertTrue(dump.contains("Version:       \t2"), dump);
        assertTrue(dump.contains("Metadata area: \t16384 [bytes]"), dump);
        assertTrue(dump.contains("Keyslots area: \t16744448 [bytes]"), dump);
        assertTrue(dump.contains("offset: 16777216 [bytes]"), dump);
        assertTrue(dump.contains("length: (whole device)"), dump);
        assertTrue(dump.contains("cipher: " + cipher), dump);
        assertTrue(dump.contains("sector: " + sector + " [bytes]"), dump);
        assertTrue(dump.contains("  0: luks2\n\tKey:        " + bits + " bits"), dump);
        assertTrue(dump.contains("PBKDF:      " + pbkdf), dump);
        assertTrue(dump.contains("Area offset:32768 [bytes]"), dump);
        assertTrue(dump.contains("Hash:       " + hash), dump);
        if (cipher.startsWith("twofish")) {
            // cryptsetup's Twofish needs the kernel: the provider's cipher under our key is the oracle
            assertArrayEquals(CryptsetupFormatTest.oracle(c, vk, ct), plain);
            return;
        }
        assertEquals(0, TestImages.run(pw, "cryptsetup", "open", "--test-passphrase", "--key-file", "-",
                img.toString()).rc());
        assertEquals(2, TestImages.run("nope".getBytes(StandardCharsets.UTF_8), "cryptsetup", "open",
                "--test-passphrase", "--key-file", "-", img.toString()).rc());
        Path kf = dir.resolve("kf");
        Files.write(kf, pw);
        byte[] dumped = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump",
                "--dump-volume-key", "--batch-mode", "--key-file", kf.toString(), img.toString()).out());
        assertArrayEquals(dumped, vk, "volume key");
        assertArrayEquals(CryptsetupFormatTest.oracle(c, dumped, ct), plain, "payload");
    }

    /**
     * Our layout is cryptsetup's: luksDump of a volume each of us formats with the same options
     * differs only in what is random (UUID, salts, digest) and the epoch (cryptsetup writes its
     * header several times while formatting).
     */
    @ParameterizedTest
    @CsvSource({"aes-xts-plain64,512,argon2id,sha256", "aes-cbc-essiv:sha256,256,pbkdf2,sha512"})
    void sameLayoutAsCryptsetup(String cipher, int bits, String pbkdf, String hash) throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path ours = TestImages.sparse(dir.resolve("ours.img"), 20L << 20);
        Path theirs = TestImages.sparse(dir.resolve("theirs.img"), 20L << 20);
        TestImages.cryptsetupLuks2(theirs, cipher, bits, pbkdf, hash);
        KeySlotOptions o = KeySlotOptions.defaults().pbkdf(pbkdf).hash(hash);
        if (pbkdf.equals("pbkdf2")) {
            o.forceIterations(1000);
        } else {
            o.forceIterations(4).memoryKib(1024).parallel(1);
        }
        Luks2Format.luks2().cipher(cipher).keySize(bits).keySlot(o).format(ours, "pw".getBytes(StandardCharsets.UTF_8));
        assertEquals(TestImages.luksLayout(theirs), TestImages.luksLayout(ours));
    }

}
