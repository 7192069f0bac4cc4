package org.vectorjce.tool.volume;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The training run of the {@code volume} jar's JDK 25 AOT cache ({@code bin/lib/aot-train.bash},
 * run by the build's {@code package}; JEP 483/514/515): in one JVM, the verbs users start most
 * ({@code --version}, {@code --help}, {@code format}, {@code info}, {@code test}, {@code encrypt},
 * {@code decrypt}) on a small LUKS2 volume with a PBKDF2 and an Argon2id key slot that it makes in
 * {@code DIR}. The classes it loads and the
 * profiles it gathers go into the cache that {@code bin/volume} then starts with. Every command's
 * output is discarded; it stops with status 1 at the first command that does not succeed
 * (the tool's tests run it too, so a verb or option renamed there shows).
 *
 * <p>{@code bin/volume} runs some command lines without the vector module (with it, a JDK 25 JVM
 * cannot use a cache's linked classes), on caches of their own: {@code --help-cache} trains the
 * one for {@code --version} and {@code --help}; {@code --base-cache} the one for {@code test},
 * {@code info} and {@code decrypt} of a BitLocker volume, which no vector kernel would serve (its
 * key stretch is SHA-256, its keys are unwrapped with a few AES blocks, and its sectors are AES
 * in CBC or XTS, which the provider runs on the JDK's AES): {@code test}, {@code info} and
 * {@code decrypt --type bitlk} of {@code BITLOCKER_IMAGE} (password {@code anaconda}, cryptsetup's
 * test image), the plaintext written in {@code DIR}.
 *
 * <pre>
 * java -XX:AOTCacheOutput=FILE --add-modules jdk.incubator.vector -cp ...-volume.jar org.vectorjce.tool.volume.AotTraining DIR
 * java -XX:AOTCacheOutput=FILE -cp ...-volume.jar org.vectorjce.tool.volume.AotTraining --help-cache
 * java -XX:AOTCacheOutput=FILE -cp ...-volume.jar org.vectorjce.tool.volume.AotTraining --base-cache DIR BITLOCKER_IMAGE
 * </pre>
 */
public final class AotTraining {
    private AotTraining() {
    }

    public static void main(String[] args) throws IOException {
        String failed;
        if (args.length == 1 && args[0].equals("--help-cache")) {
            failed = run(List.of(new Step(null, "--version"), new Step(null, "--help")));
        } else if (args.length == 3 && args[0].equals("--base-cache")) {
            failed = trainBase(Path.of(args[1]), Path.of(args[2]));
        } else if (args.length == 1 && !args[0].startsWith("--")) {
            failed = train(Path.of(args[0]));
        } else {
            System.err.println("usage: AotTraining DIR | --help-cache | --base-cache DIR BITLOCKER_IMAGE");
            System.exit(2);
            return;
        }
        if (failed != null) {
            System.err.println("AotTraining: " + failed);
            System.exit(1);
        }
    }

    /** Runs the training in {@code dir}; null when every command succeeded, else which one did not. */
    static String train(Path dir) throws IOException {
        Path key = dir.resolve("key");
        Files.write(key, "aot training passphrase".getBytes(StandardCharsets.US_ASCII));
        byte[] plain = new byte[4 << 20];
        new Random(483).nextBytes(plain);
        Path in = dir.resolve("plain");
        Files.write(in, plain);
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(null, "--version"));
        steps.add(new Step(null, "--help"));
        for (String kdf : new String[] {"pbkdf2", "argon2id"}) {
            Path img = dir.resolve(kdf + ".img");
            try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
                f.setLength(24L << 20);
            }
            String cost = kdf.equals("pbkdf2") ? "1000" : "4";
            String k = key.toString();
            steps.add(new Step(null, "format", "-q", "--pbkdf", kdf, "--pbkdf-force-iterations", cost,
                    "--pbkdf-memory", "8192", "-d", k, img.toString()));
            steps.add(new Step(null, "info", img.toString()));
            steps.add(new Step(null, "test", img.toString(), "-d", k));
            steps.add(new Step(null, "encrypt", in.toString(), img.toString(), "-d", k));
            steps.add(new Step(null, "decrypt", img.toString(), dir.resolve(kdf + ".out").toString(), "-d", k));
        }
        return run(steps);
    }

    /**
     * Runs the training of {@code --base-cache}, decrypting into {@code dir}; null when every
     * command succeeded, else which one did not.
     */
    static String trainBase(Path dir, Path bitlk) {
        return run(List.of(new Step("anaconda\n", "test", "--type", "bitlk", bitlk.toString()),
                new Step(null, "info", "--type", "bitlk", bitlk.toString()),
                new Step("anaconda\n", "decrypt", "--type", "bitlk", bitlk.toString(), dir.resolve("bitlk.out").toString())));
    }

    private static String run(List<Step> steps) {
        for (Step s : steps) {
            if (run(s.stdin(), s.args()) != Exits.OK) {
                return "volume " + String.join(" ", s.args()) + " did not succeed";
            }
        }
        return null;
    }

    /** One command of the training, and what it reads on stdin (null: nothing). */
    private record Step(String stdin, String... args) {
    }

    private static int run(String stdin, String... args) {
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        byte[] input = stdin == null ? new byte[0] : stdin.getBytes(StandardCharsets.UTF_8);
        return VolumeMain.run(new ByteArrayInputStream(input), discard, discard, null, args);
    }
}
