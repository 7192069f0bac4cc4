package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.LuksVolume;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What the LUKS key-slot verbs ({@code add-key}, {@code remove-key}, {@code change-key}: cryptsetup's
 * {@code luksAddKey}, {@code luksRemoveKey}, {@code luksChangeKey}) share: the volume, its header,
 * the existing secret and {@code -v}; the opening for writing and the reading of the new secret.
 */
abstract class KeyVerb extends Verb {
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The LUKS volume.")
    Path image;
    @Option(names = "--header", paramLabel = "FILE", description = "A detached header (the file written).")
    Path header;
    @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The existing passphrase is this "
            + "file's bytes (-: all of standard input; then the new one must be NEW_KEY_FILE).")
    Path keyFile;
    @Option(names = {"-v", "--verbose"}, description = "Say which key slot changed.")
    boolean verbose;

    KeyVerb(Session session) {
        super(session);
    }

    /** What {@code add-key} or {@code change-key} does with the opened volume and the new secret: {@code -v}'s line. */
    @FunctionalInterface
    interface SlotChange {
        String apply(LuksVolume v, byte[] newSecret) throws IOException, VolumeException;
    }

    /**
     * Opens IMAGE with the existing secret ({@link #openForKeys}), reads the new one
     * ({@link #newSecret}), says on a terminal that the new slot's KDF is being calibrated, and
     * runs {@code change}; the new secret is wiped whatever happens.
     */
    int changeSlot(Integer keySlot, Path newKeyFile, KdfOptions kdf, SlotChange change)
            throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(keySlot)) {
            byte[] np = newSecret(newKeyFile);
            try {
                session.benchmarking(kdf.calibrates(), kdf.iterTime);
                String line = change.apply(v, np);
                if (verbose) {
                    session.out.println(line);
                }
            } finally {
                Arrays.fill(np, (byte) 0);
            }
        }
        return Exits.OK;
    }

    /**
     * Opens IMAGE for writing with the existing secret: {@code --key-file}'s bytes, else the first
     * line of standard input when it is not a terminal, else a prompt; only the key slot
     * {@code keySlot} when not null.
     */
    LuksVolume openForKeys(Integer keySlot) throws IOException, VolumeException, UsageException {
        Checks.image(image);
        if (header != null && !Files.exists(header)) {
            throw new NoSuchFileException(header.toString());
        }
        LuksVolume.Builder b = LuksCommands.builder(image, header).readWrite();
        if (keySlot != null) {
            b.keySlot(keySlot);
        }
        byte[] p = keyFile != null ? session.keyFileBytes(keyFile) : session.passphrase(LuksVolume.MAX_KEY_FILE);
        try {
            b.passphrase(p);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
        return b.open();
    }

    /**
     * The new secret: NEW_KEY_FILE's bytes; else, when standard input is not a terminal, its next
     * line (the first line when {@code --key-file} gave the existing secret); else a prompt, twice.
     * The caller wipes it.
     */
    byte[] newSecret(Path newKeyFile) throws IOException, VolumeException, UsageException {
        byte[] p;
        if (newKeyFile != null) {
            p = session.keyFileBytes(newKeyFile);
        } else if (keyFile != null && keyFile.toString().equals("-")) {
            throw new UsageException("--key-file - takes all of standard input: give the new key as NEW_KEY_FILE");
        } else if (session.console != null && System.console() == session.console && Passphrase.isTerminal()) {
            char[] a = session.console.readPassword("Enter new passphrase for key slot: ");
            char[] b = session.console.readPassword("Verify passphrase: ");
            try {
                if (a == null || b == null || !Arrays.equals(a, b)) {
                    throw new VolumeException("Passphrases do not match");
                }
                ByteBuffer e = StandardCharsets.UTF_8.encode(CharBuffer.wrap(a));
                p = new byte[e.remaining()];
                e.get(p);
                if (e.hasArray()) {
                    Arrays.fill(e.array(), (byte) 0);
                }
            } finally {
                if (a != null) {
                    Arrays.fill(a, '\0');
                }
                if (b != null) {
                    Arrays.fill(b, '\0');
                }
            }
        } else {
            p = Passphrase.read(session.stdin, null, LuksVolume.MAX_KEY_FILE);
        }
        if (p.length == 0) {
            throw new VolumeException("Nothing to read on input: the new passphrase is empty");
        }
        return p;
    }
}
