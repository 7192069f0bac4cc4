package org.vectorjce.volumes.tool;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.KeySlotOptions;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * The {@code volume} command, named and behaving as cryptsetup where they overlap:
 *
 * <pre>
 * volume info IMAGE [--header F] [--dump-volume-key [--key-file F] [--key-slot N] [-q]]
 * volume test IMAGE [--header F] [--key-file F] [--key-slot N] [-v]
 * volume decrypt IMAGE OUT [--header F] [--key-file F] [--key-slot N] [--threads N]
 * volume encrypt IN IMAGE [--header F] [--key-file F] [--key-slot N] [--threads N]
 * volume format IMAGE [--type luks2|luks1] [--cipher C] [--key-size BITS] [--hash H] [--sector-size B]
 *              [--pbkdf argon2id|argon2i|pbkdf2] [--iter-time MS] [--pbkdf-memory KIB] [--pbkdf-parallel N]
 *              [--pbkdf-force-iterations N] [--key-file F] [-q]
 * volume add-key IMAGE [NEW_KEY_FILE] [--key-file F] [--key-slot N] [--header F] [KDF options] [-q] [-v]
 * volume remove-key IMAGE [--key-file F] [--key-slot N] [--header F] [-q] [-v]
 * volume change-key IMAGE [--key-file F] [--key-slot N] [--header F] [KDF options] [-v]
 * </pre>
 *
 * {@code info} is {@code cryptsetup luksDump}; {@code test} is {@code cryptsetup open
 * --test-passphrase}; {@code decrypt} writes the plaintext {@code cryptsetup open} would show to
 * the new file {@code OUT} (an existing one is refused; {@code --threads N} workers, default the
 * processor count; a progress bar on a terminal); {@code encrypt} writes the raw file {@code IN}
 * into the payload from its start, as {@code dd} to the opened device does (the only verb that
 * opens IMAGE for writing). The passphrase is the whole key file with
 * {@code --key-file} (all of standard input for {@code --key-file -}), else the first line of standard input when it is not a terminal, else a
 * prompt without echo. Exit status: 0 success, 2 no key slot opened (cryptsetup's code), 1 any
 * other error, with one line on standard error.
 */
public final class VolumeMain {
    static final int OK = Exits.OK, FAIL = Exits.FAIL, NO_KEY = Exits.NO_KEY;

    private final InputStream stdin;
    private final PrintStream out, err;
    private final Console console;

    VolumeMain(InputStream stdin, PrintStream out, PrintStream err, Console console) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.console = console;
    }

    public static void main(String[] args) {
        int rc = new VolumeMain(System.in, System.out, System.err, System.console()).run(args);
        System.out.flush();
        System.exit(rc);
    }

    private static final String USAGE = "usage: volume info|test|decrypt|encrypt|format|add-key|remove-key|change-key IMAGE [OUT]"
            + " [--key-file F] [--key-slot N]"
            + " [--header F] [--dump-volume-key] [-q] [-v] [--threads N]";

    /** Runs {@code args} (the verb {@code volume} first, or left out); returns the exit status. */
    public int run(String[] args) {
        if (org.vectorjce.volumes.tcrypt.TcryptCommand.wants(args)) {
            // TrueCrypt/VeraCrypt (--type tcrypt): its own verbs and options, as cryptsetup's tcrypt*
            return new org.vectorjce.volumes.tcrypt.TcryptCommand(stdin, out, err, console).run(args);
        }
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
        Path keyFile = null, header = null;
        Integer keySlot = null;
        boolean dumpKey = false, quiet = false, verbose = false;
        int threads = Runtime.getRuntime().availableProcessors();
        String type = "luks2", cipher = null, hash = null, pbkdf = null;
        Long pbkdfMemory = null, pbkdfParallel = null, sectorSize = null;
        Integer keySize = null;
        Long iterTime = null, forceIterations = null;
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
                case "--key-file", "-d" -> keyFile = Path.of(value != null ? value : next(args, ++i, a));
                case "--header" -> header = Path.of(value != null ? value : next(args, ++i, a));
                case "--key-slot", "-S" -> {
                    String v = value != null ? value : next(args, ++i, a);
                    try {
                        keySlot = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--key-slot " + v + ": not a number");
                    }
                }
                case "--dump-volume-key", "--dump-master-key" -> dumpKey = true;
                case "-q", "--batch-mode" -> quiet = true;
                case "-v", "--verbose" -> verbose = true;
                case "--type", "-M" -> type = value != null ? value : next(args, ++i, a);
                case "--cipher", "-c" -> cipher = value != null ? value : next(args, ++i, a);
                case "--hash", "-h" -> hash = value != null ? value : next(args, ++i, a);
                case "--key-size", "-s" -> keySize = (int) number(value != null ? value : next(args, ++i, a), a, 8, 4096);
                case "--iter-time", "-i" -> iterTime = number(value != null ? value : next(args, ++i, a), a, 1, 3_600_000);
                case "--pbkdf-force-iterations" -> forceIterations = number(value != null ? value : next(args, ++i, a), a,
                        1, 0xFFFF_FFFFL);
                case "--pbkdf" -> pbkdf = value != null ? value : next(args, ++i, a);
                case "--pbkdf-memory" -> pbkdfMemory = number(value != null ? value : next(args, ++i, a), a, 8,
                        4L * 1024 * 1024);
                case "--pbkdf-parallel" -> pbkdfParallel = number(value != null ? value : next(args, ++i, a), a, 1, 16);
                case "--sector-size" -> sectorSize = number(value != null ? value : next(args, ++i, a), a, 512, 4096);
                case "--threads" -> {
                    String v = value != null ? value : next(args, ++i, a);
                    try {
                        threads = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        threads = 0;
                    }
                    if (threads < 1 || threads > 1024) {
                        throw new UsageException("--threads " + v + ": a number from 1 to 1024");
                    }
                }
                default -> {
                    if (a.startsWith("-") && !a.equals("-")) {
                        throw new UsageException("Unknown option " + a + "; " + USAGE);
                    }
                    positional.add(a);
                }
            }
        }
        switch (verb) {
            case "info", "luksDump" -> {
                need(positional, 1, "volume info IMAGE");
                return info(Path.of(positional.get(0)), header, keyFile, keySlot, dumpKey, quiet);
            }
            case "test" -> {
                need(positional, 1, "volume test IMAGE");
                try (LuksVolume v = open(Path.of(positional.get(0)), header, keyFile, keySlot)) {
                    if (verbose && v.keySlot().isPresent()) {
                        // as cryptsetup -v: silent on success unless asked
                        out.println("Key slot " + v.keySlot().getAsInt() + " unlocked.");
                    }
                }
                return OK;
            }
            case "decrypt" -> {
                need(positional, 2, "volume decrypt IMAGE OUT");
                return decrypt(Path.of(positional.get(0)), Path.of(positional.get(1)), header, keyFile, keySlot,
                        threads);
            }
            case "encrypt" -> {
                need(positional, 2, "volume encrypt IN IMAGE");
                return encrypt(Path.of(positional.get(0)), Path.of(positional.get(1)), header, keyFile, keySlot,
                        threads);
            }
            case "format", "luksFormat" -> {
                need(positional, 1, "volume format IMAGE");
                KeySlotOptions o = slotOptions(pbkdf, hash, iterTime, pbkdfMemory, pbkdfParallel, forceIterations);
                return format(Path.of(positional.get(0)), type, cipher, keySize, hash, iterTime, forceIterations, keyFile,
                        quiet, (pbkdf != null && !pbkdf.equals("pbkdf2")) || pbkdfMemory != null || pbkdfParallel != null,
                        sectorSize, o);
            }
            case "add-key", "luksAddKey" -> {
                if (positional.isEmpty() || positional.size() > 2) {
                    throw new UsageException("usage: volume add-key IMAGE [NEW_KEY_FILE]");
                }
                KeySlotOptions o = slotOptions(pbkdf, hash, iterTime, pbkdfMemory, pbkdfParallel, forceIterations);
                if (keySlot != null) {
                    if (keySlot < 0) {
                        throw new VolumeException("Key slot " + keySlot + " is out of range (0 or more)");
                    }
                    o.keySlot(keySlot);
                }
                return addKey(Path.of(positional.get(0)), positional.size() == 2 ? Path.of(positional.get(1)) : null,
                        header, keyFile, o, verbose);
            }
            case "remove-key", "luksRemoveKey" -> {
                need(positional, 1, "volume remove-key IMAGE");
                return removeKey(Path.of(positional.get(0)), header, keyFile, keySlot, quiet, verbose);
            }
            case "change-key", "luksChangeKey" -> {
                if (positional.isEmpty() || positional.size() > 2) {
                    throw new UsageException("usage: volume change-key IMAGE [NEW_KEY_FILE]");
                }
                KeySlotOptions o = slotOptions(pbkdf, hash, iterTime, pbkdfMemory, pbkdfParallel, forceIterations);
                return changeKey(Path.of(positional.get(0)), positional.size() == 2 ? Path.of(positional.get(1)) : null,
                        header, keyFile, keySlot, o, verbose);
            }
            default -> throw new UsageException("Unknown command " + verb + "; " + USAGE);
        }
    }

    private static long number(String v, String option, long min, long max) throws UsageException {
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(option + " " + v + ": a number from " + min + " to " + max);
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
        if (!Files.isRegularFile(image)) {
            throw new NoSuchFileException(image.toString());
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
            if (f1 != null) {
                f1.format(image, p);
            } else {
                f2.format(image, p);
            }
        } finally {
            Arrays.fill(p, (byte) 0);
        }
        return OK;
    }

    // ---- key slots: add-key, remove-key, change-key (cryptsetup's luksAddKey, luksRemoveKey, luksChangeKey)

    private static KeySlotOptions slotOptions(String pbkdf, String hash, Long iterTime, Long memory, Long parallel,
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
    private byte[] keyFileBytes(Path keyFile) throws IOException, VolumeException {
        byte[] p;
        if (keyFile.toString().equals("-")) {
            p = stdin.readNBytes(LuksVolume.MAX_KEY_FILE + 1);
        } else {
            if (!Files.exists(keyFile)) {
                throw new NoSuchFileException(keyFile.toString());
            }
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
            throws IOException, VolumeException {
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
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
    private int addKey(Path image, Path newKeyFile, Path header, Path keyFile, KeySlotOptions o, boolean verbose)
            throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(image, header, keyFile, null)) {
            byte[] np = newSecret(newKeyFile, keyFile);
            try {
                int slot = v.addKeySlot(np, o);
                if (verbose) {
                    out.println("Key slot " + slot + " created.");
                }
            } finally {
                Arrays.fill(np, (byte) 0);
            }
        }
        return OK;
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
        return OK;
    }

    /** {@code volume change-key}: the key slot the existing secret opens now holds the new one. */
    private int changeKey(Path image, Path newKeyFile, Path header, Path keyFile, Integer keySlot, KeySlotOptions o,
            boolean verbose) throws IOException, VolumeException, UsageException {
        try (LuksVolume v = openForKeys(image, header, keyFile, keySlot)) {
            byte[] np = newSecret(newKeyFile, keyFile);
            try {
                int old = v.keySlot().orElseThrow();
                int slot = v.changeKeySlot(old, np, o);
                if (verbose) {
                    out.println("Key slot " + old + (slot == old ? "" : " moved to key slot " + slot) + " changed.");
                }
            } finally {
                Arrays.fill(np, (byte) 0);
            }
        }
        return OK;
    }

    private static String next(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static void need(List<String> positional, int n, String usage) throws UsageException {
        if (positional.size() != n) {
            throw new UsageException("usage: " + usage);
        }
    }

    private static LuksVolume.Builder builder(Path image, Path header) {
        LuksVolume.Builder b = LuksVolume.at(image);
        if (header != null) {
            b.header(header);
        }
        return b;
    }

    private LuksVolume open(Path image, Path header, Path keyFile, Integer keySlot) throws IOException, VolumeException {
        return open(image, header, keyFile, keySlot, false);
    }

    /** Opens the volume with the secret the options name; for writing only when {@code write}. */
    private LuksVolume open(Path image, Path header, Path keyFile, Integer keySlot, boolean write)
            throws IOException, VolumeException {
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
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
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
        if (!dumpKey) {
            LuksInfo info = builder(image, header).info();
            out.print(info.dump());
            return OK;
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
        return OK;
    }

    /** Bytes per work item of {@code decrypt} and {@code encrypt}: 4 MiB (many sector-cipher runs of 1 MiB). */
    private static final int CHUNK = 4 << 20;

    /**
     * The payload to the new file {@code target}, {@code threads} workers each with a payload
     * channel of its own (its own cipher) over 4 MiB chunks, written at their offsets; a progress
     * bar on stderr when it is a terminal. On any failure the partial file is removed.
     */
    private int decrypt(Path image, Path target, Path header, Path keyFile, Integer keySlot, int threads)
            throws IOException, VolumeException {
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        try (LuksVolume v = open(image, header, keyFile, keySlot)) {
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
        }
        return OK;
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
            throws IOException, VolumeException {
        if (!Files.exists(in)) {
            throw new NoSuchFileException(in.toString());
        }
        if (!Files.isRegularFile(in)) {
            throw new VolumeException("IN " + in + " is not a regular file (its size must be known before writing)");
        }
        if (!Files.exists(image)) {
            throw new NoSuchFileException(image.toString());
        }
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
        return OK;
    }

    /** One chunk of {@link #chunks}: {@code buf} is cleared and limited to the chunk's length. */
    private interface Chunk {
        void run(SeekableByteChannel payload, long at, ByteBuffer buf) throws IOException;
    }

    /**
     * Runs {@code task} over the chunks of {@code [0, size)}, on up to {@code threads} workers each
     * with a payload channel of {@code v} of its own and a buffer it wipes; a progress bar on stderr
     * when it is a terminal. The first failure stops the other workers and is thrown.
     */
    private void chunks(LuksVolume v, long size, int threads, String name, Chunk task)
            throws IOException, VolumeException {
        int n = (int) Math.max(1, Math.min(threads, (size + CHUNK - 1) / CHUNK));
        SeekableByteChannel[] channels = new SeekableByteChannel[n];
        for (int i = 0; i < n; i++) {
            channels[i] = v.payload();
        }
        AtomicLong next = new AtomicLong(), written = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[n];
        for (int i = 0; i < n; i++) {
            SeekableByteChannel plain = channels[i];
            workers[i] = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(size, 1)));
                try {
                    for (long at; failure.get() == null && (at = next.getAndAdd(CHUNK)) < size; ) {
                        int len = (int) Math.min(CHUNK, size - at);
                        buf.clear().limit(len);
                        task.run(plain, at, buf);
                        written.addAndGet(len);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    Arrays.fill(buf.array(), (byte) 0);
                }
            }, name + "-" + i);
            workers[i].start();
        }
        boolean bar = console != null && Passphrase.isTerminal();
        for (Thread w : workers) {
            while (w.isAlive()) {
                try {
                    w.join(200);
                } catch (InterruptedException e) {
                    failure.compareAndSet(null, e);
                }
                if (bar) {
                    progress(written.get(), size);
                }
            }
        }
        if (bar) {
            progress(written.get(), size);
            err.println();
        }
        Throwable t = failure.get();
        if (t instanceof IOException e) {
            throw e;
        } else if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IOException("Interrupted");
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
