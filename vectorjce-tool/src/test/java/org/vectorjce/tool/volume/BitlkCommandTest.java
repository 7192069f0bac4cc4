package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code volume info|test|decrypt --type bitlk} on images of cryptsetup's {@code
 * bitlk-images.tar.xz} (written out by the tests of package {@code bitlk}, via {@link BitlkFiles}):
 * the exit codes (0; 2 when no VMK opens; 1 with one line for a volume cryptsetup does not map, a
 * bad option), the text, a decrypted device with the SHA-256 of {@code images.conf}, and
 * {@code --help} listing the BitLocker options.
 */
class BitlkCommandTest {
    @TempDir
    Path dir;

    private static VolumeMainAccess.Result run(String stdin, String... args) {
        return VolumeMainAccess.run(stdin, args);
    }

    @Test
    void infoTestDecrypt() throws Exception {
        Path img = BitlkFiles.write("bitlk-aes-cbc-128", dir);
        VolumeMainAccess.Result r = run(null, "info", "--type", "bitlk", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("Info for BITLK device " + img + ".\nVersion:      \t2\n"), r.out());
        assertTrue(r.out().contains("Cipher mode:  \tcbc-eboiv\n"), r.out());

        r = run("wrong\n", "test", "--type", "bitlk", img.toString());
        assertEquals(2, r.rc());
        assertEquals("No VMK opened with the passphrase given.\n", r.err());
        r = run("042647-302313-590458-071500-554323-116567-412181-516978\n", "info", "--type", "bitlk",
                "--dump-volume-key", "-q", img.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("BITLK header information for " + img + "\nCipher name:   \taes\n"), r.out());
        assertTrue(r.out().contains("MK bits:       \t128\nMK dump:\t"), r.out());

        Path out = dir.resolve("plain");
        r = run("anaconda\n", "decrypt", "--type", "bitlk", img.toString(), out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("04500a8120ba355ed206284e03e26e59b7e1f1832868e1d69bb47023ebd3460f",
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(out))));
    }

    @Test
    void refusals() throws Exception {
        Path eow = BitlkFiles.write("bitlk-aes-xts-128-eow", dir);
        VolumeMainAccess.Result r = run("anaconda\n", "test", "--type", "bitlk", eow.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("BitLocker volumes of type 'encrypt-on-write' (used-space-only encryption that "
                + "encrypts on write) are not read: which blocks Windows has encrypted is recorded only in the "
                + "encrypt-on-write block maps the FVE-EOW descriptor at byte 35352576"), r.err());
        assertTrue(r.err().endsWith("(cryptsetup, dislocker and libbde refuse these volumes too)\n"), r.err());
        r = run(null, "info", "--type", "bitlk", eow.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("\nConversion:\n\tType:         \tencrypt-on-write (used space only)\n"
                + "\tState:        \t4 (encrypted)\n\tNext state:   \t4 (encrypted)\n"
                + "\tEncrypted size:\t104857600 [bytes]\n\tConvert size: \t0 [bytes]\n"
                + "\tEOW descriptor:\t35352576 [bytes]\n\tEOW descriptor:\t52080640 [bytes]\n"
                + "\tEOW signature:\tnot in this image\n\tPayload:      \tnot read: BitLocker volumes"), r.out());
        r = run(null, "test", "--type", "bitlk", "--key-slot", "1", eow.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("--type bitlk takes no --key-slot"), r.err());
        Path plain = dir.resolve("x");
        Files.write(plain, new byte[4096]);
        r = run(null, "info", "--type", "bitlk", plain.toString());
        assertEquals(1, r.rc());
        assertEquals("Not a BitLocker volume: no -FVE-FS- (or To Go MSWIN4.1) signature at byte 3 of " + plain + "\n",
                r.err());
        assertFalse(r.err().contains("Exception"));
    }

    @Test
    void theTypeIsFoundFromTheSignature() throws Exception {
        for (String name : new String[] {"bitlk-aes-xts-128", "bitlk-togo-aes-xts-128"}) {
            Path img = BitlkFiles.write(name, dir);
            VolumeMainAccess.Result r = run(null, "info", img.toString());
            assertEquals(0, r.rc(), r.err());
            assertEquals("Found a BitLocker volume: reading it as --type bitlk.\n", r.err());
            assertTrue(r.out().startsWith("Info for BITLK"), r.out());
        }
        Path fat = dir.resolve("fat.img");   // MSWIN4.1 but no FVE metadata: not BitLocker, read as LUKS
        byte[] b = new byte[1 << 20];
        System.arraycopy("MSWIN4.1".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, 3, 8);
        Files.write(fat, b);
        VolumeMainAccess.Result r = run(null, "info", fat.toString());
        assertEquals(1, r.rc());
        assertFalse(r.err().contains("BitLocker"), r.err());
    }

    @Test
    void helpListsTheOptions() {
        for (String verb : new String[] {"info", "test", "decrypt"}) {
            VolumeMainAccess.Result r = run(null, verb, "--help");
            assertEquals(0, r.rc());
            String o = r.out().replaceAll("\\s+", " ");   // picocli wraps the descriptions
            assertTrue(o.contains("bitlk (BitLocker)"), verb + ": " + r.out());
            assertTrue(o.contains("--volume-key-file=FILE"), verb + ": " + r.out());
            assertTrue(o.contains("--key-file F.BEK is a startup key"), verb + ": " + r.out());
        }
    }
}
