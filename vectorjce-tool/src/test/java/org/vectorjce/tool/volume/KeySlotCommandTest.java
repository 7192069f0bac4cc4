package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksKeySlot;
import org.vectorjce.volumes.luks.LuksVolume;
import org.vectorjce.volumes.TestImages;

/**
 * The {@code add-key}, {@code remove-key} and {@code change-key} commands: secrets from key files
 * and from the lines of standard input (existing first, then new), and every refusal — a wrong
 * passphrase exits 2, full key slots, a slot out of range or in use, the last slot without
 * {@code -q}, no room in the keyslots area, a KDF LUKS1 lacks, an empty new passphrase exit 1 —
 * with one line on stderr and the image not written (bytes and modification time).
 */
class KeySlotCommandTest {
    @TempDir
    Path dir;

    static final String FAST = "--pbkdf-force-iterations=1000";

    /**
     * {@code args} with PBKDF2 right after the verb when it makes a key slot (later options override
     * it); the other verbs refuse KDF options, as cryptsetup does.
     */
    private static String[] fast(String... args) {
        if (!args[0].equals("add-key") && !args[0].equals("change-key")) {
            return args;
        }
        String[] a = new String[args.length + 1];
        a[0] = args[0];
        a[1] = "--pbkdf=pbkdf2";
        System.arraycopy(args, 1, a, 2, args.length - 1);
        return a;
    }

    private Path luks1() throws Exception {
        Path img = dir.resolve("l1.img");
        Files.write(img, new byte[3 << 20]);
        Luks1Format.luks1().keySize(256).iterations(1000).format(img, b("first"));
        return img;
    }

    private Path luks2() throws Exception {
        Path img = TestImages.sparse(Files.createTempFile(dir, "l2", ".img"), 17L << 20);
        Luks2Format.luks2().keySize(256).keySlot(TestImages.fast("pbkdf2")).format(img, b("first"));
        return img;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static VolumeMainAccess.Result ok(String stdin, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, fast(args));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    /** The command exits {@code rc} with one line containing {@code words}; the image is untouched. */
    private static void refused(Path img, int rc, String words, String stdin, String... args) throws Exception {
        Files.setLastModifiedTime(img, FileTime.fromMillis(1_000_000_000_000L));
        byte[] before = Files.readAllBytes(img);
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, fast(args));
        assertEquals(rc, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().toLowerCase().contains(words.toLowerCase()), "'" + words + "' not in " + r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        assertArrayEquals(before, Files.readAllBytes(img), "the image was written");
        assertEquals(FileTime.fromMillis(1_000_000_000_000L), Files.getLastModifiedTime(img));
    }

    private static int opens(Path img, String pass) {
        return VolumeMainAccess.run(pass + "\n", "test", img.toString()).rc();
    }

    @Test
    void addChangeRemoveFromStdinAndKeyFiles() throws Exception {
        for (Path img : List.of(luks1(), luks2())) {
            String i = img.toString();
            // stdin: the existing passphrase on the first line, the new one on the second
            assertEquals("Key slot 1 created.\n", ok("first\nsecond\n", "add-key", i, FAST, "-v").out());
            Path kf = dir.resolve("kf"), nf = dir.resolve("nf");
            Files.write(kf, b("second"));
            Files.write(nf, b("third\nwith a newline\n"));
            // --key-file for the existing, NEW_KEY_FILE for the new one, --key-slot for where
            assertEquals("Key slot 4 created.\n", ok(null, "add-key", i, nf.toString(), "--key-file", kf.toString(),
                    "--key-slot", "4", FAST, "-v").out());
            assertEquals(0, VolumeMainAccess.run(null, "test", i, "--key-file", nf.toString(), "--key-slot", "4").rc());
            // --key-file - is all of stdin: the new key then comes from NEW_KEY_FILE only
            refused(img, 1, "NEW_KEY_FILE", "second", "add-key", i, "--key-file", "-", FAST);
            ok("first\nfourth\n", "change-key", i, FAST);
            assertEquals(2, opens(img, "first"));
            assertEquals(0, opens(img, "fourth"));
            ok("second\n", "remove-key", i);
            assertEquals(2, opens(img, "second"));
            if (TestImages.have("cryptsetup")) {
                assertEquals(0, TestImages.cryptsetupTest(img, b("fourth"), null));
                assertEquals(0, TestImages.cryptsetupTest(img, b("third\nwith a newline\n"), 4));
                assertEquals(2, TestImages.cryptsetupTest(img, b("second"), null));
            }
            Files.delete(kf);
            Files.delete(nf);
        }
    }

    @Test
    void refusals() throws Exception {
        Path l1 = luks1(), l2 = luks2();
        for (Path img : List.of(l1, l2)) {
            String i = img.toString();
            refused(img, 2, "No key slot opened", "wrong\nnew\n", "add-key", i, FAST);
            refused(img, 2, "No key slot opened", "wrong\n", "remove-key", i, "-q");
            refused(img, 2, "No key slot opened", "wrong\nnew\n", "change-key", i, FAST);
            refused(img, 1, "empty", "first\n", "add-key", i, FAST);
            refused(img, 1, "is full", "first\nnew\n", "add-key", i, "--key-slot", "0", FAST);
            refused(img, 1, "out of range", "first\nnew\n", "add-key", i, "--key-slot", img == l1 ? "8" : "32", FAST);
            refused(img, 1, "out of range", "first\nnew\n", "add-key", i, "--key-slot", "-1", FAST);
            refused(img, 1, "last", "first\n", "remove-key", i);
            refused(img, 1, "too low", "first\nnew\n", "add-key", i, "--pbkdf-force-iterations", "999");
            refused(img, 1, "No such file", "first\nnew\n", "add-key", dir.resolve("missing").toString(), FAST);
        }
        refused(l1, 1, "pbkdf2 only", "first\nnew\n", "add-key", l1.toString(), "--pbkdf", "argon2id", FAST);
        refused(l1, 1, "out of range", "first\n", "remove-key", l1.toString(), "--key-slot", "9", "-q");
        // LUKS1: eight slots, then full; a change needs a free one
        for (int n = 1; n < 8; n++) {
            ok("first\nk" + n + "\n", "add-key", l1.toString(), FAST);
        }
        refused(l1, 1, "full", "first\nnew\n", "add-key", l1.toString(), FAST);
        refused(l1, 1, "in use", "first\nnew\n", "change-key", l1.toString(), FAST);
        // LUKS2: 32 key slot ids
        try (LuksVolume v = LuksVolume.at(l2).passphrase(b("first")).readWrite().open()) {
            for (int n = 1; n < 32; n++) {
                assertEquals(n, v.addKeySlot(b("k" + n), TestImages.fast("pbkdf2")));
            }
        }
        refused(l2, 1, "full", "first\nnew\n", "add-key", l2.toString(), FAST);
        // the last slot goes with -q; then nothing opens
        Path last = luks2();
        ok("first\n", "remove-key", last.toString(), "-q");
        assertEquals(List.of(), LuksVolume.at(last).info().keySlots().stream().map(LuksKeySlot::id).toList());
        VolumeMainAccess.Result r = VolumeMainAccess.run("first\n", "test", last.toString());
        assertEquals(1, r.rc(), r.err()); // as cryptsetup: "No usable keyslot is available.", exit 1
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("keyslot") || r.err().contains("key slot"), r.err());
        if (TestImages.have("cryptsetup")) {
            assertEquals(1, TestImages.cryptsetupTest(last, b("first"), null));
        }
    }

