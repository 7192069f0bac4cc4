package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.vectorjce.volumes.BadInputTest;

/**
 * The volumes module's forged and damaged LUKS headers ({@link BadInputTest}, whose images are made
 * here again, its library checks left to its own run) through the {@code volume} command: it exits
 * 1 with one line naming the problem and no stack trace, warns in {@code info} of a header it read
 * from the other copy, and says how much {@code -Xmx} an Argon2 slot needs; and the command's own
 * errors (a missing file, an unknown verb, a bad or inactive key slot, a wrong passphrase, a key
 * dump without confirmation).
 */
class BadInputCommandTest extends BadInputTest {
    /** The library's checks are {@link BadInputTest}'s own run: here, the command's alone. */
    @Override
    protected boolean libraryChecks() {
        return false;
    }

    @Override
    protected void commandRefuses(Path img, String words, String pass) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(pass + "\n", "test", img.toString());
        assertEquals(1, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(words), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Override
    protected void commandWarns(Path img) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "info", img.toString());
        assertEquals(0, r.rc());
        assertTrue(r.out().contains("Warning: "), r.out());
    }

    @Override
    protected void commandRefusesSlot(Path img, String pass, int slot, String words) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(pass + "\n", "test", img.toString(), "--key-slot",
                String.valueOf(slot));
        assertEquals(1, r.rc());
        assertTrue(r.err().contains(words), r.err());
    }

    @Test
    void commandErrors() throws Exception {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "info", dir.resolve("missing.img").toString());
        assertEquals(1, r.rc());
        assertEquals("No such file: " + dir.resolve("missing.img") + "\n", r.err());
        r = VolumeMainAccess.run(null, "frobnicate");
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count());
        r = VolumeMainAccess.run(null, "test", image(luks2).toString(), "--key-slot", "x");
        assertEquals(1, r.rc());
        r = VolumeMainAccess.run("compatkey\n", "test", image(luks2).toString(), "--key-slot", "5");
        assertEquals(1, r.rc());
        assertEquals("Key slot 5 is not active\n", r.err());
        r = VolumeMainAccess.run("nope\n", "test", image(luks2).toString());
        assertEquals(2, r.rc());
        // --dump-volume-key without -q and no terminal: refused, nothing dumped
        r = VolumeMainAccess.run("compatkey\n", "info", image(luks2).toString(), "--dump-volume-key");
        assertEquals(1, r.rc());
        assertEquals("", r.out());
    }
}
