package org.vectorjce.bench;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.vectorjce.VectorJce;

/**
 * The launcher: runs the benchmark classes with only the parameter combinations each provider
 * has, and writes one merged result file.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar org.vectorjce.bench.Run \
 *      [--quick] [--dry-run] [JMH options, e.g. -p mode=XTS,CBC -p size=4096 -rff result.json]
 * </pre>
 *
 * <p>JMH has no "skip": a {@code -p mode=XTS} given to plain JMH reaches SunJCE too and fails there,
 * and a forced kernel that this CPU cannot run fails its trial. So each provider (and VectorJCE
 * algorithm) is its own class with its own {@code @Param} lists, and this launcher runs them one at
 * a time, each {@code -p} list cut down to the values that class has; a class left with no value
 * for some parameter is skipped, with the reason printed. The VectorJCE {@code kernel} list is
 * {@code default} plus every kernel {@link VectorJce#availableKernels} reports in this JVM; the
 * forks inherit this JVM's flags (JMH's default), so start the launcher with the flags the forks
 * should have (e.g. {@code -XX:UseAVX=2}). {@code default} is passed on as {@code default:NAME},
 * NAME being the kernel chosen here, so the result file says which kernel "default" was (the fork
 * checks it chose the same).
 *
 * <p>{@code --quick}: unless given otherwise, 1 fork, 2 × 1 s warm-up, 3 × 1 s measurement,
 * 128-bit keys, encryption, sizes 16, 1024 and 8192, default kernels. {@code --dry-run} prints the
 * plan and the estimated time, and runs nothing.
 */
public final class Run {
    private Run() {
    }

    static final List<Class<? extends BenchBase>> BENCHMARKS = List.of(
            VectorJceAesBench.class, VectorJceTwofishBench.class, VectorJceSerpentBench.class,
            SunJceBench.class, BcBench.class, AccpBench.class, XtsSectorBench.class);

    /** The {@code @Fork(jvmArgsAppend)} of {@link BenchBase}, kept when the command line gives its own. */
    static final List<String> FORK_JVM_ARGS = List.of(
            "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
            "-Dvectorjce.arithmetic=vector");

    /** Quick-run parameter defaults, used where the command line gives no {@code -p}. */
    static final Map<String, List<String>> QUICK_PARAMS = Map.of(
            "keyBits", List.of("128"),
            "direction", List.of("ENCRYPT"),
            "size", List.of("16", "1024", "8192"),
            "kernel", List.of("default"));

    /** Set-up warm-up and fork start-up, per trial, for the time estimate. */
    static final double OVERHEAD_SECONDS = 2.0;

    record Plan(Class<? extends BenchBase> bench, Map<String, List<String>> params, int trials) {
    }