    /** A JSON area too full for another key slot, and an image that is not LUKS at all. */
    @Test
    void noRoomInTheJsonAreaAndNotLuks() throws Exception {
        Path img = luks2();
        String json = TestImages.luks2Json(img);
        // an unknown member (kept by updates) filling the 12 KiB JSON area to within 300 bytes
        int pad = 12288 - 300 - json.length() - ",\"x-pad\":\"\"".length();
        TestImages.rewriteLuks2Json(img, json.substring(0, json.length() - 1) + ",\"x-pad\":\"" + "p".repeat(pad)
                + "\"}");
        assertEquals(0, opens(img, "first"));
        refused(img, 1, "no room in its 12288-byte area", "first\nnew\n", "add-key", img.toString(), FAST);
        Path junk = dir.resolve("junk.img");
        Files.write(junk, new byte[1 << 20]);
        refused(junk, 1, "not a LUKS volume", "first\nnew\n", "add-key", junk.toString(), FAST);
        refused(junk, 1, "not a LUKS volume", "first\n", "remove-key", junk.toString(), "-q");
    }

    /** A keyslots area with room for one key slot only (cryptsetup --luks2-keyslots-size). */
    @Test
    void noRoomInTheKeyslotsArea() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = TestImages.sparse(dir.resolve("tight.img"), 20L << 20);
        TestImages.ok(b("first"), "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--key-size", "256",
                "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000", "--luks2-keyslots-size", "131072",
                "--key-file", "-", img.toString());
        refused(img, 1, "No room in the LUKS2 keyslots area", "first\nnew\n", "add-key", img.toString(), FAST);
        refused(img, 1, "crash-safe change", "first\nnew\n", "change-key", img.toString(), FAST);
    }

    /** {@code add-key --header}: a detached LUKS2 header gets the slot, the data image is not written. */
    @Test
    void detachedHeader() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path hdr = dir.resolve("hdr.img"), data = dir.resolve("data.img");
        TestImages.cryptsetupDetached(hdr, data, b("zero"));
        byte[] dataBefore = Files.readAllBytes(data);
        VolumeMainAccess.Result r = VolumeMainAccess.run("zero\nheader one\n", "add-key", data.toString(), "--header",
                hdr.toString(), "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000");
        assertEquals(0, r.rc(), r.err());
        assertArrayEquals(dataBefore, Files.readAllBytes(data), "the data image is not written");
        assertEquals(0, TestImages.run(b("header one"), "cryptsetup", "open", "--test-passphrase", "--header",
                hdr.toString(), "--key-file", "-", "--key-slot", "1", data.toString()).rc());
    }
}
