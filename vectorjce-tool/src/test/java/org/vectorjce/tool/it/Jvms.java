package org.vectorjce.tool.it;

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
 * Child JVMs for the tool's integration tests: the runnable jar (multi-release resolution happens
 * only from a jar) on this JVM's {@code java}.
 */
final class Jvms {
    private Jvms() {
    }

    /** The tool's runnable jar ({@code vectorjce.toolJar}, set by the failsafe executions). */
    static Path jar() {
        String p = System.getProperty("vectorjce.toolJar");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
                "vectorjce.toolJar not set or missing: run through 'mvn verify' (failsafe, after package)");
        return Path.of(p);
    }

    /** The {@code java} of the JVM running this test. */
    static Path thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** This JVM's Java release, e.g. 17 or 25. */
    static int thisFeature() {
        return Runtime.version().feature();
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
