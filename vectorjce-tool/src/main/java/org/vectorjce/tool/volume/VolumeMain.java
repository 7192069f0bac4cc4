package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

import org.vectorjce.tool.Chunks;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code volume} command, named and behaving as cryptsetup where they overlap:
 *
 * <pre>
 * volume info IMAGE [--header F] [--key-slot N] [--dump-volume-key [--key-file F] [-q]]
 * volume test IMAGE [--header F] [--key-file F] [--key-slot N] [-v]
 * volume decrypt IMAGE OUT [--header F] [--key-file F] [--key-slot N] [--threads N]
 * volume encrypt IN IMAGE [--header F] [--key-file F] [--key-slot N] [--threads N]
 * volume format IMAGE [--type luks2|luks1] [--cipher C] [--key-size BITS] [--hash H] [--sector-size B]
 *              [--pbkdf argon2id|argon2i|pbkdf2] [--iter-time MS] [--pbkdf-memory KIB] [--pbkdf-parallel N]
 *              [--pbkdf-force-iterations N] [--key-file F] [-q]
 * volume add-key IMAGE [NEW_KEY_FILE] [--key-file F] [--key-slot N] [--header F] [KDF options] [-v]
 * volume remove-key IMAGE [--key-file F] [--key-slot N] [--header F] [-q] [-v]
 * volume change-key IMAGE [NEW_KEY_FILE] [--key-file F] [--key-slot N] [--header F] [KDF options] [-v]
 * volume serve IMAGE [--socket PATH | --tcp [HOST:]PORT] [--read-only] [--export-name N] [--tls-cert F --tls-key F]
 *              [unlock options]
 * volume mount IMAGE DIR [--read-only] [unlock options]
 * volume fs IMAGE [--json] [unlock options]
 * volume ls IMAGE [PATH] [-l] [-R] [--json] [--streams] [--partition N|VG/LV] [unlock options]
 * volume cat IMAGE PATH [--partition N|VG/LV] [unlock options]
 * volume get IMAGE PATH... DEST [--force] [--partition N|VG/LV] [unlock options]
 * volume info|test|decrypt --type tcrypt ...   (TrueCrypt/VeraCrypt: {@link TcryptCommand})
 * volume info|test|decrypt --type bitlk ...    (BitLocker: {@link BitlkCommand})
 * volume info|test|decrypt --type fvault2 ...  (FileVault 2: {@link Fvault2Command})
 * volume help [VERB] | --help | --version
 * </pre>
 *
 * {@code info} is {@code cryptsetup luksDump}; {@code test} is {@code cryptsetup open
 * --test-passphrase}; {@code decrypt} writes the plaintext {@code cryptsetup open} would show to
 * the new file {@code OUT} (an existing one is refused; {@code --threads N} workers, default the
 * processor count; a progress bar on a terminal); {@code encrypt} writes the raw file {@code IN}
 * into the payload from its start, as {@code dd} to the opened device does (the only verb that
 * opens IMAGE for writing). The passphrase is the whole key file with {@code --key-file} (all of
 * standard input for {@code --key-file -}), else the first line of standard input when it is not
 * a terminal, else a prompt without echo.
 *
 * <p>The command line is parsed by picocli: each verb is a class below whose annotated fields are
 * its options, so {@code --help} and {@code help VERB} list exactly what the verb reads. Exit
 * statuses and the one line on standard error: {@link Exits}. {@code -h} is {@code --hash} in the
 * verbs, as in cryptsetup, and help only at the top level; {@code --help} and {@code -?} work
 * everywhere.
 */
@Command(name = "volume", mixinStandardHelpOptions = true, versionProvider = VolumeMain.Version.class,
        sortOptions = false, synopsisSubcommandLabel = "VERB", commandListHeading = "%nVerbs:%n",
        description = {"LUKS1/LUKS2 and TrueCrypt/VeraCrypt volumes in pure Java, named and behaving as cryptsetup "
                + "where they overlap. A LUKS volume's version is read from its header; info, test and decrypt "
                + "read TrueCrypt/VeraCrypt volumes with --type tcrypt, BitLocker volumes with --type bitlk and "
                + "FileVault 2 volumes with --type fvault2. serve (NBD) and mount (FUSE) use any of them in place; fs, ls, cat "
                + "and get read the partitions and files inside them, or inside a plain disk image."},
        footerHeading = "%nSecrets:%n",
        footer = {"The existing passphrase is the --key-file's bytes (-: all of standard input), else the first "
                + "line of standard input when it is not a terminal, else a prompt without echo. Each verb's "
                + "options: volume help VERB (or volume VERB --help)."})
public final class VolumeMain implements Callable<Integer> {
    private final InputStream stdin;
    final PrintStream out, err;
    private final Console console;
    private final BooleanSupplier terminal;
    /** Whether SIGINT and SIGTERM stop {@code serve} (the process's own command line only, from {@link #main}). */
    private boolean signals;

    @Spec
    CommandSpec spec;

    VolumeMain(InputStream stdin, PrintStream out, PrintStream err, Console console) {
        this(stdin, out, err, console, null);
    }

    /**
     * {@code terminal}: whether stderr is to be treated as a terminal, for the progress bar and the
     * line before a KDF benchmark (null: when {@code console} is given and this JVM's console is
     * on a terminal).
     */
    VolumeMain(InputStream stdin, PrintStream out, PrintStream err, Console console, BooleanSupplier terminal) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
        this.terminal = terminal;
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
    private void benchmarking(boolean calibrates, Long iterTime) {
        if (calibrates && onTerminal()) {
            err.println("Benchmarking the key derivation for a " + (iterTime == null ? 2000 : iterTime)
                    + " ms unlock (a few seconds)...");
            err.flush();
        }
    }

    public static void main(String[] args) {
        VolumeMain m = new VolumeMain(System.in, System.out, System.err, System.console());
        m.signals = true;
        int rc = m.run(args);
        System.out.flush();
        System.exit(rc);
    }

    /** Runs the command line {@code args} with these streams; returns the exit status. */
    public static int run(InputStream stdin, PrintStream out, PrintStream err, Console console, String... args) {
        return new VolumeMain(stdin, out, err, console).run(args);
    }

