package org.vectorjce.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.jca.RawKey;

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

    static final String USAGE = """
            usage: image encrypt|decrypt --cipher SPEC --key-file FILE [options] INPUT OUTPUT
              --cipher SPEC        cryptsetup's cipher: aes-xts-plain64, twofish-xts-plain64,
                                   aes-cbc-essiv:sha256, twofish-lrw-benbi, ... (cipher-mode-ivgen)
              --key-file FILE      the raw key; --key-size BITS reads that many bits from its start
                                   (default: the whole file). XTS: K1 || K2 (256, 384 or 512 bits);
                                   LRW: key || 128-bit tweak key; CBC: 128, 192 or 256 bits
              --sector-size N      512 (default), 1024, 2048 or 4096
              --iv-large-sectors   IV sector numbers count N-byte sectors, not 512-byte ones
              --skip N             IV offset in 512-byte sectors (cryptsetup --skip), default 0
              --force              overwrite OUTPUT if it exists (never INPUT)
              --threads N          N workers, each with its own cipher, over 1 MiB chunks
                                   (default: the processor count)
            INPUT must be a whole number of sectors; OUTPUT is a new file of the same size
            (removed again when the command fails).
            A progress line goes to the terminal when stderr is one. Exit status: 0 done,
            1 I/O error, 2 bad options, key, size or files.
            """;

    /** Bad options, key, sizes or files: a one-line reason, exit status 2. */
    static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return image(args, out, err);
        } catch (UsageError e) {
            err.println("image: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("image: " + e);
            return 1;
        }
    }

    private static int image(String[] args, PrintStream out, PrintStream err) throws UsageError, IOException {
        if (args.length == 0 || args[0].equals("--help")) {
            err.print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String verb = args[0];
        if (!verb.equals("encrypt") && !verb.equals("decrypt")) {
            throw new UsageError("the first argument is encrypt or decrypt, not '" + verb + "'");
        }
        String cipherSpec = null, keyFile = null;
        int keyBits = -1, sectorSize = 512, threads = Runtime.getRuntime().availableProcessors();
        long skip = 0;
        boolean large = false, force = false;
        String input = null, output = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--cipher", "-c" -> cipherSpec = value(args, ++i, a);
                case "--key-file", "-d" -> keyFile = value(args, ++i, a);
                case "--key-size", "-s" -> keyBits = number(value(args, ++i, a), a);
                case "--sector-size" -> sectorSize = number(value(args, ++i, a), a);
                case "--skip", "-p" -> {
                    String v = value(args, ++i, a);
                    try {
                        skip = Long.parseUnsignedLong(v);
                    } catch (NumberFormatException e) {
                        throw new UsageError(a + " " + v + ": not a sector count");
                    }
                }
                case "--iv-large-sectors" -> large = true;
                case "--force" -> force = true;
                case "--threads" -> {
                    String v = value(args, ++i, a);
                    threads = number(v, a);
                    if (threads < 1 || threads > 1024) {
                        throw new UsageError(a + " " + v + ": a number from 1 to 1024");
                    }
                }
                default -> {
                    if (a.startsWith("-")) {
                        throw new UsageError("unknown option " + a + " (see 'image --help')");
                    } else if (input == null) {
                        input = a;
                    } else if (output == null) {
                        output = a;
                    } else {
                        throw new UsageError("one INPUT and one OUTPUT, not also '" + a + "'");
                    }
                }
            }
        }
        if (cipherSpec == null || keyFile == null || input == null || output == null) {
            throw new UsageError("--cipher, --key-file, INPUT and OUTPUT are required (see 'image --help')");
        }
        if (sectorSize != 512 && sectorSize != 1024 && sectorSize != 2048 && sectorSize != 4096) {
            throw new UsageError("--sector-size " + sectorSize + ": 512, 1024, 2048 or 4096");
        }
        if (skip * 512 % sectorSize != 0) {
            throw new UsageError("--skip " + skip + " (512-byte sectors) is not a whole number of " + sectorSize
                    + "-byte sectors");
        }
        String[] parts = cipherSpec.split("-", 3);
        if (parts.length != 3) {
            throw new UsageError("--cipher " + cipherSpec + ": cipher-mode-ivgenerator, e.g. aes-xts-plain64");
        }
        String alg = parts[0].equalsIgnoreCase("aes") ? "AES" : parts[0].equalsIgnoreCase("twofish") ? "Twofish" : null;
        if (alg == null) {
            throw new UsageError("--cipher " + cipherSpec + ": the cipher is aes or twofish");
        }
        String mode = parts[1].toUpperCase(Locale.ROOT);

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
        byte[] key = readKey(keyFile, keyBits);
        RawKey k = new RawKey(alg, key); // wiped with key in the finally below
        Cipher c = null;
        try {
            c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", new VectorJceProvider());
            int opmode = verb.equals("encrypt") ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
            long first = skip * 512 / sectorSize;
            try {
                c.init(opmode, k, new SectorParameterSpec(parts[2].toLowerCase(Locale.ROOT), first, sectorSize, large));
            } catch (GeneralSecurityException e) {
                throw new UsageError(e.getMessage() + " (" + cipherSpec + ", " + key.length * 8 + "-bit key)");
            }
            boolean created = false, done = false;
            try (FileChannel src = FileChannel.open(in, StandardOpenOption.READ);
                 FileChannel dst = FileChannel.open(outPath, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                         force ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.CREATE_NEW)) {
                created = true;
                copy(threads, c, alg + "/" + mode + "/NoPadding", k, opmode, parts[2].toLowerCase(Locale.ROOT), first,
                        sectorSize, large, src, dst, size, err);
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
            wipe(c, alg, key.length, parts[2].toLowerCase(Locale.ROOT), sectorSize, large);
            k.destroy();
        }
        out.printf("%sed %d bytes (%d sectors of %d bytes) with %s into %s%n", verb, size, size / sectorSize,
                sectorSize, cipherSpec, output);
        return 0;
    }

    /** Bytes per work item and per cipher call: 1 MiB of whole sectors. */
    private static final int CHUNK = 1 << 20;

    /**
     * The image through the cipher: {@code threads} workers (at most one per chunk), each with its
     * own {@code transformation} instance ({@code firstCipher}, initialised by the caller, which also
     * wipes it; the others are made and wiped here) and buffer, take the next 1 MiB chunk in turn,
     * read it at its offset, run it through one {@code doFinal} with the {@code SectorParameterSpec}
     * of its first sector and write it at the same offset. The first failure stops the others and is
     * thrown. A progress line on a terminal, drawn by the calling thread.
     */
    private static void copy(int threads, Cipher firstCipher, String transformation, RawKey k, int opmode, String gen,
            long first, int sectorSize, boolean large, FileChannel src, FileChannel dst, long size, PrintStream err)
            throws IOException, GeneralSecurityException {
        int n = (int) Math.max(1, Math.min(threads, (size + CHUNK - 1) / CHUNK));
        Cipher[] ciphers = new Cipher[n];
        ciphers[0] = firstCipher;
        try {
            for (int i = 1; i < n; i++) {
                ciphers[i] = Cipher.getInstance(transformation, new VectorJceProvider());
                ciphers[i].init(opmode, k, new SectorParameterSpec(gen, first, sectorSize, large));
            }
            run(ciphers, k, opmode, gen, first, sectorSize, large, src, dst, size, err);
        } finally {
            for (int i = 1; i < n; i++) {
                wipe(ciphers[i], k.getAlgorithm(), k.length(), gen, sectorSize, large); // ciphers[0]: the caller's
            }
        }
    }

    /**
     * Re-keys {@code c} with an all-zero key of the same length, which overwrites its key schedule
     * in place (decryption accepts the all-zero key even for XTS, whose halves are then equal).
     */
    private static void wipe(Cipher c, String alg, int keyLength, String gen, int sectorSize, boolean large) {
        if (c == null) {
            return;
        }
        try {
            c.init(Cipher.DECRYPT_MODE, new RawKey(alg, new byte[keyLength]),
                    new SectorParameterSpec(gen, 0, sectorSize, large));
        } catch (GeneralSecurityException | RuntimeException e) {
            // the schedule goes with the cipher
        }
    }

    /** {@link #copy}'s workers over {@code ciphers}, one each. */
    private static void run(Cipher[] ciphers, RawKey k, int opmode, String gen, long first, int sectorSize,
            boolean large, FileChannel src, FileChannel dst, long size, PrintStream err)
            throws IOException, GeneralSecurityException {
        int n = ciphers.length;
        Progress progress = Progress.forTerminal(err, size);
        AtomicLong next = new AtomicLong(), done = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread[] workers = new Thread[n];
        for (int i = 0; i < n; i++) {
            Cipher c = ciphers[i];
            workers[i] = new Thread(() -> {
                byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(size, 1))];
                try {
                    for (long at; failure.get() == null && (at = next.getAndAdd(CHUNK)) < size; ) {
                        int len = (int) Math.min(CHUNK, size - at);
                        ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
                        while (b.hasRemaining()) {
                            if (src.read(b, at + b.position()) < 0) {
                                throw new IOException("INPUT ended early at byte " + (at + b.position()));
                            }
                        }
                        c.init(opmode, k, new SectorParameterSpec(gen, first + at / sectorSize, sectorSize, large));
                        c.doFinal(buf, 0, len, buf, 0);
                        b = ByteBuffer.wrap(buf, 0, len);
                        while (b.hasRemaining()) {
                            dst.write(b, at + b.position());
                        }
                        done.addAndGet(len);
                    }
                } catch (IOException | GeneralSecurityException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    Arrays.fill(buf, (byte) 0);
                }
            }, "image-" + i);
            workers[i].start();
        }
        for (Thread w : workers) {
            while (w.isAlive()) {
                try {
                    w.join(200);
                } catch (InterruptedException e) {
                    failure.compareAndSet(null, new IOException("interrupted"));
                }
                progress.update(done.get());
            }
        }
        Exception e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        } else if (e instanceof GeneralSecurityException g) {
            throw g;
        } else if (e instanceof RuntimeException r) {
            throw r;
        }
        progress.finish(done.get());
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

    private static String value(String[] args, int i, String option) throws UsageError {
        if (i >= args.length) {
            throw new UsageError(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String v, String option) throws UsageError {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageError(option + " " + v + ": not a number");
        }
    }
}
