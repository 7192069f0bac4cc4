package org.vectorjce.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Smoke tests of {@code leakcheck}: the planted leak is flagged, and options are checked. No
 * verdict about a real kernel is asserted: those depend on the machine.
 */
class LeakCheckPlantedTest {

    @Test
    void plantedLeakIsFlagged() throws Exception {
        // A few seconds at most: stops as soon as |t| passes 10. One retry on a noisy moment.
        LeakSampler.Result r = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            SplittableRandom rnd = new SplittableRandom(1234 + attempt);
            r = LeakSampler.measure(new LeakTargets.PlantedLeak(32, true, rnd.split()), 0,
                    new LeakSampler.Budget(3.0, Long.MAX_VALUE, 0.3, 1.5, LeakCheck.PLANTED_STOP), rnd.split(), null);
            if (LeakStats.isLeakEvidence(r.maxAbsT())) {
                break;
            }
        }
        assertTrue(LeakStats.isLeakEvidence(r.maxAbsT()), "planted leak not flagged: " + r);
        // The random class (cache misses) is the slower one.
        assertTrue(r.deltaPerCall() < 0, "fixed minus random per call: " + r.deltaPerCall());
        assertTrue(r.samples() >= 1000);
    }

    @Test
    void plantedAndControlComputeTheSameFunctionOffTheLeak() {
        // The control differs from the planted leak only in where it loads: on an all-zero
        // message both load line 0, so their outputs agree.
        int[] table = new int[1 << 10];
        for (int i = 0; i < table.length; i++) {
            table[i] = i * 0x9E3779B9;
        }
        byte[] in = new byte[64];
        byte[] o1 = new byte[64], o2 = new byte[64];
        assertEquals(LeakTargets.PlantedLeak.call(in, 0, 64, o1, table, (table.length - 1) & ~15),
                LeakTargets.PlantedLeak.call(in, 0, 64, o2, table, 0));
    }

    @Test
    void helpAndBadOptions() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, LeakCheck.run(new String[] {"--help"}, o, e));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Usage: vectorjce leakcheck"));
        assertEquals(2, LeakCheck.run(new String[] {"--frobnicate"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--seconds", "-1"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--class", "iv"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--key-bits", "100"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--transformation", "DES/ECB/NoPadding"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--kernel", "no-such-kernel"}, o, e));
        assertEquals(2, LeakCheck.run(new String[] {"--kernel", "aes-table", "--transformation",
            "Twofish/ECB/NoPadding"}, o, e));
    }

    @Test
    void keySizes() {
        assertEquals(16, LeakTargets.keyBytes("AES/ECB/NoPadding", 128));
        assertEquals(32, LeakTargets.keyBytes("Twofish/CBC/NoPadding", 256));
        assertEquals(64, LeakTargets.keyBytes("AES/XTS/NoPadding", 256));
        assertEquals(32, LeakTargets.keyBytes("AES/LRW/NoPadding", 128));
        byte[] fx = LeakTargets.fixedKey("AES/XTS/NoPadding", 128);
        byte[] rs = LeakTargets.resetKey("AES/XTS/NoPadding", 128);
        assertEquals(32, fx.length);
        assertFalse(Arrays.equals(Arrays.copyOf(fx, 16), Arrays.copyOfRange(fx, 16, 32)), "XTS halves differ");
        assertFalse(Arrays.equals(Arrays.copyOf(rs, 16), Arrays.copyOfRange(rs, 16, 32)), "XTS halves differ");
    }
}