    /**
     * The subcommands to build for the command line {@code argv}: none for {@code --version}; the
     * verb alone when the first word names one (by name or alias), or {@code help VERB} names one
     * (with {@code help}); else an outline of every verb (name, aliases, description) and
     * {@code help}. picocli builds a subcommand's model from its annotations by reflection, and
     * building all of them was most of the tool's start-up time, whereas {@code volume test ...}
     * needs only {@code test}'s and {@code volume --help} only the verbs' names and descriptions.
     */
    private List<Object> verbs(String[] argv) {
        String first = argv.length > 0 ? argv[0] : "";
        if (first.equals("--version") || first.equals("-V")) {
            return List.of();
        }
        List<Object> all = new ArrayList<>(List.of(new Info(), new Test(), new Decrypt(), new Encrypt(), new Format(),
                new AddKey(), new RemoveKey(), new ChangeKey(), new Serve(), new Mount(), new FilesVerbs.Fs(this),
                new FilesVerbs.Ls(this), new FilesVerbs.Cat(this), new FilesVerbs.Get(this)));
        String wanted = first.equals("help") && argv.length > 1 ? argv[1] : first;
        for (Object verb : all) {
            Command c = verb.getClass().getAnnotation(Command.class);
            if (c.name().equals(wanted) || Arrays.asList(c.aliases()).contains(wanted)) {
                return first.equals("help") ? List.of(verb, new CommandLine.HelpCommand()) : List.of(verb);
            }
        }
        // the list of verbs (volume --help, help, a word that is no verb): each verb's name and
        // description from its annotation, without the reflection over its options
        List<Object> outline = new ArrayList<>();
        for (Object verb : all) {
            Command c = verb.getClass().getAnnotation(Command.class);
            CommandSpec s = CommandSpec.create().name(c.name()).aliases(c.aliases());
            s.usageMessage().description(c.description());
            outline.add(s);
        }
        outline.add(new CommandLine.HelpCommand());
        return outline;
    }

    /** Runs {@code args} (the verb {@code volume} first, or left out); returns the exit status. */
    public int run(String[] args) {
        String[] argv = args.length > 0 && args[0].equals("volume") ? Arrays.copyOfRange(args, 1, args.length) : args;
        PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter e = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        CommandLine cl = new CommandLine(this);
        for (Object verb : verbs(argv)) {
            if (verb instanceof CommandSpec s) {
                cl.addSubcommand(s.name(), s, s.aliases());
            } else {
                cl.addSubcommand(verb);
            }
        }
        cl.setOut(o).setErr(e).setOverwrittenOptionsAllowed(true)
                .setParameterExceptionHandler(Exits::onParameterError)
                .setExecutionExceptionHandler(Exits::onExecutionError);
        // the exit statuses in every verb's help, from the one table
        List<CommandLine> all = new ArrayList<>(cl.getSubcommands().values());
        all.add(cl);
        for (CommandLine c : all) {
            c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit status:%n").exitCodeList(Exits.HELP);
        }
        try {
            return cl.execute(argv);
        } catch (OutOfMemoryError x) {
            return Exits.report(e, x);
        } finally {
            o.flush();
            e.flush();
            out.flush();
            err.flush();
        }
    }

    /** {@code volume} without a verb. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "No verb given: info, test, decrypt, encrypt, format, add-key, remove-key, change-key, serve, mount, fs, "
                + "ls, cat, get or help");
    }

    /** {@code volume --version}: the module's version (a filtered resource) and the JVM it runs on. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = VolumeMain.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"volume (VectorJCE volumes) " + p.getProperty("version", "(unknown version)"),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }

    // ---- the verbs: each one's options are its annotated fields

    /** What every verb has: {@code --help} ({@code -h} is {@code --hash} in the verbs, as in cryptsetup). */
    abstract static class Verb implements Callable<Integer> {
        @Option(names = {"--help", "-?"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;
    }

    /** The KDF of a new key slot (format, add-key, change-key). */
    static final class Kdf {
        @Option(names = "--pbkdf", paramLabel = "KDF", description = "argon2id, argon2i or pbkdf2 (LUKS2 default "
                + "argon2id; LUKS1 pbkdf2 only).")
        String pbkdf;
        @Option(names = {"--hash", "-h"}, paramLabel = "HASH", description = "PBKDF2's hash and the AF hash "
                + "(default sha256; LUKS1 key slots use the header's; format --type luks1: the header's hash).")
        String hash;
        @Option(names = {"--iter-time", "-i"}, paramLabel = "MS", description = "Calibrate the KDF to this many "
                + "milliseconds (default 2000).")
        Long iterTime;
        @Option(names = "--pbkdf-memory", paramLabel = "KIB", description = "Argon2's memory ceiling in KiB "
                + "(default min(1 GiB, half the physical memory)).")
        Long memory;
        @Option(names = "--pbkdf-parallel", paramLabel = "N", description = "Argon2's lanes (default min(4, processors)).")
        Long parallel;
        @Option(names = "--pbkdf-force-iterations", paramLabel = "N", description = "No calibration: N PBKDF2 "
                + "iterations (1000 or more) or Argon2 time cost N (4 or more).")
        Long forceIterations;

        void check() throws UsageException {
            range(iterTime, "--iter-time", 1, 3_600_000);
            range(forceIterations, "--pbkdf-force-iterations", 1, 0xFFFF_FFFFL);
            range(memory, "--pbkdf-memory", 8, 4L * 1024 * 1024);
            range(parallel, "--pbkdf-parallel", 1, 16);
        }

        KeySlotOptions options() throws VolumeException {
            return slotOptions(pbkdf, hash, iterTime, memory, parallel, forceIterations);
        }
    }

    /** Refuses {@code v} outside {@code [min, max]}, with the option's name. */
    static void range(Number v, String option, long min, long max) throws UsageException {
        if (v != null && (v.longValue() < min || v.longValue() > max)) {
            throw new UsageException(option + " " + v + ": a number from " + min + " to " + max);
        }
    }

    /** Refuses an IMAGE that does not exist, or that is a directory, naming it. */
    static void checkImage(Path image) throws NoSuchFileException, UsageException {
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
        if (Files.isDirectory(image)) {
            throw new UsageException(image + " is a directory, not a volume image");
        }
    }

    /** Refuses a key file ({@code what}: how the message names it) that is a directory. */
    static void checkKeyFile(Path file, String what) throws UsageException {
        if (Files.isDirectory(file)) {
            throw new UsageException(what + " " + file + " is a directory");
        }
    }

    /** Refuses decrypt's OUT when it exists, or when the folder to create it in does not. */
    static void checkOut(Path target) throws FileAlreadyExistsException, UsageException {
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Path folder = target.getParent();
        if (folder != null && !Files.exists(folder)) {
            throw new UsageException(target + " cannot be created: the folder " + folder + " does not exist");
        }
    }

    /**
     * The verbs that also read TrueCrypt/VeraCrypt ({@code info}, {@code test}, {@code decrypt}):
     * {@code --type}, the options shared with LUKS, and the tcrypt group.
     */
    abstract class Typed extends Verb {
        @Option(names = {"--type", "-M"}, paramLabel = "TYPE", description = "luks (default: LUKS1 or LUKS2, as the "
                + "header says; a BitLocker or Core Storage signature makes it bitlk or fvault2), luks1, luks2, tcrypt "
                + "(TrueCrypt/VeraCrypt), bitlk (BitLocker) or fvault2 (FileVault 2).")
        String type;
        @Option(names = "--header", paramLabel = "FILE", description = "A detached header (LUKS); the header's "
                + "image (--type tcrypt, e.g. the drive of a system partition).")
        Path header;
        @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "LUKS: the passphrase is this file's "
                + "bytes (-: all of standard input). --type tcrypt: a keyfile or a folder of them, added to the "
                + "password (repeatable).")
        List<Path> keyFiles = new ArrayList<>();
        @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "LUKS: try only this key slot.")
        Integer keySlot;
        @Option(names = "--threads", paramLabel = "N", description = "decrypt: workers (LUKS, 1 to 1024); "
                + "--type tcrypt: header trials at once. Default: the processor count.")
        Integer threads;
        @ArgGroup(exclusive = false, validate = false, heading = "%nTrueCrypt/VeraCrypt (with --type tcrypt):%n")
        TcryptCommand.Options tcrypt;
        @ArgGroup(exclusive = false, validate = false, heading = "%nBitLocker (with --type bitlk; --key-file F.BEK is a "
                + "startup key; the passphrase on standard input may be the password or a recovery password) and "
                + "FileVault 2 (--type fvault2):%n")
        BitlkCommand.Options bitlk;
        /** Whether --type was left out (then found from the image). */
        boolean typeFound;

