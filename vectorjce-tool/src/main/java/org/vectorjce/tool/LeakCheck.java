package org.vectorjce.tool;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
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
 * at least {@value #TARGET_SAMPLE_NANOS} ns (nanoTime's resolution and cost are a fraction of a
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

    /** A sample lasts at least this long once the batch is calibrated. */
    static final long TARGET_SAMPLE_NANOS = 10_000;
    /** Samples (both classes) for the crop thresholds; not part of the tests, as in dudect. */
    static final int CALIBRATION_SAMPLES = 1000;
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
        out.println("# JIT monitor: " + Jit.description() + "; seed " + seed + (o.quick ? "; quick" : ""));
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
        Result planted = measure(new PlantedLeak(o.blocks, true, rnd.split()), o.batch, pb, rnd.split(),
                o.verbose ? out : null);
        out.println(line("planted-leak", "data", planted));
        if (!LeakStats.isLeakEvidence(planted.maxAbsT)) {
            out.println("# the planted leak (one load from a 32 MiB table indexed by message bytes) was NOT flagged"
                    + " after " + planted.samples + " samples: this machine is too noisy for a verdict");
            return 3;
        }
        out.printf(Locale.ROOT, "# planted leak seen: |t| %.1f after %d samples (random class %+.1f ns per call)%n",
                planted.maxAbsT, planted.samples, -planted.deltaPerCall);

        // 1b. Its constant-time twin, the negative control: evidence here is the harness's or the
        // machine's, and tells how far to trust the kernels' rows.
        if (!o.noControl) {
            double controlSeconds = o.quick ? Math.min(seconds, 3) : seconds;
            Result control = measure(new PlantedLeak(o.blocks, false, rnd.split()), o.batch,
                    new Budget(controlSeconds, o.samples, o.quick ? 0.3 : 1.0, o.quick ? 1.5 : 8.0,
                            Double.POSITIVE_INFINITY), rnd.split(), o.verbose ? out : null);
            out.println(line("control", "data", control));
            if (LeakStats.isLeakEvidence(control.maxAbsT)) {
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
                    Result r = measure(t, o.batch, new Budget(cellSeconds, o.samples, warmMin, warmMax,
                            Double.POSITIVE_INFINITY), rnd.split(), o.verbose ? out : null);
                    out.println(line(j.kernel(), sc.label, r));
                    if (LeakStats.isLeakEvidence(r.maxAbsT)) {
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
                r.maxAbsT, r.samples, LeakStats.verdict(r.maxAbsT, r.samples), r.test, r.batch, r.bytesPerCall,
                r.deltaPerCall, r.notes);
    }

    // ------------------------------------------------------------------ measurement

    /** Time limits of one cell. */
    record Budget(double seconds, long maxSamples, double warmMinSeconds, double warmMaxSeconds, double stopAbove) {
    }

    /** What a cell found. */
    record Result(double maxAbsT, String test, long samples, int batch, int bytesPerCall, double deltaPerCall,
            String notes) {
    }

    /**
     * Something to time: {@link #prepare} sets up the inputs of one sample of class 0 (fixed) or
     * 1 (random), untimed; {@link #run} makes the sample's calls, timed.
     */
    abstract static class Target {
        int batch;

        /** Sizes the buffers for {@code batch} calls per sample. */
        abstract void setBatch(int batch) throws Exception;

        abstract void prepare(int cls) throws Exception;

        abstract void run() throws Exception;

        /** Input bytes per call, for reports (0 for key set-up). */
        abstract int bytesPerCall();
    }

    /**
     * Warms up, sizes the batch, takes the calibration samples for the crop thresholds, then
     * samples until the budget is spent; progress lines to {@code progress} when not null.
     */
    static Result measure(Target t, int fixedBatch, Budget b, SplittableRandom rnd, PrintStream progress)
            throws Exception {
        // Warm-up: the exact sampling loop, statistics included (into throw-away tests), in
        // slices of 50 ms, until the JIT has been quiet for 300 ms (or the maximum is reached).
        t.setBatch(fixedBatch > 0 ? fixedBatch : 1);
        long[] scratch = new long[64];
        long warmStart = System.nanoTime();
        long warmMin = (long) (b.warmMinSeconds() * 1e9), warmMax = (long) (b.warmMaxSeconds() * 1e9);
        long lastCompile = Jit.compileMillis();
        long quietSince = warmStart;
        while (true) {
            long now = System.nanoTime();
            if (now - warmStart >= warmMax || (now - warmStart >= warmMin && now - quietSince >= 300_000_000L)) {
                break;
            }
            if (fixedBatch == 0) {
                // Grow the batch during warm-up too, so that the loop compiled is the long one.
                int nb = calibrateStep(t, scratch, rnd);
                if (nb != t.batch) {
                    t.setBatch(nb);
                }
            }
            LeakStats dummy = LeakStats.fromCalibration(new double[] {0, 1});
            loop(t, dummy, rnd, Long.MAX_VALUE, System.nanoTime() + 50_000_000L, Double.POSITIVE_INFINITY, null, 0);
            long c = Jit.compileMillis();
            if (c != lastCompile) {
                lastCompile = c;
                quietSince = System.nanoTime();
            }
        }
        // Batch size: from the compiled speed.
        if (fixedBatch == 0) {
            for (int round = 0; round < 20; round++) {
                int nb = calibrateStep(t, scratch, rnd);
                if (nb == t.batch) {
                    break;
                }
                t.setBatch(nb);
            }
        }
        long compile0 = Jit.compileMillis();
        long gc0 = Jit.gcCount();
        long t0 = System.nanoTime();
        long deadline = b.seconds() == Double.POSITIVE_INFINITY ? Long.MAX_VALUE : t0 + (long) (b.seconds() * 1e9);
        // Calibration samples for the crop thresholds (at most a tenth of the budget); as in
        // dudect they are not part of the tests. If they show the calls got much faster since
        // the batch was sized (the JIT finished late), size it again and start over, twice at most.
        double[] cal = new double[CALIBRATION_SAMPLES];
        int nc = 0;
        for (int attempt = 0; ; attempt++) {
            long calDeadline = b.seconds() == Double.POSITIVE_INFINITY ? Long.MAX_VALUE
                    : System.nanoTime() + (long) (b.seconds() * 1e8);
            nc = 0;
            while (nc < cal.length && (nc < 100 || System.nanoTime() < calDeadline)) {
                cal[nc++] = sample(t, rnd.nextInt(2));
            }
            double[] sorted = Arrays.copyOf(cal, nc);
            Arrays.sort(sorted);
            if (fixedBatch != 0 || attempt == 2 || sorted[nc / 2] >= TARGET_SAMPLE_NANOS / 2.0 || t.batch >= 1 << 16) {
                break;
            }
            for (int round = 0; round < 20; round++) {
                int nb = calibrateStep(t, scratch, rnd);
                if (nb == t.batch) {
                    break;
                }
                t.setBatch(nb);
            }
            compile0 = Jit.compileMillis();
            gc0 = Jit.gcCount();
        }
        LeakStats stats = LeakStats.fromCalibration(Arrays.copyOf(cal, nc));
        long reported = loop(t, stats, rnd, b.maxSamples(), deadline, b.stopAbove(), progress, 1000);
        if (progress != null && reported != stats.count()) {
            progress.println(progressLine(stats, t));
        }
        long compiled = Jit.compileMillis() - compile0;
        long gcs = Jit.gcCount() - gc0;
        StringBuilder notes = new StringBuilder();
        notes.append(String.format(Locale.ROOT, ", flags >= %.3f ns/call", stats.detectableDifference() / t.batch));
        if (compile0 < 0) {
            notes.append(", JIT activity not monitored");
        } else if (compiled > 0) {
            notes.append(", JIT compiled ").append(compiled).append(" ms during sampling");
        }
        if (gcs > 0) {
            notes.append(", ").append(gcs).append(" GC");
        }
        double meanSample = (stats.raw().mean(0) * stats.raw().count(0) + stats.raw().mean(1) * stats.raw().count(1))
                / Math.max(1, stats.count());
        if (fixedBatch == 0 && t.batch < 1 << 16 && meanSample < TARGET_SAMPLE_NANOS / 2.0) {
            notes.append(String.format(Locale.ROOT, ", samples of %.1f us: the batch was sized before the JIT"
                    + " finished", meanSample / 1000));
        }
        // The difference in the test that gave max|t|: in a crop, the means of the bulk, where
        // the raw means can be dragged either way by one preempted sample.
        WelchT best = stats.maxTest();
        double delta = (best.mean(0) - best.mean(1)) / t.batch;
        return new Result(stats.maxAbsT(), stats.maxTestName(), stats.count(), t.batch, t.bytesPerCall(), delta,
                notes.toString());
    }

    /**
     * Samples into {@code stats} in random class order until {@code maxSamples}, the deadline, or
     * (from 1000 samples) max|t| above {@code stopAbove}; a progress line each time the count
     * passes {@code firstReport}, doubling, when {@code progress} is not null. Returns the count
     * at the last progress line (0 if none).
     */
    static long loop(Target t, LeakStats stats, SplittableRandom rnd, long maxSamples, long deadline,
            double stopAbove, PrintStream progress, long firstReport) throws Exception {
        long nextReport = firstReport;
        long reported = 0;
        while (stats.count() < maxSamples) {
            for (int i = 0; i < 32 && stats.count() < maxSamples; i++) {
                int cls = rnd.nextInt(2);
                stats.add(cls, sample(t, cls));
            }
            long n = stats.count();
            if (progress != null && n >= nextReport) {
                progress.println(progressLine(stats, t));
                reported = n;
                nextReport *= 2;
            }
            if (n >= 1000 && stats.maxAbsT() > stopAbove) {
                break;
            }
            if (System.nanoTime() >= deadline) {
                break;
            }
        }
        return reported;
    }

    private static String progressLine(LeakStats s, Target t) {
        return String.format(Locale.ROOT,
                "    n=%9d  raw t=%8.2f  max|t|=%7.2f (%s)  raw mean per call: fixed %.1f ns, random %.1f ns",
                s.count(), s.raw().t(), s.maxAbsT(), s.maxTestName(), s.raw().mean(0) / t.batch,
                s.raw().mean(1) / t.batch);
    }

    /** The next batch size: the current one if its median sample reaches the target, else larger. */
    private static int calibrateStep(Target t, long[] scratch, SplittableRandom rnd) throws Exception {
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = sample(t, rnd.nextInt(2));
        }
        long[] s = scratch.clone();
        Arrays.sort(s);
        long median = Math.max(1, s[s.length / 2]);
        if (median >= TARGET_SAMPLE_NANOS || t.batch >= 1 << 16) {
            return t.batch;
        }
        long want = (long) Math.ceil((double) t.batch * TARGET_SAMPLE_NANOS / median);
        return (int) Math.min(1 << 16, Math.max(2L * t.batch, want));
    }

    /** One sample: prepare untimed, then the timed batch. */
    static long sample(Target t, int cls) throws Exception {
        t.prepare(cls);
        long a = System.nanoTime();
        t.run();
        long z = System.nanoTime();
        return z - a;
    }

    // ------------------------------------------------------------------ targets

    static int keyBytes(String transformation, int keyBits) {
        String mode = transformation.split("/")[1].toUpperCase(Locale.ROOT);
        switch (mode) {
            case "XTS":
                return 2 * keyBits / 8;
            case "LRW":
                return keyBits / 8 + 16;
            default:
                return keyBits / 8;
        }
    }

    static boolean needsIv(String transformation) {
        return !transformation.split("/")[1].equalsIgnoreCase("ECB");
    }

    static boolean isXts(String transformation) {
        return transformation.split("/")[1].equalsIgnoreCase("XTS");
    }

    /** The fixed class's key: all zero; for XTS the last byte 1, so that the halves differ. */
    static byte[] fixedKey(String transformation, int keyBits) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        if (isXts(transformation)) {
            k[k.length - 1] = 1;
        }
        return k;
    }

    /** The untimed "reset" key: 0xA5 bytes (XTS: second half 0x5A). */
    static byte[] resetKey(String transformation, int keyBits) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        Arrays.fill(k, (byte) 0xA5);
        if (isXts(transformation)) {
            Arrays.fill(k, k.length / 2, k.length, (byte) 0x5A);
        }
        return k;
    }

    static byte[] randomKey(String transformation, int keyBits, SplittableRandom rnd) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        rnd.nextBytes(k);
        if (isXts(transformation)) {
            k[k.length - 1] ^= (byte) (k[k.length / 2 - 1] == k[k.length - 1] ? 1 : 0); // halves differ
        }
        return k;
    }

    /** Common part: a transformation, its algorithm, a public fixed IV. */
    abstract static class CipherTarget extends Target {
        final VectorJceProvider provider;
        final String transformation;
        final String algorithm;
        final int keyBits;
        final IvParameterSpec iv;
        final SplittableRandom rnd;

        CipherTarget(String transformation, VectorJceProvider provider, int keyBits, SplittableRandom rnd) {
            this.provider = provider;
            this.transformation = transformation;
            this.algorithm = transformation.substring(0, transformation.indexOf('/'));
            this.keyBits = keyBits;
            this.rnd = rnd;
            byte[] ivBytes = new byte[16];
            rnd.nextBytes(ivBytes);
            this.iv = needsIv(transformation) ? new IvParameterSpec(ivBytes) : null;
        }

        Cipher newCipher() throws Exception {
            return Cipher.getInstance(transformation, provider);
        }

        void init(Cipher c, byte[] key) throws Exception {
            SecretKeySpec k = new SecretKeySpec(key, algorithm);
            if (iv == null) {
                c.init(Cipher.ENCRYPT_MODE, k);
            } else {
                c.init(Cipher.ENCRYPT_MODE, k, iv);
            }
        }
    }

    /**
     * The message buffer of a sample, prepared by the same instructions on the same memory in both
     * classes: random bytes are drawn into a scratch buffer, then copied into {@code in} through
     * a mask, all ones for the random class and zero for the fixed class (all-zero messages).
     * Only the bytes differ, not the work, the access pattern, or what is left in the caches for
     * the timed calls. Copying one fixed message into {@code in} for the fixed class instead
     * leaves more of {@code in} in L1, which the constant-time control shows as leak evidence
     * (docs/constant-time.md, how inputs are prepared).
     */
    static final class Inputs {
        byte[] in = new byte[0];
        private byte[] scratch = new byte[0];
        private final int len;

        Inputs(int len) {
            this.len = len;
        }

        void resize(int batch) {
            in = new byte[batch * len];
            scratch = new byte[batch * len];
        }

        void prepare(int cls, SplittableRandom rnd) {
            rnd.nextBytes(scratch);
            maskedCopy(scratch, in, cls == 0 ? 0 : -1);
        }
    }

    /** {@code dst[i] = src[i] & mask}: the same loop for both classes; mask 0 or -1. */
    static void maskedCopy(byte[] src, byte[] dst, int mask) {
        for (int i = 0; i < dst.length; i++) {
            dst[i] = (byte) (src[i] & mask);
        }
    }

    /**
     * A fresh key array of class {@code cls}: a random key is drawn in both classes and merged with
     * the fixed key through a mask, so allocation, instructions and memory accesses are the same.
     */
    static byte[] classKey(int cls, byte[] fixedKey, String transformation, int keyBits, SplittableRandom rnd) {
        byte[] r = randomKey(transformation, keyBits, rnd);
        byte[] k = new byte[r.length];
        int m = cls == 0 ? 0 : -1;
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) ((r[i] & m) | (fixedKey[i] & ~m));
        }
        return k;
    }

    /** {@code data}: one keyed cipher; fixed (all-zero) vs random messages. */
    static final class DataTarget extends CipherTarget {
        private final Cipher c;
        private final int len;
        private final Inputs inputs;
        private final byte[] out;

        DataTarget(String transformation, VectorJceProvider provider, int keyBits, int blocks, SplittableRandom rnd)
                throws Exception {
            super(transformation, provider, keyBits, rnd);
            c = newCipher();
            init(c, randomKey(transformation, keyBits, rnd));
            len = 16 * blocks;
            inputs = new Inputs(len);
            out = new byte[len + 32];
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
            inputs.resize(batch);
        }

        @Override
        void prepare(int cls) {
            inputs.prepare(cls, rnd);
        }

        @Override
        void run() throws Exception {
            byte[] in = inputs.in;
            for (int i = 0, off = 0; i < batch; i++, off += len) {
                c.doFinal(in, off, len, out, 0);
            }
        }

        @Override
        int bytesPerCall() {
            return len;
        }
    }

    /**
     * {@code key}: one cipher, re-keyed (untimed) before every sample with the fixed key or a fresh
     * random key, then timed encrypting one fixed random message {@code batch} times. The same
     * cipher object serves both classes: with a pool of ciphers per class, the two pools' different
     * places in memory alone show as leak evidence on aes-jdk, whose block function does not look
     * at the key bytes beyond AES-NI instructions (docs/constant-time.md).
     */
    static final class KeyTarget extends CipherTarget {
        private final Cipher c;
        private final byte[] fixedKey;
        private final byte[] resetKey;
        private final byte[] msg;
        private final byte[] out;

        KeyTarget(String transformation, VectorJceProvider provider, int keyBits, int blocks, SplittableRandom rnd)
                throws Exception {
            super(transformation, provider, keyBits, rnd);
            fixedKey = fixedKey(transformation, keyBits);
            resetKey = resetKey(transformation, keyBits);
            msg = new byte[16 * blocks];
            rnd.nextBytes(msg);
            out = new byte[msg.length + 32];
            c = newCipher();
            init(c, resetKey);
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
        }

        @Override
        void prepare(int cls) throws Exception {
            // Via the reset key, so that the fixed class, too, gets a freshly built schedule
            // (the provider keeps the schedule when the key is unchanged).
            init(c, resetKey);
            init(c, classKey(cls, fixedKey, transformation, keyBits, rnd));
        }

        @Override
        void run() throws Exception {
            for (int i = 0; i < batch; i++) {
                c.doFinal(msg, 0, msg.length, out, 0);
            }
        }

        @Override
        int bytesPerCall() {
            return msg.length;
        }
    }

    /** {@code key-setup}: Cipher.init with the fixed key vs random keys, each on a cipher last keyed with the reset key. */
    static final class KeySetupTarget extends CipherTarget {
        private final byte[] fixedKey;
        private final byte[] resetKey;
        private Cipher[] ciphers = new Cipher[0];
        private SecretKeySpec[] keys = new SecretKeySpec[0];

        KeySetupTarget(String transformation, VectorJceProvider provider, int keyBits, SplittableRandom rnd) {
            super(transformation, provider, keyBits, rnd);
            fixedKey = fixedKey(transformation, keyBits);
            resetKey = resetKey(transformation, keyBits);
        }

        @Override
        void setBatch(int batch) throws Exception {
            Cipher[] c = Arrays.copyOf(ciphers, batch);
            for (int i = ciphers.length; i < batch; i++) {
                c[i] = newCipher();
            }
            ciphers = c;
            keys = new SecretKeySpec[batch];
            this.batch = batch;
        }

        @Override
        void prepare(int cls) throws Exception {
            for (int i = 0; i < batch; i++) {
                init(ciphers[i], resetKey);
                keys[i] = new SecretKeySpec(classKey(cls, fixedKey, transformation, keyBits, rnd), algorithm);
            }
        }

        @Override
        void run() throws Exception {
            for (int i = 0; i < batch; i++) {
                if (iv == null) {
                    ciphers[i].init(Cipher.ENCRYPT_MODE, keys[i]);
                } else {
                    ciphers[i].init(Cipher.ENCRYPT_MODE, keys[i], iv);
                }
            }
        }

        @Override
        int bytesPerCall() {
            return 0;
        }
    }

    /**
     * The planted leak: a reference "cipher" that mixes the message with constant-time word
     * arithmetic (so a call costs about what a kernel's does) and then makes one load from a
     * 32 MiB table at a 64-byte line chosen by the message's first four bytes. All-zero messages
     * always load the same line (a cache hit); random ones a random line of 512 Ki (a cache and
     * usually a TLB miss). The data-dependent access a table kernel makes, made large.
     */
    static final class PlantedLeak extends Target {
        /** 32 MiB: larger than this machine's L2 and, on most, its L3 share. */
        private static final int TABLE_INTS = 8 << 20;
        private static int[] table;

        private final int len;
        private final SplittableRandom rnd;
        private final byte[] out;
        private final Inputs inputs;
        /** Index mask: the table's size for the planted leak, 0 for the control (always line 0). */
        private final int mask;
        int sink;

        /**
         * @param leak true for the planted leak; false for its constant-time twin, the negative
         *     control, which makes the same load at a fixed index
         */
        PlantedLeak(int blocks, boolean leak, SplittableRandom rnd) {
            this.len = 16 * blocks;
            this.inputs = new Inputs(len);
            this.mask = leak ? (TABLE_INTS - 1) & ~15 : 0;
            this.rnd = rnd;
            this.out = new byte[len];
            synchronized (PlantedLeak.class) {
                if (table == null) {
                    int[] t = new int[TABLE_INTS];
                    for (int i = 0; i < t.length; i++) {
                        t[i] = i * 0x9E3779B9; // touch every page
                    }
                    table = t;
                }
            }
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
            inputs.resize(batch);
        }

        @Override
        void prepare(int cls) {
            inputs.prepare(cls, rnd);
        }

        @Override
        void run() {
            byte[] in = inputs.in;
            int s = 0;
            for (int i = 0, off = 0; i < batch; i++, off += len) {
                s += call(in, off, len, out, table, mask);
            }
            sink += s;
        }

        /** One call; returns a word of its output. */
        static int call(byte[] in, int off, int len, byte[] out, int[] table, int mask) {
            int acc = 0x6A09E667;
            for (int j = 0; j < len; j += 4) {
                int w = (in[off + j] & 0xff) | (in[off + j + 1] & 0xff) << 8 | (in[off + j + 2] & 0xff) << 16
                        | in[off + j + 3] << 24;
                acc = Integer.rotateLeft(acc ^ w, 7) * 0x01000193 + j;
                out[j] = (byte) acc;
            }
            int first = (in[off] & 0xff) | (in[off + 1] & 0xff) << 8 | (in[off + 2] & 0xff) << 16 | in[off + 3] << 24;
            int idx = first & mask; // the leak: a secret-chosen cache line (0 for the control)
            acc ^= table[idx];
            out[0] = (byte) acc;
            return acc;
        }

        @Override
        int bytesPerCall() {
            return len;
        }
    }

    // ------------------------------------------------------------------ JIT and GC monitor

    /**
     * The JIT's total compilation time and the GC count, from java.management's MXBeans, where
     * that module is in the boot layer (it is not in a minimal jlink image); -1 otherwise. The
     * management types are touched only in {@link Mx}, loaded only when the module is present.
     */
    static final class Jit {
        private static final boolean PRESENT = probe();

        private static boolean probe() {
            try {
                return ModuleLayer.boot().findModule("java.management").isPresent() && Mx.compileMillis() >= 0;
            } catch (LinkageError | RuntimeException e) {
                return false;
            }
        }

        static String description() {
            return PRESENT ? "java.lang.management CompilationMXBean.getTotalCompilationTime (ms) and GC counts"
                    : "none (java.management absent or compilation time unsupported): JIT activity during sampling"
                            + " is not reported";
        }

        static long compileMillis() {
            return PRESENT ? Mx.compileMillis() : -1;
        }

        static long gcCount() {
            return PRESENT ? Mx.gcCount() : 0;
        }
    }

    /** The java.management calls. */
    static final class Mx {
        static long compileMillis() {
            java.lang.management.CompilationMXBean c = java.lang.management.ManagementFactory.getCompilationMXBean();
            if (c == null || !c.isCompilationTimeMonitoringSupported()) {
                return -1;
            }
            return c.getTotalCompilationTime();
        }

        static long gcCount() {
            long n = 0;
            for (java.lang.management.GarbageCollectorMXBean g
                    : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                n += Math.max(0, g.getCollectionCount());
            }
            return n;
        }
    }
}
