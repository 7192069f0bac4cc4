package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.fvault2.Fvault2FilesAccess;

/**
 * {@code volume info|test|decrypt --type fvault2} on cryptsetup's image {@code small} (written out
 * by the tests of package {@code fvault2}, via {@link Fvault2FilesAccess}): the exit codes (0; 2
 * for a wrong password, with cryptsetup's line; 1 with one line for a bad option or not a
 * FileVault 2 volume), the type found from the signature, a decrypted device with the script's
 * SHA-256 from the password and from {@code --volume-key-file}, and, where cryptsetup is
 * installed, {@code info} and {@code info --dump-volume-key} byte-equal to {@code fvault2Dump}'s.
 */
class Fvault2CommandTest {
    @TempDir
    Path dir;

    private static VolumeMainAccess.Result run(String stdin, String... args) {
        return VolumeMainAccess.run(stdin, args);
    }

    @Test
    void infoTestDecrypt() throws Exception {
        Path img = Fvault2FilesAccess.small(dir);
        VolumeMainAccess.Result r = run(null, "info", "--type", "fvault2", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("Header information for FVAULT2 device " + img + ".\nPhysical volume UUID: \t"
                + "fc52bfae-5a1f-4f9b-b3a6-f33303a0e401\n"), r.out());
        String info = r.out();

        r = run("heslo\n", "test", "--type", "fvault2", img.toString());
        assertEquals(2, r.rc());
        assertEquals("No key available with this passphrase.\n", r.err());
        r = run(Fvault2FilesAccess.PASSWORD + "\n", "test", "--type", "fvault2", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out() + r.err());

        r = run(Fvault2FilesAccess.PASSWORD + "\n", "info", "--type", "fvault2", "--dump-volume-key", "-q",
                img.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(info + "Volume key:       \t20 73 4d 33 89 21 27 74 d7 61 0c 29 d7 32 88 09 16 f3 be 14 c4 b1 2a "
                + "c7 aa f0 7e 5c cc 77 b3 19 \n", r.out());
        String keyDump = r.out();
        r = run(Fvault2FilesAccess.PASSWORD + "\n", "info", "--type", "fvault2", "--dump-volume-key", img.toString());
        assertEquals(1, r.rc());
        assertEquals("--dump-volume-key needs confirmation on a terminal, or -q\n", r.err());

        Path key = dir.resolve("vk");
        Files.write(key, Fvault2FilesAccess.volumeKey());
        Path out = dir.resolve("plain");
        r = run(null, "decrypt", "--type", "fvault2", "--volume-key-file", key.toString(), img.toString(),
                out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fvault2FilesAccess.SHA256, sha256(out));
        Files.delete(out);
        Path pw = dir.resolve("pw");
        Files.writeString(pw, Fvault2FilesAccess.PASSWORD);   // a key file is the passphrase, no newline
        r = run(null, "decrypt", "--type", "fvault2", "--key-file", pw.toString(), img.toString(), out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fvault2FilesAccess.SHA256, sha256(out));
        r = run(null, "decrypt", "--type", "fvault2", "--key-file", pw.toString(), img.toString(), out.toString());
        assertEquals(1, r.rc());
        assertEquals("Refusing to overwrite " + out + ": it exists\n", r.err());

        if (TestImages.have("cryptsetup")) {
            TestImages.Run c = TestImages.run(null, "cryptsetup", "fvault2Dump", img.toString());
            assertEquals(0, c.rc(), c.err());
            assertEquals(c.out(), info, "info = cryptsetup fvault2Dump");
            c = TestImages.run((Fvault2FilesAccess.PASSWORD + "\n").getBytes(StandardCharsets.UTF_8), "cryptsetup",
                    "fvault2Dump", "--dump-volume-key", "-q", img.toString());
            assertEquals(0, c.rc(), c.err());
            assertEquals(c.out(), keyDump, "info --dump-volume-key = cryptsetup fvault2Dump --dump-volume-key");
        } else {
            System.out.println("cryptsetup not installed: the fvault2Dump comparison is skipped");
        }
    }

    @Test
    void theTypeIsFoundFromTheSignature() throws Exception {
        Path img = Fvault2FilesAccess.small(dir);
        VolumeMainAccess.Result r = run(Fvault2FilesAccess.PASSWORD + "\n", "test", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("Found a FileVault 2 volume: reading it as --type fvault2.\n", r.err());
        r = run(null, "info", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("Header information for FVAULT2 device"), r.out());
    }

    @Test
    void refusals() throws Exception {
        Path img = Fvault2FilesAccess.small(dir);
        VolumeMainAccess.Result r = run(null, "test", "--type", "fvault2", "--key-slot", "1", img.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("--type fvault2 takes no --key-slot"), r.err());
        Path shortKey = dir.resolve("k16");
        Files.write(shortKey, new byte[16]);
        r = run(null, "test", "--type", "fvault2", "--volume-key-file", shortKey.toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals("The volume key file " + shortKey + " is 16 bytes: a FileVault 2 volume key is 32\n", r.err());
        r = run(null, "info", "--type", "fvault2", "--volume-key-file", shortKey.toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals("info --type fvault2 reads no secret unless --dump-volume-key\n", r.err());
        r = run(null, "info", "--type", "fvault2", "--key-file", shortKey.toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals("info --type fvault2 reads no secret unless --dump-volume-key\n", r.err());
        r = run(null, "test", "--type", "fvault2", "--key-file", "a", "--key-file", "b", img.toString());
        assertEquals(1, r.rc());
        assertEquals("--key-file given 2 times: a FileVault 2 volume takes one passphrase\n", r.err());
        r = run(null, "test", "--type", "fvault2", "--key-file", dir.resolve("none").toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals("No such file: " + dir.resolve("none") + "\n", r.err());
        Path plain = dir.resolve("x");
        Files.write(plain, new byte[4096]);
        r = run(null, "info", "--type", "fvault2", plain.toString());
        assertEquals(1, r.rc());
        assertEquals(plain + " is not a FileVault 2 (Core Storage) volume: no 'CS' signature at byte 88\n", r.err());
        r = run(null, "info", plain.toString());   // no signature: read as LUKS, which says so
        assertEquals(1, r.rc());
        assertFalse(r.err().contains("FileVault"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void helpListsTheType() {
        for (String verb : new String[] {"info", "test", "decrypt"}) {
            VolumeMainAccess.Result r = run(null, verb, "--help");
            assertEquals(0, r.rc());
            String o = r.out().replaceAll("\\s+", " ");
            assertTrue(o.contains("fvault2 (FileVault 2)"), verb + ": " + r.out());
        }
    }

    private static String sha256(Path f) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(f)) {
            byte[] b = new byte[1 << 20];
            for (int n; (n = in.read(b)) > 0; ) {
                d.update(b, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }
}