        /**
         * Whether the verb runs as {@code --type bitlk} (after checking the options it takes); without
         * {@code --type}, when {@code image} carries BitLocker's signature, or Core Storage's (then
         * {@code --type fvault2}; either said on stderr), else LUKS.
         */
        boolean bitlk(Path image) throws UsageException {
            if (type == null) {
                type = "luks";
                typeFound = true;
                if (BitlkCommand.looksLikeBitlk(image)) {
                    type = "bitlk";
                    err.println("Found a BitLocker volume: reading it as --type bitlk.");
                } else if (Fvault2Command.looksLikeFvault2(image)) {
                    type = "fvault2";
                    err.println("Found a FileVault 2 volume: reading it as --type fvault2.");
                }
            }
            if (!type.equals("bitlk")) {
                if (bitlk != null && !type.equals("fvault2")) {
                    throw new UsageException("--volume-key-file is read with --type bitlk or fvault2 only");
                }
                return false;
            }
            if (keySlot != null || header != null || threads != null || tcrypt != null) {
                throw new UsageException("--type bitlk takes no --key-slot, --header, --threads, --hash, --cipher,"
                        + " --tcrypt-* or --veracrypt-* option");
            }
            return true;
        }

        BitlkCommand bk() {
            return new BitlkCommand(stdin, out, err, console);
        }

        /**
         * Unlocks {@code image} as the options say, whatever its format: the one place a verb that
         * works on the {@link Volume} itself ({@code serve}, {@code mount}) turns the command line
         * into one. {@code write}: open a LUKS or TrueCrypt/VeraCrypt volume for writing (BitLocker
         * and FileVault 2 are read-only).
         */
        Volume unlock(String verb, Path image, boolean write) throws Exception {
            if (bitlk(image)) {
                return bk().open(image, bitlk, keyFiles, true);
            }
            if (fvault2()) {
                return new Fvault2Command(out, console).open(image, bitlk == null ? null : bitlk.volumeKeyFile,
                        fvPassphrase(), true);
            }
            if (tcrypt()) {
                return tc().open(image, tcrypt, keyFiles, header, threads, write);
            }
            luks(verb, image);
            try {
                return open(image, header, keyFile(), keySlot, write);
            } catch (CorruptHeaderException e) {
                throw luksFailure(e, image);
            }
        }

        /** Whether the verb runs as {@code --type fvault2} (after {@link #bitlk}, and checking the options it takes). */
        boolean fvault2() throws UsageException {
            if (!type.equals("fvault2")) {
                return false;
            }
            if (keySlot != null || header != null || threads != null || tcrypt != null) {
                throw new UsageException("--type fvault2 takes no --key-slot, --header, --threads, --hash, --cipher,"
                        + " --tcrypt-* or --veracrypt-* option");
            }
            if (keyFiles.size() > 1) {
                throw new UsageException("--key-file given " + keyFiles.size() + " times: a FileVault 2 volume takes"
                        + " one passphrase");
            }
            return true;
        }

        /** The FileVault 2 passphrase, as the LUKS verbs read it: the key file's bytes, else standard input or a prompt. */
        Fvault2Command.Secret fvPassphrase() {
            Path kf = keyFile();
            return () -> kf != null ? keyFileBytes(kf) : Passphrase.read(stdin, console, LuksVolume.MAX_KEY_FILE);
        }

        /** Runs the verb as {@code --type tcrypt}, or checks the options for LUKS and returns false. */
        boolean tcrypt() throws UsageException {
            switch (type) {
                case "tcrypt" -> {
                    if (keySlot != null) {
                        throw new UsageException("--key-slot is LUKS's: a TrueCrypt/VeraCrypt volume has no key slots");
                    }
                    return true;
                }
                case "luks", "luks1", "luks2" -> {
                    if (tcrypt != null) {
                        throw new UsageException("--hash, --cipher, --tcrypt-* and --veracrypt-* need --type tcrypt"
                                + " (a LUKS header names its own cipher and hash)");
                    }
                    if (keyFiles.size() > 1) {
                        throw new UsageException("--key-file given " + keyFiles.size()
                                + " times: a LUKS volume takes one key file");
                    }
                    return false;
                }
                default -> throw new UsageException("--type " + type + ": luks, luks1, luks2, tcrypt, bitlk or fvault2");
            }
        }

