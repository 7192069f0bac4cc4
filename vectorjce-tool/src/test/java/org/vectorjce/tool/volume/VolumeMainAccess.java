package org.vectorjce.tool.volume;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@link VolumeMain} in-process with captured standard streams and no console. */
public final class VolumeMainAccess {
    private VolumeMainAccess() {
    }

    /** The exit status, standard output (as UTF-8 text, and as it was written) and standard error. */
    public record Result(int rc, String out, String err, byte[] stdout) {
    }

    public static Result run(String stdin, String... args) {
        return run(false, stdin, args);
    }

    /**
     * As {@link #run(String, String...)}, with stderr taken for a terminal (the progress bar and
     * the line before a KDF benchmark); the secrets still come from {@code stdin}.
     */
    public static Result runOnTerminal(String stdin, String... args) {
        return run(true, stdin, args);
    }

    private static Result run(boolean terminal, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        VolumeMain m = new VolumeMain(new ByteArrayInputStream(stdin == null ? new byte[0]
                : stdin.getBytes(StandardCharsets.UTF_8)), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), null, terminal ? () -> true : null);
        int rc = m.run(args);
        return new Result(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                out.toByteArray());
    }
}
