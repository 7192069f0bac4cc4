package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.tcrypt.TcryptVolume;

import picocli.CommandLine.Option;

/**
 * The {@code volume} command's {@code --type tcrypt} verbs, with cryptsetup's option names:
 *
 * <pre>
 * volume info    --type tcrypt IMAGE [--dump-volume-key [-q]]   (cryptsetup tcryptDump)
 * volume test    --type tcrypt IMAGE                            (tcryptOpen --test-passphrase)
 * volume decrypt --type tcrypt IMAGE OUT                        (the plaintext tcryptOpen shows)
 *   [--tcrypt-hidden] [--tcrypt-system] [--tcrypt-backup] [--veracrypt-pim N] [--disable-veracrypt]
 *   [--key-file F]... [--hash H] [--cipher C] [--header F] [--threads N]
 * </pre>
 *
 * {@link VolumeMain} parses the command line (picocli: the options
 * below are a group of their own in {@code info}'s, {@code test}'s and {@code decrypt}'s help) and
 * calls {@link #info}, or {@link #open} for the verbs that read the payload. The password is the first line of standard input when it is not a
 * terminal, else a prompt without echo; {@code --key-file} (repeatable, {@code -d}) adds a
 * TrueCrypt keyfile, as in cryptsetup's {@code tcryptOpen}, or a folder's keyfiles, as in
 * VeraCrypt (its regular files whose names do not start with a dot), and does not replace the
 * password. {@code --threads} is how many header trials run at once (default the processor
 * count). Exit statuses: {@link Exits}.
 */
public final class TcryptCommand {
    private static final int MAX_PASSWORD_LINE = 4096;

    /** The options only {@code --type tcrypt} reads; picocli fills them. */
    public static final class Options {
        @Option(names = "--tcrypt-hidden", description = "Open the hidden volume's header.")
        boolean hidden;
        @Option(names = "--tcrypt-system", description = "A system-encrypted drive or partition (its header at "
                + "sector 62; with --header, the drive holding it).")
        boolean system;
        @Option(names = "--tcrypt-backup", description = "Open the backup header at the end of the image.")
        boolean backup;
        @Option(names = "--veracrypt-pim", paramLabel = "N", description = "VeraCrypt's PIM (1 or more).")
        Integer pim;
        @Option(names = "--disable-veracrypt", description = "Try TrueCrypt's KDF rows only.")
        boolean disableVeracrypt;
        @Option(names = "--veracrypt", hidden = true, description = "cryptsetup's old switch: VeraCrypt is tried by default.")
        boolean veracrypt;
        @Option(names = {"--hash", "-h"}, paramLabel = "HASH", description = "Try only this PBKDF2 hash "
                + "(sha512, sha256, whirlpool, ripemd160, blake2s-256, stribog512).")
        String hash;
        @Option(names = {"--cipher", "-c"}, paramLabel = "CHAIN", description = "Try only the cipher chains whose "
                + "name (cryptsetup's, as tcryptDump prints it) contains this: aes, serpent, twofish, "
                + "twofish-aes, aes-twofish-serpent, camellia, kuznyechik, ...")
        String cipher;
    }

    private final InputStream stdin;
    private final PrintStream out, err;
    private final Console console;

    public TcryptCommand(InputStream stdin, PrintStream out, PrintStream err, Console console) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
    }

    /**
     * Runs the {@code volume} command line {@code args} (the verb {@code volume} first, or left out)
     * as {@code --type tcrypt} when it names no type; returns the exit status.
     */
    public int run(String... args) {
        boolean typed = false;
        for (String a : args) {
            typed |= a.equals("--type") || a.startsWith("--type=") || a.equals("-M");
        }
        String[] argv = args;
        if (!typed) {
            argv = Arrays.copyOf(args, args.length + 1);
            argv[args.length] = "--type=tcrypt";
        }
        return VolumeMain.run(stdin, out, err, console, argv);
    }

    /**
     * {@code info} of {@code image} once the command line is parsed: {@code o} holds the tcrypt
     * options (null when none was given), the others the options the verbs share with LUKS.
     */
    int info(Path image, Options o, List<Path> keyFiles, Path header, Integer threads, boolean dumpKey,
            boolean quiet) throws IOException, VolumeException, UsageException {
        check(image, o, threads);
        if (dumpKey && !quiet) {
            if (console == null || System.console() != console) {
                throw new UsageException("--dump-volume-key needs confirmation on a terminal, or -q");
            }
            String yes = console.readLine("Header dump with volume key is sensitive information\n"
                    + "which allows access to encrypted partition without passphrase.\n"
                    + "This dump should be always stored encrypted on safe place.\n"
                    + "Are you sure? (Type 'yes' in capital letters): ");
            if (!"YES".equals(yes)) {
                throw new UsageException("Operation aborted.");
            }
        }
        try (TcryptVolume v = open(image, o, keyFiles, header, threads)) {
            if (dumpKey) {
                byte[] k = v.volumeKey();
                try {
                    out.print(v.info().dumpWithKey(image.getFileName().toString(), k));
                } finally {
                    Arrays.fill(k, (byte) 0);
                }
            } else {
                out.print(v.info().dump(image.getFileName().toString()));
            }
            return Exits.OK;
        }
    }

    /** The options' own checks, and the image's, before any secret is read. */
    private static void check(Path image, Options o, Integer threads) throws NoSuchFileException, UsageException {
        if (o != null && o.hidden && o.system) {
            throw new UsageException("--tcrypt-hidden and --tcrypt-system cannot be combined");
        }
        if (o != null && o.pim != null && o.pim <= 0) {
            throw new UsageException("Invalid PIM value: " + o.pim + " (1 or more)");
        }
        if (threads != null && threads < 1) {
            throw new UsageException("--threads " + threads + ": 1 or more");
        }
        VolumeMain.checkImage(image);
    }

    /**
     * Unlocks {@code image} with the options ({@code o}: the tcrypt group, null when none was given)
     * and the password from standard input or a prompt; for writing when {@code write}.
     */
    TcryptVolume open(Path image, Options o, List<Path> keyFiles, Path header, Integer threads)
            throws IOException, VolumeException, UsageException {
        return open(image, o, keyFiles, header, threads, false);
    }

    /** {@link #open(Path, Options, List, Path, Integer)}, the payload writable when {@code write}. */
    TcryptVolume open(Path image, Options o, List<Path> keyFiles, Path header, Integer threads, boolean write)
            throws IOException, VolumeException, UsageException {
        check(image, o, threads);
        if (o == null) {
            o = new Options();
        }
        TcryptVolume.Builder b = TcryptVolume.at(image).hash(o.hash).cipher(o.cipher).pim(o.pim == null ? 0 : o.pim)
                .hidden(o.hidden).system(o.system).backupHeader(o.backup).veracrypt(!o.disableVeracrypt);
        if (header != null) {
            b.header(header);
        }
        if (threads != null) {
            b.threads(threads);
        }
        if (write) {
            b.readWrite();
        }
        for (Path k : keyFiles) {
            b.keyFile(k);
        }
        byte[] pw = Passphrase.read(stdin, console, MAX_PASSWORD_LINE);
        try {
            b.passphrase(pw);
        } finally {
            Arrays.fill(pw, (byte) 0);
        }
        return b.open();
    }
}