        /**
         * The checks of the LUKS {@code verb} ({@link #tcrypt} having returned false) before it opens
         * the image: {@code --threads} only for decrypt, which reads it, and {@code --type luks1} or
         * {@code luks2} only on an image whose header has that version.
         */
        void luks(String verb, Path image) throws IOException, VolumeException, UsageException {
            if (threads != null && !verb.equals("decrypt")) {
                throw new UsageException("--threads is read by decrypt, encrypt and --type tcrypt: " + verb
                        + " on a LUKS volume runs no workers");
            }
            if (type.equals("luks1") || type.equals("luks2")) {
                checkImage(image);
                int version = builder(image, header).info().version();
                if (!type.equals("luks" + version)) {
                    throw new UsageException("--type " + type + " does not match " + (header != null ? header : image)
                            + ", a LUKS" + version + " header: give --type luks" + version + ", or no --type");
                }
            }
        }

        /**
         * {@code e}, or, when --type was left out and the image has no LUKS magic, {@code e} with the
         * hint that it may be a TrueCrypt/VeraCrypt volume (which has no magic to find it by).
         */
        VolumeException luksFailure(CorruptHeaderException e, Path image) {
            String noMagic = (header != null ? header : image) + " is not a LUKS volume (no LUKS magic)";
            if (typeFound && noMagic.equals(e.getMessage())) {
                return new CorruptHeaderException(noMagic + "; it may be a TrueCrypt/VeraCrypt volume, which has"
                        + " none: try --type tcrypt", e);
            }
            return e;
        }

        Path keyFile() {
            return keyFiles.isEmpty() ? null : keyFiles.get(0);
        }

        TcryptCommand tc() {
            return new TcryptCommand(stdin, out, err, console);
        }
    }

    @Command(name = "info", aliases = {"luksDump", "tcryptDump"}, sortOptions = false,
            description = {"The header, laid out as cryptsetup luksDump (LUKS), tcryptDump (--type tcrypt), bitlkDump (--type "
                    + "bitlk) or fvault2Dump (--type fvault2) prints it. "
                    + "Nothing is unlocked unless --dump-volume-key (--type tcrypt: the password opens the header "
                    + "first)."})
    final class Info extends Typed {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
        Path image;
        @Option(names = {"--dump-volume-key", "--dump-master-key"}, description = "Unlock the volume and print its "
                + "key, as luksDump --dump-volume-key (asks YES on a terminal unless -q).")
        boolean dumpKey;
        @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation.")
        boolean quiet;

        @Override
        public Integer call() throws Exception {
            if (bitlk(image)) {
                return bk().info(image, bitlk, keyFiles, dumpKey, quiet);
            }
            if (fvault2()) {
                return new Fvault2Command(out, console).info(image, bitlk == null ? null : bitlk.volumeKeyFile,
                        keyFile() != null, fvPassphrase(), dumpKey, quiet);
            }
            if (tcrypt()) {
                return tc().info(image, tcrypt, keyFiles, header, threads, dumpKey, quiet);
            }
            luks("info", image);
            try {
                return info(image, header, keyFile(), keySlot, dumpKey, quiet);
            } catch (CorruptHeaderException e) {
                throw luksFailure(e, image);
            }
        }
    }

    @Command(name = "test", sortOptions = false, description = {"Whether the passphrase (or key file) opens the "
            + "volume, as cryptsetup open --test-passphrase: exit 0 when it does, 2 when nothing opened."})
    final class Test extends Typed {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
        Path image;
        @Option(names = {"-v", "--verbose"}, description = "Say which key slot opened (LUKS).")
        boolean verbose;

        @Override
        public Integer call() throws Exception {
            try (Volume v = unlock("test", image, false)) {
                if (verbose && v instanceof LuksVolume l && l.keySlot().isPresent()) {
                    // as cryptsetup -v: silent on success unless asked
                    out.println("Key slot " + l.keySlot().getAsInt() + " unlocked.");
                }
            }
            return Exits.OK;
        }
    }

    @Command(name = "decrypt", sortOptions = false, description = {"The plaintext cryptsetup open would show, into "
            + "the new file OUT (a progress bar on a terminal; the partial file is removed on failure)."})
    final class Decrypt extends Typed {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
        Path image;
        @Parameters(index = "1", paramLabel = "OUT", description = "The plaintext file to create (must not exist).")
        Path target;

        @Override
        public Integer call() throws Exception {
            range(threads, "--threads", 1, 1024);
            checkOut(target);
            try (Volume v = unlock("decrypt", image, false)) {
                // --type tcrypt's --threads are its header trials; the copy takes the processors
                return decrypt(v, target, threads != null && v instanceof LuksVolume ? threads : processors());
            }
        }
    }

    @Command(name = "serve", sortOptions = false, description = {"Serves the plaintext of IMAGE over NBD (the "
            + "Network Block Device protocol) until SIGINT or SIGTERM, for nbdinfo, nbdcopy, nbdfuse, qemu-img, "
            + "qemu-nbd's clients, fio or the Linux nbd driver: read-write for LUKS and TrueCrypt/VeraCrypt (unless "
            + "--read-only; TrueCrypt's pre-4.0 CBC volumes need it), read-only for BitLocker and FileVault 2 "
            + "(writes answered EPERM). It prints the URI to connect "
            + "to on standard output. The volume is unlocked as test unlocks it.",
            "", "On SIGINT or SIGTERM it finishes the requests in flight, flushes the image, closes the volume "
            + "(its key wiped), removes the socket and exits 0. A second serve of the same image is refused "
            + "while one serves it for writing (an advisory lock on IMAGE)."})
    final class Serve extends Typed {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
        Path image;
        @Option(names = "--socket", paramLabel = "PATH", description = "Listen on this Unix socket (it must not "
                + "exist; made 0600). Default: $XDG_RUNTIME_DIR/volume-NAME.sock, or NAME.sock in a new 0700 "
                + "folder under the temporary directory; NAME is IMAGE's file name.")
        Path socket;
        @Option(names = "--tcp", paramLabel = "[HOST:]PORT", description = "Listen on TCP instead: on the loopback "
                + "address unless HOST names another (then a warning: the export is reachable from the network, "
                + "with no authentication).")
        String tcp;
        @Option(names = {"--read-only", "-r"}, description = "Refuse writes (EPERM) even where the format takes them.")
        boolean readOnly;
        @Option(names = "--export-name", paramLabel = "NAME", description = "The export's name (default: the "
                + "empty name, which a client naming none gets).")
        String exportName;
        @Option(names = "--tls-cert", paramLabel = "FILE", description = "Require TLS 1.3 with this X.509 "
                + "certificate chain (PEM, the server's first), as qemu-nbd's server-cert.pem; with --tls-key.")
        Path tlsCert;
        @Option(names = "--tls-key", paramLabel = "FILE", description = "The certificate's private key: "
                + "unencrypted PKCS#8 PEM (BEGIN PRIVATE KEY), as qemu-nbd's server-key.pem.")
        Path tlsKey;
        @Option(names = "--foreground", description = "Serve in this process until SIGINT or SIGTERM: the "
                + "default and the only way (run it in the background with your shell's &, or under systemd).")
        boolean foreground;

