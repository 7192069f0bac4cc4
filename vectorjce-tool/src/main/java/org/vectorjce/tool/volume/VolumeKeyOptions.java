package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.VolumeException;

import picocli.CommandLine.Option;

/**
 * The option only {@code --type bitlk} and {@code --type fvault2} read: a picocli group of its own
 * in the help of the verbs that unlock ({@link UnlockOptions}); null when it was not given.
 */
final class VolumeKeyOptions {
    @Option(names = "--volume-key-file", paramLabel = "FILE", description = "Use the volume key in FILE (its "
            + "raw bytes, as bitlkDump or fvault2Dump --dump-volume-key --volume-key-file writes them) instead of"
            + " a protector or the passphrase.")
    Path volumeKeyFile;

    /**
     * The bytes of {@code --volume-key-file f}, refused (naming {@code expected}, e.g. "a
     * BitLocker volume key is 16 to 64") unless {@code min} to {@code max} bytes long; never reads
     * more than {@code max + 1} bytes, whatever the file grows to. The caller wipes the array.
     */
    static byte[] read(Path f, int min, int max, String expected) throws IOException, VolumeException, UsageException {
        Checks.keyFile(f, "The volume key file");
        byte[] k;
        try (InputStream in = Files.newInputStream(f)) {
            k = in.readNBytes(max + 1);
        }
        if (k.length < min || k.length > max) {
            long size = k.length > max ? Math.max(Files.size(f), k.length) : k.length;
            Arrays.fill(k, (byte) 0);
            throw new VolumeException("The volume key file " + f + " is " + size + " bytes: " + expected);
        }
        return k;
    }
}
