package org.vectorjce.tool;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code leakcheck}'s measurement of one cell: warm-up until the JIT is quiet, the batch sized so
 * that a sample takes at least {@value #TARGET_SAMPLE_NANOS} ns, the calibration samples for the
 * crop thresholds, then samples of the two classes in random order into {@link LeakStats} until
 * the {@link Budget} is spent. What is timed is a {@link Target} ({@link LeakTargets}).
 */
final class LeakSampler {
    private LeakSampler() {
    }

    /** A sample lasts at least this long once the batch is calibrated. */
    static final long TARGET_SAMPLE_NANOS = 10_000;
    /** Samples (both classes) for the crop thresholds; not part of the tests, as in dudect. */
    static final int CALIBRATION_SAMPLES = 1000;


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
        long lastCompile = JitMonitor.compileMillis();
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
            long c = JitMonitor.compileMillis();
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
        long compile0 = JitMonitor.compileMillis();
        long gc0 = JitMonitor.gcCount();
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
            compile0 = JitMonitor.compileMillis();
            gc0 = JitMonitor.gcCount();
        }
        LeakStats stats = LeakStats.fromCalibration(Arrays.copyOf(cal, nc));
        long reported = loop(t, stats, rnd, b.maxSamples(), deadline, b.stopAbove(), progress, 1000);
        if (progress != null && reported != stats.count()) {
            progress.println(progressLine(stats, t));
        }
        long compiled = JitMonitor.compileMillis() - compile0;
        long gcs = JitMonitor.gcCount() - gc0;
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
}
