package org.vectorjce.tool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code vectorjce} command: {@code bin/vectorjce COMMAND}, or {@code java [--add-modules
 * jdk.incubator.vector] -jar vectorjce-tool-VERSION-all.jar COMMAND}. It uses the provider's public
 * API only ({@link VectorJce}, {@link VectorJceProvider}, the JCA).
 *
 * <p>The command line is parsed by picocli: each command is a class whose annotated fields are its
 * options, so {@code --help} ({@code -h}) and {@code help COMMAND} list exactly what the command
 * reads. A command line picocli cannot parse gets one line on standard error and a pointer to the
 * command's help, exit status 2; each command's help lists its own exit statuses.
 */
@Command(name = "vectorjce", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        sortOptions = false, synopsisSubcommandLabel = "COMMAND", commandListHeading = "%nCommands:%n",
        description = {"Checks, describes and measures the VectorJCE provider on this JVM, and encrypts raw disk "
                + "images as dm-crypt's plain mode. The Vector API kernels need Java 25+ with "
                + "--add-modules jdk.incubator.vector (bin/vectorjce adds it)."},
        footerHeading = "%n", footer = {"Each command's options: vectorjce help COMMAND (or vectorjce COMMAND --help)."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:Success (no command: this help).", "2:A wrong command or option (one line on standard error)."})
public final class Main implements Callable<Integer> {
    private final PrintStream out, err;

    @Spec
    CommandSpec spec;

    private Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        int status = run(System.out, System.err, args);
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command line {@code args} with these streams; returns the exit status. */
    static int run(PrintStream out, PrintStream err, String... args) {
        PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter e = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        CommandLine cl = new CommandLine(new Main(out, err));
        for (Object command : List.of(new Selftest(out), new Info(out), new Speed.Command(out, err),
                new LeakCheck.Command(out, err), new ImageCommand.Command(out, err), new CommandLine.HelpCommand())) {
            cl.addSubcommand(command);
        }
        cl.setOut(o).setErr(e).setParameterExceptionHandler(Main::onParameterError);
        try {
            return cl.execute(args);
        } finally {
            o.flush();
            e.flush();
            out.flush();
            err.flush();
        }
    }

    /** {@code vectorjce} without a command: the help, as before picocli. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /**
     * A command line picocli could not parse (unknown option or command, missing or malformed
     * value): its message as one line, with a pointer to the command's help; status 2.
     */
    static int onParameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        String message = e.getMessage() == null ? "bad command line" : e.getMessage().lines().findFirst().orElse("");
        if (e instanceof CommandLine.UnmatchedArgumentException u && cl.getParent() == null
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            message = "unknown command '" + u.getUnmatched().get(0) + "'";
        }
        cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + message + " (see '"
                + cl.getCommandSpec().qualifiedName() + " --help')");
        cl.getErr().flush();
        return 2;
    }

    /** {@code --version}: the tool's version (a filtered resource), the provider's and the JVM. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"vectorjce (VectorJCE tool) " + p.getProperty("version", "(unknown version)")
                    + ", provider " + VectorJceProvider.NAME + " " + VectorJceProvider.VERSION,
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }

    @Command(name = "selftest", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = {"One public known answer per transformation and per kernel available here, both "
                    + "directions; one line each, then the count."},
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {"0:Every known answer passed.", "1:A known answer failed.", "2:A wrong option."})
    static final class Selftest implements Callable<Integer> {
        private final PrintStream out;

        Selftest(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() throws IOException {
            return selftest(out);
        }
    }

    @Command(name = "info", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = {"Provider version, JVM, vector module and width, CPU features, compiler, the "
                    + "provider's settings, and the kernel each algorithm gets (with the reason for each "
                    + "kernel that declines)."},
            exitCodeListHeading = "%nExit status:%n", exitCodeList = {"0:Always, but for a wrong option (2)."})
    static final class Info implements Callable<Integer> {
        private final PrintStream out;

        Info(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() {
            return info(out);
        }
    }

    // ------------------------------------------------------------------ selftest

    /** A known-answer record from {@code selftest-vectors.txt}. */
    record Kat(String transformation, String source, byte[] key, byte[] iv, byte[] pt, byte[] ct) {
        String algorithm() {
            return transformation.substring(0, transformation.indexOf('/'));
        }
    }

    static List<Kat> loadKats() throws IOException {
        List<Kat> kats = new ArrayList<>();
        HexFormat hex = HexFormat.of();
        try (InputStream in = Main.class.getResourceAsStream("selftest-vectors.txt")) {
            if (in == null) {
                throw new IOException("selftest-vectors.txt missing from the jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, String> rec = new LinkedHashMap<>();
            for (String line = r.readLine(); ; line = r.readLine()) {
                if (line == null || line.isBlank()) {
                    if (rec.containsKey("T")) {
                        kats.add(new Kat(rec.get("T"), rec.get("SOURCE"), hex.parseHex(rec.get("KEY")),
                                rec.containsKey("IV") ? hex.parseHex(rec.get("IV")) : null,
                                hex.parseHex(rec.get("PT")), hex.parseHex(rec.get("CT"))));
                    }
                    rec.clear();
                    if (line == null) {
                        break;
                    }
                    continue;
                }
                if (line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                rec.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return kats;
    }

    static int selftest(PrintStream out) throws IOException {
        VectorJceProvider base = new VectorJceProvider();
        int failures = 0, runs = 0;
        for (Kat k : loadKats()) {
            {
                for (String kernel : VectorJce.availableKernels(k.algorithm())) {
                    VectorJceProvider provider = (VectorJceProvider) base.configure(
                            "kernel." + k.algorithm().toLowerCase(java.util.Locale.ROOT) + "=" + kernel);
                    String verdict;
                    try {
                        boolean enc = Arrays.equals(run(provider, k, Cipher.ENCRYPT_MODE, k.pt()), k.ct());
                        boolean dec = Arrays.equals(run(provider, k, Cipher.DECRYPT_MODE, k.ct()), k.pt());
                        verdict = enc && dec ? "ok  " : "FAIL" + (enc ? "" : " encrypt") + (dec ? "" : " decrypt");
                    } catch (Exception e) {
                        verdict = "FAIL " + e;
                    }
                    runs++;
                    if (!verdict.startsWith("ok")) {
                        failures++;
                    }
                    out.printf("%-4s  %-26s %-22s %s%n", verdict, k.transformation(), kernel, k.source());
                }
            }
        }
        out.printf("%d passed, %d failed%n", runs - failures, failures);
        return failures == 0 ? 0 : 1;
    }

    private static byte[] run(VectorJceProvider p, Kat k, int opmode, byte[] input) throws Exception {
        Cipher c = Cipher.getInstance(k.transformation(), p);
        SecretKeySpec key = new SecretKeySpec(k.key(), k.algorithm());
        if (k.iv() == null) {
            c.init(opmode, key);
        } else {
            c.init(opmode, key, new IvParameterSpec(k.iv()));
        }
        return c.doFinal(input);
    }

    // ------------------------------------------------------------------ info

    static int info(PrintStream out) {
        out.println("VectorJCE " + VectorJceProvider.VERSION);
        out.println("JVM:             " + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version")
                + " (" + System.getProperty("java.vm.info") + ")");
        Map<String, String> facts = VectorJce.platformFacts();
        out.println("CPU:             " + facts.get("cpu") + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        out.println("vector module:   " + VectorJce.vectorModuleStatus());
        out.println("vector width:    " + facts.get("vector width"));
        out.println("CPU features:    " + facts.get("cpu features"));
        out.println("JIT compiler:    " + facts.get("jit"));
        VectorJceProvider provider = new VectorJceProvider();
        String settings = provider.settings().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(" "));
        out.println("settings:        " + settings + "  (defaults from -Dvectorjce.KEY=VALUE, or"
                + " 'security.provider.N=VectorJCE KEY=VALUE ...')");
        out.println("mode arithmetic: " + provider.arithmetic() + " (XOR passes and XTS/LRW tweaks)");
        boolean ct = provider.isConstantTime();
        out.println("constant-time:   policy " + (ct ? "on" : "off") + " (constantTime=true);"
                + " [ct] marks the kernels it admits");
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            String chosen;
            try {
                chosen = provider.kernelFor(alg);
                chosen += VectorJce.isConstantTime(alg, chosen) ? "  [ct]" : "  (not constant-time)";
            } catch (RuntimeException e) {
                chosen = "error: " + e.getMessage();
            }
            String forced = provider.settings().get("kernel." + alg.toLowerCase(java.util.Locale.ROOT));
            out.println(alg + " kernel:" + " ".repeat(Math.max(1, 10 - alg.length())) + chosen
                    + (forced.isEmpty() ? "" : "  (set by kernel." + alg.toLowerCase(java.util.Locale.ROOT) + ")"));
            for (Map.Entry<String, String> e : VectorJce.kernelStatus(alg).entrySet()) {
                out.printf("    %-24s %-5s %s%n", e.getKey(), VectorJce.isConstantTime(alg, e.getKey()) ? "[ct]" : "",
                        e.getValue() == null ? "available" : "declined: " + e.getValue());
            }
            if (alg.equals("Twofish")) {
                String path = provider.twofishBatch();
                if (path != null) {
                    out.println("    twofish-vec512-16way batch (twofish16.path=auto|split|fused): " + path);
                }
            }
        }
        return 0;
    }
}
