package org.vectorjce.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.vectorjce.TestProviders;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.contract.ContractSupport.Spec;
import org.vectorjce.internal.kernel.BlockKernel;

/**
 * The constant-time policy (issue 14): which kernels it admits at this JVM's width (the pom's
 * expectation per execution: AVX-512, AVX2, no vector module), the error when nothing qualifies,
 * short calls and tails padded (never a table kernel reachable from the cipher), and the results
 * equal to the cipher without the policy.
 */
class ConstantTimePolicyTest {
    /** More settings for {@link #ct} while a test runs (the fused path). */
    private static volatile String ctExtra = "";

    /** The provider under the policy: the current test provider (its forced kernel) with {@code constantTime=true}. */
    private static Provider ct() {
        return TestProviders.current().configure("constantTime=true " + ctExtra);
    }

    private static List<String> expected(String alg) {
        String p = org.vectorjce.TestMachine.expect("ct." + alg.toLowerCase());
        Assumptions.assumeTrue(p != null, "no expectation for this JVM (run through mvn verify)");
        return p.equals("none") ? List.of() : Arrays.asList(p.split(","));
    }

    @Test
    void admitsExactlyTheConstantTimeKernelsThatRunHere() {
        for (String alg : ContractSupport.ALGORITHMS) {
            assertEquals(expected(alg), VectorJce.constantTimeKernels(alg), alg);
        }
    }

