package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.fvault2.Fvault2FilesAccess;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * The command's edges: options a LUKS verb does not read or that contradict the header
 * ({@code --type luks1} on a LUKS2 image and back, {@code --threads} for {@code test} and
 * {@code info}), messages that name the file at fault (a directory as IMAGE or key file, OUT in a
 * missing folder, a key slot out of range, an image without LUKS magic that may be
 * TrueCrypt/VeraCrypt), and the line on a terminal before a KDF benchmark. Each refusal is exit 1
 * with one line on stderr, nothing on stdout and no secret in it.
 */
class VolumeEdgesTest {
    @TempDir
    Path dir;

    Path l1, l2, key;

    static final String PASS = "first-secret";

    @BeforeEach
    void images() throws Exception {
        key = dir.resolve("key");
        Files.writeString(key, PASS);
        l1 = dir.resolve("l1.img");
        Files.write(l1, new byte[3 << 20]);
        Luks1Format.luks1().keySize(256).iterations(1000).format(l1, PASS.getBytes(StandardCharsets.UTF_8));
        l2 = dir.resolve("l2.img");
        try (FileChannel f = FileChannel.open(l2, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (17L << 20) - 1);
        }
        Luks2Format.luks2().keySize(256).keySlot(KeySlotOptions.defaults().pbkdf("pbkdf2").forceIterations(1000))
                .format(l2, PASS.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code args} exit 1 with exactly the line {@code expected} on stderr and nothing on stdout. */
    private static void refused(String expected, String stdin, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, args);
        assertEquals(1, r.rc(), String.join(" ", args) + ": " + r.err());
        assertEquals(expected + "\n", r.err(), String.join(" ", args));
        assertEquals("", r.out(), String.join(" ", args));
        assertFalse(r.err().contains(PASS), r.err());
    }

