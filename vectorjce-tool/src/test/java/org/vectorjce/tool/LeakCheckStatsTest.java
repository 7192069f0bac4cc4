package org.vectorjce.tool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The statistics of {@code leakcheck}: Welch's t, the crops, the verdict threshold. */
class LeakCheckStatsTest {

    /** Welch's t the textbook way: two passes, mean first, then the squared deviations. */
    private static double twoPassT(double[] a, double[] b) {
        double ma = mean(a), mb = mean(b);
        return (ma - mb) / Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length);
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double variance(double[] x, double m) {
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return s / (x.length - 1);
    }

    private static WelchT welch(double[] a, double[] b) {
        WelchT w = new WelchT();
        // Interleaved, as leakcheck adds them.
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            if (i < a.length) {
                w.add(0, a[i]);
            }
            if (i < b.length) {
                w.add(1, b[i]);
            }
        }
        return w;
    }

    @Test
    void welchByHand() {
        // {1,2,3,4}: mean 2.5, variance 5/3; {2,4,6,8}: mean 5, variance 20/3.
        // t = -2.5 / sqrt(5/12 + 20/12) = -2.5 / sqrt(25/12) = -sqrt(3).
        WelchT w = welch(new double[] {1, 2, 3, 4}, new double[] {2, 4, 6, 8});
        assertEquals(2.5, w.mean(0), 1e-15);
        assertEquals(5.0, w.mean(1), 1e-15);
        assertEquals(5.0 / 3, w.variance(0), 1e-14);
        assertEquals(20.0 / 3, w.variance(1), 1e-14);
        assertEquals(-Math.sqrt(3), w.t(), 1e-14);
        assertEquals(8, w.count());
    }

    @Test
    void welchMatchesTwoPassOnKnownDistributions() {
        Random r = new Random(20260530);
        // Means and variances known by construction; unequal sizes and variances (Welch's case).
        double[] a = new double[5000];
        double[] b = new double[7000];
        for (int i = 0; i < a.length; i++) {
            a[i] = 1000 + 3 * r.nextGaussian(); // mean 1000, variance 9
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = 1000.2 + 5 * r.nextGaussian(); // mean 1000.2, variance 25
        }
        WelchT w = welch(a, b);
        assertEquals(mean(a), w.mean(0), 1e-9);
        assertEquals(mean(b), w.mean(1), 1e-9);
        assertEquals(variance(a, mean(a)), w.variance(0), 1e-9);
        assertEquals(variance(b, mean(b)), w.variance(1), 1e-9);
        assertEquals(twoPassT(a, b), w.t(), 1e-9);
        // And near what the construction says: means within a few standard errors, variances
        // within a few percent.
        assertEquals(1000, w.mean(0), 4 * 3 / Math.sqrt(a.length));
        assertEquals(9, w.variance(0), 0.05 * 9);
        assertEquals(25, w.variance(1), 0.05 * 25);
        // The expected t is -0.2 / sqrt(9/5000 + 25/7000) = -2.73; the estimate is within a few
        // units of that (its standard deviation is 1).
        assertEquals(-0.2 / Math.sqrt(9.0 / 5000 + 25.0 / 7000), w.t(), 4);
    }

    @Test
    void welchIsStableOnLargeOffsets() {
        // Nanosecond timings sit on a large offset; the online update must not cancel.
        double[] a = {1e12 + 1, 1e12 + 2, 1e12 + 3, 1e12 + 4};
        double[] b = {1e12 + 2, 1e12 + 4, 1e12 + 6, 1e12 + 8};
        assertEquals(-Math.sqrt(3), welch(a, b).t(), 1e-6);
    }

    @Test
    void welchEdgeCases() {
        WelchT w = new WelchT();
        assertEquals(0, w.t());
        w.add(0, 5);
        w.add(1, 6);
        assertEquals(0, w.t(), "fewer than two samples a class");
        assertEquals(0, w.variance(0));
        w.add(0, 5);
        w.add(1, 6);
        assertEquals(Double.NEGATIVE_INFINITY, w.t(), "zero variance, different means");
        WelchT same = welch(new double[] {7, 7, 7}, new double[] {7, 7});
        assertEquals(0, same.t(), "zero variance, same means");
    }

    @Test
    void cropFractionsAreDudects() {
        double[] dudect = LeakStats.cropFractions(100);
        for (int i = 0; i < 100; i++) {
            assertEquals(1 - Math.pow(0.5, 10 * (double) (i + 1) / 100), dudect[i], 1e-15);
        }
        double[] ours = LeakStats.cropFractions(LeakStats.CROPS);
        assertEquals(20, ours.length);
        for (int k = 0; k < ours.length; k++) {
            assertEquals(dudect[5 * k + 4], ours[k], 1e-15, "every fifth of dudect's");
        }
        assertEquals(0.5, ours[1], 1e-15);
        assertEquals(0.75, ours[3], 1e-15);
        assertEquals(1 - 1.0 / 1024, ours[19], 1e-15);
        for (int k = 1; k < ours.length; k++) {
            assertTrue(ours[k] > ours[k - 1]);
        }
    }

    @Test
    void percentileIsDudects() {
        double[] sorted = new double[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = 10 * i;
        }
        assertEquals(0, LeakStats.percentile(sorted, 0));
        assertEquals(500, LeakStats.percentile(sorted, 0.5));
        assertEquals(290, LeakStats.percentile(sorted, 0.293)); // floor(29.3) = 29
        assertEquals(990, LeakStats.percentile(sorted, 0.999));
        assertEquals(990, LeakStats.percentile(sorted, 1.0), "clamped to the last element");
        // thresholds() sorts a copy and leaves its input alone.
        double[] shuffled = {30, 10, 40, 0, 20};
        assertArrayEquals(new double[] {0, 20, 40}, LeakStats.thresholds(shuffled, new double[] {0, 0.5, 0.99}));
        assertArrayEquals(new double[] {30, 10, 40, 0, 20}, shuffled);
    }

    @Test
    void cropKeepsSamplesAtOrBelowItsThreshold() {
        LeakStats s = new LeakStats(new double[] {10, 100}, new double[] {0.25, 0.75});
        double[][] samples = {{0, 5}, {1, 7}, {0, 10}, {1, 11}, {0, 50}, {1, 100}, {0, 101}, {1, 3}, {0, 9}, {1, 8}};
        for (double[] x : samples) {
            s.add((int) x[0], x[1]);
        }
        assertEquals(10, s.count());
        assertEquals(10, s.raw().count());
        // crop 0 (<= 10): class 0 {5, 10, 9}, class 1 {7, 3, 8}
        assertEquals(3, s.crop(0).count(0));
        assertEquals(3, s.crop(0).count(1));
        assertEquals(8, s.crop(0).mean(0), 1e-12);
        assertEquals(6, s.crop(0).mean(1), 1e-12);
        assertEquals(twoPassT(new double[] {5, 10, 9}, new double[] {7, 3, 8}), s.crop(0).t(), 1e-12);
        // crop 1 (<= 100): everything but 101
        assertEquals(4, s.crop(1).count(0));
        assertEquals(5, s.crop(1).count(1));
        assertEquals(twoPassT(new double[] {5, 10, 50, 9}, new double[] {7, 11, 100, 3, 8}), s.crop(1).t(), 1e-12);
        assertEquals(twoPassT(new double[] {5, 10, 50, 101, 9}, new double[] {7, 11, 100, 3, 8}), s.raw().t(), 1e-12);
        // The reported maximum is the largest |t| of the three, and named.
        double[] ts = {Math.abs(s.raw().t()), Math.abs(s.crop(0).t()), Math.abs(s.crop(1).t())};
        assertEquals(Math.max(ts[0], Math.max(ts[1], ts[2])), s.maxAbsT(), 1e-15);
        assertEquals("p<=0.250", s.maxTestName());
    }

    @Test
    void cropFindsAShiftHiddenByTailNoise() {
        // The situation cropping is for: a small shift of the bulk (0.5 ns on a 1 ns spread)
        // under rare huge outliers (interrupts) in both classes. The raw test cannot see it.
        Random r = new Random(7);
        double[] cal = new double[1000];
        for (int i = 0; i < cal.length; i++) {
            cal[i] = sample(r, i & 1);
        }
        LeakStats s = LeakStats.fromCalibration(cal);
        for (int i = 0; i < 4000; i++) {
            int cls = r.nextInt(2);
            s.add(cls, sample(r, cls));
        }
        assertTrue(Math.abs(s.raw().t()) < LeakStats.THRESHOLD, "raw t " + s.raw().t());
        assertTrue(s.maxAbsT() > 2 * LeakStats.THRESHOLD, "max |t| " + s.maxAbsT());
        assertFalse(s.maxTestName().equals("raw"));
    }

    private static double sample(Random r, int cls) {
        double x = 1000 + (cls == 0 ? 0 : 0.5) + r.nextGaussian();
        return r.nextInt(20) == 0 ? x + 1e6 * (1 + r.nextDouble()) : x;
    }

    @Test
    void detectableDifferenceIsThresholdTimesTheSmallestStandardError() {
        LeakStats s = new LeakStats(new double[] {1e9, 4}, new double[] {0.9, 0.5});
        assertTrue(Double.isNaN(s.detectableDifference()));
        double[] a = {1, 2, 3, 4}, b = {2, 4, 6, 8};
        for (int i = 0; i < 4; i++) {
            s.add(0, a[i]);
            s.add(1, b[i]);
        }
        // raw and crop 0: se = sqrt(5/12 + 20/12); crop 1 (<= 4): {1,2,3,4} vs {2,4}: smaller
        double seAll = Math.sqrt(25.0 / 12);
        double seCrop = Math.sqrt(variance(a, 2.5) / 4 + variance(new double[] {2, 4}, 3) / 2);
        assertEquals(seAll, s.raw().standardError(), 1e-14);
        assertEquals(4.5 * Math.min(seAll, seCrop), s.detectableDifference(), 1e-12);
    }

    @Test
    void verdictThresholdIsDudects() {
        assertEquals(4.5, LeakStats.THRESHOLD);
        assertFalse(LeakStats.isLeakEvidence(4.5));
        assertTrue(LeakStats.isLeakEvidence(Math.nextUp(4.5)));
        assertFalse(LeakStats.isLeakEvidence(0));
        assertFalse(LeakStats.isLeakEvidence(Double.NaN));
        assertTrue(LeakStats.isLeakEvidence(Double.POSITIVE_INFINITY));
        assertEquals("leak evidence", LeakStats.verdict(4.51, 1000));
        assertEquals("no evidence after 123456 samples", LeakStats.verdict(4.5, 123456));
    }

    @Test
    void calibrationThresholdsAreThePercentilesOfTheCalibrationBatch() {
        double[] cal = new double[1024];
        for (int i = 0; i < cal.length; i++) {
            cal[i] = cal.length - i; // 1024 down to 1
        }
        LeakStats s = LeakStats.fromCalibration(cal);
        assertEquals(LeakStats.CROPS, s.cropCount());
        for (int i = 0; i < s.cropCount(); i++) {
            // sorted value at index floor(p * 1024) is that index + 1
            assertEquals(Math.floor(s.fraction(i) * 1024) + 1, s.threshold(i), 1e-12);
        }
    }
}
