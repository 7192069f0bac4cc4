package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code volume} command's help, version and command-line errors (picocli): every verb's
 * {@code --help} exits 0 and lists each of its options and arguments; a wrong option, a missing
 * argument or an unknown verb is one line on standard error and exit 1, with no stack trace.
 */
class VolumeHelpTest {
    private static final List<String> KDF = List.of("--pbkdf", "--hash", "-h,", "--iter-time", "-i,",
            "--pbkdf-memory", "--pbkdf-parallel", "--pbkdf-force-iterations");
    private static final List<String> TCRYPT = List.of("--type", "TrueCrypt/VeraCrypt (with --type tcrypt):",
            "--tcrypt-hidden", "--tcrypt-system", "--tcrypt-backup", "--veracrypt-pim", "--disable-veracrypt",
            "--hash", "--cipher", "--header", "--key-file", "--key-slot", "--threads");

    /** What each verb's help must name: its arguments and every option it reads. */
    private static final Map<String, List<String>> OPTIONS = Map.ofEntries(
            Map.entry("info", concat(List.of("IMAGE", "--dump-volume-key", "--dump-master-key", "-q,", "--batch-mode"), TCRYPT)),
            Map.entry("test", concat(List.of("IMAGE", "-v,", "--verbose"), TCRYPT)),
            Map.entry("decrypt", concat(List.of("IMAGE", "OUT"), TCRYPT)),
            Map.entry("encrypt", List.of("IN", "IMAGE", "--header", "--key-file", "-d,", "--key-slot", "-S,", "--threads")),
            Map.entry("format", concat(List.of("IMAGE", "--type", "-M,", "--cipher", "-c,", "--key-size", "-s,", "--sector-size",
                    "--key-file", "-q,"), KDF)),
            Map.entry("add-key", concat(List.of("IMAGE", "NEW_KEY_FILE", "--header", "--key-file", "--key-slot", "-v,"), KDF)),
            Map.entry("remove-key", List.of("IMAGE", "--header", "--key-file", "--key-slot", "-q,", "-v,")),
            Map.entry("change-key", concat(List.of("IMAGE", "NEW_KEY_FILE", "--header", "--key-file", "--key-slot", "-v,"), KDF)),
            Map.entry("fs", concat(List.of("IMAGE", "--json", "--partition", "-p,", "--code-page"), TCRYPT)),
            Map.entry("ls", concat(List.of("IMAGE", "PATH", "-l", "-R,", "--recursive", "--json", "--streams", "--partition",
                    "--code-page"), TCRYPT)),
            Map.entry("cat", concat(List.of("IMAGE", "PATH", "--partition", "--code-page"), TCRYPT)),
            Map.entry("get", concat(List.of("IMAGE", "PATH... DEST", "--force", "-f,", "--partition", "--code-page"), TCRYPT)),
            Map.entry("browse", concat(List.of("IMAGE", "--listen", "--password", "--tls-cert", "--tls-key", "--partition",
                    "--code-page"), TCRYPT)),
            Map.entry("mount", concat(List.of("IMAGE", "DIR", "--files", "--read-only", "--partition", "--code-page"),
                    TCRYPT)));

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"info", "test", "decrypt", "encrypt", "format", "add-key", "remove-key", "change-key", "fs",
        "ls", "cat", "get", "browse", "mount"})
    void everyVerbHasHelpListingItsOptions(String verb) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, verb, "--help");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("Usage: volume " + verb), r.out());
        for (String o : OPTIONS.get(verb)) {
            assertTrue(r.out().contains(o), verb + " --help lacks " + o + ":\n" + r.out());
        }
        assertTrue(r.out().contains("--help") && r.out().contains("-?") && r.out().contains("Exit status:"), r.out());
        assertEquals(r.out(), VolumeMainAccess.run(null, "help", verb).out(), "help " + verb);
        assertEquals(r.out(), VolumeMainAccess.run(null, "volume", verb, "-?").out(), verb + " -?");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void topLevelHelp(String arg) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, arg);
        assertEquals(0, r.rc(), r.err());
        for (String verb : OPTIONS.keySet()) {
            assertTrue(r.out().contains("\n  " + verb), arg + " lacks " + verb + ":\n" + r.out());
        }
        assertTrue(r.out().contains("--type tcrypt") && r.out().contains("--version"), r.out());
        assertEquals(r.out(), VolumeMainAccess.run(null, "volume", arg).out(), "with the verb 'volume' first");
    }

    /**
     * The text {@link UsageText} prints for {@code --help} is the resource the build made, and is
     * byte for byte what picocli prints itself: a {@code picocli.*} property turns the resource
     * off (picocli.usage.width=80 is picocli's default width; picocli.ansi=true its styles).
     */
    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void topLevelHelpIsWhatPicocliPrints(String arg) throws Exception {
        VolumeMainAccess.Result fast = VolumeMainAccess.run(null, arg);
        assertEquals(resource(UsageText.PLAIN), fast.out(), "the fast path printed the resource");
        VolumeMainAccess.Result picocli = withProperty("picocli.usage.width", "80", () -> VolumeMainAccess.run(null, arg));
        assertEquals(picocli.rc(), fast.rc());
        assertEquals(picocli.err(), fast.err());
        assertArrayEquals(picocli.stdout(), fast.stdout(), () -> "picocli:\n" + picocli.out() + "\nresource:\n" + fast.out());
        VolumeMainAccess.Result styled = withProperty("picocli.ansi", "true", () -> VolumeMainAccess.run(null, arg));
        assertEquals(0, styled.rc());
        assertTrue(styled.out().contains("\u001b[1m"), styled.out());
        assertEquals(styled.out(), resource(UsageText.STYLED));
    }

    private static String resource(String name) throws Exception {
        try (var in = UsageText.class.getResourceAsStream(name)) {
            assertNotNull(in, name + " was not built (the usage-text execution of vectorjce-tool/pom.xml)");
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static VolumeMainAccess.Result withProperty(String name, String value,
            java.util.function.Supplier<VolumeMainAccess.Result> run) {
        String before = System.getProperty(name);
        System.setProperty(name, value);
        try {
            return run.get();
        } finally {
            if (before == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, before);
            }
        }
    }

    @Test
    void version() {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "--version");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().matches("(?s)volume \\(VectorJCE volumes\\) \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\nJava .*"), r.out());
        assertEquals(r.out(), VolumeMainAccess.run(null, "-V").out());
    }

    @Test
    void commandLineErrorsAreOneLine() {
        oneLine("Unknown option: '--frobnicate' (see 'volume info --help')", "info", "x.img", "--frobnicate");
        oneLine("Missing required parameter: 'IMAGE' (see 'volume test --help')", "test");
        oneLine("Missing required parameter: 'OUT' (see 'volume decrypt --help')", "decrypt", "x.img");
        oneLine("Unknown command frobnicate (see 'volume --help')", "frobnicate");
        oneLine("No verb given: info, test, decrypt, encrypt, format, add-key, remove-key, change-key, serve, mount, fs,"
                + " ls, cat, get, browse or help"
                + " (see 'volume --help')");
        oneLine("Unknown option: '--pbkdf' (see 'volume remove-key --help')", "remove-key", "x.img", "--pbkdf",
                "pbkdf2");
        oneLine("Missing required parameter for option '--key-slot' (N) (see 'volume test --help')", "test", "x.img",
                "--key-slot");
        oneLine("Invalid value for option '--key-slot': 'x' is not an int (see 'volume test --help')", "test", "x.img",
                "--key-slot", "x");
        oneLine("--key-size 9000: a number from 8 to 4096", "format", "x.img", "--key-size", "9000");
        oneLine("--threads 0: a number from 1 to 1024", "decrypt", "x.img", "out", "--threads", "0");
        oneLine("--type frob: luks, luks1, luks2, tcrypt, bitlk or fvault2", "info", "x.img", "--type", "frob");
        oneLine("--hash, --cipher, --tcrypt-* and --veracrypt-* need --type tcrypt (a LUKS header names its own"
                + " cipher and hash)", "test", "x.img", "--hash", "sha512");
        oneLine("--key-slot is LUKS's: a TrueCrypt/VeraCrypt volume has no key slots", "test", "--type", "tcrypt",
                "x.img", "--key-slot", "0");
    }

    private static void oneLine(String expected, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, args);
        assertEquals(1, r.rc(), String.join(" ", args) + ": " + r.err());
        assertEquals(expected + "\n", r.err(), String.join(" ", args));
        assertEquals("", r.out());
    }
}