    private static void ok(String stdin, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, args);
        assertEquals(0, r.rc(), String.join(" ", args) + ": " + r.err());
    }

    @Test
    void typeThatContradictsTheHeader() {
        String a = l1.toString(), b = l2.toString(), k = key.toString();
        String two = "--type luks1 does not match " + b + ", a LUKS2 header: give --type luks2, or no --type";
        String one = "--type luks2 does not match " + a + ", a LUKS1 header: give --type luks1, or no --type";
        refused(two, null, "test", "--type", "luks1", b, "--key-file", k);
        refused(two, null, "info", "--type", "luks1", b);
        refused(two, null, "info", "--type", "luks1", b, "--dump-volume-key", "-q", "--key-file", k);
        refused(two, null, "decrypt", "--type", "luks1", b, dir.resolve("out").toString(), "--key-file", k);
        refused(one, null, "test", "--type", "luks2", a, "--key-file", k);
        refused(one, null, "info", "--type", "luks2", a);
        refused(one, null, "decrypt", "--type", "luks2", a, dir.resolve("out").toString(), "--key-file", k);
        assertFalse(Files.exists(dir.resolve("out")));
        // the matching type, and luks, still open
        ok(null, "test", "--type", "luks1", a, "--key-file", k);
        ok(null, "test", "--type", "luks2", b, "--key-file", k);
        ok(null, "test", "--type", "luks", a, "--key-file", k);
        ok(null, "info", "--type", "luks2", b);
    }

    @Test
    void keySizeDefaultsAsCryptsetup() throws Exception {
        // 256 bits, doubled for XTS's two keys; an explicit --key-size wins
        String[][] cases = {{"aes-xts-plain64", null, "512"}, {"serpent-cbc-essiv:sha256", null, "256"},
            {"twofish-lrw-benbi", null, "256"}, {"aes-ecb", null, "256"}, {"serpent-xts-plain64", "256", "256"},
            {"aes-cbc-plain64", "128", "128"}};
        for (String[] c : cases) {
            Path img = dir.resolve("ks.img");
            Files.write(img, new byte[(16 << 20) + 4096]);
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("format", img.toString(), "-q",
                    "--key-file", key.toString(), "--cipher", c[0], "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000"));
            if (c[1] != null) {
                args.addAll(java.util.List.of("--key-size", c[1]));
            }
            ok(null, args.toArray(String[]::new));
            assertEquals(Integer.parseInt(c[2]), org.vectorjce.volumes.luks.LuksVolume.at(img).info().keyBits(), c[0]);
            Files.delete(img);
        }
    }

    @Test
    void threadsOnlyWhereRead() throws Exception {
        for (Path img : new Path[] {l1, l2}) {
            refused("--threads is read by decrypt, encrypt and --type tcrypt: test on a LUKS volume runs no workers", null,
                    "test", "--threads", "2", img.toString(), "--key-file", key.toString());
            refused("--threads is read by decrypt, encrypt and --type tcrypt: info on a LUKS volume runs no workers", null,
                    "info", img.toString(), "--threads", "2");
            ok(null, "decrypt", "--threads", "2", img.toString(), dir.resolve("plain").toString(), "--key-file",
                    key.toString());
            Files.delete(dir.resolve("plain"));
        }
    }

    @Test
    void directoriesAndMissingFolders() throws Exception {
        String d = dir.toString(), k = key.toString(), b = l2.toString();
        String notImage = d + " is a directory, not a volume image";
        refused(notImage, null, "info", d);
        refused(notImage, PASS + "\n", "test", d);
        refused(notImage, PASS + "\n", "decrypt", d, dir.resolve("o").toString());
        refused(notImage, null, "info", "--type", "tcrypt", d);
        refused(notImage, null, "info", "--type", "bitlk", d);
        refused(notImage, null, "info", "--type", "fvault2", d);
        refused(notImage, null, "encrypt", k, d, "--key-file", k);
        refused(notImage, null, "format", "-q", d, "--key-file", k);
        refused(notImage, null, "add-key", d, "--key-file", k, "--pbkdf-force-iterations", "1000");
        refused("Key file " + d + " is a directory", null, "test", b, "--key-file", d);
        refused("Key file " + d + " is a directory", null, "info", b, "--dump-volume-key", "-q", "--key-file", d);
        refused("Key file " + d + " is a directory", null, "add-key", b, "--key-file", d,
                "--pbkdf-force-iterations", "1000");
        refused("Key file " + d + " is a directory", null, "add-key", b, d, "--key-file", k,
                "--pbkdf-force-iterations", "1000");
        String bitlk = BitlkFiles.write("bitlk-aes-xts-128-startup-key", dir).toString();
        refused("The startup key file " + d + " is a directory", null, "test", "--type", "bitlk", bitlk,
                "--key-file", d);
        refused("The volume key file " + d + " is a directory", null, "test", "--type", "bitlk", bitlk,
                "--volume-key-file", d);
        String fvault2 = Fvault2FilesAccess.small(dir).toString();
        refused("Key file " + d + " is a directory", null, "test", "--type", "fvault2", fvault2, "--key-file", d);
        refused("The volume key file " + d + " is a directory", null, "test", "--type", "fvault2", fvault2,
                "--volume-key-file", d);
        Path out = dir.resolve("missing").resolve("out.img");
        String noFolder = out + " cannot be created: the folder " + out.getParent() + " does not exist";
        // refused before the passphrase is read or derived (a wrong one would exit 2)
        refused(noFolder, "wrong\n", "decrypt", b, out.toString());
        refused(noFolder, null, "decrypt", b, out.toString(), "--key-file", k);
        refused(noFolder, "wrong\n", "decrypt", "--type", "tcrypt", b, out.toString());
        refused(noFolder, "wrong\n", "decrypt", "--type", "fvault2", b, out.toString());
        // an existing OUT is still refused as before
        refused("Refusing to overwrite " + k + ": it exists", null, "decrypt", b, k, "--key-file", k);
    }

    @Test
    void keySlotOutOfRange() {
        String k = key.toString();
        refused("Key slot 40 is out of range 0..31", null, "test", l2.toString(), "--key-file", k, "--key-slot", "40");
        refused("Key slot -1 is out of range 0..31", null, "test", l2.toString(), "--key-file", k, "--key-slot", "-1");
        refused("Key slot 40 is out of range 0..31", null, "info", l2.toString(), "--key-slot", "40");
        refused("Key slot 32 is out of range 0..31", null, "remove-key", l2.toString(), "--key-file", k,
                "--key-slot", "32", "-q");
        refused("Key slot 40 is out of range 0..7", null, "test", l1.toString(), "--key-file", k, "--key-slot", "40");
        refused("Key slot 8 is out of range 0..7", null, "info", l1.toString(), "--key-slot", "8");
        // in range but empty: as before
        refused("Key slot 7 is not active", null, "test", l2.toString(), "--key-file", k, "--key-slot", "7");
        refused("Key slot 7 is not active", null, "info", l1.toString(), "--key-slot", "7");
    }

    @Test
    void noLuksMagicMayBeTcrypt() throws Exception {
        Path junk = dir.resolve("junk.img");
        byte[] b = new byte[1 << 20];
        new Random(7).nextBytes(b);
        Files.write(junk, b);
        String j = junk.toString();
        String hint = j + " is not a LUKS volume (no LUKS magic); it may be a TrueCrypt/VeraCrypt volume, which has"
                + " none: try --type tcrypt";
        refused(hint, null, "info", j);
        refused(hint, null, "test", j, "--key-file", key.toString());
        refused(hint, PASS + "\n", "decrypt", j, dir.resolve("o").toString());
        // an explicit LUKS type, and the verbs that write LUKS only, keep the plain line
        refused(j + " is not a LUKS volume (no LUKS magic)", null, "info", "--type", "luks", j);
        refused(j + " is not a LUKS volume (no LUKS magic)", null, "test", "--type", "luks2", j, "--key-file",
                key.toString());
        refused(j + " is not a LUKS volume (no LUKS magic)", null, "add-key", j, "--key-file", key.toString(),
                "--pbkdf-force-iterations", "1000");
    }

    /** A calibrated KDF says so first on a terminal; a forced cost, or no terminal, prints nothing. */
    @Test
    void benchmarkLineOnATerminalOnly() throws Exception {
        String line = "Benchmarking the key derivation for a 100 ms unlock (a few seconds)...\n";
        String b = l2.toString();
        VolumeMainAccess.Result r = VolumeMainAccess.runOnTerminal(PASS + "\nsecond\n", "add-key", b, "--pbkdf",
                "pbkdf2", "--iter-time", "100");
        assertEquals(0, r.rc(), r.err());
        assertEquals(line, r.err());
        r = VolumeMainAccess.runOnTerminal("second\nthird\n", "change-key", b, "--pbkdf", "pbkdf2", "--iter-time",
                "100", "--key-slot", "1");
        assertEquals(0, r.rc(), r.err());
        assertEquals(line, r.err());
        r = VolumeMainAccess.runOnTerminal(null, "format", "-q", l1.toString(), "--type", "luks1", "--iter-time",
                "100", "--key-file", key.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(line, r.err());
        // not a terminal: silent, as before
        r = VolumeMainAccess.run(PASS + "\nfourth\n", "add-key", b, "--pbkdf", "pbkdf2", "--iter-time", "100");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        // forced cost: nothing to benchmark
        r = VolumeMainAccess.runOnTerminal(PASS + "\nfifth\n", "add-key", b, "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().isEmpty(), r.out());
    }
}
