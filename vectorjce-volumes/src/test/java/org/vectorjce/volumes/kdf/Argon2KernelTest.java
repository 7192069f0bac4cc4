package org.vectorjce.volumes.kdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Which compression {@link Argon2Engine} chose (the build runs the Argon2 tests on AVX-512, AVX2
 * only, SSE only and without the vector module, and says what each must choose), and the vector
 * compression against the scalar one block by block. The tags themselves are checked against RFC
 * 9106, Bouncy Castle and the reference command in {@link Argon2EngineTest}, on whichever runs.
 */
class Argon2KernelTest {
    @Test
    void theExpectedCompressionRuns() {
        String expected = System.getProperty("vectorjce.test.expect.argon2");
        Assumptions.assumeTrue(expected != null, "vectorjce.test.expect.argon2 not set (the Maven build sets it)");
        assertEquals(expected, Argon2Engine.kernel());
    }

    /** AUTO takes the vector compression from the kernel's threshold on, the scalar one below it. */
    @Test
    void autoTakesTheVectorCompressionFromItsThreshold() {
        Argon2Kernel v = Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.VECTOR, 1);
        Assumptions.assumeTrue(v != null, "no vector compression in this JVM (" + Argon2Engine.kernel() + ")");
        long min = v.autoMinWork();
        assertSame(v, Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.AUTO, min));
        assertNull(Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.AUTO, min - 1));
        assertNull(Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.SCALAR, Long.MAX_VALUE));
    }

    /**
     * The threshold by the JVM's vector width, read from HotSpot's own {@code MaxVectorSize} (64
     * bytes with AVX-512, 32 under {@code -XX:UseAVX=2}) rather than from the Vector API: 4
     * GiB-passes with 512-bit vectors, so that cryptsetup's default slot (1 GiB, 4 passes) takes the
     * vector compression there, and 8 below.
     */
    @Test
    void theThresholdFollowsTheVectorWidth() {
        Argon2Kernel v = Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.VECTOR, 1);
        Assumptions.assumeTrue(v != null, "no vector compression in this JVM (" + Argon2Engine.kernel() + ")");
        int maxVectorBytes = Integer.parseInt(java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("MaxVectorSize")
                .getValue());
        assertEquals(maxVectorBytes >= 64 ? 4L << 20 : 8L << 20, v.autoMinWork(), "MaxVectorSize " + maxVectorBytes);
        assertEquals(maxVectorBytes >= 64,
                Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.AUTO, 4L * 1048576) == v);
    }

    /** Random blocks, both modes (set and xor), and the address generator's next == ref. */
    @Test
    void vectorCompressionEqualsScalar() {
        Argon2Kernel v = Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.VECTOR, 1);
        Assumptions.assumeTrue(v != null, "no vector compression in this JVM (" + Argon2Engine.kernel() + ")");
        Random rnd = new Random(9106);
        for (int n = 0; n < 20000; n++) {
            long[] memory = new long[5 * 128];
            for (int i = 0; i < memory.length; i++) {
                memory[i] = rnd.nextLong();
            }
            int prev = 128 * rnd.nextInt(5);
            int ref = 128 * rnd.nextInt(5);
            int next = n % 7 == 0 ? ref : 128 * rnd.nextInt(5);
            if (next == prev) {
                next = (next + 128) % memory.length;
            }
            boolean xor = n % 2 == 0;
            long[] expected = memory.clone();
            long[] actual = memory.clone();
            Argon2Engine.compressScalar(expected, prev, expected, ref, expected, next, xor, new long[128]);
            v.compress(actual, prev, actual, ref, actual, next, xor, new long[128]);
            assertArrayEquals(expected, actual, "block " + n + " prev " + prev + " ref " + ref + " next " + next
                    + " xor " + xor);
        }
    }
}
