package org.vectorjce.tool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.Platform;

/**
 * The command-line tool in the provider jar: {@code java [--add-modules jdk.incubator.vector] -jar
 * vectorjce.jar <command>}. No dependencies beyond the JDK.
 */
public final class Main {
    private Main() {
    }

    private static final String USAGE = """
            usage: java [--add-modules jdk.incubator.vector] -jar vectorjce.jar <command> [options]

            commands:
              selftest   one public known answer per transformation and per kernel available
                         here, both directions; one line each; exit status 1 on any failure
              info       provider version, JVM, vector module and width, compiler, and the
                         kernel each algorithm gets (with the reason for each kernel that declines)
              speed      MB/s of every algorithm x mode x key size (see 'speed --help')
              leakcheck  dudect-style timing-leak check of every kernel: fixed vs random key and
                         data, Welch's t; proves first that it sees a planted leak (see
                         'leakcheck --help'); exit status 3 when the machine is too noisy
              image      encrypt|decrypt a raw disk image sector by sector, as dm-crypt's plain
                         mode (cryptsetup's option names; see 'image --help')
              help       this text
            """;

    public static void main(String[] args) throws Exception {
        String cmd = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        int status = switch (cmd) {
            case "selftest" -> selftest(System.out);
            case "info" -> info(System.out);
            case "speed" -> Speed.run(rest, System.out, System.err);
            case "leakcheck" -> LeakCheck.run(rest, System.out, System.err);
            case "image" -> ImageCommand.run(rest, System.out, System.err);
            case "help", "-h", "--help" -> {
                System.out.print(USAGE);
                yield 0;
            }
            default -> {
                System.err.println("unknown command '" + cmd + "'");
                System.err.print(USAGE);
                yield 2;
            }
        };
        System.exit(status);
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
        out.println("CPU:             " + Platform.cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        out.println("vector module:   " + VectorJce.vectorModuleStatus());
        out.println("vector width:    " + Platform.vectorWidthDescription());
        out.println("CPU features:    " + Platform.cpuFactsDescription());
        out.println("JIT compiler:    " + Platform.compilerDescription());
        VectorJceProvider provider = new VectorJceProvider();
        String settings = provider.settings().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(" "));
        out.println("settings:        " + settings + "  (defaults from -Dvectorjce.KEY=VALUE, or"
                + " 'security.provider.N=VectorJCE KEY=VALUE ...')");
        out.println("mode arithmetic: " + provider.arithmetic() + " (XOR passes and XTS/LRW tweaks)");
        boolean ct = provider.isConstantTime();
        out.println("constant-time:   policy " + (ct ? "on" : "off") + " (constantTime=true);"
                + " [ct] marks the kernels it admits");
        for (String alg : new String[] {"AES", "Twofish"}) {
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
