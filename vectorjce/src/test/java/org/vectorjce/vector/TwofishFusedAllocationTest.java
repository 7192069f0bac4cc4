package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;
import org.vectorjce.internal.registry.Kernels;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec512-16way}'s fused batch ({@code twofish16.path=fused}) once C2 has it: it
 * allocates nothing per call, kernel and JCA. Runs in a JVM of its own (surefire execution
 * "allocation-fused"): the fused code runs interpreted for a while, and when it shared the
 * "allocation" JVM, {@code twofish-vec128-ct} tested after it stayed boxed. The waits for C2 are
 * bounded.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwofishFusedAllocationTest {
    private static final String NAME = "twofish-vec512-16way";

    @BeforeEach
    void needsTheKernelAndALowGate() {
        Assumptions.assumeTrue(VectorBridge.vectorModulePresent(), "jdk.incubator.vector is not in the boot layer");
        String why = factory().unavailableReason();
        Assumptions.assumeTrue(why == null, () -> NAME + " not available here: " + why);
        Assumptions.assumeTrue(System.getProperty("vectorjce.test.fusedJvm") != null,
                "run through the pom's allocation-fused execution");
    }

    private static KernelFactory factory() {
        return KernelRegistry.all("Twofish").stream().filter(f -> f.name().equals(NAME)).findFirst().orElseThrow();
    }

    /** The fused path, compiled by the test before, allocates nothing per call, kernel and JCA. */
    @Test
    @Order(2)
    void theFusedPathAllocatesNothingThroughTheJca() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        java.security.Provider fused = new VectorJceProvider().configure("kernel.twofish=" + NAME + " twofish16.path=fused");
        BlockKernel k = Kernels.select("Twofish", org.vectorjce.internal.registry.Settings.BUILT_IN
                .apply("kernel.twofish=" + NAME + " twofish16.path=fused")).create(new byte[16]);
        byte[] buf = new byte[64 * 16], out = new byte[buf.length];
        Cipher ctr = Cipher.getInstance("Twofish/CTR/NoPadding", fused);
        Cipher xts = Cipher.getInstance("Twofish/XTS/NoPadding", fused);
        SecretKeySpec k1 = new SecretKeySpec(new byte[16], "Twofish");
        byte[] xk = new byte[64];
        xk[0] = 1;
        SecretKeySpec k2 = new SecretKeySpec(xk, "Twofish");
        IvParameterSpec iv = new IvParameterSpec(new byte[16]);
        ctr.init(Cipher.ENCRYPT_MODE, k1, iv);
        xts.init(Cipher.ENCRYPT_MODE, k2, iv);
        Runnable round = () -> {
            try {
                for (int i = 0; i < 1000; i++) {
                    k.encryptBlocks(buf, 0, out, 0, 64);
                    k.decryptBlocks(out, 0, buf, 0, 64);
                    ctr.doFinal(buf, 0, buf.length, out, 0);
                    xts.doFinal(buf, 0, buf.length, out, 0);
                }
            } catch (java.security.GeneralSecurityException e) {
                throw new AssertionError(e);
            }
        };
        long end = System.nanoTime() + 3_000_000_000L;
        for (int i = 0; i < 10 || (i < 100 && System.nanoTime() < end); i++) {
            round.run();
        }
        long allocated = KernelAllocationTest.allocatedInACleanRound(round, 64 * 1024 - 1, 15_000_000_000L);
        assertTrue(allocated < 64 * 1024, "the fused path allocated " + allocated + " bytes in 4000 calls");
    }

    /** Forced fused from the first call: allocation-free once compiled. */
    @Test
    @Order(1)
    void forcedFusedAllocatesNothingOnceCompiled() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        BlockKernel k = Kernels.select("Twofish", org.vectorjce.internal.registry.Settings.BUILT_IN
                .apply("kernel.twofish=" + NAME + " twofish16.path=fused")).create(new byte[24]);
        byte[] buf = new byte[45 * 16], out = new byte[buf.length];
        long end = System.nanoTime() + 3_000_000_000L;
        for (int i = 0; i < 20_000 || (i < 200_000 && System.nanoTime() < end); i++) {
            k.encryptBlocks(buf, 0, out, 0, 45); // one batch and a padded tail
            k.decryptBlocks(out, 0, buf, 0, 45);
        }
        long allocated = KernelAllocationTest.allocatedInACleanRound(() -> {
            for (int i = 0; i < 1000; i++) {
                k.encryptBlocks(buf, 0, out, 0, 45);
                k.decryptBlocks(out, 0, buf, 0, 45);
            }
        }, 64 * 1024 - 1, 15_000_000_000L);
        assertTrue(allocated < 64 * 1024, "forced fused allocated " + allocated + " bytes in 2000 calls");
    }
}
