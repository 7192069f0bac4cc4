package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * LUKS1 volumes we format: cryptsetup must accept them (luksDump, open --test-passphrase, the same
 * volume key dumped) for AES; QEMU's LUKS driver must open them and read back the payload we
 * wrote through them (it reads Twofish and Serpent too).
 */
class Luks1FormatTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"aes-xts-plain64,512,sha256", "aes-xts-plain64,256,sha1", "aes-cbc-essiv:sha256,256,sha512",
        "aes-cbc-plain64,128,ripemd160", "twofish-xts-plain64,512,sha256", "twofish-cbc-essiv:sha256,256,sha1",
        "serpent-xts-plain64,512,sha256", "serpent-cbc-essiv:sha256,256,sha1"})
    void formattedVolumesOpenInCryptsetupAndQemu(String cipher, int bits, String hash) throws Exception {
        Path img = dir.resolve("f.img");
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (8 << 20) - 1);
        }
        byte[] pw = "format pass".getBytes(StandardCharsets.UTF_8);
        LuksInfo info = Luks1Format.luks1().cipher(cipher).keySize(bits).hash(hash).iterations(1000).format(img, pw);
        assertEquals(cipher, info.cipher());
        assertEquals(bits, info.keyBits());
        byte[] vk;
        byte[] data = new byte[(int) info.payloadSize()];
        new java.util.Random(cipher.hashCode()).nextBytes(data);
        try (LuksVolume v = LuksVolume.at(img).passphrase(pw).readWrite().open()) {
            vk = v.volumeKey();
            assertEquals(0, v.keySlot().getAsInt());
            java.nio.channels.SeekableByteChannel p = v.payload();
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                p.write(b);
            }
        }
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).passphrase("nope".toCharArray()).open());
        if (TestImages.have("cryptsetup") && cipher.startsWith("aes")) {
            String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
            assertTrue(dump.contains("Cipher mode:   \t" + cipher.substring(4)), dump);
            assertTrue(dump.contains("Hash spec:     \t" + hash), dump);
            assertTrue(dump.contains("MK bits:       \t" + bits), dump);
            assertEquals(0, TestImages.run(pw, "cryptsetup", "open", "--test-passphrase", "--key-file", "-",
                    img.toString()).rc());
            Path kf = dir.resolve("kf");
            Files.write(kf, pw);
            assertArrayEquals(vk, TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump",
                    "--dump-volume-key", "--batch-mode", "--key-file", kf.toString(), img.toString()).out()));
        }
        if (TestImages.have("qemu-img") && !hash.equals("ripemd160")) {
            Path out = dir.resolve("out.raw");
            TestImages.Run r = TestImages.run(null, "qemu-img", "convert", "--object", "secret,id=s,data=format pass",
                    "--image-opts", "driver=luks,key-secret=s,file.filename=" + img, "-O", "raw", out.toString());
            assertEquals(0, r.rc(), r.err());
            assertArrayEquals(data, Files.readAllBytes(out), "QEMU reads the payload we wrote");
        }
    }
}