        @Override
        public Integer call() throws Exception {
            return new ServeCommand(out, err, signals).serve(image, socket, tcp, readOnly, exportName, tlsCert, tlsKey,
                    write -> unlock("serve", image, write));
        }
    }

    @Command(name = "mount", sortOptions = false, description = {"Shows the plaintext of IMAGE as the one file "
            + "DIR/NAME (NAME: IMAGE's file name) of a FUSE mount, until fusermount3 -u DIR, SIGINT or SIGTERM: "
            + "read-write for LUKS and TrueCrypt/VeraCrypt (unless --read-only), read-only for BitLocker and "
            + "FileVault 2. It prints the file's "
            + "path on standard output. The volume is unlocked as test unlocks it.",
            "", "Needs Java 22 or newer (bin/volume finds a JDK 25) and libfuse3 with fusermount3 (Debian, "
            + "Ubuntu: apt-get install fuse3); every other verb runs on Java 17. The image is locked as serve "
            + "locks it."})
    final class Mount extends Typed {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
        Path image;
        @Parameters(index = "1", paramLabel = "DIR", description = "An existing folder to mount on.")
        Path dir;
        @Option(names = {"--read-only", "-r"}, description = "Refuse writes even where the format takes them.")
        boolean readOnly;
        @Option(names = "--foreground", description = "Stay in this process until unmounted: the default and "
                + "the only way.")
        boolean foreground;

        @Override
        public Integer call() throws Exception {
            return new MountCommand(out, err, signals).mount(image, dir, readOnly,
                    write -> unlock("mount", image, write));
        }
    }

    @Command(name = "encrypt", sortOptions = false, description = {"The raw file IN into the payload of the LUKS "
            + "volume IMAGE from its start, as dd to the device cryptsetup open makes: the header and the payload "
            + "after IN are not touched; IN larger than the payload is refused. The only verb that writes the "
            + "payload."})
    final class Encrypt extends Verb {
        @Parameters(index = "0", paramLabel = "IN", description = "The plaintext to write (a regular file).")
        Path in;
        @Parameters(index = "1", paramLabel = "IMAGE", description = "The LUKS volume.")
        Path image;
        @Option(names = "--header", paramLabel = "FILE", description = "A detached header.")
        Path header;
        @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The passphrase is this file's "
                + "bytes (-: all of standard input).")
        Path keyFile;
        @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
        Integer keySlot;
        @Option(names = "--threads", paramLabel = "N", description = "Workers, 1 to 1024 (default: the processor "
                + "count).")
        Integer threads;