    @Test
    void configureAndItsErrors() {
        assertTrue(((VectorJceProvider) ct()).isConstantTime());
        assertFalse(((VectorJceProvider) new VectorJceProvider().configure("constantTime=false")).isConstantTime());
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> new VectorJceProvider().configure("fast=true"));
        assertTrue(e.getMessage().contains("'fast'") && e.getMessage().contains("constantTime"), e.getMessage());
        e = assertThrows(InvalidParameterException.class, () -> new VectorJceProvider().configure("constantTime=maybe"));
        assertTrue(e.getMessage().contains("true or false") && e.getMessage().contains("'maybe'"), e.getMessage());
        e = assertThrows(InvalidParameterException.class, () -> new VectorJceProvider().configure("constantTime"));
        assertTrue(e.getMessage().contains("not key=value"), e.getMessage());
        VectorJceProvider both = (VectorJceProvider) new VectorJceProvider()
                .configure(" ConstantTime=TRUE,  kernel.aes=aes-table ; arithmetic=scalar");
        assertTrue(both.isConstantTime());
        assertEquals("aes-table", both.settings().get("kernel.aes"));
        assertEquals("scalar", both.settings().get("arithmetic"));
        assertTrue(both.getInfo().contains("constantTime=true"), both.getInfo());
    }

    /** Every transformation under the policy: as without it where a kernel qualifies, a clear error where none does. */
    @Test
    void everyTransformationUnderThePolicy() throws Exception {
        Random rnd = new Random(14);
        for (Spec s : ContractSupport.specs()) {
            byte[] key = ContractSupport.key(rnd, s.keyLengths()[1]);
            byte[] iv = ContractSupport.ivFor(s, rnd);
            Cipher c = Cipher.getInstance(s.transformation(), ct());
            if (expected(s.alg()).isEmpty()) {
                InvalidKeyException e = assertThrows(InvalidKeyException.class,
                        () -> ContractSupport.init(c, s, Cipher.ENCRYPT_MODE, key, iv), s.toString());
                assertTrue(e.getMessage().contains("No constant-time " + s.alg() + " kernel runs on this JVM"), e.getMessage());
                ContractSupport.assertNoKeyBytes(e, key);
                continue;
            }
            for (int blocks : new int[] {1, 2, 5, 10, 11, 31, 32, 33, 45, 101}) {
                for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    int len = 16 * blocks + (s.ctr() || s.xts() ? blocks % 7 : 0);
                    byte[] in = ContractSupport.bytes(rnd, len);
                    if (s.padded() && opmode == Cipher.DECRYPT_MODE) {
                        in = ContractSupport.oneShot(s, true, key, iv, in);
                    }
                    ContractSupport.init(c, s, opmode, key, iv);
                    byte[] got = c.doFinal(in);
                    assertArrayEquals(ContractSupport.oneShot(s, opmode == Cipher.ENCRYPT_MODE, key, iv, in), got,
                            s + ", " + len + " bytes, policy on");
                    assertNoTableKernel(s, opmode, key, iv);
                }
            }
        }
    }

    /** Forcing a table kernel under the policy is refused, naming the constant-time ones. */
    @Test
    void aForcedTableKernelIsRefused() throws Exception {
        ContractSupport.withKernel("AES", "aes-table", () -> {
            Cipher c = Cipher.getInstance("AES/ECB/NoPadding", ct());
            InvalidKeyException e = assertThrows(InvalidKeyException.class,
                    () -> c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES")));
            assertTrue(e.getMessage().contains("'aes-table' is not constant-time"), e.getMessage());
        });
        // A provider configured with both: the policy wins, and init says why.
        Cipher c = Cipher.getInstance("Twofish/CBC/NoPadding",
                new VectorJceProvider().configure("kernel.twofish=twofish-table, constantTime=true"));
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE,
                new SecretKeySpec(new byte[16], "Twofish"), new IvParameterSpec(new byte[16])));
        assertTrue(e.getMessage().contains("'twofish-table' is not constant-time"), e.getMessage());
    }

    /**
     * The same init on the SPI itself ({@code Cipher} hides its SPI), then a walk of it: no table
     * kernel anywhere, and the 16-way kernel pads every call.
     */
    private static void assertNoTableKernel(Spec s, int opmode, byte[] key, byte[] iv) throws Exception {
        org.vectorjce.internal.jca.VectorJceCipher spi = KeyHygieneTest.spiFor(s, ct());
        KeyHygieneTest.invoke(KeyHygieneTest.engineInit(), spi, opmode, new SecretKeySpec(key, s.alg()),
                iv == null ? null : new IvParameterSpec(iv), null);
        List<BlockKernel> kernels = new ArrayList<>();
        collect(spi, kernels, 0);
        assertFalse(kernels.isEmpty(), "no kernel found in " + s);
        for (BlockKernel k : kernels) {
            assertFalse(k.name().contains("table"), s + ": a table kernel under the policy: " + k.name());
            if (k.name().startsWith("twofish-vec")) {
                Field pad = k.getClass().getSuperclass().getDeclaredField("padAll"); // TwofishBatchKernel
                pad.setAccessible(true);
                assertTrue(pad.getBoolean(k), s + ": " + k.name() + " must pad short calls under the policy");
            }
        }
    }

    private static void collect(Object o, List<BlockKernel> out, int depth) throws IllegalAccessException {
        if (o == null || depth > 3) {
            return;
        }
        if (o instanceof BlockKernel k) {
            out.add(k);
            return; // a kernel's own fallback is checked through padAll
        }
        for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("org.vectorjce."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive() || f.getType().isArray()) {
                    continue;
                }
                f.setAccessible(true);
                Object v = f.get(o);
                if (v != null && v.getClass().getName().startsWith("org.vectorjce.internal") && !(v instanceof Enum<?>)) {
                    collect(v, out, depth + 1);
                }
            }
        }
    }

    /**
     * {@code twofish-vec512-16way}'s fused batch path ({@code -Dvectorjce.twofish16.path}) changes
     * nothing the policy sees: the same kernels admitted, the same padding of every short call, no
     * table kernel reachable, correct results with the fallback's tables wiped — on either path.
     */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> admitsTheFusedPathAsTheSplitOne() {
        List<String> ct = expected("Twofish");
        Assumptions.assumeTrue(ct.contains("twofish-vec512-16way"), "twofish-vec512-16way does not run here");
        return java.util.stream.Stream.of("split", "fused").map(path -> org.junit.jupiter.api.DynamicTest.dynamicTest(path, () ->
                withCtExtra("twofish16.path=" + path, () -> {
                    assertEquals(ct, VectorJce.constantTimeKernels("Twofish"), path + " path");
                    assertTrue(VectorJce.isConstantTime("Twofish", "twofish-vec512-16way"));
                    ContractSupport.withKernel("Twofish", "twofish-vec512-16way", () -> {
                        Random rnd = new Random(43);
                        for (Spec s : ContractSupport.specs()) {
                            if (!s.alg().equals("Twofish")) {
                                continue;
                            }
                            byte[] key = ContractSupport.key(rnd, s.keyLengths()[1]);
                            byte[] iv = ContractSupport.ivFor(s, rnd);
                            Cipher c = Cipher.getInstance(s.transformation(), ct());
                            for (int blocks : new int[] {1, 11, 33, 70}) {
                                byte[] in = ContractSupport.bytes(rnd, 16 * blocks);
                                ContractSupport.init(c, s, Cipher.ENCRYPT_MODE, key, iv);
                                assertArrayEquals(ContractSupport.oneShot(s, true, key, iv, in), c.doFinal(in),
                                        s + ", " + blocks + " blocks, policy on, " + path + " path");
                            }
                            assertNoTableKernel(s, Cipher.ENCRYPT_MODE, key, iv);
                            assertNoTableKernel(s, Cipher.DECRYPT_MODE, key, iv);
                        }
                        wipedFallbackStillCorrect("twofish-vec512-16way");
                    });
                })));
    }

    private static void withCtExtra(String extra, ContractSupport.ThrowingRunnable body) throws Exception {
        ctExtra = extra;
        try {
            body.run();
        } finally {
            ctExtra = "";
        }
    }

    /**
     * Behaviour, not only the flag: under the policy a Twofish vector kernel's table fallback is
     * never used — with the fallback's tables wiped, 1 to 32 blocks still encrypt and decrypt
     * correctly. For every constant-time Twofish kernel that runs here.
     */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> shortCallsNeverReachTheTableFallback() {
        return expected("Twofish").stream().map(name -> org.junit.jupiter.api.DynamicTest.dynamicTest(name, () ->
                ContractSupport.withKernel("Twofish", name, () -> wipedFallbackStillCorrect(name))));
    }

    /** With the kernel's fallback tables wiped, 1 to 33 blocks under the policy still come out right. */
    private static void wipedFallbackStillCorrect(String name) throws Exception {
                    Random rnd = new Random(41);
                    byte[] key = ContractSupport.bytes(rnd, 32);
                    org.vectorjce.internal.kernel.KernelFactory f = org.vectorjce.internal.registry.Kernels.select("Twofish",
                            TestProviders.settingsOf((org.vectorjce.VectorJceProvider) ct()));
                    assertEquals(name, f.name());
                    BlockKernel k = f.create(key.clone());
                    Field fb = k.getClass().getSuperclass().getDeclaredField("fallback"); // TwofishBatchKernel
                    fb.setAccessible(true);
                    Object table = fb.get(k);
                    for (String t : new String[] {"t0", "t1", "t2", "t3"}) {
                        Field tf = table.getClass().getSuperclass().getDeclaredField(t);
                        tf.setAccessible(true);
                        Arrays.fill((int[]) tf.get(table), 0);
                    }
                    BlockKernel ref = org.vectorjce.internal.twofish.TwofishTable.oneWay(key);
                    for (int blocks = 1; blocks <= 33; blocks++) {
                        byte[] in = ContractSupport.bytes(rnd, 16 * blocks), want = new byte[in.length], got = new byte[in.length];
                        ref.encryptBlocks(in, 0, want, 0, blocks);
                        k.encryptBlocks(in, 0, got, 0, blocks);
                        assertArrayEquals(want, got, name + ", " + blocks + " blocks under the policy");
                        k.decryptBlocks(got, 0, got, 0, blocks);
                        assertArrayEquals(in, got, name + ", " + blocks + " blocks decrypted under the policy");
                    }
    }
}
