package org.vectorjce.internal.mode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The switch from the scalar to the vector mode arithmetic ({@link ModeArithmetics.Switch}): the
 * gate, the warm-up's qualification, timeout and output check with a fake clock and fake probes,
 * and once with the real probe on this JVM.
 */
class ArithmeticSwitchTest {
    /** A stand-in for the vector arithmetic: the scalar code under another name. */
    private static final ModeArithmetic FAKE_VECTOR = new ModeArithmetic() {
        @Override
        public String name() {
            return "vector-fake";
        }
    };

    private long now;
    private final List<Runnable> started = new ArrayList<>();

    private ModeArithmetics.Switch auto(long gate) {
        return new ModeArithmetics.Switch(() -> FAKE_VECTOR, ModeArithmetics.AUTO, () -> now, gate, 20_000, started::add);
    }

    /** A probe whose vector timing is {@code vectorNanos[0]} (changeable), scalar 1000 ns. */
    private static ModeArithmetics.Probe probe(long[] vectorNanos, boolean equal) {
        return new ModeArithmetics.Probe() {
            @Override
            public long time(ModeArithmetic a) {
                return a == ModeArithmetic.SCALAR ? 1000 : vectorNanos[0];
            }

            @Override
            public boolean equal(ModeArithmetic scalar, ModeArithmetic vector) {
                return equal;
            }
        };
    }

    @Test
    void servesScalarUntilTheGateAndVectorOnceQualified() {
        ModeArithmetics.Switch s = auto(1000);
        assertSame(ModeArithmetic.SCALAR, s.serving);
        s.count(999);
        assertTrue(started.isEmpty(), "no warm-up below the gate");
        assertTrue(s.describe().contains("warms up after"), s.describe());
        s.count(1);
        assertEquals(1, started.size(), "the warm-up starts at the gate");
        s.count(5000);
        assertEquals(1, started.size(), "and only once");
        long[] v = {2000};
        s.probe = probe(v, true);
        for (int i = 0; i < 10; i++) {
            assertTrue(s.step(), "slow probes keep warming");
        }
        assertSame(ModeArithmetic.SCALAR, s.serving);
        assertTrue(s.describe().contains("is warming up"), s.describe());
        v[0] = 800; // 1.25x the scalar speed: qualifies
        for (int i = 1; i < ModeArithmetics.CONSECUTIVE; i++) {
            assertTrue(s.step());
            assertSame(ModeArithmetic.SCALAR, s.serving, "not before " + ModeArithmetics.CONSECUTIVE + " in a row");
        }
        assertTrue(!s.step(), "the warm-up ends");
        assertSame(FAKE_VECTOR, s.serving);
        assertTrue(s.describe().startsWith("vector-fake since "), s.describe());
    }

    @Test
    void aSlowProbeInTheRowStartsTheCountAgain() {
        ModeArithmetics.Switch s = auto(0);
        s.count(1);
        long[] v = {800};
        s.probe = probe(v, true);
        for (int i = 1; i < ModeArithmetics.CONSECUTIVE; i++) {
            s.step();
        }
        v[0] = 950; // only 1.05x: not enough
        s.step();
        v[0] = 800;
        for (int i = 1; i < ModeArithmetics.CONSECUTIVE; i++) {
            assertTrue(s.step());
        }
        assertSame(ModeArithmetic.SCALAR, s.serving);
        assertTrue(!s.step());
        assertSame(FAKE_VECTOR, s.serving);
    }

    @Test
    void givesUpAtTheTimeoutAndStaysScalar() {
        ModeArithmetics.Switch s = auto(0);
        s.count(1);
        s.probe = probe(new long[] {1000}, true);
        assertTrue(s.step());
        now = 20_001;
        assertTrue(!s.step());
        assertSame(ModeArithmetic.SCALAR, s.serving);
        assertTrue(s.describe().contains("did not reach"), s.describe());
        s.count(1L << 40);
        assertEquals(1, started.size(), "never starts again");
    }

    @Test
    void differentOutputKeepsTheScalarArithmetic() {
        ModeArithmetics.Switch s = auto(0);
        s.count(1);
        s.probe = probe(new long[] {100}, false);
        while (s.step()) {
            // until it ends
        }
        assertSame(ModeArithmetic.SCALAR, s.serving);
        assertTrue(s.describe().contains("differed"), s.describe());
    }

    @Test
    void forcedOrAbsentVectorNeverWarmsUp() {
        ModeArithmetics.Switch v = new ModeArithmetics.Switch(() -> FAKE_VECTOR, ModeArithmetics.VECTOR, () -> now, 0, 1,
                started::add);
        assertSame(FAKE_VECTOR, v.serving, "forced vector serves from the first call");
        ModeArithmetics.Switch none = new ModeArithmetics.Switch(() -> null, ModeArithmetics.AUTO, () -> now, 0, 1,
                started::add);
        none.count(1L << 40);
        assertEquals(1, started.size());
        started.get(0).run(); // the warm-up thread finds no vector arithmetic and ends
        assertSame(ModeArithmetic.SCALAR, none.serving);
        assertTrue(none.describe().startsWith("scalar ("), none.describe());
        started.clear();
        int[] loads = {0};
        ModeArithmetics.Switch lazy = new ModeArithmetics.Switch(() -> {
            loads[0]++;
            return FAKE_VECTOR;
        }, ModeArithmetics.AUTO, () -> now, 1000, 1, started::add);
        lazy.count(999);
        assertEquals(0, loads[0], "the vector arithmetic is not loaded before the gate");
        lazy.count(1);
        lazy.describe();
        assertEquals(1, loads[0], "and loaded once");
    }

    @Test
    void propertyValues() {
        assertEquals(ModeArithmetics.AUTO, ModeArithmetics.forcedByProperty(null));
        assertEquals(ModeArithmetics.AUTO, ModeArithmetics.forcedByProperty(" Auto "));
        assertEquals(ModeArithmetics.VECTOR, ModeArithmetics.forcedByProperty("vector"));
        assertEquals(ModeArithmetics.SCALAR, ModeArithmetics.forcedByProperty("SCALAR"));
        assertEquals(ModeArithmetics.AUTO, ModeArithmetics.forcedByProperty("fast"));
    }

    /**
     * The warm-up's real probe gives the same output on this JVM's vector arithmetic as on the
     * scalar one, and different output when a block differs (so the check can fail). The real
     * warm-up itself runs in a JVM of its own ({@code ArithmeticSwitchJvmTest}): in this suite's
     * JVM, where hundreds of tests ran the vector code first, it once took longer than its 20 s.
     */
    @Test
    void theRealProbeComparesOutputs() {
        ModeArithmetic vector = ModeArithmetics.selected();
        Assumptions.assumeTrue(vector != ModeArithmetic.SCALAR, "no vector arithmetic on this JVM");
        assertTrue(new ModeArithmetics.BufferProbe().equal(ModeArithmetic.SCALAR, vector));
        ModeArithmetic broken = new ModeArithmetic() {
            @Override
            public void xor(byte[] a, int aOff, byte[] b, int bOff, byte[] dst, int dOff, int len) {
                super.xor(a, aOff, b, bOff, dst, dOff, len);
                dst[dOff] ^= 1;
            }
        };
        assertFalse(new ModeArithmetics.BufferProbe().equal(ModeArithmetic.SCALAR, broken));
    }
}