        @Override
        public Integer call() throws Exception {
            range(threads, "--threads", 1, 1024);
            return encrypt(in, image, header, keyFile, keySlot, threads == null ? processors() : threads);
        }
    }

    @Command(name = "format", aliases = "luksFormat", sortOptions = false, description = {"A new LUKS2 (default, laid "
            + "out as cryptsetup 2.6's) or LUKS1 volume in the existing file IMAGE, as cryptsetup luksFormat, with "
            + "the passphrase in key slot 0. Asks YES on a terminal unless -q; everything is checked before "
            + "anything is written."})
    final class Format extends Verb {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The file to format (it must exist and hold "
                + "the header and at least one sector).")
        Path image;
        @Option(names = {"--type", "-M"}, paramLabel = "TYPE", description = "luks2 (default) or luks1.")
        String type = "luks2";
        @Option(names = {"--cipher", "-c"}, paramLabel = "CIPHER", description = "The payload's cipher in dm-crypt's "
                + "syntax (default aes-xts-plain64).")
        String cipher;
        @Option(names = {"--key-size", "-s"}, paramLabel = "BITS", description = "The volume key's size (default 512 "
                + "for XTS, else 256).")
        Integer keySize;
        @Option(names = "--sector-size", paramLabel = "BYTES", description = "LUKS2 payload sector size, 512 to 4096 "
                + "(default 4096 when the payload is a multiple of it, else 512).")
        Long sectorSize;
        @Mixin
        Kdf kdf;
        @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The passphrase is this file's "
                + "bytes (-: all of standard input).")
        Path keyFile;
        @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation.")
        boolean quiet;

        @Override
        public Integer call() throws Exception {
            range(keySize, "--key-size", 8, 4096);
            range(sectorSize, "--sector-size", 512, 4096);
            kdf.check();
            KeySlotOptions o = kdf.options();
            return format(image, type, cipher, keySize, kdf.hash, kdf.iterTime, kdf.forceIterations, keyFile, quiet,
                    (kdf.pbkdf != null && !kdf.pbkdf.equals("pbkdf2")) || kdf.memory != null || kdf.parallel != null,
                    sectorSize, o);
        }
    }

    /** What the key-slot verbs share: the volume, its header and the existing secret. */
    abstract static class KeyVerb extends Verb {
        @Parameters(index = "0", paramLabel = "IMAGE", description = "The LUKS volume.")
        Path image;
        @Option(names = "--header", paramLabel = "FILE", description = "A detached header (the file written).")
        Path header;
        @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The existing passphrase is this "
                + "file's bytes (-: all of standard input; then the new one must be NEW_KEY_FILE).")
        Path keyFile;
        @Option(names = {"-v", "--verbose"}, description = "Say which key slot changed.")
        boolean verbose;
    }

    @Command(name = "add-key", aliases = "luksAddKey", sortOptions = false, description = {"A new key slot for a new "
            + "passphrase, opened with an existing one, as cryptsetup luksAddKey. The new secret is NEW_KEY_FILE's "
            + "bytes, else the next line of standard input, else a prompt asked twice."})
    final class AddKey extends KeyVerb {
        @Parameters(index = "1", arity = "0..1", paramLabel = "NEW_KEY_FILE", description = "The new secret's file.")
        Path newKeyFile;
        @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "The new slot's number (default the "
                + "first free: LUKS1 0..7, LUKS2 0..31).")
        Integer keySlot;
        @Mixin
        Kdf kdf;

        @Override
        public Integer call() throws Exception {
            kdf.check();
            KeySlotOptions o = kdf.options();
            if (keySlot != null) {
                if (keySlot < 0) {
                    throw new VolumeException("Key slot " + keySlot + " is out of range (0 or more)");
                }
                o.keySlot(keySlot);
            }
            return addKey(image, newKeyFile, header, keyFile, o, kdf, verbose);
        }
    }

    @Command(name = "remove-key", aliases = "luksRemoveKey", sortOptions = false, description = {"Removes the key "
            + "slot the given passphrase opens, as cryptsetup luksRemoveKey; the last one only with -q or a YES on a "
            + "terminal."})
    final class RemoveKey extends KeyVerb {
        @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
        Integer keySlot;
        @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation (removing the last slot).")
        boolean quiet;

        @Override
        public Integer call() throws Exception {
            return removeKey(image, header, keyFile, keySlot, quiet, verbose);
        }
    }

    @Command(name = "change-key", aliases = "luksChangeKey", sortOptions = false, description = {"The key slot the "
            + "existing passphrase opens gets the new one, as cryptsetup luksChangeKey (LUKS2 keeps the slot number, "
            + "LUKS1 moves it to the first free slot). The new secret as for add-key."})
    final class ChangeKey extends KeyVerb {
        @Parameters(index = "1", arity = "0..1", paramLabel = "NEW_KEY_FILE", description = "The new secret's file.")
        Path newKeyFile;
        @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
        Integer keySlot;
        @Mixin
        Kdf kdf;

        @Override
        public Integer call() throws Exception {
            kdf.check();
            return changeKey(image, newKeyFile, header, keyFile, keySlot, kdf.options(), kdf, verbose);
        }
    }

    private static int processors() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * {@code volume format IMAGE}: a LUKS2 (default, as cryptsetup 2.6) or LUKS1 volume into the
     * existing file IMAGE (as {@code cryptsetup luksFormat}), after a confirmation unless {@code -q};
     * the passphrase as for the other verbs. Everything is checked before anything is written.
     */
    private int format(Path image, String type, String cipher, Integer keySize, String hash, Long iterTime,
            Long forceIterations, Path keyFile, boolean quiet, boolean argon2Options, Long sectorSize,
            KeySlotOptions slot) throws IOException, VolumeException, UsageException {
        if (!type.equals("luks1") && !type.equals("luks2")) {
            throw new UsageException("--type " + type + ": luks1 or luks2 can be formatted");
        }
        checkImage(image);
        if (!Files.isRegularFile(image)) {
            throw new NoSuchFileException(image.toString());
        }
        if (keySize == null && cipher != null && !cipher.matches("[^-]+-xts(-.*)?")) {
            keySize = 256; // cryptsetup's default: 256 bits, doubled for XTS's two keys
        }
        org.vectorjce.volumes.luks.Luks1Format f1 = null;
        org.vectorjce.volumes.luks.Luks2Format f2 = null;
        if (type.equals("luks1")) {
            if (argon2Options) {
                throw new UsageException("LUKS1 key slots use pbkdf2 only (--pbkdf, --pbkdf-memory, --pbkdf-parallel are LUKS2's)");
            }
            if (sectorSize != null && sectorSize != 512) {
                throw new UsageException("--sector-size " + sectorSize + ": LUKS1 has 512-byte sectors only");
            }
            if (forceIterations != null && forceIterations < 1000) {
                throw new UsageException("--pbkdf-force-iterations " + forceIterations + ": pbkdf2 needs 1000 or more");
            }
            f1 = org.vectorjce.volumes.luks.Luks1Format.luks1();
            if (cipher != null) {
                f1.cipher(cipher);
            }
            if (keySize != null) {
                f1.keySize(keySize);
            }
            if (hash != null) {
                f1.hash(hash);
            }
            if (iterTime != null) {
                f1.iterTime(iterTime);
            }
            if (forceIterations != null) {
                f1.iterations(forceIterations);
            }
        } else {
            f2 = org.vectorjce.volumes.luks.Luks2Format.luks2().keySlot(slot);
            if (cipher != null) {
                f2.cipher(cipher);
            }
            if (keySize != null) {
                f2.keySize(keySize);
            }
            if (sectorSize != null) {
                f2.sectorSize(sectorSize.intValue());
            }
        }
        if (!quiet) {
            if (!Passphrase.isTerminal() || console == null) {
                throw new UsageException("format overwrites " + image + ": it needs confirmation on a terminal, or -q");
            }
            String yes = console.readLine("WARNING!\n========\nThis will overwrite data on " + image
                    + " irrevocably.\n\nAre you sure? (Type 'yes' in capital letters): ");
            if (!"YES".equals(yes)) {
                throw new UsageException("Operation aborted.");
            }
        }
        byte[] p = keyFile != null ? keyFileBytes(keyFile) : Passphrase.read(stdin, console, LuksVolume.MAX_KEY_FILE);
        try {
            if (p.length == 0) {
                throw new VolumeException("Nothing to read on input: the passphrase is empty");
            }
            benchmarking(forceIterations == null, iterTime);
            if (f1 != null) {
                f1.format(image, p);
            } else {
                f2.format(image, p);
            }
        } finally {
            Arrays.fill(p, (byte) 0);
        }
        return Exits.OK;
    }

    // ---- key slots: add-key, remove-key, change-key (cryptsetup's luksAddKey, luksRemoveKey, luksChangeKey)

    static KeySlotOptions slotOptions(String pbkdf, String hash, Long iterTime, Long memory, Long parallel,
            Long forceIterations) throws VolumeException {
        KeySlotOptions o = KeySlotOptions.defaults();
        if (pbkdf != null) {
            o.pbkdf(pbkdf);
        }
        if (hash != null) {
            o.hash(hash);
        }
        if (iterTime != null) {
            o.iterTime(iterTime);
        }
        if (memory != null) {
            o.memoryKib(memory);
        }
        if (parallel != null) {
            o.parallel(parallel.intValue());
        }
        if (forceIterations != null) {
            o.forceIterations(forceIterations);
        }
        return o;
    }

    /** A key file's bytes, {@code -} for all of standard input (cryptsetup's {@code --key-file}). */
    private byte[] keyFileBytes(Path keyFile) throws IOException, VolumeException, UsageException {
        byte[] p;
        if (keyFile.toString().equals("-")) {
            p = stdin.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
        } else {
            if (!Files.exists(keyFile)) {
                throw new NoSuchFileException(keyFile.toString());
            }
            checkKeyFile(keyFile, "Key file");
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

    /**
     * Opens IMAGE for writing with the existing secret: {@code --key-file}'s bytes, else the first
     * line of standard input when it is not a terminal, else a prompt.
     */
    private LuksVolume openForKeys(Path image, Path header, Path keyFile, Integer keySlot)
            throws IOException, VolumeException, UsageException {
        checkImage(image);
        if (header != null && !Files.exists(header)) {
            throw new NoSuchFileException(header.toString());
        }
        LuksVolume.Builder b = builder(image, header).readWrite();
        if (keySlot != null) {
            b.keySlot(keySlot);
        }
        byte[] p = keyFile != null ? keyFileBytes(keyFile) : Passphrase.read(stdin, console, LuksVolume.MAX_KEY_FILE);
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
     */
    private byte[] newSecret(Path newKeyFile, Path keyFile) throws IOException, VolumeException, UsageException {
        byte[] p;
        if (newKeyFile != null) {
            p = keyFileBytes(newKeyFile);
        } else if (keyFile != null && keyFile.toString().equals("-")) {
            throw new UsageException("--key-file - takes all of standard input: give the new key as NEW_KEY_FILE");
        } else if (console != null && System.console() == console && Passphrase.isTerminal()) {
            char[] a = console.readPassword("Enter new passphrase for key slot: ");
            char[] b = console.readPassword("Verify passphrase: ");
            try {
                if (a == null || b == null || !Arrays.equals(a, b)) {
                    throw new VolumeException("Passphrases do not match");
                }
                java.nio.ByteBuffer e = java.nio.charset.StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(a));
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
            p = Passphrase.read(stdin, null, LuksVolume.MAX_KEY_FILE);
        }
        if (p.length == 0) {
            throw new VolumeException("Nothing to read on input: the new passphrase is empty");
        }
        return p;
    }

    /** {@code volume add-key}: a new key slot with the new secret, opened with an existing one. */
    private int addKey(Path image, Path newKeyFile, Path header, Path keyFile, KeySlotOptions o, Kdf kdf,
            boolean verbose) throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(image, header, keyFile, null)) {
            byte[] np = newSecret(newKeyFile, keyFile);
            try {
                benchmarking(kdf.forceIterations == null, kdf.iterTime);
                int slot = v.addKeySlot(np, o);
                if (verbose) {
                    out.println("Key slot " + slot + " created.");
                }
            } finally {
                Arrays.fill(np, (byte) 0);
            }
        }
        return Exits.OK;
    }

    /**
     * {@code volume remove-key}: removes the key slot the given secret opens; the last key slot only
     * with {@code -q} or a confirmation on a terminal (cryptsetup asks).
     */
    private int removeKey(Path image, Path header, Path keyFile, Integer keySlot, boolean quiet, boolean verbose)
            throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(image, header, keyFile, keySlot)) {
            int slot = v.keySlot().orElseThrow();
            if (v.info().keySlots().size() == 1 && !quiet) {
                if (!Passphrase.isTerminal() || console == null) {
                    throw new UsageException("Key slot " + slot + " is the last one: removing it leaves the volume unusable;"
                            + " confirm on a terminal, or -q");
                }
                String yes = console.readLine("WARNING!\n========\nThis is the last keyslot. Device will become unusable"
                        + " after purging this key.\n\nAre you sure? (Type 'yes' in capital letters): ");
                if (!"YES".equals(yes)) {
                    throw new UsageException("Operation aborted.");
                }
            }
            v.removeKeySlot(slot);
            if (verbose) {
                out.println("Key slot " + slot + " removed.");
            }
        }
        return Exits.OK;
    }

    /** {@code volume change-key}: the key slot the existing secret opens now holds the new one. */
    private int changeKey(Path image, Path newKeyFile, Path header, Path keyFile, Integer keySlot, KeySlotOptions o,
            Kdf kdf, boolean verbose) throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(image, header, keyFile, keySlot)) {
            byte[] np = newSecret(newKeyFile, keyFile);
            try {
                int old = v.keySlot().orElseThrow();
                benchmarking(kdf.forceIterations == null, kdf.iterTime);
                int slot = v.changeKeySlot(old, np, o);
                if (verbose) {
                    out.println("Key slot " + old + (slot == old ? "" : " moved to key slot " + slot) + " changed.");
                }
            } finally {
                Arrays.fill(np, (byte) 0);
            }
        }
        return Exits.OK;
    }

    private static LuksVolume.Builder builder(Path image, Path header) {
        LuksVolume.Builder b = LuksVolume.at(image);
        if (header != null) {
            b.header(header);
        }
        return b;
    }

    private LuksVolume open(Path image, Path header, Path keyFile, Integer keySlot)
            throws IOException, VolumeException, UsageException {
        return open(image, header, keyFile, keySlot, false);
    }

    /** Opens the volume with the secret the options name; for writing only when {@code write}. */
    private LuksVolume open(Path image, Path header, Path keyFile, Integer keySlot, boolean write)
            throws IOException, VolumeException, UsageException {
        checkImage(image);
        LuksVolume.Builder b = builder(image, header);
        if (write) {
            b.readWrite();
        }
        if (keySlot != null) {
            b.keySlot(keySlot);
        }
        if (keyFile != null && keyFile.toString().equals("-")) {
            // cryptsetup's --key-file -: all of standard input, as bytes
            byte[] p = stdin.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
            try {
                if (p.length > LuksVolume.MAX_KEY_FILE) {
                    throw new VolumeException("Standard input holds more than " + LuksVolume.MAX_KEY_FILE
                            + " bytes of key file");
                }
                b.passphrase(p);
            } finally {
                Arrays.fill(p, (byte) 0);
            }
        } else if (keyFile != null) {
            checkKeyFile(keyFile, "Key file");
            b.keyFile(keyFile);
        } else {
            byte[] p = Passphrase.read(stdin, console, LuksVolume.MAX_KEY_FILE);
            try {
                b.passphrase(p);
            } finally {
                Arrays.fill(p, (byte) 0);
            }
        }
        return b.open();
    }

    private int info(Path image, Path header, Path keyFile, Integer keySlot, boolean dumpKey, boolean quiet)
            throws IOException, VolumeException, UsageException {
        checkImage(image);
        if (!dumpKey) {
            out.print(LuksInfo.luksDump(image, header, keySlot));
            return Exits.OK;
        }
        if (!quiet) {
            if (!Passphrase.isTerminal() || console == null) {
                throw new UsageException("--dump-volume-key needs confirmation on a terminal, or -q");
            }
            String yes = console.readLine("Header dump with volume key is sensitive information.\n"
                    + "Are you sure? (Type 'yes' in capital letters): ");
            if (!"YES".equals(yes)) {
                throw new UsageException("Operation aborted.");
            }
        }
        try (LuksVolume v = open(image, header, keyFile, keySlot)) {
            LuksInfo info = v.info();
            byte[] k = v.volumeKey();
            try {
                out.print(info.dumpWithKey(image.toString(), k)); // cryptsetup's text, line for line
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        }
        return Exits.OK;
    }

    /** Bytes per work item of {@code decrypt} and {@code encrypt}: 4 MiB (many sector-cipher runs of 1 MiB). */
    private static final int CHUNK = 4 << 20;

    /**
     * The payload to the new file {@code target}, {@code threads} workers each with a payload
     * channel of its own (its own cipher) over 4 MiB chunks, written at their offsets; a progress
     * bar on stderr when it is a terminal. On any failure the partial file is removed.
     */
    /**
     * {@code volume decrypt}: the whole payload of {@code v} into the new file {@code target}, on
     * {@code threads} workers with a payload channel each (a progress bar on a terminal); the
     * partial file is removed on failure.
     */
    private int decrypt(Volume v, Path target, int threads) throws IOException, VolumeException {
        long size = v.payloadSize();
        boolean done = false;
        try (FileChannel o = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            chunks(v, size, threads, "volume-decrypt", (plain, at, buf) -> {
                plain.position(at);
                while (buf.hasRemaining()) {
                    if (plain.read(buf) < 0) {
                        throw new IOException("The payload ended at byte " + (at + buf.position()));
                    }
                }
                buf.flip();
                long p = at;
                // One writer at a time: the kernel takes the file's lock for each write, and a
                // second writer spins on it; waiting here leaves the processor to the others.
                synchronized (o) {
                    while (buf.hasRemaining()) {
                        p += o.write(buf, p);
                    }
                }
            });
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(target);
            }
        }
        return Exits.OK;
    }

    /**
     * {@code volume encrypt IN IMAGE}: the raw file {@code in} into the payload of the volume in
     * {@code image} from its start, what {@code dd if=IN of=/dev/mapper/NAME} does after
     * {@code cryptsetup open}; {@code threads} workers each with a payload channel of its own over 4
     * MiB chunks; a progress bar on stderr when it is a terminal. {@code IN} larger than the
     * payload is refused before anything is written. When {@code IN} ends inside a sector, its
     * bytes are written and the rest of that sector keeps its old plaintext; the payload after
     * {@code IN} is left as it was. The header is not touched. Nothing is synced to the storage
     * device beyond what closing the file does (as {@code dd} without {@code conv=fsync}).
     */
    private int encrypt(Path in, Path image, Path header, Path keyFile, Integer keySlot, int threads)
            throws IOException, VolumeException, UsageException {
        if (!Files.exists(in)) {
            throw new NoSuchFileException(in.toString());
        }
        if (!Files.isRegularFile(in)) {
            throw new VolumeException("IN " + in + " is not a regular file (its size must be known before writing)");
        }
        checkImage(image);
        if (Files.isSameFile(in, image) || header != null && Files.exists(header) && Files.isSameFile(in, header)) {
            throw new VolumeException("IN " + in + " is the volume itself: refusing to encrypt it into itself");
        }
        try (FileChannel src = FileChannel.open(in, StandardOpenOption.READ);
             LuksVolume v = open(image, header, keyFile, keySlot, true)) {
            long size = src.size();
            if (size > v.payloadSize()) {
                throw new VolumeException("IN " + in + " is " + size + " bytes: larger than the " + v.payloadSize()
                        + "-byte payload of " + image + " (nothing written)");
            }
            chunks(v, size, threads, "volume-encrypt", (plain, at, buf) -> {
                long p = at;
                while (buf.hasRemaining()) {
                    int r = src.read(buf, p);
                    if (r < 0) {
                        throw new IOException("IN " + in + " ended at byte " + p + " (it shrank while being read)");
                    }
                    p += r;
                }
                buf.flip();
                plain.position(at);
                while (buf.hasRemaining()) {
                    plain.write(buf);
                }
            });
        }
        return Exits.OK;
    }

    /** One chunk of {@link #chunks}: {@code buf} is cleared and limited to the chunk's length. */
    private interface Chunk {
        void run(SeekableByteChannel payload, long at, ByteBuffer buf) throws IOException;
    }

    /**
     * Runs {@code task} over the chunks of {@code [0, size)} ({@link Chunks}), on up to
     * {@code threads} workers each with a payload channel of {@code v} of its own; a progress bar
     * on stderr when it is a terminal.
     */
    private void chunks(Volume v, long size, int threads, String name, Chunk task) throws IOException, VolumeException {
        int n = (int) Math.max(1, Math.min(threads, (size + CHUNK - 1) / CHUNK));
        SeekableByteChannel[] channels = new SeekableByteChannel[n];
        for (int i = 0; i < n; i++) {
            channels[i] = v.payload();
        }
        boolean bar = onTerminal();
        try {
            Chunks.run(size, CHUNK, n, name, i -> (at, buf) -> task.run(channels[i], at, buf), done -> {
                if (bar) {
                    progress(done, size);
                }
            });
        } finally {
            if (bar) {
                err.println();
            }
        }
    }

    private void progress(long done, long size) {
        int width = 40;
        int filled = size == 0 ? width : (int) (done * width / size);
        err.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] "
                + (size == 0 ? 100 : done * 100 / size) + "% " + (done >> 20) + "/" + (size >> 20) + " MiB");
        err.flush();
    }
}
