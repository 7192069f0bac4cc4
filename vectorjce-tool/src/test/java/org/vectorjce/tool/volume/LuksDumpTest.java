package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;

/**
 * {@code volume info} against {@code cryptsetup luksDump} on volumes cryptsetup makes: the same
 * text, byte for byte (LUKS2 with Argon2id and PBKDF2 slots, an unbound slot and its own digest,
 * a keyring token and an unknown one, label and subsystem; LUKS1 with two slots); {@code
 * --key-slot N} shows that slot alone, and {@code --dump-volume-key --key-slot N} opens only it.
 */
class LuksDumpTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Path keyFile(String name, String content) throws Exception {
        return Files.write(dir.resolve(name), b(content));
    }

    @Test
    void luks2AsCryptsetup() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = TestImages.sparse(dir.resolve("l2.img"), 20L << 20);
        Path k1 = keyFile("k1", "first"), k2 = keyFile("k2", "second"), k3 = keyFile("k3", "unbound");
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "argon2id",
                "--pbkdf-force-iterations", "4", "--pbkdf-memory", "1024", "--pbkdf-parallel", "1", "--label", "a label",
                "--subsystem", "sub", "--key-file", k1.toString(), img.toString());
        TestImages.ok(null, "cryptsetup", "luksAddKey", "-q", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
                "--key-slot", "5", "--key-file", k1.toString(), img.toString(), k2.toString());
        TestImages.ok(null, "cryptsetup", "luksAddKey", "-q", "--unbound", "--key-size", "256", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000", "--key-file", k1.toString(), img.toString(), k3.toString());
        TestImages.ok(b("{\"type\":\"some-token\",\"keyslots\":[\"5\"],\"x\":1}"), "cryptsetup", "token", "import",
                "--token-id", "3", img.toString());
        TestImages.ok(null, "cryptsetup", "token", "add", "--key-description", "my:key", "--key-slot", "0",
                img.toString());
        String theirs = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        assertTrue(theirs.contains(" (unbound)") && theirs.contains("luks2-keyring") && theirs.contains("some-token")
                && theirs.contains("\tMemory:     1024\n") && theirs.contains("\tIterations: 1000\n"), theirs);
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "info", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(theirs, r.out());

        // --key-slot 5: the Keyslots section holds slot 5 alone, the rest as luksDump prints it
        r = VolumeMainAccess.run(null, "info", img.toString(), "--key-slot", "5");
        assertEquals(0, r.rc(), r.err());
        assertEquals(onlySlot(theirs, "5"), r.out());
        r = VolumeMainAccess.run(null, "info", img.toString(), "--key-slot", "7");
        assertEquals(1, r.rc());
        assertEquals("Key slot 7 is not active\n", r.err());

        // --dump-volume-key --key-slot N: only slot N is tried
        r = VolumeMainAccess.run(null, "info", img.toString(), "--dump-volume-key", "-q", "--key-slot", "0",
                "--key-file", k2.toString());
        assertEquals(2, r.rc(), r.err());
        assertEquals("", r.out());
        r = VolumeMainAccess.run(null, "info", img.toString(), "--dump-volume-key", "-q", "--key-slot", "5",
                "--key-file", k2.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key", "-q", "--key-file",
                k2.toString(), img.toString()).out(), r.out());
    }

    @Test
    void luks1AsCryptsetup() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = TestImages.sparse(dir.resolve("l1.img"), 4L << 20);
        Path k1 = keyFile("k1", "first"), k2 = keyFile("k2", "second");
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks1", "--cipher", "aes-cbc-essiv:sha256",
                "--key-size", "256", "--hash", "sha512", "--pbkdf-force-iterations", "1000", "--key-file",
                k1.toString(), img.toString());
        TestImages.ok(null, "cryptsetup", "luksAddKey", "-q", "--pbkdf-force-iterations", "1000", "--key-slot", "6",
                "--key-file", k1.toString(), img.toString(), k2.toString());
        String theirs = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        assertTrue(theirs.contains("Key Slot 6: ENABLED") && theirs.contains("MK salt:"), theirs);
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "info", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(theirs, r.out());
        r = VolumeMainAccess.run(null, "info", img.toString(), "--key-slot", "6");
        assertEquals(0, r.rc(), r.err());
        assertEquals(theirs.replaceAll("(?m)^Key Slot [0-57]: DISABLED\n", "")
                .replaceAll("(?s)Key Slot 0: ENABLED\n.*?(?=Key Slot 6)", ""), r.out());
    }

    /** {@code dump} with the LUKS2 key slots other than {@code id} left out. */
    private static String onlySlot(String dump, String id) {
        int start = dump.indexOf("Keyslots:\n") + "Keyslots:\n".length(), end = dump.indexOf("Tokens:\n");
        StringBuilder kept = new StringBuilder();
        Matcher m = Pattern.compile("(?m)^  (\\d+): .*\n(\t.*\n)*").matcher(dump.substring(start, end));
        while (m.find()) {
            if (m.group(1).equals(id)) {
                kept.append(m.group());
            }
        }
        return dump.substring(0, start) + kept + dump.substring(end);
    }
}
