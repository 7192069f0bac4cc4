package org.vectorjce.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The command line itself: {@code --help}, {@code -h} and {@code help VERB} on every command list
 * every option it had before picocli, {@code --version}, and one line with a pointer to the help
 * for a wrong option or command (exit status 2).
 */
class MainTest {
    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int status = Main.run(new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8), args);
        return new Run(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /** Each command and the options it reads (the names as they were before picocli). */
    static final Map<String, List<String>> OPTIONS = Map.of(
            "selftest", List.of(),
            "info", List.of(),
            "speed", List.of("--alg", "--mode", "--size", "--ms", "--per-op", "--sectors", "--compare"),
            "image", List.of("--cipher", "-c", "--key-file", "-d", "--key-size", "-s", "--sector-size",
                    "--iv-large-sectors", "--skip", "-p", "--force", "--threads"),
            "leakcheck", List.of("--quick", "--kernel", "--transformation", "--class", "--seconds", "--samples",
                    "--blocks", "--key-bits", "--batch", "--seed", "--verbose", "-v", "--no-control"));

    @Test
    void everyCommandHasHelpListingItsOptions() {
        for (Map.Entry<String, List<String>> c : OPTIONS.entrySet()) {
            for (String[] args : List.of(new String[] {c.getKey(), "--help"}, new String[] {c.getKey(), "-h"},
                    new String[] {"help", c.getKey()})) {
                Run r = run(args);
                String what = String.join(" ", args);
                assertEquals(0, r.status(), what + ": " + r.err());
                assertTrue(r.out().startsWith("Usage: vectorjce " + c.getKey()), what + ":\n" + r.out());
                assertTrue(r.out().contains("Exit status:"), what + ":\n" + r.out());
                for (String option : c.getValue()) {
                    assertTrue(r.out().contains(option), what + " does not list " + option + ":\n" + r.out());
                }
            }
        }
    }

    @Test
    void theTopLevelListsEveryCommand() {
        for (String[] args : List.of(new String[] {}, new String[] {"--help"}, new String[] {"-h"},
                new String[] {"help"})) {
            Run r = run(args);
            assertEquals(0, r.status(), String.join(" ", args));
            for (String c : OPTIONS.keySet()) {
                assertTrue(r.out().contains("  " + c + " "), c + " missing:\n" + r.out());
            }
        }
    }

    @Test
    void versionNamesTheToolAndTheProvider() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"speed", "--version"})) {
            Run r = run(args);
            assertEquals(0, r.status());
            assertTrue(r.out().startsWith("vectorjce (VectorJCE tool) "), r.out());
            assertTrue(r.out().contains("provider VectorJCE "), r.out());
        }
    }

    @Test
    void aWrongOptionOrCommandIsOneLineAndStatus2() {
        for (String[] args : List.of(new String[] {"frobnicate"}, new String[] {"--frobnicate"},
                new String[] {"speed", "--frobnicate"}, new String[] {"speed", "--size", "big"},
                new String[] {"selftest", "extra"}, new String[] {"info", "--alg", "AES"},
                new String[] {"leakcheck", "--seconds"})) {
            Run r = run(args);
            String what = String.join(" ", args) + " -> " + r.err();
            assertEquals(2, r.status(), what);
            assertEquals(1, r.err().lines().count(), what);
            assertTrue(r.err().contains("--help'"), what);
            assertEquals("", r.out(), what);
        }
    }
}
