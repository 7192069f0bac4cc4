package org.vectorjce.volumes;

import static org.vectorjce.volumes.TestImages.fast;
import static org.vectorjce.volumes.TestImages.cryptsetupTest;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksKeySlot;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * Key slots added, changed and removed through {@link LuksVolume} on volumes cryptsetup formats,
 * checked with cryptsetup itself: {@code open --test-passphrase --key-slot N} with each passphrase,
 * {@code luksDump} listing exactly the slots expected, the volume key unchanged, cryptsetup able
 * to add a key after us; LUKS2 tokens and members unknown to this library kept byte for byte.
 */
class KeySlotTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A volume cryptsetup formats with {@code key} in slot 0, fast KDF costs. */
    static Path cryptsetupVolume(Path dir, String type, String pbkdf, byte[] key) throws Exception {
        Path img = TestImages.sparse(dir.resolve(type + "-" + pbkdf + ".img"), 20L << 20);
        List<String> c = new ArrayList<>(List.of("cryptsetup", "luksFormat", "-q", "--type", type, "--key-size", "256"));
        c.addAll(kdf(type, pbkdf));
        c.addAll(List.of("--key-file", "-", img.toString()));
        TestImages.ok(key, c.toArray(String[]::new));
        return img;
    }

    static List<String> kdf(String type, String pbkdf) {
        List<String> o = new ArrayList<>();
        if (type.equals("luks2")) {
            o.addAll(List.of("--pbkdf", pbkdf));
        }
        o.addAll(pbkdf.equals("pbkdf2") ? List.of("--pbkdf-force-iterations", "1000")
                : List.of("--pbkdf-force-iterations", "4", "--pbkdf-memory", "1024", "--pbkdf-parallel", "1"));
        return o;
    }

    static List<Integer> slots(LuksInfo info) {
        return info.keySlots().stream().map(LuksKeySlot::id).toList();
    }

    @ParameterizedTest
    @CsvSource({"luks1,pbkdf2", "luks2,argon2id", "luks2,pbkdf2"})
    void addChangeRemoveAgreeWithCryptsetup(String type, String pbkdf) throws Exception {
        TestImages.assumeTool("cryptsetup");
        byte[] k0 = b("slot zero"), k1 = b("added by us"), k2 = b("changed by us");
        Path img = cryptsetupVolume(dir, type, pbkdf, k0);
        byte[] vk;
        long epoch = LuksVolume.at(img).info().epoch();
        try (LuksVolume v = LuksVolume.at(img).passphrase(k0).readWrite().open()) {
            vk = v.volumeKey();
            assertEquals(5, v.addKeySlot(k1, fast(pbkdf).keySlot(5)));
            assertEquals(List.of(0, 5), slots(v.info()));
        }
        assertEquals(0, cryptsetupTest(img, k1, 5));
        assertEquals(0, cryptsetupTest(img, k0, 0));
        if (type.equals("luks2")) {
            LuksInfo info = LuksVolume.at(img).info();
            assertEquals(epoch + 1, info.epoch(), "seqid incremented once");
            assertEquals(List.of(), info.warnings(), "both copies valid and equal");
        }
        // change slot 5's passphrase: LUKS2 keeps the number, LUKS1 moves it to the first free slot (1)
        int changed;
        try (LuksVolume v = LuksVolume.at(img).passphrase(k1).readWrite().open()) {
            assertArrayEquals(vk, v.volumeKey());
            changed = v.changeKeySlot(v.keySlot().getAsInt(), k2, fast(pbkdf));
        }
        assertEquals(type.equals("luks2") ? 5 : 1, changed);
        assertEquals(0, cryptsetupTest(img, k2, changed));
        assertEquals(2, cryptsetupTest(img, k1, null), "the old passphrase no longer opens");
        try (LuksVolume v = LuksVolume.at(img).passphrase(k2).open()) {
            assertArrayEquals(vk, v.volumeKey());
        }
        // cryptsetup can add a key to what we wrote, then we remove slot 0
        Path kf = dir.resolve("kf"), nf = dir.resolve("nf");
        Files.write(kf, k2);
        Files.write(nf, b("cryptsetup's"));
        List<String> add = new ArrayList<>(List.of("cryptsetup", "luksAddKey", "-q", "--key-slot", "7"));
        add.addAll(kdf(type, pbkdf));
        add.addAll(List.of("--key-file", kf.toString(), img.toString(), nf.toString()));
        TestImages.ok(null, add.toArray(String[]::new));
        try (LuksVolume v = LuksVolume.at(img).passphrase(k0).readWrite().open()) {
            v.removeKeySlot(0);
            assertEquals(List.of(changed, 7), slots(v.info()));
        }
        assertEquals(2, cryptsetupTest(img, k0, null));
        assertEquals(0, cryptsetupTest(img, b("cryptsetup's"), 7));
        String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        if (type.equals("luks1")) {
            assertTrue(dump.contains("Key Slot 0: DISABLED") && dump.contains("Key Slot 5: DISABLED")
                    && dump.contains("Key Slot 1: ENABLED") && dump.contains("Key Slot 7: ENABLED"), dump);
        } else {
            assertFalse(dump.contains("\n  0: luks2"), dump);
            assertTrue(dump.contains("\n  5: luks2") && dump.contains("\n  7: luks2"), dump);
        }
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).passphrase(k0).open());
    }

    /** A detached LUKS2 header (cryptsetup --header): key slots change in the header file only. */
    @Test
    void detachedHeader() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path hdr = dir.resolve("hdr.img"), data = dir.resolve("data.img");
        TestImages.cryptsetupDetached(hdr, data, b("zero"));
        byte[] dataBefore = Files.readAllBytes(data);
        try (LuksVolume v = LuksVolume.at(data).header(hdr).passphrase(b("zero")).readWrite().open()) {
            assertEquals(1, v.addKeySlot(b("header one"), fast("pbkdf2")));
        }
        assertArrayEquals(dataBefore, Files.readAllBytes(data), "the data image is not written");
        assertEquals(0, TestImages.run(b("header one"), "cryptsetup", "open", "--test-passphrase", "--header",
                hdr.toString(), "--key-file", "-", "--key-slot", "1", data.toString()).rc());
    }

    /**
     * Argon2 calibration (a 100 ms target, an 8 MiB ceiling, to stay fast): the cost found is within
     * cryptsetup's bounds (time at least 4, memory between 32 KiB and the ceiling) and opens; the
     * defaults are min(4, processors) lanes and min(1 GiB, half the physical memory).
     */
    @Test
    void argon2Calibration() throws Exception {
        Path img = TestImages.sparse(dir.resolve("cal.img"), 17L << 20);
        org.vectorjce.volumes.luks.Luks2Format.luks2().keySize(256)
                .keySlot(KeySlotOptions.defaults().pbkdf("argon2id").iterTime(100).memoryKib(8192).parallel(2))
                .format(img, b("calibrated"));
        LuksKeySlot k = LuksVolume.at(img).info().keySlots().get(0);
        assertTrue(k.time() >= 4, String.valueOf(k));
        assertTrue(k.memoryKib() >= 32 && k.memoryKib() <= 8192, String.valueOf(k));
        assertEquals(2, k.cpus());
        try (LuksVolume v = LuksVolume.at(img).passphrase(b("calibrated")).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
        long physKib = 0;
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                physKib = Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(physKib > 0, "no /proc/meminfo");
        assertEquals(Math.min(4, Runtime.getRuntime().availableProcessors()),
                org.vectorjce.volumes.luks.KeySlotOptionsAccess.defaultParallel());
        assertEquals(Math.min(1L << 20, physKib / 2), org.vectorjce.volumes.luks.KeySlotOptionsAccess.defaultMemoryKib());
    }

    /** Changing or removing a slot that is not active is refused before anything is written. */
    @Test
    void inactiveSlotsRefused() throws Exception {
        Path l1 = dir.resolve("in1.img");
        Files.write(l1, new byte[3 << 20]);
        org.vectorjce.volumes.luks.Luks1Format.luks1().keySize(256).iterations(1000).format(l1, b("x"));
        Path l2 = TestImages.sparse(dir.resolve("in2.img"), 17L << 20);
        org.vectorjce.volumes.luks.Luks2Format.luks2().keySize(256).keySlot(fast("pbkdf2")).format(l2, b("x"));
        for (Path img : List.of(l1, l2)) {
            byte[] before = Files.readAllBytes(img);
            try (LuksVolume v = LuksVolume.at(img).passphrase(b("x")).readWrite().open()) {
                for (int s : new int[] {3, -1, 40}) {
                    VolumeException e = assertThrows(VolumeException.class, () -> v.changeKeySlot(s, b("y"),
                            fast("pbkdf2")));
                    assertTrue(e.getMessage().contains("not active") || e.getMessage().contains("out of range"),
                            e.getMessage());
                    assertThrows(VolumeException.class, () -> v.removeKeySlot(s));
                }
            }
            assertArrayEquals(before, Files.readAllBytes(img));
        }
    }

    @Test
    void readOnlyVolumeRefusesChanges() throws Exception {
        Path img = TestImages.sparse(dir.resolve("ro.img"), 17L << 20);
        org.vectorjce.volumes.luks.Luks2Format.luks2().keySlot(fast("pbkdf2")).format(img, b("x"));
        byte[] before = Files.readAllBytes(img);
        try (LuksVolume v = LuksVolume.at(img).passphrase(b("x")).open()) {
            VolumeException e = assertThrows(VolumeException.class, () -> v.addKeySlot(b("y"), fast("pbkdf2")));
            assertTrue(e.getMessage().contains("reading only"), e.getMessage());
            assertThrows(VolumeException.class, () -> v.removeKeySlot(0));
        }
        assertArrayEquals(before, Files.readAllBytes(img));
    }

    /**
     * A token cryptsetup imports, and members it accepts but this library does not know (top
     * level, in config, in a key slot), survive our add-key byte for byte: the JSON after add-key
     * and remove-key of the new slot equals the JSON before; cryptsetup exports the same token.
     */
    @Test
    void unknownMembersAndTokensPreserved() throws Exception {
        TestImages.assumeTool("cryptsetup");
        byte[] k0 = b("zero");
        Path img = cryptsetupVolume(dir, "luks2", "pbkdf2", k0);
        String token = "{\"type\":\"vectorjce-test\",\"keyslots\":[\"0\"],\"x-vendor\":{\"nested\":[1,\"two\","
                + "{\"3\":null}],\"s\":\"\\u00e9 \\\"q\\\"\"}}";
        TestImages.ok(b(token), "cryptsetup", "token", "import", "--token-id", "3", img.toString());
        String json = TestImages.luks2Json(img);
        String forged = json.replace("\"config\":{", "\"config\":{\"x-cfg\" : [ true ,false ],")
                .replace("\"kdf\":{", "\"x-note\":\"kept\\u0020as is\",\"kdf\":{");
        forged = forged.substring(0, forged.length() - 1) + ",\"x-top\":{\"a\":1.5e3}}";
        TestImages.rewriteLuks2Json(img, forged);
        assertEquals(0, cryptsetupTest(img, k0, 0), "cryptsetup accepts the unknown members");
        String exported = TestImages.ok(null, "cryptsetup", "token", "export", "--token-id", "3", img.toString()).out();
        String tokenText = forged.substring(forged.indexOf("\"3\":{\"type\":\"vectorjce-test\""),
                forged.indexOf(",\"segments\":"));

        int added;
        try (LuksVolume v = LuksVolume.at(img).passphrase(k0).readWrite().open()) {
            added = v.addKeySlot(b("one"), fast("pbkdf2"));
        }
        assertEquals(1, added);
        String after = TestImages.luks2Json(img);
        assertTrue(after.contains(tokenText), after);
        assertTrue(after.contains("\"config\":{\"x-cfg\" : [ true ,false ],"), after);
        assertTrue(after.contains(",\"x-top\":{\"a\":1.5e3}}"), after);
        assertTrue(after.contains("\"x-note\":\"kept\\u0020as is\""), after);
        assertTrue(after.contains("\"keyslots\":[\"0\",\"1\"],\"segments\":[\"0\"]"), after);
        assertEquals(0, cryptsetupTest(img, b("one"), 1));
        assertEquals(exported, TestImages.ok(null, "cryptsetup", "token", "export", "--token-id", "3",
                img.toString()).out());
        // both copies hold the same JSON and valid checksums: cryptsetup dumps without a repair note
        String dump = TestImages.run(null, "cryptsetup", "luksDump", img.toString()).err();
        assertEquals("", dump);

        try (LuksVolume v = LuksVolume.at(img).passphrase(b("one")).readWrite().open()) {
            v.removeKeySlot(1);
        }
        assertEquals(forged, TestImages.luks2Json(img), "add then remove gives the JSON back byte for byte");

        // removing slot 0 drops it from the token's keyslots too (cryptsetup does the same)
        try (LuksVolume v = LuksVolume.at(img).passphrase(k0).readWrite().open()) {
            v.addKeySlot(b("one"), fast("pbkdf2"));
            v.removeKeySlot(0);
        }
        String last = TestImages.luks2Json(img);
        assertTrue(last.contains("\"3\":{\"type\":\"vectorjce-test\",\"keyslots\":[],\"x-vendor\":"), last);
        assertEquals(0, cryptsetupTest(img, b("one"), 1));
    }
}
