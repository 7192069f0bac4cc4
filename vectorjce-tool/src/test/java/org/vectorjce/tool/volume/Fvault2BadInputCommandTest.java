package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.vectorjce.volumes.fvault2.Fvault2BadInputTest;

/**
 * The volumes module's damaged FileVault 2 images ({@link Fvault2BadInputTest}, whose images are
 * made here again, its library checks left to its own run) through the {@code volume} command:
 * exit 1 with the library's one line alone, and no partial output file.
 */
class Fvault2BadInputCommandTest extends Fvault2BadInputTest {
    /** The library's checks are {@link Fvault2BadInputTest}'s own run: here, the command's alone. */
    @Override
    protected boolean libraryChecks() {
        return false;
    }

    @Override
    protected void commandDecryptRefuses(Path image, Path volumeKey, Path out, String message) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "decrypt", "--type", "fvault2", "--volume-key-file",
                volumeKey.toString(), image.toString(), out.toString());
        assertEquals(1, r.rc());
        assertEquals(message + "\n", r.err());
        assertFalse(Files.exists(out));
    }

    @Override
    protected void commandSaysOneLine(Path image, String password, String start) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(password + "\n", "test", "--type", "fvault2",
                image.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith(start), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
