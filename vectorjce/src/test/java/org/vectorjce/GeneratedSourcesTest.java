package org.vectorjce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated sources are what their generators write: every {@code src/main/gen/gen_*.py} runs
 * with {@code --out} into a temporary folder (standing for {@code src/main}), and each file it
 * writes must equal the checked-in file at the same path, byte for byte. A hand edit of a
 * generated file (or of a generated block of {@code TwofishVec512}/{@code TwofishVec128}), or a
 * generator changed without its output committed, fails here, naming the file and its first
 * differing line. Skipped when there is no {@code python3} on the PATH.
 */
class GeneratedSourcesTest {
    private static final Path MAIN = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "src", "main");

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> everyGeneratorWritesTheCheckedInFiles() throws IOException {
        List<Path> generators;
        try (Stream<Path> s = Files.list(MAIN.resolve("gen"))) {
            generators = s.filter(p -> p.getFileName().toString().matches("gen_.*\\.py")).sorted().toList();
        }
        assertFalse(generators.isEmpty(), "no gen_*.py in " + MAIN.resolve("gen"));
        return generators.stream().map(g -> DynamicTest.dynamicTest(g.getFileName().toString(), () -> check(g)));
    }

    private void check(Path generator) throws Exception {
        Assumptions.assumeTrue(python3(), "python3 is not on the PATH: the generators in src/main/gen cannot run");
        String name = generator.getFileName().toString();
        Path out = tmp.resolve(name.substring(0, name.length() - 3));
        Files.createDirectories(out);
        Process p = new ProcessBuilder("python3", generator.toString(), "--out", out.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not finish");
        assertEquals(0, p.exitValue(), name + " failed:\n" + log);
        List<Path> written;
        try (Stream<Path> s = Files.walk(out)) {
            written = s.filter(Files::isRegularFile).sorted().toList();
        }
        assertFalse(written.isEmpty(), name + " --out " + out + " wrote no file");
        List<String> problems = new ArrayList<>();
        for (Path f : written) {
            Path rel = out.relativize(f);
            Path checkedIn = MAIN.resolve(rel);
            String shown = "src/main/" + rel.toString().replace('\\', '/');
            if (!Files.exists(checkedIn)) {
                problems.add(shown + ": written by " + name + " but not checked in");
            } else if (Files.mismatch(f, checkedIn) != -1) {
                problems.add(shown + " is not what " + name + " writes (edit the generator and run it, do not edit the file): "
                        + firstDifference(f, checkedIn));
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    private static String firstDifference(Path generated, Path checkedIn) throws IOException {
        List<String> a = Files.readAllLines(generated, StandardCharsets.UTF_8);
        List<String> b = Files.readAllLines(checkedIn, StandardCharsets.UTF_8);
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? "\"" + a.get(i) + "\"" : "end of file";
            String y = i < b.size() ? "\"" + b.get(i) + "\"" : "end of file";
            if (!x.equals(y)) {
                return "line " + (i + 1) + "\n  generated:  " + x + "\n  checked in: " + y;
            }
        }
        return "line endings or the final newline";
    }

    private static boolean python3() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
