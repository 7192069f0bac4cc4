package org.vectorjce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A separate project can depend on the installed artifact: {@code src/it/consumer} (a user's pom
 * with one dependency, {@code org.vectorjce:vectorjce}) is built offline with Maven on the JDK
 * running this test (17 in {@code it-jdk17}, 25 in {@code it-jdk25}), against a local repository
 * that holds only what {@code invoker:install} put there (this build's jar, sources, javadoc and
 * POMs) and, read-only behind it ({@code maven.repo.local.tail}), the build's own local repository
 * for Maven's plugins and JUnit. Its test runs {@code Twofish/XTS/NoPadding} from
 * {@code Cipher.getInstance} against the Linux testmgr vectors.
 */
class ConsumerProjectIT {

    @Test
    void aProjectDependingOnTheInstalledArtifactBuildsAndRunsOffline() throws Exception {
        Path itRepo = Path.of(required("vectorjce.it.repo"));
        String version = required("vectorjce.it.version");
        Path installed = itRepo.resolve("org/vectorjce/vectorjce").resolve(version);
        for (String suffix : List.of(".jar", ".pom", "-sources.jar", "-javadoc.jar")) {
            Path f = installed.resolve("vectorjce-" + version + suffix);
            assertTrue(Files.isRegularFile(f), "invoker:install did not install " + f);
        }
        Path mvn = Path.of(required("vectorjce.it.mavenHome"), "bin", "mvn");
        Assumptions.assumeTrue(Files.isExecutable(mvn), "no Maven at " + mvn);

        Path project = Path.of(required("vectorjce.it.build"))
                .resolve("consumer-jdk" + Runtime.version().feature());
        copyFiltered(Path.of(required("vectorjce.it.source")), project, Map.of(
                "@vectorjce.version@", version,
                "@vectors@", Path.of(required("vectorjce.testvectors"), "linux-testmgr",
                        "tf_xts_tv_template.txt").toAbsolutePath().toString(),
                "@junit.version@", required("vectorjce.it.junit"),
                "@resources.version@", required("vectorjce.it.resources"),
                "@compiler.version@", required("vectorjce.it.compiler"),
                "@jar.version@", required("vectorjce.it.jarPlugin"),
                "@surefire.version@", required("vectorjce.it.surefire")));

        List<String> cmd = List.of(mvn.toString(), "-o", "-B", "-ntp",
                "-Dmaven.repo.local=" + itRepo.toAbsolutePath(),
                "-Dmaven.repo.local.tail=" + required("vectorjce.it.localRepo"),
                "-f", project.resolve("pom.xml").toString(), "verify");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(project.resolve("build.log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // the build's own JVM as this repository's .mvn/jvm.config runs Maven: a short build
        // spends less CPU in C1 alone than in C2's compilations
        pb.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        Process p = pb.start();
        p.getOutputStream().close();
        boolean done = p.waitFor(240, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String log = Files.readString(project.resolve("build.log"), StandardCharsets.UTF_8);
        assertTrue(done, "the consumer build did not end in 240 s: " + cmd);
        assertEquals(0, p.exitValue(), "the consumer build failed on Java "
                + Runtime.version().feature() + " (" + cmd + "):\n" + tail(log));
        assertTrue(log.contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"),
                "the consumer's test did not run:\n" + tail(log));
    }

    private static String required(String name) {
        String v = System.getProperty(name);
        Assumptions.assumeTrue(v != null && !v.isBlank(),
                name + " not set: run through 'mvn verify' (failsafe, after invoker:install)");
        return v;
    }

    private static void copyFiltered(Path from, Path to, Map<String, String> tokens) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(from)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path f : files) {
            Path target = to.resolve(from.relativize(f).toString());
            Files.createDirectories(target.getParent());
            String text = Files.readString(f, StandardCharsets.UTF_8);
            for (Map.Entry<String, String> e : tokens.entrySet()) {
                text = text.replace(e.getKey(), e.getValue());
            }
            Files.writeString(target, text, StandardCharsets.UTF_8);
        }
    }

    private static String tail(String log) {
        String[] lines = log.split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, lines.length - 40); i < lines.length; i++) {
            sb.append(lines[i]).append('\n');
        }
        return sb.toString();
    }
}