    public static void main(String[] args) throws IOException {
        boolean quick = false;
        boolean dryRun = false;
        List<String> rest = new ArrayList<>();
        for (String a : args) {
            switch (a) {
                case "--quick" -> quick = true;
                case "--dry-run" -> dryRun = true;
                case "--help" -> {
                    System.out.println("usage: java --add-modules jdk.incubator.vector -cp benchmarks.jar "
                            + "org.vectorjce.bench.Run [--quick] [--dry-run] [JMH options]\n"
                            + "See the class comment of org.vectorjce.bench.Run and bench/README.md; "
                            + "JMH options: java -jar benchmarks.jar -h");
                    return;
                }
                default -> rest.add(a);
            }
        }
        CommandLineOptions cmd;
        try {
            cmd = new CommandLineOptions(rest.toArray(new String[0]));
        } catch (CommandLineOptionException e) {
            System.err.println("bad JMH options: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!VectorJce.vectorModuleStatus().startsWith("present")) {
            System.err.println("the launcher needs the vector module, as the forks have it: java "
                    + "--add-modules jdk.incubator.vector -cp benchmarks.jar org.vectorjce.bench.Run ...\n"
                    + "(vector module: " + VectorJce.vectorModuleStatus() + ")");
            System.exit(2);
        }

        ChainedOptionsBuilder base = new OptionsBuilder().parent(cmd);
        if (cmd.getJvmArgsAppend().hasValue()) {
            // a command-line -jvmArgsAppend replaces @Fork's; keep the flags the suite needs
            List<String> append = new ArrayList<>(FORK_JVM_ARGS);
            append.addAll(cmd.getJvmArgsAppend().get());
            base.jvmArgsAppend(append.toArray(new String[0]));
        }
        if (quick) {
            if (!cmd.getForkCount().hasValue()) {
                base.forks(1);
            }
            if (!cmd.getWarmupIterations().hasValue()) {
                base.warmupIterations(2);
            }
            if (!cmd.getWarmupTime().hasValue()) {
                base.warmupTime(TimeValue.seconds(1));
            }
            if (!cmd.getMeasurementIterations().hasValue()) {
                base.measurementIterations(3);
            }
            if (!cmd.getMeasurementTime().hasValue()) {
                base.measurementTime(TimeValue.seconds(1));
            }
        }
        Options baseOptions = base.build();

        List<Plan> plans = plan(cmd, quick);
        int trials = plans.stream().mapToInt(Plan::trials).sum();
        int forks = baseOptions.getForkCount().orElse(1);
        double perTrial = forks * (baseOptions.getWarmupIterations().orElse(3)
                * seconds(baseOptions.getWarmupTime().orElse(TimeValue.seconds(1)))
                + baseOptions.getMeasurementIterations().orElse(5)
                * seconds(baseOptions.getMeasurementTime().orElse(TimeValue.seconds(1)))
                + OVERHEAD_SECONDS);
        System.out.printf("# %d trials, about %.0f min on an idle machine%n", trials, trials * perTrial / 60);
        if (dryRun || plans.isEmpty()) {
            return;
        }

        List<RunResult> all = new ArrayList<>();
        File tmp = File.createTempFile("vectorjce-bench", ".json");
        tmp.deleteOnExit();
        for (Plan p : plans) {
            ChainedOptionsBuilder b = new OptionsBuilder().parent(baseOptions)
                    .include("^" + Pattern.quote(p.bench().getName()) + "\\.")
                    .result(tmp.getPath()).resultFormat(ResultFormatType.JSON);
            for (Class<?> other : BENCHMARKS) {
                if (other != p.bench()) {
                    b.exclude("^" + Pattern.quote(other.getName()) + "\\.");
                }
            }
            p.params().forEach((k, v) -> b.param(k, v.toArray(new String[0])));
            try {
                Collection<RunResult> r = new Runner(b.build()).run();
                all.addAll(r);
            } catch (RunnerException e) {
                System.err.println("# " + p.bench().getSimpleName() + " failed: " + e.getMessage());
            }
        }
        ResultFormatType fmt = cmd.getResultFormat().orElse(ResultFormatType.JSON);
        String file = cmd.getResult().orElse("jmh-result." + fmt.toString().toLowerCase());
        try (PrintStream ps = new PrintStream(new FileOutputStream(file), true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(fmt, ps).writeOut(all);
        }
        System.out.println("# " + all.size() + " results written to " + file);
    }

    /** Cuts each class's parameter lists to what the command line asks for; prints what is left out. */
    static List<Plan> plan(CommandLineOptions cmd, boolean quick) {
        List<Plan> plans = new ArrayList<>();
        List<String> includes = cmd.getIncludes();
        for (Class<? extends BenchBase> c : BENCHMARKS) {
            String name = c.getSimpleName();
            String method = c.getName() + "." + benchmarkMethod(c);
            if (!includes.isEmpty() && includes.stream().noneMatch(re -> Pattern.compile(re).matcher(method).find())) {
                continue;
            }
            Map<String, List<String>> declared = declaredParams(c);
            String alg = declared.get("algorithm").size() == 1 ? declared.get("algorithm").get(0) : null;
            Map<String, List<String>> params = new LinkedHashMap<>();
            String skip = null;
            if (declared.get("provider").contains("ACCP") && accpStatus() != null) {
                List<String> providers = new ArrayList<>(declared.get("provider"));
                providers.remove("ACCP");
                System.out.println("# " + name + ": leaving out provider=ACCP, " + accpStatus());
                declared.put("provider", providers);
                if (providers.isEmpty()) {
                    skip = "provider=ACCP only";
                }
            }
            for (Map.Entry<String, List<String>> e : declared.entrySet()) {
                if (skip != null) {
                    break;
                }
                String param = e.getKey();
                List<String> valid = e.getValue();
                if (param.equals("kernel")) {
                    valid = new ArrayList<>();
                    valid.add("default");
                    valid.addAll(VectorJce.availableKernels(alg));
                }
                List<String> wanted = cmd.getParameter(param).hasValue()
                        ? new ArrayList<>(cmd.getParameter(param).get())
                        : quick && QUICK_PARAMS.containsKey(param) ? QUICK_PARAMS.get(param) : valid;
                List<String> values = new ArrayList<>();
                List<String> dropped = new ArrayList<>();
                for (String w : wanted) {
                    (valid.contains(w) ? values : dropped).add(w);
                }
                if (param.equals("kernel")) {
                    dropped.removeIf(k -> !k.startsWith(alg.toLowerCase() + "-")); // the other algorithm's
                    values.replaceAll(k -> k.equals("default") ? "default:" + new org.vectorjce.VectorJceProvider().kernelFor(alg) : k);
                }
                if (values.isEmpty() && skip == null) {
                    skip = param + "=" + String.join(",", wanted) + " (it has " + String.join(",", valid) + ")";
                } else if (!dropped.isEmpty()) {
                    System.out.println("# " + name + ": leaving out " + param + "=" + String.join(",", dropped)
                            + (param.equals("kernel") ? " (unknown or not available here: " + VectorJce.kernelStatus(alg) + ")"
                                    : " (it has " + String.join(",", valid) + ")"));
                }
                params.put(param, values);
            }
            if (skip != null) {
                System.out.println("# " + name + ": skipped, " + skip);
                continue;
            }
            int trials = params.values().stream().mapToInt(List::size).reduce(1, (a, b) -> a * b);
            System.out.println("# " + name + ": " + trials + " trials " + params);
            plans.add(new Plan(c, params, trials));
        }
        return plans;
    }

    /** The {@code @Param} fields of a benchmark class and their declared values, in field order. */
    static Map<String, List<String>> declaredParams(Class<?> c) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Field f : c.getDeclaredFields()) {
            Param p = f.getAnnotation(Param.class);
            if (p != null) {
                m.put(f.getName(), Arrays.asList(p.value()));
            }
        }
        return m;
    }

    /** The name of the {@code @Benchmark} method of a benchmark class (or its superclasses). */
    static String benchmarkMethod(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
                if (m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) {
                    return m.getName();
                }
            }
        }
        return "?";
    }

    /** {@code null} if ACCP loads here, otherwise why not. */
    static String accpStatus() {
        try {
            Throwable t = com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
            return t == null ? null : "ACCP does not load here: " + t;
        } catch (LinkageError | RuntimeException e) {
            return "ACCP does not load here: " + e;
        }
    }

    static double seconds(TimeValue t) {
        return t.convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0;
    }
}
