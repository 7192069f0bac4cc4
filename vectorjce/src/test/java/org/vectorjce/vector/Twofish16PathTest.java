package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.Kernels;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec512-16way}'s two batch paths and the switch between them
 * ({@code Twofish16Path}): the fused batch forced on against the scalar kernel and the known
 * answers; the switch logic driven step by step with a fake clock and fake timings (reached by
 * reflection: the vector package is compiled for Java 25, the tests for 17); and real kernels of
 * this JVM across a switch, from several threads. The fused code runs interpreted here (no test
 * waits for C2): a few MB/s, so the data stays small.
 */
class Twofish16PathTest {
    private static final String NAME = "twofish-vec512-16way";
    private static final String PROPERTY = "vectorjce.twofish16.path";
    private static final String PKG = "org.vectorjce.internal.vector.";
    private static final int AUTO = 0, FUSED = 1, SPLIT = 2;

    @BeforeEach
    void needsTheKernel() {
        Assumptions.assumeTrue(Kernels.vectorModulePresent(), "jdk.incubator.vector is not in the boot layer");
        String why = factory().unavailableReason();
        Assumptions.assumeTrue(why == null, () -> NAME + " not available here: " + why);
    }

    private static KernelFactory factory() {
        return Kernels.all("Twofish").stream().filter(f -> f.name().equals(NAME)).findFirst().orElseThrow();
    }

    /** A kernel keyed while {@value #PROPERTY} is {@code path} (null: unset). */
    private static BlockKernel kernel(byte[] key, String path) {
        String saved = System.getProperty(PROPERTY);
        set(PROPERTY, path);
        try {
            return factory().create(key.clone());
        } finally {
            set(PROPERTY, saved);
        }
    }

    private static void set(String p, String v) {
        if (v == null) {
            System.clearProperty(p);
        } else {
            System.setProperty(p, v);
        }
    }

