package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * {@code volume format}: its options reach the header (checked by reading it back and by
 * cryptsetup), it asks for confirmation without {@code -q}, and every refusal exits 1 with one line
 * and the image unchanged. The formats' own layouts are tested in the volumes module.
 */
class FormatCommandTest {
    @TempDir
    Path dir;

    @Test
    void formatLuks1() throws Exception {
        Path img = dir.resolve("c.img"), kf = dir.resolve("k");
        Files.write(img, new byte[4 << 20]);
        Files.write(kf, "command key\n".getBytes(StandardCharsets.UTF_8));
        byte[] before = Files.readAllBytes(img);
        // no -q and no terminal: refused, nothing written
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "format", img.toString(), "--key-file", kf.toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertArrayEquals(before, Files.readAllBytes(img));
        r = VolumeMainAccess.run(null, "format", img.toString(), "--type", "luks2", "-q");
        assertEquals(1, r.rc());
        assertArrayEquals(before, Files.readAllBytes(img));
        r = VolumeMainAccess.run(null, "format", img.toString(), "--type", "luks1", "-q", "--key-file",
                kf.toString(), "--cipher", "aes-cbc-essiv:sha256", "--key-size", "256", "--hash", "sha512",
                "--pbkdf-force-iterations", "1000");
        assertEquals(0, r.rc(), r.err());
        r = VolumeMainAccess.run(null, "test", img.toString(), "--key-file", kf.toString(), "-v");
        assertEquals(0, r.rc(), r.err());
        assertEquals("Key slot 0 unlocked.\n", r.out());
        if (TestImages.have("cryptsetup")) {
            assertEquals(0, TestImages.run(null, "cryptsetup", "open", "--test-passphrase", "--key-file", kf.toString(),
                    img.toString()).rc());
        }
        // too small a file: refused, one line
        Path small = dir.resolve("s.img");
        Files.write(small, new byte[1 << 20]);
        r = VolumeMainAccess.run(null, "format", small.toString(), "--type", "luks1", "-q", "--key-file",
                kf.toString(), "--pbkdf-force-iterations", "1000");
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("needs"), r.err());
    }

    /**
     * The command's layout is cryptsetup's: luksDump of a volume each formats with the same options
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
        List<String> v = new ArrayList<>(List.of("format", ours.toString(), "-q", "--cipher", cipher, "--key-size",
                String.valueOf(bits), "--pbkdf", pbkdf, "--hash", hash));
        v.addAll(TestImages.fastKdfOptions(pbkdf));
        VolumeMainAccess.Result r = VolumeMainAccess.run("pw\n", v.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        assertEquals(TestImages.luksLayout(theirs), TestImages.luksLayout(ours));
    }

    @Test
    void formatLuks2() throws Exception {
        Path img = TestImages.sparse(dir.resolve("c.img"), 17L << 20), kf = dir.resolve("k");
        Files.write(kf, "command key".getBytes(StandardCharsets.UTF_8));
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "format", img.toString(), "-q", "--key-file",
                kf.toString(), "--pbkdf", "argon2id", "--pbkdf-memory", "1024", "--pbkdf-parallel", "1",
                "--pbkdf-force-iterations", "4", "--sector-size", "512", "--cipher", "aes-xts-plain64", "--key-size", "256");
        assertEquals(0, r.rc(), r.err());
        LuksInfo info = LuksVolume.at(img).info();
        assertEquals(2, info.version());
        assertEquals(512, info.sectorSize());
        assertEquals(256, info.keyBits());
        assertEquals("argon2id", info.keySlots().get(0).kdf());
        assertEquals(1024, info.keySlots().get(0).memoryKib());
        assertEquals(4, info.keySlots().get(0).time());
        assertEquals(1, info.keySlots().get(0).cpus());
        r = VolumeMainAccess.run("command key\n", "test", img.toString(), "-v");
        assertEquals(0, r.rc(), r.err());
        if (TestImages.have("cryptsetup")) {
            assertEquals(0, TestImages.run(null, "cryptsetup", "open", "--test-passphrase", "--key-file",
                    kf.toString(), img.toString()).rc());
        }
        // the first line of standard input as the passphrase, default type luks2, default sector size 4096
        Path img2 = TestImages.sparse(dir.resolve("d.img"), 17L << 20);
        r = VolumeMainAccess.run("stdin pass\nignored\n", "format", img2.toString(), "-q", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000");
        assertEquals(0, r.rc(), r.err());
        assertEquals(4096, LuksVolume.at(img2).info().sectorSize());
        assertEquals(0, VolumeMainAccess.run("stdin pass\n", "test", img2.toString()).rc());
    }

    @Test
    void formatRefusals() throws Exception {
        Path kf = dir.resolve("k");
        Files.write(kf, "k".getBytes(StandardCharsets.UTF_8));
        Path small = TestImages.sparse(dir.resolve("small.img"), 16L << 20);
        refused(small, "needs", "format", small.toString(), "-q", "--key-file", kf.toString(),
                "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000");
        Path img = TestImages.sparse(dir.resolve("ok.img"), 17L << 20);
        refused(img, "sector", "format", img.toString(), "-q", "--key-file", kf.toString(), "--sector-size", "1000");
        refused(img, "camellia", "format", img.toString(), "-q", "--key-file", kf.toString(), "--cipher",
                "camellia-xts-plain64", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000");
        refused(img, "too low", "format", img.toString(), "-q", "--key-file", kf.toString(), "--pbkdf", "argon2id",
                "--pbkdf-force-iterations", "2", "--pbkdf-memory", "1024");
        refused(img, "pbkdf2 only", "format", img.toString(), "--type", "luks1", "-q", "--key-file", kf.toString(),
                "--pbkdf", "argon2id");
        refused(img, "empty", "format", img.toString(), "-q", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000");
        refused(img, "confirmation", "format", img.toString(), "--key-file", kf.toString());
    }

    /** The command exits 1 with one line containing {@code words}, and {@code img} is unchanged. */
    static void refused(Path img, String words, String... args) throws Exception {
        byte[] before = Files.readAllBytes(img);
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, args);
        assertEquals(1, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().toLowerCase().contains(words.toLowerCase()), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        assertArrayEquals(before, Files.readAllBytes(img), "the image was written");
    }
}
