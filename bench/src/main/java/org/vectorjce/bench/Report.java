package org.vectorjce.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns JMH JSON results of this suite ({@code -rf json -rff result.json}) into
 * <ol>
 *   <li>tcrypt-style lines ({@code modprobe tcrypt mode=200}): one per provider × algorithm × mode ×
 *       key size × direction × size, with cycles per operation at {@code --ghz} (default: the
 *       first "cpu MHz" of /proc/cpuinfo), cycles per byte and MB/s (10^6 bytes per second). As in
 *       tcrypt, the key size is the whole key: XTS-AES-128 is a "256 bit key", LRW-AES-128 a
 *       "256 bit key" (128 + 128-bit tweak key);</li>
 *   <li>ratio tables in the layout of the Linux commit messages that introduced the x86 glue
 *       ciphers (rows = sizes, columns = mode-direction, cells = ratio of operations per second,
 *       two decimals, &gt; 1 = the first is faster): each measured VectorJCE kernel against the
 *       algorithm's scalar {@code -table} kernel (or the pairs given with {@code --vs A:B}), and
 *       VectorJCE's default kernel against each other provider measured.</li>
 * </ol>
 *
 * <pre>java -cp bench/target/benchmarks.jar org.vectorjce.bench.Report [--ghz 3.0] [--vs A:B]... result.json...</pre>
 */
public final class Report {
    private Report() {
    }

    static final List<String> PROVIDERS = List.of("VectorJCE", "SunJCE", "BC", "ACCP");
    static final List<String> MODES = List.of("ECB", "CBC", "CTR", "LRW", "XTS");
    static final List<String> DIRECTIONS = List.of("ENCRYPT", "DECRYPT");

    /** One measured combination. {@code kernel} is the kernel's name ("-" for other providers). */
    record Row(String op, String provider, String algorithm, String kernel, boolean isDefault, String mode,
               String direction, int keyBits, int size, double ops, double error) {
        int totalKeyBits() {
            return switch (mode) {
                case "XTS" -> 2 * keyBits;
                case "LRW" -> keyBits + 128;
                default -> keyBits;
            };
        }

        String column() {
            return mode.toLowerCase(Locale.ROOT) + (direction.equals("ENCRYPT") ? "-enc" : "-dec");
        }
    }

