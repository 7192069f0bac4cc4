package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * What the verbs of one {@code volume} command line run with: its standard streams, its console,
 * whether standard error is a terminal and whether SIGINT and SIGTERM stop {@code serve} and
 * {@code mount}. The questions asked before something irreversible or sensitive, and the reading
 * of a passphrase or key file, go through it, so every verb asks and reads the same way.
 */
final class Session {
    /** cryptsetup's question before {@code --dump-volume-key} prints a key (luksDump, tcryptDump, bitlkDump, fvault2Dump). */
    private static final String KEY_DUMP = "The header dump with volume key is sensitive information\n"
            + "that allows access to encrypted partition without a passphrase.\n"
            + "This dump should be stored encrypted in a safe place.\n";

    final InputStream stdin;
    final PrintStream out, err;
    final Console console;
    private final BooleanSupplier terminal;
    /** Whether SIGINT and SIGTERM stop {@code serve} and {@code mount} (the process's own command line only). */
    final boolean signals;

    /**
     * {@code terminal}: whether stderr is to be treated as a terminal, for the progress bar and the
     * line before a KDF benchmark (null: when {@code console} is given and this JVM's console is
     * on a terminal).
     */
    Session(InputStream stdin, PrintStream out, PrintStream err, Console console, BooleanSupplier terminal,
            boolean signals) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
        this.terminal = terminal;
        this.signals = signals;
    }

    /** Whether stderr is a terminal: the progress bar and the line before a KDF benchmark go there only then. */
    boolean onTerminal() {
        return terminal != null ? terminal.getAsBoolean() : console != null && Passphrase.isTerminal();
    }

    /**
     * On a terminal, one line on stderr before the KDF of a new key slot is calibrated, which takes
     * seconds of silence otherwise; nothing when the cost is forced ({@code calibrates} false) or
     * stderr is not a terminal, so scripted output stays the same.
     */
    void benchmarking(boolean calibrates, Long iterTime) {
        if (calibrates && onTerminal()) {
            err.println("Benchmarking the key derivation for a " + (iterTime == null ? 2000 : iterTime)
                    + " ms unlock (a few seconds)...");
            err.flush();
        }
    }

    /**
     * cryptsetup's question before an irreversible or sensitive step: {@code warning}, then "Are
     * you sure? (Type 'yes' in capital letters)", answered on this JVM's terminal; without one the
     * step is refused with {@code refusal} (the verb's {@code -q} skips the question).
     */
    void confirm(String warning, String refusal) throws UsageException {
        if (console == null || System.console() != console || !Passphrase.isTerminal()) {
            throw new UsageException(refusal);
        }
        String yes = console.readLine(warning + "Are you sure? (Type 'yes' in capital letters): ");
        if (!"YES".equals(yes)) {
            throw new UsageException("Operation aborted.");
        }
    }

    /** The question before {@code --dump-volume-key} prints a volume key, whatever the format. */
    void confirmKeyDump() throws UsageException {
        confirm(KEY_DUMP, "--dump-volume-key needs confirmation on a terminal, or -q");
    }

    /** The passphrase from a prompt without echo on a terminal, else the first line of standard input (at most {@code max} bytes). */
    byte[] passphrase(int max) throws IOException, VolumeException {
        return Passphrase.read(stdin, console, max);
    }

    /** A key file's bytes, {@code -} for all of standard input (cryptsetup's {@code --key-file}). The caller wipes them. */
    byte[] keyFileBytes(Path keyFile) throws IOException, VolumeException, UsageException {
        byte[] p;
        if (keyFile.toString().equals("-")) {
            p = stdin.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
        } else {
            if (!Files.exists(keyFile)) {
                throw new NoSuchFileException(keyFile.toString());
            }
            Checks.keyFile(keyFile, "Key file");
            if (Files.size(keyFile) > LuksVolume.MAX_KEY_FILE) {
                throw new VolumeException("Key file " + keyFile + " is larger than " + LuksVolume.MAX_KEY_FILE + " bytes");
            }
            try (InputStream in = Files.newInputStream(keyFile)) {
                p = in.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
            }
        }
        if (p.length > LuksVolume.MAX_KEY_FILE) {
            Arrays.fill(p, (byte) 0);
            throw new VolumeException("Key file " + keyFile + " is larger than " + LuksVolume.MAX_KEY_FILE + " bytes");
        }
        return p;
    }
}
