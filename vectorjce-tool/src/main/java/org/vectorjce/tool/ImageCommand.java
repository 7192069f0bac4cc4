package org.vectorjce.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code image encrypt|decrypt}: a whole raw disk image into a new file, sector by sector as Linux
 * dm-crypt's plain mode does, with cryptsetup's option names. The result opens with
 * {@code cryptsetup open --type plain} and the same options (see the README). {@code --threads N}
 * workers (default: the processor count), each with a cipher of its own, take 1 MiB chunks in
 * turn and write them at their offsets.
 */
final class ImageCommand {
    private ImageCommand() {
    }

    @picocli.CommandLine.Command(name = "image", mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class, sortOptions = false,
            description = {"Encrypts or decrypts a whole raw disk image into a new file, sector by sector as "
                    + "dm-crypt's plain mode (cryptsetup's option names): the result opens with cryptsetup open "
                    + "--type plain and the same options. INPUT must be a whole number of sectors; OUTPUT is a "
                    + "new file of the same size (removed again when the command fails). A progress line goes "
                    + "to the terminal when standard error is one."},
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {"0:Done.", "1:An I/O error.", "2:Bad options, key, size or files."})
    static final class Command implements java.util.concurrent.Callable<Integer> {
        private final PrintStream out, err;

        @Parameters(index = "0", paramLabel = "encrypt|decrypt", converter = VerbName.class, description = "What to do.")
        String verb;
        @Parameters(index = "1", paramLabel = "INPUT", description = "The image to read.")
        String input;
        @Parameters(index = "2", paramLabel = "OUTPUT", description = "The new file to write.")
        String output;
        @Option(names = {"--cipher", "-c"}, paramLabel = "SPEC", required = true,
                description = "cryptsetup's cipher: aes-xts-plain64, twofish-xts-plain64, serpent-xts-plain64, aes-cbc-essiv:sha256, "
                        + "twofish-lrw-benbi, ... (cipher-mode-ivgen).")
        String cipher;
        @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", required = true,
                description = "The raw key. XTS: K1 || K2 (256, 384 or 512 bits); LRW: key || 128-bit tweak key; "
                        + "CBC: 128, 192 or 256 bits.")
        String keyFile;
        @Option(names = {"--key-size", "-s"}, paramLabel = "BITS",
                description = "Read that many bits from the key file's start (default: the whole file).")
        int keyBits = -1;
        @Option(names = "--sector-size", paramLabel = "N", description = "512 (default), 1024, 2048 or 4096.")
        int sectorSize = 512;
        @Option(names = "--iv-large-sectors", description = "IV sector numbers count N-byte sectors, not 512-byte ones.")
        boolean large;
        @Option(names = {"--skip", "-p"}, paramLabel = "N", converter = SectorCount.class,
                description = "IV offset in 512-byte sectors (cryptsetup --skip), default 0.")
        long skip;
        @Option(names = "--force", description = "Overwrite OUTPUT if it exists (never INPUT).")
        boolean force;
        @Option(names = "--threads", paramLabel = "N", description = "N workers (1 to 1024), each with its own "
                + "cipher, over 1 MiB chunks (default: the processor count).")
        int threads = Runtime.getRuntime().availableProcessors();

        Command(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() {
            try {
                return image(this, out, err);
            } catch (UsageError e) {
                err.println("image: " + e.getMessage());
                return 2;
            } catch (IOException e) {
                err.println("image: " + e);
                return 1;
            }
        }
    }