    public static void main(String[] args) throws IOException {
        double ghz = Double.NaN;
        List<String[]> pairs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--ghz" -> ghz = Double.parseDouble(args[++i]);
                case "--vs" -> pairs.add(args[++i].split(":", 2));
                case "-h", "--help" -> {
                    System.out.println("usage: java -cp benchmarks.jar org.vectorjce.bench.Report "
                            + "[--ghz GHZ] [--vs KERNEL_A:KERNEL_B]... result.json...");
                    return;
                }
                default -> files.add(Path.of(args[i]));
            }
        }
        if (files.isEmpty()) {
            System.err.println("usage: Report [--ghz GHZ] [--vs KERNEL_A:KERNEL_B]... result.json...");
            System.exit(2);
        }
        String ghzSource = "--ghz";
        if (Double.isNaN(ghz)) {
            ghz = cpuGhz();
            ghzSource = Double.isNaN(ghz) ? "unknown" : "/proc/cpuinfo \"cpu MHz\" where Report ran";
        }
        List<Row> rows = new ArrayList<>();
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Path f : files) {
            for (Object o : (List<?>) Json.parse(Files.readString(f, StandardCharsets.UTF_8))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> e = (Map<String, Object>) o;
                entries.add(e);
                Row r = row(e);
                if (r != null) {
                    rows.add(r);
                }
            }
        }
        print(System.out, entries, rows, ghz, ghzSource, pairs);
    }

    static Row row(Map<String, Object> e) {
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) e.get("params");
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) e.get("primaryMetric");
        if (p == null || m == null || !"thrpt".equals(e.get("mode")) || !p.containsKey("provider")) {
            return null;
        }
        String unit = String.valueOf(m.get("scoreUnit"));
        double scale = switch (unit) {
            case "ops/s" -> 1;
            case "ops/ms" -> 1e3;
            case "ops/us" -> 1e6;
            case "ops/ns" -> 1e9;
            default -> Double.NaN;
        };
        // VectorJCE without a kernel parameter (XtsSectorBench) runs its default kernel
        String kernel = String.valueOf(p.getOrDefault("kernel", "VectorJCE".equals(p.get("provider")) ? "default" : "-"));
        boolean isDefault = kernel.startsWith("default");
        if (kernel.startsWith("default:")) {
            kernel = kernel.substring("default:".length());
        }
        String bench = String.valueOf(e.get("benchmark"));
        return new Row(bench.substring(bench.lastIndexOf('.') + 1), (String) p.get("provider"), (String) p.get("algorithm"), kernel, isDefault,
                (String) p.get("mode"), (String) p.get("direction"),
                Integer.parseInt((String) p.get("keyBits")), Integer.parseInt((String) p.get("size")),
                num(m.get("score")) * scale, num(m.get("scoreError")) * scale);
    }

    /** A JSON number without a ".0" when it is whole. */
    static String plain(Object o) {
        return o instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : String.valueOf(o);
    }

    static double num(Object o) {
        return o instanceof Double d ? d : Double.NaN; // JMH writes "NaN" as a string for 1 iteration
    }

    static void print(PrintStream out, List<Map<String, Object>> entries, List<Row> rows, double ghz,
                      String ghzSource, List<String[]> pairs) {
        if (!entries.isEmpty()) {
            Map<String, Object> e = entries.get(0);
            out.printf("JMH %s, %s %s (%s), forks %s, warm-up %s x %s, measurement %s x %s%n",
                    e.get("jmhVersion"), e.get("vmName"), e.get("vmVersion"), e.get("jdkVersion"),
                    plain(e.get("forks")), plain(e.get("warmupIterations")), e.get("warmupTime"),
                    plain(e.get("measurementIterations")), e.get("measurementTime"));
            out.println("JVM options: " + e.get("jvmArgs"));
        }
        out.printf(Locale.ROOT, "cycles at %.3f GHz (%s); MB/s = 10^6 bytes/s; ± = JMH 99.9%% error "
                + "of the score, in %% of it%n%n", ghz, ghzSource);
        tcrypt(out, rows, ghz);
        kernelRatios(out, rows, pairs);
        providerRatios(out, rows);
    }

    // ------------------------------------------------------------------------------------- tcrypt

    static final Comparator<Row> ORDER = Comparator
            .comparing(Row::op) // doFinal before initDoFinal
            .thenComparingInt(r -> index(PROVIDERS, r.provider()))
            .thenComparing(Row::algorithm)
            .thenComparingInt(r -> index(MODES, r.mode()))
            .thenComparingInt(r -> index(DIRECTIONS, r.direction()))
            .thenComparing(r -> !r.isDefault())
            .thenComparing(Row::kernel)
            .thenComparingInt(Row::keyBits)
            .thenComparingInt(Row::size);

    static int index(List<String> l, String s) {
        int i = l.indexOf(s);
        return i < 0 ? l.size() : i;
    }

    static void tcrypt(PrintStream out, List<Row> rows, double ghz) {
        out.println("== tcrypt-style: one operation = one doFinal of the given size (unless said otherwise)");
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(ORDER);
        String group = null;
        int test = 0;
        for (Row r : sorted) {
            String g = "testing speed of " + r.provider() + " " + r.mode().toLowerCase(Locale.ROOT)
                    + "(" + r.algorithm().toLowerCase(Locale.ROOT) + ")"
                    + (r.kernel().equals("-") ? "" : r.kernel().equals("default") ? " (default kernel)"
                            : " (" + r.kernel() + (r.isDefault() ? ", default" : ", forced") + ")")
                    + (r.direction().equals("ENCRYPT") ? " encryption" : " decryption")
                    + (r.op().equals("doFinal") ? "" : " (one operation = init with the next tweak + doFinal)");
            if (!g.equals(group)) {
                out.println();
                out.println(g);
                group = g;
                test = 0;
            }
            double cycles = ghz * 1e9 / r.ops();
            out.printf(Locale.ROOT, "test %d (%d bit key, %d byte blocks): 1 operation in %.0f cycles (%d bytes)"
                    + "  %.2f cycles/byte  %.1f MB/s%s%n",
                    test++, r.totalKeyBits(), r.size(), cycles, r.size(), cycles / r.size(),
                    r.ops() * r.size() / 1e6, Double.isNaN(r.error()) ? ""
                            : String.format(Locale.ROOT, "  ±%.1f%%", 100 * r.error() / r.ops()));
        }
        out.println();
    }

    // ------------------------------------------------------------------------------------- ratios

    /** Key for looking up a measurement. */
    record Cell(String algorithm, String mode, String direction, int keyBits, int size) {
        static Cell of(Row r) {
            return new Cell(r.algorithm(), r.mode(), r.direction(), r.keyBits(), r.size());
        }
    }

    /** Rows of one VectorJCE kernel (forced preferred; else measured as default) or one other provider. */
    static Map<Cell, Row> series(List<Row> rows, String op, String provider, String kernel, Boolean defaultOnly) {
        Map<Cell, Row> m = new LinkedHashMap<>();
        for (Row r : rows) {
            if (!r.op().equals(op) || !r.provider().equals(provider)) {
                continue;
            }
            if (defaultOnly != null && defaultOnly && !r.isDefault()) {
                continue;
            }
            if (kernel != null && !r.kernel().equals(kernel)) {
                continue;
            }
            Row old = m.get(Cell.of(r));
            if (old == null || (old.isDefault() && !r.isDefault())) {
                m.put(Cell.of(r), r);
            }
        }
        return m;
    }

    static void kernelRatios(PrintStream out, List<Row> rows, List<String[]> pairs) {
        List<String[]> todo = new ArrayList<>(pairs);
        if (todo.isEmpty()) {
            Set<String> kernels = new LinkedHashSet<>();
            rows.stream().filter(r -> r.provider().equals("VectorJCE") && r.op().equals("doFinal")).sorted(ORDER)
                    .forEach(r -> kernels.add(r.algorithm() + "\0" + r.kernel()));
            for (String ak : kernels) {
                String alg = ak.substring(0, ak.indexOf('\0'));
                String k = ak.substring(ak.indexOf('\0') + 1);
                String base = alg.toLowerCase(Locale.ROOT) + "-table";
                if (!k.equals(base)) {
                    todo.add(new String[] {k, base});
                }
            }
        }
        for (String[] p : todo) {
            Map<Cell, Row> a = series(rows, "doFinal", "VectorJCE", p[0], null);
            Map<Cell, Row> b = series(rows, "doFinal", "VectorJCE", p[1], null);
            ratioTables(out, p[0] + " vs. " + p[1], a, b);
        }
    }

    static void providerRatios(PrintStream out, List<Row> rows) {
        for (String op : List.of("doFinal", "initDoFinal")) {
            Map<Cell, Row> vj = series(rows, op, "VectorJCE", null, true);
            for (String other : PROVIDERS) {
                if (other.equals("VectorJCE")) {
                    continue;
                }
                Map<Cell, Row> o = series(rows, op, other, null, null);
                if (!o.isEmpty()) {
                    ratioTables(out, "VectorJCE (default kernel) vs. " + other
                            + (op.equals("doFinal") ? "" : ", init + doFinal per operation"), vj, o);
                }
            }
        }
    }

    /** One table per algorithm × key size that has at least one cell with both sides measured. */
    static void ratioTables(PrintStream out, String title, Map<Cell, Row> a, Map<Cell, Row> b) {
        Set<String> algs = new TreeSet<>();
        Set<Integer> keys = new TreeSet<>();
        for (Cell c : a.keySet()) {
            if (b.containsKey(c)) {
                algs.add(c.algorithm());
                keys.add(c.keyBits());
            }
        }
        for (String alg : algs) {
            for (int key : keys) {
                List<String> cols = new ArrayList<>();
                Set<Integer> sizes = new TreeSet<>();
                Set<String> kernelsA = new TreeSet<>();
                for (String mode : MODES) {
                    for (String dir : DIRECTIONS) {
                        boolean any = false;
                        for (Cell c : a.keySet()) {
                            if (c.algorithm().equals(alg) && c.keyBits() == key && c.mode().equals(mode)
                                    && c.direction().equals(dir) && b.containsKey(c)) {
                                any = true;
                                sizes.add(c.size());
                                kernelsA.add(a.get(c).kernel());
                            }
                        }
                        if (any) {
                            cols.add(mode + "/" + dir);
                        }
                    }
                }
                if (cols.isEmpty()) {
                    continue;
                }
                kernelsA.remove("-");
                kernelsA.remove("default");
                out.printf("== %s: %s, %d-bit key (lrw: %d-bit, xts: %d-bit)%s%n", title, alg, key, key + 128,
                        2 * key, title.contains("default") && !kernelsA.isEmpty()
                                ? "; VectorJCE default kernel " + String.join(", ", kernelsA) : "");
                StringBuilder h = new StringBuilder(String.format("%-8s", "size"));
                for (String c : cols) {
                    String[] md = c.split("/");
                    h.append(String.format("%-9s", md[0].toLowerCase(Locale.ROOT)
                            + (md[1].equals("ENCRYPT") ? "-enc" : "-dec")));
                }
                out.println(h.toString().stripTrailing());
                for (int size : sizes) {
                    StringBuilder line = new StringBuilder(String.format("%-8s", size + "B"));
                    for (String c : cols) {
                        String[] md = c.split("/");
                        Cell cell = new Cell(alg, md[0], md[1], key, size);
                        Row ra = a.get(cell);
                        Row rb = b.get(cell);
                        line.append(String.format(Locale.ROOT, "%-9s", ra == null || rb == null ? "-"
                                : String.format(Locale.ROOT, "%.2fx", ra.ops() / rb.ops())));
                    }
                    out.println(line.toString().stripTrailing());
                }
                out.println();
            }
        }
    }

    /** The first "cpu MHz" of /proc/cpuinfo, in GHz, or NaN. */
    static double cpuGhz() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("cpu MHz")) {
                    return Double.parseDouble(l.substring(l.indexOf(':') + 1).trim()) / 1000;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return Double.NaN;
    }

    // ------------------------------------------------------------------------------------- JSON

    /** Just enough JSON (RFC 8259) for JMH's result files: objects, arrays, strings, numbers, literals. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.ws();
            if (j.i != text.length()) {
                throw j.error("trailing text");
            }
            return v;
        }

        private Object value() {
            ws();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (peek(']')) {
                        return l;
                    }
                    do {
                        l.add(value());
                        ws();
                    } while (peek(','));
                    expect(']');
                    return l;
                }
                case '"':
                    return string();
                default:
                    if (s.startsWith("true", i)) {
                        i += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", i)) {
                        i += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", i)) {
                        i += 4;
                        return null;
                    }
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    if (start == i) {
                        throw error("unexpected '" + c + "'");
                    }
                    return Double.parseDouble(s.substring(start, i));
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at offset " + i);
        }
    }
}
