package org.vectorjce.tool.volume;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
 * volume mount --files IMAGE DIR [--partition N|VG/LV] [--code-page CHARSET] [unlock options]
 * volume browse IMAGE [--listen HOST:PORT] [--password --tls-cert F --tls-key F] [--partition N|VG/LV] [unlock options]
 * volume fs IMAGE [--json] [unlock options]
 * volume ls IMAGE [PATH] [-l] [-R] [--json] [--streams] [--partition N|VG/LV] [unlock options]
 * volume cat IMAGE PATH [--partition N|VG/LV] [unlock options]
 * volume get IMAGE PATH... DEST [--force] [--partition N|VG/LV] [unlock options]
 * volume info|test|decrypt --type tcrypt ...   (TrueCrypt/VeraCrypt: {@link TcryptCommands})
 * volume info|test|decrypt --type bitlk ...    (BitLocker: {@link BitlkCommands})
 * volume info|test|decrypt --type fvault2 ...  (FileVault 2: {@link Fvault2Commands})
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
 * <p>This class is the wiring: the command line is parsed by picocli, each verb is a class of its
 * own ({@link InfoVerb}, {@link TestVerb}, ..., {@link FilesVerbs}) whose annotated fields and
 * mixins ({@link UnlockOptions}, {@link KdfOptions}) are its options, so {@code --help} and
 * {@code help VERB} list exactly what the verb reads; what differs per format is behind
 * {@link FormatCommands}. Exit statuses and the one line on standard error: {@link Exits}.
 * {@code -h} is {@code --hash} in the verbs, as in cryptsetup, and help only at the top level;
 * {@code --help} and {@code -?} work everywhere.
 */
@Command(name = "volume", mixinStandardHelpOptions = true, versionProvider = VolumeMain.Version.class,
        sortOptions = false, synopsisSubcommandLabel = "VERB", commandListHeading = "%nVerbs:%n",
        description = {"LUKS1/LUKS2 and TrueCrypt/VeraCrypt volumes in pure Java, named and behaving as cryptsetup "
                + "where they overlap. A LUKS volume's version is read from its header; info, test and decrypt "
                + "read TrueCrypt/VeraCrypt volumes with --type tcrypt, BitLocker volumes with --type bitlk and "
                + "FileVault 2 volumes with --type fvault2. serve (NBD) and mount (FUSE) use any of them in place; fs, ls, cat "
                + "and get read the partitions and files inside them, or inside a plain disk image; browse (a web page "
                + "and WebDAV) and mount --files (FUSE) show those files to every program."},
        footerHeading = "%nSecrets:%n",
        footer = {"The existing passphrase is the --key-file's bytes (-: all of standard input), else the first "
                + "line of standard input when it is not a terminal, else a prompt without echo. Each verb's "
                + "options: volume help VERB (or volume VERB --help)."})
public final class VolumeMain implements Callable<Integer> {
    private final InputStream stdin;
    private final PrintStream out, err;
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
        Session session = new Session(stdin, out, err, console, terminal, signals);
        List<Object> all = List.of(new InfoVerb(session), new TestVerb(session), new DecryptVerb(session),
                new EncryptVerb(session), new FormatVerb(session), new AddKeyVerb(session), new RemoveKeyVerb(session),
                new ChangeKeyVerb(session), new ServeVerb(session), new MountVerb(session), new FilesVerbs.Fs(session),
                new FilesVerbs.Ls(session), new FilesVerbs.Cat(session), new FilesVerbs.Get(session), new BrowseVerb(session));
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
        if (UsageText.print(argv, o)) {   // --help's text as the build rendered it, without picocli's model
            out.flush();
            return Exits.OK;
        }
        if (argv.length == 1 && (argv[0].equals("--version") || argv[0].equals("-V"))) {
            // what picocli's version option prints, without building its model of the command
            try {
                for (String line : new Version().getVersion()) {
                    o.println(line);
                }
                return Exits.OK;
            } catch (IOException x) {
                return Exits.report(e, x);
            } finally {
                o.flush();
                out.flush();
            }
        }
        CommandLine cl = commandLine(argv, o, e);
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

    /** picocli's model of the command for {@code argv} (the verbs it needs, {@link #verbs}), printing to {@code o} and {@code e}. */
    CommandLine commandLine(String[] argv, PrintWriter o, PrintWriter e) {
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
        return cl;
    }

    /** {@code volume} without a verb. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "No verb given: info, test, decrypt, encrypt, format, add-key, remove-key, change-key, serve, mount, fs, "
                + "ls, cat, get, browse or help");
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
}
