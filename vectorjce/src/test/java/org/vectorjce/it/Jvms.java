package org.vectorjce.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Child JVMs for the integration tests: the packaged jar (multi-release resolution happens only
 * from a jar), this JVM's {@code java} and, when the build found one, a JDK 17's.
 */
final class Jvms {
    private Jvms() {
    }

    /** The packaged provider jar ({@code vectorjce.jar}, set by the failsafe executions). */
    static Path jar() {
        String p = System.getProperty("vectorjce.jar");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
                "vectorjce.jar not set or missing: run through 'mvn verify' (failsafe, after package)");
        return Path.of(p);
    }

    /** This project's compiled test classes (the probes). */
    static Path testClasses() {
        return Path.of(System.getProperty("vectorjce.testClasses", "target/test-classes"));
    }

    /** The {@code java} of the JVM running this test. */
    static Path thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** This JVM's Java release, e.g. 17 or 25. */
    static int thisFeature() {
        return Runtime.version().feature();
    }

    /** A JDK 17's {@code java}, from {@code vectorjce.jdk17} (the build's {@code jdk17.home}); skips if none. */
    static Path java17() {
        String home = System.getProperty("vectorjce.jdk17", "");
        Path java = home.isBlank() ? null : Path.of(home, "bin", "java");
        Assumptions.assumeTrue(java != null && Files.isExecutable(java),
                "no JDK 17 given (set JAVA17_HOME or -Djdk17.home=...): the JDK 17 comparison is skipped");
        return java;
    }

    record Result(int exit, String out) {
    }

    /** Runs {@code java args...}; fails the test after 120 s. */
    static Result run(Path java, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM timed out: " + cmd);
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
