package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.bitlk.BitlkInfo;
import org.vectorjce.volumes.bitlk.BitlkVolume;

import picocli.CommandLine.Option;

/**
 * The {@code volume} command's {@code --type bitlk} verbs, with cryptsetup's option names:
 *
 * <pre>
 * volume info    --type bitlk IMAGE [--dump-volume-key [-q]]    (cryptsetup bitlkDump)
 * volume test    --type bitlk IMAGE                             (bitlkOpen --test-passphrase)
 * volume decrypt --type bitlk IMAGE OUT                         (the device bitlkOpen maps)
 *   [--key-file F.BEK] [--volume-key-file F]
 * </pre>
 *
 * The passphrase — the password or a recovery password, as cryptsetup takes either — is the first
 * line of standard input when it is not a terminal, else a prompt without echo; {@code --key-file}
 * gives a startup key ({@code .BEK} file) instead, {@code --volume-key-file} the volume key's bytes.
 * A volume with a clear key opens without either (an empty line). {@code info} without
 * {@code --dump-volume-key} reads no secret. Exit statuses: {@link Exits} (2: no VMK opened).
 */
public final class BitlkCommand {
    private static final int MAX_PASSWORD_LINE = 4096;

    /** The option only {@code --type bitlk} and {@code --type fvault2} read; picocli fills it. */
    public static final class Options {
        @Option(names = "--volume-key-file", paramLabel = "FILE", description = "Use the volume key in FILE (its "
                + "raw bytes, as bitlkDump or fvault2Dump --dump-volume-key --volume-key-file writes them) instead of"
                + " a protector or the passphrase.")
        Path volumeKeyFile;
    }

    private final InputStream stdin;
    private final PrintStream out, err;
    private final Console console;

    public BitlkCommand(InputStream stdin, PrintStream out, PrintStream err, Console console) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
    }

    /** {@code info} of {@code image} once the command line is parsed. */
    int info(Path image, Options o, List<Path> keyFiles, boolean dumpKey, boolean quiet)
            throws IOException, VolumeException, UsageException {
        if (o == null) {
            o = new Options();
        }
        VolumeMain.checkImage(image);
        if (!dumpKey) {
            if (o.volumeKeyFile != null || !keyFiles.isEmpty()) {
                throw new UsageException("info --type bitlk reads no secret unless --dump-volume-key");
            }
            BitlkInfo info = BitlkVolume.info(image);
            for (String w : info.warnings()) {
                err.println("WARNING: " + w + ".");   // a bad copy, skipped for the next valid one
            }
            out.print(info.dump(image.toString(), ZoneId.systemDefault()));
            if (!info.fullyEncrypted()) {
                // encrypt-on-write or a conversion part way: what the metadata says and how the payload reads
                // (a fully encrypted volume's text stays cryptsetup's bitlkDump, byte for byte)
                out.print('\n');
                out.print(info.conversionDump());
            }
            return Exits.OK;
        }
        if (!quiet) {
            confirmKeyDump(console);
        }
        try (BitlkVolume v = open(image, o, keyFiles, false)) {
            byte[] k = v.volumeKey();
            try {
                out.print(v.info().dumpWithKey(image.toString(), k));
            } finally {
                Arrays.fill(k, (byte) 0);
            }
            return Exits.OK;
        }
    }

    /**
     * Unlocks {@code image} with the secret the options name: {@code --volume-key-file}, else the
     * startup key file ({@code --key-file}), else the passphrase or recovery password from standard
     * input or a prompt. {@code activate}: refuse, before any secret is read, a volume whose
     * payload cannot be reached (as cryptsetup's activation check).
     */
    BitlkVolume open(Path image, Options o, List<Path> keyFiles, boolean activate)
            throws IOException, VolumeException, UsageException {
        if (o == null) {
            o = new Options();
        }
        if (keyFiles.size() > 1) {
            throw new UsageException("--key-file given " + keyFiles.size() + " times: a BitLocker volume takes one"
                    + " startup key");
        }
        VolumeMain.checkImage(image);
        // refused before any secret is read or stretched, as cryptsetup's _activate_check
        if (activate) {
            BitlkInfo info = BitlkVolume.info(image);
            if (info.activationProblem() != null) {
                throw new VolumeException(info.activationProblem());
            }
        }
        BitlkVolume.Builder b = BitlkVolume.at(image);
        if (o.volumeKeyFile != null) {
            byte[] k = volumeKeyFile(o.volumeKeyFile, 0, 64, "a BitLocker volume key is 16 to 64");
            try {
                b.volumeKey(k);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        } else if (!keyFiles.isEmpty()) {
            VolumeMain.checkKeyFile(keyFiles.get(0), "The startup key file");
            b.startupKey(keyFiles.get(0));
        } else {
            byte[] pw = Passphrase.read(stdin, console, MAX_PASSWORD_LINE);
            try {
                if (pw.length > 0) {
                    b.passphrase(pw);
                }
            } finally {
                Arrays.fill(pw, (byte) 0);
            }
        }
        return b.open();
    }

    /**
     * The bytes of {@code --volume-key-file f}, refused (naming {@code expected}, e.g. "a
     * BitLocker volume key is 16 to 64") unless {@code min} to {@code max} bytes long; never reads
     * more than {@code max + 1} bytes, whatever the file grows to. The caller wipes the array.
     */
    static byte[] volumeKeyFile(Path f, int min, int max, String expected)
            throws IOException, VolumeException, UsageException {
        VolumeMain.checkKeyFile(f, "The volume key file");
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

    /**
     * cryptsetup's question before {@code --dump-volume-key} prints a key (bitlkDump and
     * fvault2Dump ask the same): answered on the terminal, else refused unless {@code -q}.
     */
    static void confirmKeyDump(Console console) throws UsageException {
        if (console == null || System.console() != console) {
            throw new UsageException("--dump-volume-key needs confirmation on a terminal, or -q");
        }
        String yes = console.readLine("The header dump with volume key is sensitive information\n"
                + "that allows access to encrypted partition without a passphrase.\n"
                + "This dump should be stored encrypted in a safe place.\n"
                + "Are you sure? (Type 'yes' in capital letters): ");
        if (!"YES".equals(yes)) {
            throw new UsageException("Operation aborted.");
        }
    }

    /**
     * Whether {@code image} is a BitLocker volume by its signature: {@code -FVE-FS-} at byte 3, or
     * To Go's {@code MSWIN4.1} (also any FAT volume's) with FVE metadata that reads. Any failure to
     * read says no: the LUKS path then reports it.
     */
    static boolean looksLikeBitlk(Path image) {
        try (SeekableByteChannel c = FileChannel.open(image, StandardOpenOption.READ)) {
            if (c.size() < 512) {
                return false;
            }
            ByteBuffer b = ByteBuffer.allocate(11);
            while (b.hasRemaining() && c.read(b) > 0) {
                // fill
            }
            String sig = new String(b.array(), 3, 8, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (sig.equals("-FVE-FS-")) {
                return true;
            }
            if (sig.equals("MSWIN4.1")) {
                BitlkVolume.info(c, image.toString());
                return true;
            }
            return false;
        } catch (IOException | VolumeException | RuntimeException e) {
            return false;
        }
    }
}