    /** The first argument, checked before the options are. */
    static final class VerbName implements picocli.CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String v) {
            if (!v.equals("encrypt") && !v.equals("decrypt")) {
                throw new picocli.CommandLine.TypeConversionException(
                        "the first argument is encrypt or decrypt, not '" + v + "'");
            }
            return v;
        }
    }

    /** {@code --skip}: an unsigned 64-bit sector count. */
    static final class SectorCount implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String v) {
            try {
                return Long.parseUnsignedLong(v);
            } catch (NumberFormatException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + v + "' is not a sector count");
            }
        }
    }

    /** Bad options, key, sizes or files: a one-line reason, exit status 2. */
    static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /** The command line {@code args} after {@code image}, run; the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String[] all = new String[args.length + 1];
        all[0] = "image";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(out, err, all);
    }

    private static int image(Command o, PrintStream out, PrintStream err) throws UsageError, IOException {
        String verb = o.verb;
        if (o.threads < 1 || o.threads > 1024) {
            throw new UsageError("--threads " + o.threads + ": a number from 1 to 1024");
        }
        String cipherSpec = o.cipher, keyFile = o.keyFile, input = o.input, output = o.output;
        int keyBits = o.keyBits, sectorSize = o.sectorSize, threads = o.threads;
        long skip = o.skip;
        boolean large = o.large, force = o.force;
        if (sectorSize != 512 && sectorSize != 1024 && sectorSize != 2048 && sectorSize != 4096) {
            throw new UsageError("--sector-size " + sectorSize + ": 512, 1024, 2048 or 4096");
        }
        if (skip * 512 % sectorSize != 0) {
            throw new UsageError("--skip " + skip + " (512-byte sectors) is not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        try {
            SectorCipher.parseSpec(cipherSpec);     // the specification's own errors before any file is read
        } catch (java.security.InvalidAlgorithmParameterException e) {
            throw new UsageError("--cipher " + cipherSpec + ": " + e.getMessage());
        }

        Path in = Path.of(input), outPath = Path.of(output);
        if (!Files.isRegularFile(in)) {
            throw new UsageError("INPUT " + input + " is not a readable file");
        }
        if (Files.exists(outPath) && Files.isSameFile(in, outPath)) {
            throw new UsageError("OUTPUT is INPUT (" + output + "): refusing to overwrite the input");
        }
        long size = Files.size(in);
        if (size % sectorSize != 0) {
            throw new UsageError("INPUT is " + size + " bytes: not a whole number of " + sectorSize + "-byte sectors");
        }
        byte[] key = readKey(keyFile, keyBits); // wiped in the finally below
        // a whole-image job: the scalar mode arithmetic unless -Dvectorjce.arithmetic=vector is given
        VectorJceProvider provider = org.vectorjce.volumes.Volumes.defaultProvider();
        SectorCipher c = null;
        try {
            boolean encrypt = verb.equals("encrypt");
            long first = skip * 512 / sectorSize;
            try {
                c = SectorCipher.of(cipherSpec, key, sectorSize, large, provider);
            } catch (GeneralSecurityException e) {
                throw new UsageError(e.getMessage() + " (" + cipherSpec + ", " + key.length * 8 + "-bit key)");
            }
            if (encrypt && c.encryptionRefusal() != null) {
                throw new UsageError(c.encryptionRefusal() + " (" + cipherSpec + ", " + key.length * 8 + "-bit key)");
            }
            boolean created = false, done = false;
            try (FileChannel src = FileChannel.open(in, StandardOpenOption.READ);
                 FileChannel dst = FileChannel.open(outPath, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                         force ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.CREATE_NEW)) {
                created = true;
                copy(threads, c, key, provider, encrypt, first, large, src, dst, size, err);
                done = true;
            } catch (FileAlreadyExistsException e) {
                throw new UsageError("OUTPUT " + output + " exists (--force overwrites it)");
            } catch (NoSuchFileException e) {
                throw new UsageError("cannot create OUTPUT " + output + ": no such directory");
            } finally {
                if (created && !done) {
                    Files.deleteIfExists(outPath); // no partial OUTPUT left behind
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        } finally {
            if (c != null) {
                c.close();
            }
            Arrays.fill(key, (byte) 0);
        }
        out.printf("%sed %d bytes (%d sectors of %d bytes) with %s into %s%n", verb, size, size / sectorSize,
                sectorSize, cipherSpec, output);
        return 0;
    }

    /** Bytes per work item and per cipher call: 1 MiB of whole sectors. */
    private static final int CHUNK = 1 << 20;

    /**
     * The image through the sector cipher: {@code threads} workers (at most one per chunk), each with
     * its own {@link SectorCipher} ({@code firstCipher}, made and closed by the caller; the others
     * made from {@code key} and closed here) and buffer, take the next 1 MiB chunk in turn, read it
     * at its offset, run it through one call from its first sector and write it at the same offset.
     * The first failure stops the others and is thrown. A progress line on a terminal, drawn by the
     * calling thread.
     */
    private static void copy(int threads, SectorCipher firstCipher, byte[] key, VectorJceProvider provider,
            boolean encrypt, long first, boolean large, FileChannel src, FileChannel dst, long size, PrintStream err)
            throws IOException, GeneralSecurityException {
        int n = (int) Math.max(1, Math.min(threads, (size + CHUNK - 1) / CHUNK));
        SectorCipher[] ciphers = new SectorCipher[n];
        ciphers[0] = firstCipher;
        try {
            for (int i = 1; i < n; i++) {
                ciphers[i] = SectorCipher.of(firstCipher.cipherSpec(), key, firstCipher.sectorSize(), large, provider);
            }
            run(ciphers, encrypt, first, src, dst, size, err);
        } finally {
            for (int i = 1; i < n; i++) {
                if (ciphers[i] != null) {
                    ciphers[i].close(); // ciphers[0]: the caller's
                }
            }
        }
    }

    /** {@link #copy}'s workers over {@code ciphers}, one each. */
    private static void run(SectorCipher[] ciphers, boolean encrypt, long first, FileChannel src, FileChannel dst,
            long size, PrintStream err) throws IOException {
        Progress progress = Progress.forTerminal(err, size);
        Chunks.run(size, CHUNK, ciphers.length, "image", i -> {
            SectorCipher c = ciphers[i];
            int sectorSize = c.sectorSize();
            return (at, b) -> {
                int len = b.remaining();
                while (b.hasRemaining()) {
                    if (src.read(b, at + b.position()) < 0) {
                        throw new IOException("INPUT ended early at byte " + (at + b.position()));
                    }
                }
                byte[] buf = b.array();
                if (encrypt) {
                    c.encrypt(first + at / sectorSize, buf, 0, len);
                } else {
                    c.decrypt(first + at / sectorSize, buf, 0, len);
                }
                b.flip();
                while (b.hasRemaining()) {
                    dst.write(b, at + b.position());
                }
            };
        }, progress::update);
        progress.finish(size);
    }

    /** A one-line progress bar on a terminal: bytes, MB/s, time left; nothing when stderr is piped. */
    static final class Progress {
        private final PrintStream err;
        private final long total;
        private final long start = System.nanoTime();
        private long last;

        private Progress(PrintStream err, long total) {
            this.err = err;
            this.total = total;
        }

        static Progress forTerminal(PrintStream err, long total) {
            return isTerminal() ? new Progress(err, total) : new Progress(null, total);
        }

        /** System.console() is a terminal (JDK 22+ asks isTerminal(); before, non-null means one). */
        static boolean isTerminal() {
            java.io.Console c = System.console();
            if (c == null) {
                return false;
            }
            try {
                return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
            } catch (ReflectiveOperationException e) {
                return true;
            }
        }

        void update(long done) {
            long now = System.nanoTime();
            if (err == null || now - last < 200_000_000L) {
                return;
            }
            last = now;
            err.print("\r" + line(done, now));
            err.flush();
        }

        void finish(long done) {
            if (err != null) {
                err.print("\r" + line(done, System.nanoTime()) + "\n");
                err.flush();
            }
        }

        String line(long done, long now) {
            double s = Math.max(1e-9, (now - start) / 1e9);
            double mbps = done / s / 1e6;
            int width = 30;
            int filled = total == 0 ? width : (int) (width * done / total);
            long left = mbps <= 0 ? 0 : (long) ((total - done) / 1e6 / mbps);
            return String.format("[%s%s] %,d / %,d MiB  %.0f MB/s  %d:%02d left ", "#".repeat(filled),
                    ".".repeat(width - filled), done >> 20, total >> 20, mbps, left / 60, left % 60);
        }
    }

    private static byte[] readKey(String file, int bits) throws UsageError, IOException {
        Path p = Path.of(file);
        if (!Files.isRegularFile(p)) {
            throw new UsageError("--key-file " + file + " is not a readable file");
        }
        byte[] all = Files.readAllBytes(p);
        try {
            if (bits < 0) {
                return all.clone();
            }
            if (bits % 8 != 0 || bits / 8 > all.length) {
                throw new UsageError("--key-size " + bits + ": the key file has " + all.length * 8 + " bits"
                        + (bits % 8 != 0 ? ", and the size must be whole bytes" : ""));
            }
            return Arrays.copyOf(all, bits / 8);
        } finally {
            Arrays.fill(all, (byte) 0);
        }
    }

}
