package org.vectorjce.tool;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import javax.crypto.Cipher;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.tool.LeakSampler.Budget;
import org.vectorjce.tool.LeakSampler.Result;
import org.vectorjce.tool.LeakSampler.Target;
import org.vectorjce.tool.LeakTargets.DataTarget;
import org.vectorjce.tool.LeakTargets.KeySetupTarget;
import org.vectorjce.tool.LeakTargets.KeyTarget;
import org.vectorjce.tool.LeakTargets.PlantedLeak;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code leakcheck}: a dudect-style timing-leak check of the provider's kernels (Reparaz, Balasch,
 * Verbauwhede, "Dude, is my code constant time?", DATE 2017), driven through the public JCA API
 * only ({@link Cipher} on a {@link VectorJceProvider}, each kernel set by a provider configured with
 * {@code kernel.aes=NAME}, {@code kernel.twofish=NAME} or {@code kernel.serpent=NAME}).
 *
 * <p><b>Method.</b> Per kernel and secret class (a "cell"), samples of two input classes, fixed
 * and random, are taken in random order (a coin flip per sample). Each sample is one
 * {@link System#nanoTime} interval around a batch of calls, the batch sized so that a sample takes
 * at least {@value LeakSampler#TARGET_SAMPLE_NANOS} ns (nanoTime's resolution and cost are a fraction of a
 * percent of that). Inputs are prepared before the clock starts; both classes write the same
 * buffers, so only the secret differs. The statistics are in {@link LeakStats}: Welch's t on the raw
 * samples and on samples cropped at percentiles of a first calibration batch; the largest |t| is
 * reported, leak evidence above 4.5.
 *
 * <p><b>What is timed per secret class</b>:
 * <ul>
 *   <li>{@code data}: one cipher keyed once with a random key; each call is one {@code doFinal}
 *       encrypting a message of {@code --blocks} blocks; fixed class: the all-zero message;
 *       random class: fresh random messages. Finds data-dependent lookups and branches in the
 *       block function (and, with {@code --blocks} below a vector kernel's width, in its scalar
 *       fallback).</li>
 *   <li>{@code key}: the block function under different keys, with the key schedule kept out of
 *       the clock: before each sample one cipher is re-keyed, untimed, with the fixed key (all
 *       zero) or a fresh random key, each time via a third "reset" key so that both classes get
 *       a freshly built schedule; the sample times {@code batch} encryptions of one fixed random
 *       message. The same cipher object serves both classes. Finds key-dependent lookups in the
 *       rounds (Twofish's key-dependent S-box tables, round-key bytes indexing anything).</li>
 *   <li>{@code key-setup}: {@code Cipher.init} itself, i.e. the key schedule plus the provider's
 *       fixed per-init work; fixed key vs random keys. The provider keeps the schedule when a
 *       cipher is re-initialised with the key it already has, so every timed init goes to a
 *       cipher last keyed (untimed) with the reset key: both classes build a full schedule.</li>
 * </ul>
 * The fixed key is all zero (XTS: the last byte 1, so that its halves differ), the all-zero
 * input, as in dudect's examples: an extreme value is the likeliest to take a different path.
 *
 * <p><b>JIT.</b> Before a cell's samples count, its exact sampling loop runs as warm-up until the
 * JIT's total compilation time (java.management {@code CompilationMXBean.getTotalCompilationTime},
 * milliseconds) has not grown for {@code 300 ms}, between a minimum and a maximum time. Growth
 * during the counted samples (a compilation, or a recompilation after a deoptimisation) is
 * reported next to the cell's verdict, as are garbage collections. Where java.management is
 * absent the check says so and cannot report JIT activity.
 *
 * <p><b>Planted leak.</b> Before any kernel, the same harness measures {@link PlantedLeak}, a
 * reference function with one secret-indexed load per call from a 32 MiB table. If it is not
 * flagged, the machine is too noisy for a verdict and the check exits with status 3.
 *
 * <p>Exit status: 0 the run completed and the planted leak was seen (whatever the kernels'
 * verdicts: this is a measuring tool, not a gate), 3 the planted leak was not seen, 2 bad
 * options, 1 an error (listed in {@code leakcheck --help}).
 *
 * <p>Java 17 language level (the tool is to be compiled with {@code --release 17}).
 */
final class LeakCheck {
    private LeakCheck() {
    }

    /** The planted check stops early once |t| passes this (well above 4.5). */
    static final double PLANTED_STOP = 10;

    /** The secret a cell varies. */
    enum SecretClass {
        DATA("data"), KEY("key"), KEY_SETUP("key-setup");

        final String label;

        SecretClass(String label) {
            this.label = label;
        }

        static SecretClass parse(String s) {
            for (SecretClass c : values()) {
                if (c.label.equalsIgnoreCase(s)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown class '" + s + "' (key-setup, key, data)");
        }
    }

    /** Parsed options. */
    static final class Options {
        List<String> kernels = new ArrayList<>();
        String transformation;
        List<SecretClass> classes = new ArrayList<>(List.of(SecretClass.DATA, SecretClass.KEY, SecretClass.KEY_SETUP));
        double seconds = Double.NaN;
        long samples = Long.MAX_VALUE;
        int blocks = 32;
        int keyBits = 128;
        int batch;
        Long seed;
        boolean quick;
        boolean verbose;
        boolean noControl;
    }

    // ------------------------------------------------------------------ command

    @picocli.CommandLine.Command(name = "leakcheck", mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class, sortOptions = false,
            description = {"Dudect-style timing-leak check of every kernel (fixed vs random inputs, Welch's t, "
                    + "cropped tests, |t| > 4.5 is leak evidence). First measures a planted leak; if that is not "
                    + "flagged the machine is too noisy for a verdict (exit 3)."},
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {"0:Completed, and the planted leak was seen (whatever the kernels' verdicts).",
                "1:An error.", "2:A wrong option or value.", "3:Too noisy: the planted leak was not flagged."})
    static final class Command implements java.util.concurrent.Callable<Integer> {
        private final PrintStream out, err;

        @Spec
        CommandSpec spec;

        @Option(names = "--quick", description = "Every kernel available here, classes data, key, key-setup, "
                + "short budgets: under two minutes on 2 cores.")
        boolean quick;
        @Option(names = "--kernel", paramLabel = "NAME", split = ",",
                description = "Kernels to check, comma-separated (default: all available; see 'vectorjce info').")
        List<String> kernels = new ArrayList<>();
        @Option(names = "--transformation", paramLabel = "T",
                description = "E.g. AES/XTS/NoPadding (default ALG/ECB/NoPadding per kernel).")
        String transformation;
        @Option(names = "--class", paramLabel = "C", split = ",", converter = SecretClassConverter.class,
                description = "Secret classes, comma-separated: data (plaintext), key (block function under "
                        + "pre-keyed ciphers), key-setup (Cipher.init); default all three.")
        List<SecretClass> classes = new ArrayList<>();
        @Option(names = "--seconds", paramLabel = "S",
                description = "Sampling time per kernel x class (default 10, --quick ~3).")
        Double seconds;
        @Option(names = "--samples", paramLabel = "N", description = "Stop a cell after this many samples "
                + "(default: time only).")
        Long samples;
        @Option(names = "--blocks", paramLabel = "N", description = "16-byte blocks per call (default 32, at most 65536).")
        Integer blocks;
        @Option(names = "--key-bits", paramLabel = "B", description = "128, 192 or 256 (default 128; XTS doubles, "
                + "LRW adds 128).")
        Integer keyBits;
        @Option(names = "--batch", paramLabel = "N", description = "Calls per sample (default: calibrated to "
                + ">= 10 us a sample).")
        Integer batch;
        @Option(names = "--seed", paramLabel = "S", description = "Seed of the class order and random inputs "
                + "(default: random).")
        Long seed;
        @Option(names = {"--verbose", "-v"}, description = "Progress lines as the sample count doubles.")
        boolean verbose;
        @Option(names = "--no-control", description = "Skip the negative control (the planted function without "
                + "its leak, which should show no evidence).")
        boolean noControl;

        Command(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() {
            Options o = options();
            try {
                return check(o, out, err);
            } catch (IllegalArgumentException e) {
                err.println("leakcheck: " + e.getMessage());
                return 2;
            } catch (Exception e) {
                err.println("leakcheck: error: " + e);
                e.printStackTrace(err);
                return 1;
            }
        }

        /** The options checked: a wrong one is a picocli ParameterException (one line, exit 2). */
        Options options() {
            Options o = new Options();
            o.quick = quick;
            o.verbose = verbose;
            o.noControl = noControl;
            o.kernels.addAll(kernels);
            o.transformation = transformation;
            if (!classes.isEmpty()) {
                o.classes.clear();
                for (SecretClass c : classes) {
                    if (!o.classes.contains(c)) {
                        o.classes.add(c);
                    }
                }
            }
            if (seconds != null) {
                o.seconds = positive(seconds, "--seconds");
            }
            if (samples != null) {
                o.samples = (long) positive(samples, "--samples");
            }
            if (blocks != null) {
                o.blocks = (int) positive(blocks, "--blocks");
            }
            if (batch != null) {
                o.batch = (int) positive(batch, "--batch");
            }
            if (keyBits != null) {
                o.keyBits = keyBits;
                if (o.keyBits != 128 && o.keyBits != 192 && o.keyBits != 256) {
                    throw bad("--key-bits must be 128, 192 or 256");
                }
            }
            o.seed = seed;
            if (o.blocks > 65536) {
                throw bad("--blocks at most 65536");
            }
            if (o.transformation != null) {
                String[] p = o.transformation.split("/");
                if (p.length != 3 || !(p[0].equals("AES") || p[0].equals("Twofish") || p[0].equals("Serpent"))) {
                    throw bad("--transformation must be AES/MODE/PADDING, Twofish/MODE/PADDING or Serpent/MODE/PADDING");
                }
            }
            return o;
        }

        private double positive(double v, String opt) {
            if (!(v > 0)) {
                throw bad(opt + " must be positive");
            }
            return v;
        }

        private CommandLine.ParameterException bad(String message) {
            return new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    /** {@code --class} values: data, key, key-setup. */
    static final class SecretClassConverter implements CommandLine.ITypeConverter<SecretClass> {
        @Override
        public SecretClass convert(String value) {
            try {
                return SecretClass.parse(value.trim());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The command line {@code args} after {@code leakcheck}, run; the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String[] all = new String[args.length + 1];
        all[0] = "leakcheck";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(out, err, all);
    }

    /** A kernel to check and the transformation to check it with. */
    record Job(String algorithm, String kernel, String transformation) {
    }

    static List<Job> jobs(Options o) {
        List<Job> jobs = new ArrayList<>();
        String talg = o.transformation == null ? null : o.transformation.substring(0, o.transformation.indexOf('/'));
        if (o.kernels.isEmpty()) {
            for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
                if (talg != null && !talg.equals(alg)) {
                    continue;
                }
                for (String k : VectorJce.availableKernels(alg)) {
                    jobs.add(new Job(alg, k, o.transformation != null ? o.transformation : alg + "/ECB/NoPadding"));
                }
            }
            return jobs;
        }
        for (String raw : o.kernels) {
            String k = raw.trim();
            String alg = null;
            String declined = null;
            for (String a : new String[] {"AES", "Twofish", "Serpent"}) {
                Map<String, String> status = VectorJce.kernelStatus(a);
                if (status.containsKey(k)) {
                    alg = a;
                    declined = status.get(k);
                }
            }
            if (alg == null) {
                throw new IllegalArgumentException("unknown kernel '" + k + "'; available: "
                        + VectorJce.availableKernels("AES") + " " + VectorJce.availableKernels("Twofish") + " "
                        + VectorJce.availableKernels("Serpent")
                        + ("present".equals(VectorJce.vectorModuleStatus()) ? ""
                                : " (vector module " + VectorJce.vectorModuleStatus() + ")"));
            }
            if (declined != null) {
                throw new IllegalArgumentException("kernel '" + k + "' is not available here: " + declined);
            }
            if (talg != null && !talg.equals(alg)) {
                throw new IllegalArgumentException("kernel '" + k + "' is an " + alg + " kernel, the transformation is "
                        + o.transformation);
            }
            jobs.add(new Job(alg, k, o.transformation != null ? o.transformation : alg + "/ECB/NoPadding"));
        }
        return jobs;
    }

    private static int check(Options o, PrintStream out, PrintStream err) throws Exception {
        long start = System.nanoTime();
        List<Job> jobs = jobs(o);
        // Fail on a bad transformation before measuring anything.
        for (Job j : jobs) {
            Cipher.getInstance(j.transformation(), new VectorJceProvider());
        }
        long seed = o.seed != null ? o.seed : new SecureRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        int cells = jobs.size() * o.classes.size();
        double seconds = Double.isNaN(o.seconds) ? (o.samples != Long.MAX_VALUE ? Double.POSITIVE_INFINITY
                : o.quick ? 3.0 : 10.0) : o.seconds;
        out.println("# VectorJCE " + VectorJceProvider.VERSION + " leakcheck (dudect: fixed vs random, Welch's t, "
                + LeakStats.CROPS + " crops, |t| > " + LeakStats.THRESHOLD + " is leak evidence)");
        out.println("# JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version")
                + "; " + Runtime.getRuntime().availableProcessors() + " CPUs; vector module: "
                + VectorJce.vectorModuleStatus());
        out.println("# JIT monitor: " + JitMonitor.description() + "; seed " + seed + (o.quick ? "; quick" : ""));
        List<String> ts = new ArrayList<>();
        for (Job j : jobs) {
            if (!ts.contains(j.transformation())) {
                ts.add(j.transformation());
            }
        }
        out.println("# " + String.join(", ", ts) + "; " + o.keyBits + "-bit keys; data and key: " + o.blocks
                + " blocks per call; classes " + classNames(o.classes) + "; "
                + (seconds == Double.POSITIVE_INFINITY ? "" : String.format(Locale.ROOT, "%.1f s", seconds))
                + (o.samples == Long.MAX_VALUE ? "" : (seconds == Double.POSITIVE_INFINITY ? "" : " or ")
                        + o.samples + " samples") + " per cell" + (o.quick ? " at most" : ""));

        out.println(header());

        // 1. The planted leak: can this machine show a leak at all?
        double plantedSeconds = o.quick ? 6 : Math.max(5, Math.min(seconds, 10));
        Budget pb = new Budget(plantedSeconds, o.samples, o.quick ? 0.5 : 1.0, o.quick ? 2.0 : 5.0, PLANTED_STOP);
        Result planted = LeakSampler.measure(new PlantedLeak(o.blocks, true, rnd.split()), o.batch, pb, rnd.split(),
                o.verbose ? out : null);
        out.println(line("planted-leak", "data", planted));
        if (!LeakStats.isLeakEvidence(planted.maxAbsT())) {
            out.println("# the planted leak (one load from a 32 MiB table indexed by message bytes) was NOT flagged"
                    + " after " + planted.samples() + " samples: this machine is too noisy for a verdict");
            return 3;
        }
        out.printf(Locale.ROOT, "# planted leak seen: |t| %.1f after %d samples (random class %+.1f ns per call)%n",
                planted.maxAbsT(), planted.samples(), -planted.deltaPerCall());

        // 1b. Its constant-time twin, the negative control: evidence here is the harness's or the
        // machine's, and tells how far to trust the kernels' rows.
        if (!o.noControl) {
            double controlSeconds = o.quick ? Math.min(seconds, 3) : seconds;
            Result control = LeakSampler.measure(new PlantedLeak(o.blocks, false, rnd.split()), o.batch,
                    new Budget(controlSeconds, o.samples, o.quick ? 0.3 : 1.0, o.quick ? 1.5 : 8.0,
                            Double.POSITIVE_INFINITY), rnd.split(), o.verbose ? out : null);
            out.println(line("control", "data", control));
            if (LeakStats.isLeakEvidence(control.maxAbsT())) {
                out.println("# the constant-time control shows 'leak evidence': false positives happen on this"
                        + " machine now; read the kernels' rows with that in mind");
            }
        }

        // 2. The kernels.
        int done = 0, flagged = 0;
        VectorJceProvider base = new VectorJceProvider();
        for (Job j : jobs) {
            VectorJceProvider provider = (VectorJceProvider) base.configure(
                    "kernel." + j.algorithm().toLowerCase(Locale.ROOT) + "=" + j.kernel());
            {
                if (!provider.kernelFor(j.algorithm()).equals(j.kernel())) {
                    throw new IllegalStateException("could not force kernel " + j.kernel());
                }
                boolean first = true;
                for (SecretClass sc : o.classes) {
                    // The first cell of a kernel compiles its code (a vector kernel takes C2
                    // seconds): it may warm up longer.
                    double cellSeconds = seconds;
                    double warmMin = 1.0, warmMax = first ? 15.0 : 8.0;
                    if (o.quick) {
                        // Keep the whole run under ~110 s: share what is left among the cells left.
                        double left = 110 - (System.nanoTime() - start) / 1e9;
                        int cellsLeft = cells - done;
                        cellSeconds = Math.min(seconds, Math.max(0.5, left / cellsLeft - 1.0));
                        warmMin = 0.3;
                        warmMax = first ? 4.0 : Math.max(0.5, Math.min(1.5, left / cellsLeft - cellSeconds));
                    }
                    first = false;
                    Target t = target(sc, j.transformation(), provider, o, rnd.split());
                    Result r = LeakSampler.measure(t, o.batch, new Budget(cellSeconds, o.samples, warmMin, warmMax,
                            Double.POSITIVE_INFINITY), rnd.split(), o.verbose ? out : null);
                    out.println(line(j.kernel(), sc.label, r));
                    if (LeakStats.isLeakEvidence(r.maxAbsT())) {
                        flagged++;
                    }
                    done++;
                }
            }
        }
        out.printf(Locale.ROOT, "# %d cells, %d with leak evidence, in %.1f s%n", cells, flagged,
                (System.nanoTime() - start) / 1e9);
        return 0;
    }

    private static String classNames(List<SecretClass> classes) {
        List<String> l = new ArrayList<>();
        for (SecretClass c : classes) {
            l.add(c.label);
        }
        return String.join(",", l);
    }

    static Target target(SecretClass sc, String transformation, VectorJceProvider provider, Options o,
            SplittableRandom rnd) throws Exception {
        switch (sc) {
            case DATA:
                return new DataTarget(transformation, provider, o.keyBits, o.blocks, rnd);
            case KEY:
                return new KeyTarget(transformation, provider, o.keyBits, o.blocks, rnd);
            default:
                return new KeySetupTarget(transformation, provider, o.keyBits, rnd);
        }
    }

    static String header() {
        return String.format(Locale.ROOT, "# %-22s %-9s %7s %9s  %-36s %s", "kernel", "class", "max|t|", "samples",
                "verdict", "[test of max|t|, calls x bytes per sample, its mean fixed-random per call, shift it would flag (4.5 se), notes]");
    }

    static String line(String kernel, String cls, Result r) {
        return String.format(Locale.ROOT, "  %-22s %-9s %7.2f %9d  %-36s [%s, %dx%dB, %+.2f ns/call%s]", kernel, cls,
                r.maxAbsT(), r.samples(), LeakStats.verdict(r.maxAbsT(), r.samples()), r.test(), r.batch(), r.bytesPerCall(),
                r.deltaPerCall(), r.notes());
    }
}
