package org.vectorjce.tool;

/**
 * Welch's two-sample t statistic, kept online: per class (0 = fixed, 1 = random) the count, the
 * mean and the sum of squared deviations from it (Welford's update, as dudect's {@code t_push}),
 * so samples need not be stored and no large sums cancel.
 *
 * <pre>
 *   t = (mean0 - mean1) / sqrt(var0 / n0 + var1 / n1),   var = M2 / (n - 1)
 * </pre>
 *
 * Java 17 language level (the tool is to be compiled with {@code --release 17}).
 */
final class WelchT {
    private final long[] n = new long[2];
    private final double[] mean = new double[2];
    private final double[] m2 = new double[2];

    /** Adds sample {@code x} to class {@code cls} (0 or 1). */
    void add(int cls, double x) {
        long k = ++n[cls];
        double delta = x - mean[cls];
        mean[cls] += delta / k;
        m2[cls] += delta * (x - mean[cls]);
    }

    long count(int cls) {
        return n[cls];
    }

    long count() {
        return n[0] + n[1];
    }

    double mean(int cls) {
        return mean[cls];
    }

    /** Sample variance (divisor n - 1); 0 below two samples. */
    double variance(int cls) {
        return n[cls] < 2 ? 0 : m2[cls] / (n[cls] - 1);
    }

    /** The denominator of {@link #t}, sqrt(var0 / n0 + var1 / n1); NaN below two samples a class. */
    double standardError() {
        if (n[0] < 2 || n[1] < 2) {
            return Double.NaN;
        }
        return Math.sqrt(variance(0) / n[0] + variance(1) / n[1]);
    }

    /**
     * Welch's t, positive when the fixed class (0) is slower; 0 while a class has fewer than two
     * samples or both variances are 0 with equal means; ±infinity for different means at zero variance.
     */
    double t() {
        if (n[0] < 2 || n[1] < 2) {
            return 0;
        }
        double num = mean[0] - mean[1];
        double den = Math.sqrt(variance(0) / n[0] + variance(1) / n[1]);
        if (den == 0) {
            return num == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, num);
        }
        return num / den;
    }
}