    private static void run(BlockKernel k, boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (enc) {
            k.encryptBlocks(in, inOff, out, outOff, blocks);
        } else {
            k.decryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    // ---------------------------------------------------------------- the fused path, forced on

    /** Every block count 1..40 (each padded-tail and fallback length, one and two batches) and some large. */
    @Test
    void fusedPathEqualsScalarKernel() {
        Random r = new Random(2216);
        List<Integer> counts = new ArrayList<>();
        for (int b = 1; b <= 40; b++) {
            counts.add(b);
        }
        counts.addAll(List.of(63, 64, 65, 100, 333, 1000));
        for (int keyLen : new int[] {16, 24, 32}) {
            byte[] key = new byte[keyLen];
            r.nextBytes(key);
            BlockKernel k = kernel(key, "fused");
            BlockKernel ref = TwofishTable.oneWay(key);
            for (int blocks : counts) {
                int inOff = r.nextInt(17), outOff = r.nextInt(17);
                byte[] in = new byte[inOff + 16 * blocks + 3];
                r.nextBytes(in);
                for (boolean enc : new boolean[] {true, false}) {
                    String what = keyLen + "-byte key, " + blocks + " blocks, " + (enc ? "encrypt" : "decrypt");
                    byte[] want = new byte[outOff + 16 * blocks + 5];
                    r.nextBytes(want);
                    byte[] got = want.clone();
                    run(ref, enc, in, inOff, want, outOff, blocks);
                    run(k, enc, in, inOff, got, outOff, blocks);
                    assertArrayEquals(want, got, what + ", out of place");
                    byte[] inPlace = in.clone();
                    run(k, enc, inPlace, inOff, inPlace, inOff, blocks);
                    assertArrayEquals(Arrays.copyOfRange(want, outOff, outOff + 16 * blocks),
                            Arrays.copyOfRange(inPlace, inOff, inOff + 16 * blocks), what + ", in place");
                }
            }
            k.destroy();
        }
    }

    /** Linux testmgr {@code tf_tv_template} records 0-2 (all-zero plaintext), forced fused, over batches and tails. */
    @Test
    void fusedPathKnownAnswers() {
        HexFormat hex = HexFormat.of();
        String[][] records = {
            {"00000000000000000000000000000000", "9f589f5cf6122c32b6bfec2f2ae8c35a"},
            {"0123456789abcdeffedcba98765432100011223344556677", "cfd1d2e5a9be9cdf501f13b892bd2248"},
            {"0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff", "37527be0052334b89f0cfccae87cfa20"},
        };
        for (String[] rec : records) {
            BlockKernel k = kernel(hex.parseHex(rec[0]), "fused");
            byte[] ct = hex.parseHex(rec[1]);
            for (int blocks : new int[] {1, 11, 31, 32, 33, 64, 100}) {
                byte[] want = new byte[16 * blocks];
                for (int i = 0; i < blocks; i++) {
                    System.arraycopy(ct, 0, want, 16 * i, 16);
                }
                byte[] buf = new byte[16 * blocks];
                k.encryptBlocks(buf, 0, buf, 0, blocks);
                assertArrayEquals(want, buf, rec[0] + ", " + blocks + " blocks, encrypt");
                k.decryptBlocks(buf, 0, buf, 0, blocks);
                assertArrayEquals(new byte[16 * blocks], buf, rec[0] + ", " + blocks + " blocks, decrypt");
            }
        }
    }

    /** Every mode through the JCA gives the same bytes on either path (each mode reaches the kernel's batches). */
    @Test
    void everyModeAgreesOnBothPaths() throws Exception {
        String kernelProp = VectorJce.kernelProperty("Twofish");
        String saved = System.getProperty(kernelProp);
        System.setProperty(kernelProp, NAME);
        try {
            Random r = new Random(22);
            for (String t : new String[] {"ECB", "CBC", "CTR", "XTS", "LRW"}) {
                byte[] key = new byte[t.equals("XTS") ? 64 : t.equals("LRW") ? 48 : 32];
                r.nextBytes(key);
                byte[] iv = new byte[16];
                r.nextBytes(iv);
                byte[] data = new byte[16 * 77];
                r.nextBytes(data);
                for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    byte[][] out = new byte[2][];
                    String[] paths = {"split", "fused"};
                    for (int p = 0; p < 2; p++) {
                        String s = System.getProperty(PROPERTY);
                        System.setProperty(PROPERTY, paths[p]);
                        try {
                            Cipher c = Cipher.getInstance("Twofish/" + t + "/NoPadding", new VectorJceProvider());
                            if (t.equals("ECB")) {
                                c.init(opmode, new SecretKeySpec(key, "Twofish"));
                            } else {
                                c.init(opmode, new SecretKeySpec(key, "Twofish"), new IvParameterSpec(iv));
                            }
                            out[p] = c.doFinal(data);
                        } finally {
                            set(PROPERTY, s);
                        }
                    }
                    assertArrayEquals(out[0], out[1], "Twofish/" + t + (opmode == Cipher.ENCRYPT_MODE ? " encrypt" : " decrypt"));
                }
            }
        } finally {
            set(kernelProp, saved);
        }
    }

    @Test
    void badPropertyFailsKeySetUp() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> kernel(new byte[16], "fast"));
        assertTrue(e.getMessage().contains(PROPERTY), e.getMessage());
    }

    // ---------------------------------------------------------------- the switch logic, faked

    /** A Twofish16Path with a fake clock, fake probe and a starter that only records. */
    private static final class Fake {
        final long[] now = {0};
        final List<Runnable> started = new ArrayList<>();
        int probesMade, primeCalls, splitCalls;
        long splitNanos = 10_000;
        /** Fused call times handed out in order; the last repeats. */
        long[] fusedNanos = {1_000_000};
        int fusedCalls;
        /** Clock advance per fused call. */
        long tick = 1_000_000;
        boolean equal = true;
        final Object path;

        Fake(long gate, long timeout) throws Exception {
            Class<?> c = Class.forName(PKG + "Twofish16Path");
            Class<?> probe = Class.forName(PKG + "Twofish16Path$Probe");
            Object p = Proxy.newProxyInstance(probe.getClassLoader(), new Class<?>[] {probe}, (proxy, m, args) ->
                switch (m.getName()) {
                    case "split" -> {
                        splitCalls++;
                        yield splitNanos;
                    }
                    case "fused" -> {
                        now[0] += tick;
                        yield fusedNanos[Math.min(fusedCalls++, fusedNanos.length - 1)];
                    }
                    case "prime" -> {
                        primeCalls += (Integer) args[0];
                        yield null;
                    }
                    case "fusedEqualsSplit" -> equal;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
            Constructor<?> k = c.getDeclaredConstructor(String.class, LongSupplier.class, long.class, long.class,
                    Supplier.class, Consumer.class);
            k.setAccessible(true);
            LongSupplier clock = () -> now[0];
            Supplier<Object> probes = () -> {
                probesMade++;
                return p;
            };
            Consumer<Runnable> starter = started::add;
            path = k.newInstance("encryption", clock, gate, timeout, probes, starter);
        }

        Object call(String method, Object... args) throws Exception {
            for (Method m : path.getClass().getDeclaredMethods()) {
                if (m.getName().equals(method) && m.getParameterCount() == args.length) {
                    m.setAccessible(true);
                    try {
                        return m.invoke(path, args);
                    } catch (InvocationTargetException e) {
                        throw (Exception) e.getCause();
                    }
                }
            }
            throw new NoSuchMethodException(method);
        }

        void count(long batches) throws Exception {
            call("countSplit", batches);
        }

        boolean step() throws Exception {
            return (Boolean) call("step");
        }

        boolean serves(int mode) throws Exception {
            return (Boolean) call("fused", mode);
        }

        String description() throws Exception {
            return (String) call("description");
        }
    }

    @Test
    void noWarmUpAndNoFusedCallBeforeTheGate() throws Exception {
        Fake f = new Fake(1000, 10_000_000_000L);
        for (int i = 0; i < 999; i++) {
            f.count(1);
            assertFalse(f.serves(AUTO));
        }
        assertTrue(f.started.isEmpty(), "warm-up started before the gate");
        assertEquals(0, f.probesMade, "the probe (a dummy kernel) was built before the gate");
        assertTrue(f.description().contains("starts after"), f.description());
        f.count(1);
        assertEquals(1, f.started.size(), "warm-up starts at the gate");
        assertTrue(f.description().contains("warming up"), f.description());
        f.count(1_000_000);
        assertEquals(1, f.started.size(), "one warm-up per JVM");
        assertFalse(f.serves(AUTO), "nothing served before the warm-up has qualified");
        assertTrue(f.serves(FUSED), "forced fused serves at once");
    }

    @Test
    void switchesAfterFiveConsecutiveFastCallsOnly() throws Exception {
        Fake f = new Fake(1, 10_000_000_000L);
        // slow (interpreted), fast x4, one just above the split speed (1.1x: not enough), then fast x5
        f.fusedNanos = new long[] {1_000_000, 1_000_000, 500, 500, 500, 500, 9_000, 500, 500, 500, 500, 500};
        f.count(1);
        f.started.get(0); // the thread's body is step() in a loop: driven by hand here
        assertTrue(f.step(), "first step: the split reference");
        assertEquals(8, f.splitCalls);
        for (int i = 0; i < 11; i++) {
            assertTrue(f.step(), "step " + i + " still warming");
            assertFalse(f.serves(AUTO), "served fused after fused call " + i);
        }
        assertFalse(f.step(), "the fifth consecutive fast call ends the warm-up");
        assertTrue(f.serves(AUTO));
        assertFalse(f.serves(SPLIT), "forced split stays split whatever the switch says");
        assertEquals(32 * 12, f.primeCalls, "one-batch priming calls before each timed one");
        assertTrue(f.description().startsWith("encryption: fused since"), f.description());
        assertFalse(f.step(), "nothing after the end");
    }

    @Test
    void aFloorQualifiesWhenTheSplitReferenceWasFast() throws Exception {
        Fake f = new Fake(1, 10_000_000_000L);
        f.splitNanos = 1_000; // 8 GB/s: the ratio cannot be met ...
        f.fusedNanos = new long[] {4_000}; // ... but 2 GB/s is above the 1 GB/s floor
        f.count(1);
        int steps = 0;
        while (f.step()) {
            steps++;
        }
        assertEquals(5, steps);
        assertTrue(f.serves(AUTO));
    }

    @Test
    void timesOutAndStaysSplit() throws Exception {
        Fake f = new Fake(1, 10_000_000_000L);
        f.fusedNanos = new long[] {2_000_000}; // 4 MB/s: C2 never came
        f.tick = 1_000_000_000L;
        f.count(1);
        int steps = 0;
        while (f.step()) {
            steps++;
            assertTrue(steps < 100, "no timeout");
        }
        assertEquals(11, steps, "1 s per step, 10 s timeout");
        assertFalse(f.serves(AUTO));
        assertTrue(f.description().contains("did not reach speed"), f.description());
        assertTrue(f.description().contains("4 MB/s"), f.description());
        f.count(1_000_000);
        assertEquals(1, f.started.size(), "no second warm-up");
    }

    @Test
    void staysSplitWhenTheFusedOutputDiffers() throws Exception {
        Fake f = new Fake(1, 10_000_000_000L);
        f.fusedNanos = new long[] {500};
        f.equal = false;
        f.count(1);
        while (f.step()) {
            // until done
        }
        assertFalse(f.serves(AUTO));
        assertTrue(f.description().contains("differed"), f.description());
    }

    @Test
    void aFailingWarmUpStaysSplit() throws Exception {
        Fake f = new Fake(1, 10_000_000_000L);
        f.fusedNanos = new long[] {500};
        f.count(1);
        Field probe = f.path.getClass().getDeclaredField("probes");
        probe.setAccessible(true);
        probe.set(f.path, (Supplier<Object>) () -> {
            throw new OutOfMemoryError("test");
        });
        f.started.get(0).run(); // the real thread body
        assertFalse(f.serves(AUTO));
        assertTrue(f.description().contains("warm-up failed"), f.description());
    }

    // ---------------------------------------------------------------- real kernels, the JVM's switch

    private static Object jvmPath(boolean encrypt) throws Exception {
        Field f = Class.forName(PKG + "Twofish16Path").getDeclaredField(encrypt ? "ENCRYPT" : "DECRYPT");
        f.setAccessible(true);
        return f.get(null);
    }

    private static Field flag() throws Exception {
        Field f = Class.forName(PKG + "Twofish16Path").getDeclaredField("fused");
        f.setAccessible(true);
        return f;
    }

    /** The fused path's heap tables: wiped, the fused path computes garbage, the split path is untouched. */
    private static void wipeFusedTables(BlockKernel k) throws Exception {
        Field f = k.getClass().getDeclaredField("tab");
        f.setAccessible(true);
        Arrays.fill((byte[]) f.get(k), (byte) 0);
    }

    /**
     * Which code served, seen in the output: with the fused tables wiped, a kernel is right only
     * on the split path. Before the switch (and whatever the switch says, under forced split) no
     * batch reaches the fused code; after it, every auto kernel's batches do.
     */
    @Test
    void realKernelsServeSplitUntilTheSwitchAndWhenForcedSplit() throws Exception {
        Object enc = jvmPath(true), dec = jvmPath(false);
        Field flag = flag();
        boolean savedEnc = flag.getBoolean(enc), savedDec = flag.getBoolean(dec);
        Random r = new Random(5);
        byte[] key = new byte[32];
        r.nextBytes(key);
        BlockKernel ref = TwofishTable.oneWay(key);
        byte[] in = new byte[16 * 70];
        r.nextBytes(in);
        byte[] want = new byte[in.length], wantDec = new byte[in.length];
        ref.encryptBlocks(in, 0, want, 0, 70);
        ref.decryptBlocks(in, 0, wantDec, 0, 70);
        try {
            flag.setBoolean(enc, false);
            flag.setBoolean(dec, false);
            BlockKernel auto = kernel(key, "auto"), split = kernel(key, "split");
            wipeFusedTables(auto);
            wipeFusedTables(split);
            byte[] got = new byte[in.length];
            auto.encryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(want, got, "auto before the switch: split path");
            auto.decryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(wantDec, got, "auto before the switch: split path (decrypt)");
            flag.setBoolean(enc, true);
            flag.setBoolean(dec, true);
            split.encryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(want, got, "forced split after the switch");
            split.decryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(wantDec, got, "forced split after the switch (decrypt)");
            auto.encryptBlocks(in, 0, got, 0, 70);
            assertNotEquals(Arrays.toString(want), Arrays.toString(got), "auto after the switch runs the fused path");
            BlockKernel fresh = kernel(key, null);
            fresh.encryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(want, got, "a kernel keyed after the switch, fused, correct");
            fresh.decryptBlocks(in, 0, got, 0, 70);
            assertArrayEquals(wantDec, got, "a kernel keyed after the switch, fused, correct (decrypt)");
        } finally {
            flag.setBoolean(enc, savedEnc);
            flag.setBoolean(dec, savedDec);
        }
    }

    /** Threads encrypting and decrypting while the JVM's switch flips back and forth: every output correct. */
    @Test
    void concurrentCallersAcrossSwitches() throws Exception {
        Object enc = jvmPath(true), dec = jvmPath(false);
        Field flag = flag();
        boolean savedEnc = flag.getBoolean(enc), savedDec = flag.getBoolean(dec);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    byte[] key = new byte[16 + 8 * seed];
                    r.nextBytes(key);
                    BlockKernel k = kernel(key, null), ref = TwofishTable.twoWay(key);
                    int calls = 0;
                    while (!stop.get() || calls < 20) {
                        int blocks = 1 + r.nextInt(96);
                        byte[] in = new byte[16 * blocks], want = new byte[in.length], got = new byte[in.length];
                        r.nextBytes(in);
                        boolean e = r.nextBoolean();
                        run(ref, e, in, 0, want, 0, blocks);
                        run(k, e, in, 0, got, 0, blocks);
                        assertArrayEquals(want, got, "thread " + seed + ", call " + calls + ", " + blocks + " blocks");
                        calls++;
                    }
                    return calls;
                }));
            }
            for (int i = 0; i < 40; i++) {
                flag.setBoolean(enc, (i & 1) == 0);
                flag.setBoolean(dec, (i & 2) == 0);
                Thread.sleep(5);
            }
            stop.set(true);
            for (Future<Integer> f : results) {
                assertTrue(f.get() >= 20);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
            flag.setBoolean(enc, savedEnc);
            flag.setBoolean(dec, savedDec);
        }
    }
}
