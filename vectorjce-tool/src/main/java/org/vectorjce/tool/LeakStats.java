package org.vectorjce.tool;

import java.util.Arrays;
import java.util.Locale;

/**
 * The tests of one leakcheck cell, dudect style (Reparaz, Balasch, Verbauwhede, "Dude, is my code
 * constant time?", DATE 2017): Welch's t on the raw samples, and on the samples cropped at a set
 * of thresholds, each a percentile of a first calibration batch of samples (both classes pooled).
 * A sample enters crop test {@code i} when it is at most threshold {@code i}: cropping removes the
 * long upper tail (interrupts, preemption by the other tenant of the core, GC), where timing noise
 * lives and a small shift of the bulk of the distribution drowns.
 *
 * <p>The crop fractions are dudect's {@code 1 - 0.5^(10 (i+1) / N)}, with N = {@value #CROPS}
 * instead of dudect's 100: every fifth of dudect's thresholds, 0.293, 0.5, 0.646, 0.75, ...,
 * 0.999 (1 - 2^-10). The largest |t| over the raw test and the crops is reported; above
 * {@value #THRESHOLD} (dudect's threshold) it counts as leak evidence.
 *
 * <p>dudect also runs a second-order (centred-product) test; this one does not.
 */
final class LeakStats {
    /** dudect's threshold on |t|. */
    static final double THRESHOLD = 4.5;

    /** Number of crop thresholds. */
    static final int CROPS = 20;

    private final double[] thresholds;
    private final double[] fractions;
    private final WelchT raw = new WelchT();
    private final WelchT[] crops;

    /** Tests with crop thresholds taken from {@code calibration} at {@link #cropFractions}. */
    static LeakStats fromCalibration(double[] calibration) {
        double[] f = cropFractions(CROPS);
        return new LeakStats(thresholds(calibration, f), f);
    }

    /**
     * @param thresholds crop test {@code i} keeps samples {@code <= thresholds[i]}
     * @param fractions the fractions the thresholds were taken at (for reports); same length
     */
    LeakStats(double[] thresholds, double[] fractions) {
        if (thresholds.length != fractions.length) {
            throw new IllegalArgumentException("thresholds and fractions differ in length");
        }
        this.thresholds = thresholds.clone();
        this.fractions = fractions.clone();
        crops = new WelchT[thresholds.length];
        for (int i = 0; i < crops.length; i++) {
            crops[i] = new WelchT();
        }
    }

    /** dudect's crop fractions, {@code 1 - 0.5^(10 (i+1) / n)} for {@code i = 0 .. n-1}. */
    static double[] cropFractions(int n) {
        double[] f = new double[n];
        for (int i = 0; i < n; i++) {
            f[i] = 1 - Math.pow(0.5, 10.0 * (i + 1) / n);
        }
        return f;
    }

    /**
     * The {@code p} percentile of {@code sorted} (ascending) as dudect takes it: the element at
     * index {@code floor(p * length)}, clamped to the last one.
     */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        int i = (int) Math.floor(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** The percentiles of {@code samples} (any order; not modified) at each fraction. */
    static double[] thresholds(double[] samples, double[] fractions) {
        double[] s = samples.clone();
        Arrays.sort(s);
        double[] t = new double[fractions.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = percentile(s, fractions[i]);
        }
        return t;
    }

    /** Adds a sample of class {@code cls} (0 fixed, 1 random) to the raw test and the crops it passes. */
    void add(int cls, double x) {
        raw.add(cls, x);
        for (int i = 0; i < thresholds.length; i++) {
            if (x <= thresholds[i]) {
                crops[i].add(cls, x);
            }
        }
    }

    WelchT raw() {
        return raw;
    }

    WelchT crop(int i) {
        return crops[i];
    }

    int cropCount() {
        return crops.length;
    }

    double threshold(int i) {
        return thresholds[i];
    }

    double fraction(int i) {
        return fractions[i];
    }

    /** Samples in the raw test. */
    long count() {
        return raw.count();
    }

    /** The test with the largest |t|: -1 for the raw test, else the crop index. */
    int argMaxAbsT() {
        int best = -1;
        double bestT = Math.abs(raw.t());
        for (int i = 0; i < crops.length; i++) {
            double t = Math.abs(crops[i].t());
            if (t > bestT) {
                bestT = t;
                best = i;
            }
        }
        return best;
    }

    /**
     * The smallest difference of means that would have crossed the threshold in the most
     * sensitive test (the one with the smallest standard error): {@code THRESHOLD * min se}. A
     * rough scale for "no evidence": a shift of the whole distribution by this much would have
     * been flagged. NaN before any test has two samples a class.
     */
    double detectableDifference() {
        double min = raw.standardError();
        for (WelchT c : crops) {
            double se = c.standardError();
            if (!(se >= min) && !Double.isNaN(se)) {
                min = se;
            }
        }
        return THRESHOLD * min;
    }

    /** The test {@link #maxAbsT} comes from. */
    WelchT maxTest() {
        int i = argMaxAbsT();
        return i < 0 ? raw : crops[i];
    }

    /** The largest |t| of the raw test and the crops. */
    double maxAbsT() {
        int i = argMaxAbsT();
        return Math.abs(i < 0 ? raw.t() : crops[i].t());
    }

    /** Which test {@link #maxAbsT} comes from, e.g. {@code raw} or {@code p<=0.750}. */
    String maxTestName() {
        int i = argMaxAbsT();
        return i < 0 ? "raw" : String.format(Locale.ROOT, "p<=%.3f", fractions[i]);
    }

    /** Whether {@code maxAbsT} is leak evidence: strictly above {@link #THRESHOLD}. */
    static boolean isLeakEvidence(double maxAbsT) {
        return maxAbsT > THRESHOLD;
    }

    /** The verdict line's text: "leak evidence", or "no evidence after N samples". */
    static String verdict(double maxAbsT, long samples) {
        return isLeakEvidence(maxAbsT) ? "leak evidence" : "no evidence after " + samples + " samples";
    }
}
