package org.vectorjce.fs.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real tools that write and read filesystems (mkfs.fat, mtools, mkfs.exfat, mkntfs, ntfs-3g,
 * The Sleuth Kit, 7-Zip, sgdisk, sfdisk): found on the PATH or skipped, named; run with a bound on
 * time; their output kept.
 */
public final class Tools {
    private Tools() {
    }

    /** The result of one run. */
    public record Run(int exit, byte[] stdout, String stderr) {
        public String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    /** Whether {@code name} is an executable on the PATH or in /sbin, /usr/sbin. */
    public static boolean have(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/sbin:/usr/sbin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }

    /** Skips the test, naming the tool, when it is not installed. */
    public static void assumeTool(String... names) {
        for (String name : names) {
            assumeTrue(have(name), name + " is not installed: test skipped");
        }
    }

    /** Skips the test when /dev/fuse cannot be used (a container without the device) or we are not root. */
    public static void assumeFuse() {
        assumeTrue(Files.isReadable(Path.of("/dev/fuse")) && Files.isWritable(Path.of("/dev/fuse")),
                "/dev/fuse is not usable here: test skipped");
    }

    /** Runs {@code cmd} (120 s at most), with {@code env} added to the environment. */
    public static Run run(Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread t1 = new Thread(() -> copy(p.getInputStream(), out));
        Thread t2 = new Thread(() -> copy(p.getErrorStream(), err));
        t1.start();
        t2.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " did not end within 120 s");
        }
        t1.join();
        t2.join();
        return new Run(p.exitValue(), out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    public static Run run(String... cmd) throws IOException, InterruptedException {
        return run(Map.of(), cmd);
    }

    /** {@link #run}, failing with its stderr unless it exits 0. */
    public static Run ok(String... cmd) throws IOException, InterruptedException {
        return ok(Map.of(), cmd);
    }

    public static Run ok(Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        Run r = run(env, cmd);
        if (r.exit() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited " + r.exit() + ": " + r.stderr());
        }
        return r;
    }

    /** A sparse file of {@code size} bytes. */
    public static Path sparse(Path file, long size) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.wrap(new byte[1]), size - 1);
        }
        return file;
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            in.transferTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
