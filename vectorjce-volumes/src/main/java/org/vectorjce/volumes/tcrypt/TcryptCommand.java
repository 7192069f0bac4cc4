package org.vectorjce.volumes.tcrypt;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.tool.Passphrase;
import org.vectorjce.volumes.tool.Exits;
import org.vectorjce.volumes.tool.UsageException;

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
 * The password is the first line of standard input when it is not a terminal, else a prompt
 * without echo; {@code --key-file} (repeatable, {@code -d}) adds a TrueCrypt keyfile, as in
 * cryptsetup's {@code tcryptOpen}, or a folder's keyfiles, as in VeraCrypt (its regular files
 * whose names do not start with a dot), and does not replace the password. {@code --threads} is how many
 * header trials run at once (default the processor count). Exit status: 0 success, 2 no
 * header opened (cryptsetup's code), 1 any other error, with one line on standard error.
 */
public final class TcryptCommand {
    static final int OK = Exits.OK, FAIL = Exits.FAIL, NO_KEY = Exits.NO_KEY;
    private static final int MAX_PASSWORD_LINE = 4096;

    private final InputStream stdin;
    private final PrintStream out, err;
    private final Console console;

    public TcryptCommand(InputStream stdin, PrintStream out, PrintStream err, Console console) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
    }

    /** Whether {@code args} ask for {@code --type tcrypt} (or {@code --type=tcrypt}). */
    public static boolean wants(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--type=tcrypt") || args[i].equals("--type") && i + 1 < args.length
                    && args[i + 1].equals("tcrypt")) {
                return true;
            }
        }
        return false;
    }

    private static final String USAGE = "usage: volume info|test|decrypt --type tcrypt IMAGE [OUT] [--tcrypt-hidden]"
            + " [--tcrypt-system] [--tcrypt-backup] [--veracrypt-pim N] [--disable-veracrypt] [--key-file F]..."
            + " [--hash H] [--cipher C] [--header F] [--threads N] [--dump-volume-key] [-q]";

    /** Runs {@code args} (the verb {@code volume} first, or left out); returns the exit status. */
    public int run(String[] args) {
        return Exits.run(err, () -> dispatch(args));
    }

    private int dispatch(String[] argv) throws UsageException, IOException, VolumeException {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        if (!args.isEmpty() && args.get(0).equals("volume")) {
            args.remove(0);
        }
        if (args.isEmpty()) {
            throw new UsageException(USAGE);
        }
        String verb = args.remove(0);
        List<Path> keyFiles = new ArrayList<>();
        Path header = null;
        String hash = null, cipher = null;
        int pim = 0;
        Integer threads = null;
        boolean hidden = false, system = false, backup = false, veracrypt = true, dumpKey = false, quiet = false;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--type", "-M" -> {
                    String t = value != null ? value : next(args, ++i, a);
                    if (!t.equals("tcrypt")) {
                        throw new UsageException("--type " + t + ": this command reads --type tcrypt");
                    }
                }
                case "--key-file", "-d" -> keyFiles.add(Path.of(value != null ? value : next(args, ++i, a)));
                case "--header" -> header = Path.of(value != null ? value : next(args, ++i, a));
                case "--hash", "-h" -> hash = value != null ? value : next(args, ++i, a);
                case "--cipher", "-c" -> cipher = value != null ? value : next(args, ++i, a);
                case "--veracrypt-pim" -> {
                    String v = value != null ? value : next(args, ++i, a);
                    try {
                        pim = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("Invalid PIM value: " + v);
                    }
                    if (pim <= 0) {
                        throw new UsageException("Invalid PIM value: " + v + " (1 or more)");
                    }
                }
                case "--threads" -> {
                    String v = value != null ? value : next(args, ++i, a);
                    try {
                        threads = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--threads " + v + ": not a number");
                    }
                    if (threads < 1) {
                        throw new UsageException("--threads " + v + ": 1 or more");
                    }
                }
                case "--tcrypt-hidden" -> hidden = true;
                case "--tcrypt-system" -> system = true;
                case "--tcrypt-backup" -> backup = true;
                case "--disable-veracrypt" -> veracrypt = false;
                case "--veracrypt" -> veracrypt = true; // cryptsetup's old switch; VeraCrypt is tried by default
                case "--dump-volume-key", "--dump-master-key" -> dumpKey = true;
                case "-q", "--batch-mode" -> quiet = true;
                default -> {
                    if (a.startsWith("-") && !a.equals("-")) {
                        throw new UsageException("Unknown option " + a + "; " + USAGE);
                    }
                    positional.add(a);
                }
            }
        }
        if (hidden && system) {
            throw new UsageException("--tcrypt-hidden and --tcrypt-system cannot be combined");
        }
        int want = verb.equals("decrypt") ? 2 : 1;
        if (!List.of("info", "tcryptDump", "test", "decrypt").contains(verb)) {
            throw new UsageException("Unknown command " + verb + "; " + USAGE);
        }
        if (positional.size() != want) {
            throw new UsageException(USAGE);
        }
        Path image = Path.of(positional.get(0));
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
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
        Path target = verb.equals("decrypt") ? Path.of(positional.get(1)) : null;
        if (target != null && Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        TcryptVolume.Builder b = TcryptVolume.at(image).hash(hash).cipher(cipher).pim(pim).hidden(hidden)
                .system(system).backupHeader(backup).veracrypt(veracrypt);
        if (header != null) {
            b.header(header);
        }
        if (threads != null) {
            b.threads(threads);
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
        try (TcryptVolume v = b.open()) {
            switch (verb) {
                case "test" -> {
                    return OK;
                }
                case "decrypt" -> {
                    return decrypt(v, target);
                }
                default -> {
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
                    return OK;
                }
            }
        }
    }

    private static String next(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static int decrypt(TcryptVolume v, Path target) throws IOException, VolumeException {
        SeekableByteChannel plain = v.payload();
        boolean done = false;
        try (FileChannel o = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            try {
                while (plain.read(buf.clear()) > 0) {
                    buf.flip();
                    while (buf.hasRemaining()) {
                        o.write(buf);
                    }
                }
            } finally {
                Arrays.fill(buf.array(), (byte) 0);
            }
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(target);
            }
        }
        return OK;
    }
}
