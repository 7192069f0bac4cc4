package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;
import org.vectorjce.internal.registry.Kernels;
import org.vectorjce.internal.registry.Settings;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec512-16way}'s two batch paths ({@code Twofish16Path}): the fused batch forced
 * on against the scalar kernel and the known answers (where the kernel declines, built directly
 * and checked in the Vector API's Java code), every mode through the JCA on both paths, the
 * setting that chooses the path, and that nothing another provider does changes a provider's
 * path or output. The fused code runs interpreted here (no test waits for C2): a few MB/s, so
 * the data stays small; {@code TwofishFusedAllocationTest} checks it compiled.
 */
class Twofish16PathTest {
    private static final String NAME = "twofish-vec512-16way";

    /**
     * Needs the vector code. Where the kernel declines (no 512-bit species or no AVX-512 VBMI), the
     * kernel tests build it directly and check it all the same, in the Vector API's Java code; the
     * JCA tests need it to run here.
     */
    @BeforeEach
    void needsTheVectorCode() {
        Assumptions.assumeTrue(VectorBridge.vectorModulePresent(), "jdk.incubator.vector is not in the boot layer");
        Assumptions.assumeTrue(VectorBridge.vectorCodeUnavailable() == null, () -> "no vector code: " + VectorBridge.vectorCodeUnavailable());
    }

    private static void assumeItRunsHere() {
        String why = factory().unavailableReason();
        Assumptions.assumeTrue(why == null, () -> NAME + " not available here: " + why);
    }

    private static KernelFactory factory() {
        return KernelRegistry.all("Twofish").stream().filter(f -> f.name().equals(NAME)).findFirst().orElseThrow();
    }

    /**
     * A kernel keyed under {@code twofish16.path=path}: through the registry, or built directly
     * where it declines here.
     */
    private static BlockKernel kernel(byte[] key, String path) {
        Settings s = Settings.BUILT_IN.apply("kernel.twofish=" + NAME + " twofish16.path=" + path);
        if (factory().unavailableReason() == null) {
            return Kernels.select("Twofish", s).create(key.clone());
        }
        System.out.println("[Twofish16PathTest] " + NAME + " declines here (" + factory().unavailableReason()
                + "): built directly, " + path + " path, checked in the Vector API's Java code");
        try {
            return (BlockKernel) Class.forName("org.vectorjce.internal.vector.VectorKernels")
                    .getMethod("create", String.class, byte[].class, boolean.class, int.class)
                    .invoke(null, NAME, key.clone(), false, s.twofishBatch().ordinal());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
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

    /**
     * The default path switches by count alone: a kernel made to probe from its 2nd batch and hand
     * over at its 5th serves split batches until it has served 5 in a direction, fused ones after,
     * each direction counted apart, through a re-key, with the scalar kernel's bytes throughout
     * (whole batches, padded tails and fallback tails); the forced paths do not switch. The fused
     * code runs interpreted here.
     */
    @Test
    void autoHandsOverByCount() throws Exception {
        Random r = new Random(2217);
        byte[] key = new byte[32];
        r.nextBytes(key);
        Object k = Class.forName("org.vectorjce.internal.vector.VectorKernels")
                .getMethod("twofish16Auto", byte[].class, int.class, int.class).invoke(null, key.clone(), 2, 5);
        java.lang.reflect.Method serving = k.getClass().getMethod("servingBatch", boolean.class);
        BlockKernel kernel = (BlockKernel) k;
        BlockKernel ref = TwofishTable.oneWay(key);
        // Blocks per call: 1 batch; a fallback tail; 2 batches and a padded tail; 1 batch and a
        // fallback tail; 2; 1 and a padded tail. Batches served before each call: 0, 1, 1, 4, 5, 5.
        int[] calls = {32, 5, 64 + 20, 32 + 3, 64, 32 + 12};
        String[] want = {"split", "split", "split", "split", "fused", "fused"};
        byte[][] ins = new byte[calls.length][], cts = new byte[calls.length][];
        for (int c = 0; c < calls.length; c++) {
            assertTrue(want[c].equals(serving.invoke(k, true)), "encrypting call " + c + ": " + serving.invoke(k, true));
            assertTrue("split".equals(serving.invoke(k, false)), "decryption has served nothing");
            ins[c] = new byte[16 * calls[c]];
            r.nextBytes(ins[c]);
            cts[c] = new byte[ins[c].length];
            byte[] exp = new byte[ins[c].length];
            kernel.encryptBlocks(ins[c], 0, cts[c], 0, calls[c]);
            ref.encryptBlocks(ins[c], 0, exp, 0, calls[c]);
            assertArrayEquals(exp, cts[c], "encrypting call " + c);
        }
        for (int c = 0; c < calls.length; c++) {
            assertTrue(want[c].equals(serving.invoke(k, false)), "decrypting call " + c + ": " + serving.invoke(k, false));
            kernel.decryptBlocks(cts[c], 0, cts[c], 0, calls[c]);
            assertArrayEquals(ins[c], cts[c], "decrypting call " + c);
        }
        assertTrue("fused".equals(serving.invoke(k, true)));
        byte[] key2 = new byte[16];
        r.nextBytes(key2);
        kernel.rekey(key2);
        assertTrue("fused".equals(serving.invoke(k, true)), "a re-key keeps the count");
        byte[] in = new byte[16 * 64], got = new byte[16 * 64], exp = new byte[16 * 64];
        r.nextBytes(in);
        kernel.encryptBlocks(in, 0, got, 0, 64);
        TwofishTable.oneWay(key2).encryptBlocks(in, 0, exp, 0, 64);
        assertArrayEquals(exp, got, "fused, after the re-key");
        kernel.decryptBlocks(got, 0, got, 0, 64);
        assertArrayEquals(in, got, "decrypting after the re-key");
        kernel.destroy();
        // the forced paths: fused from the first batch, split for good
        for (String path : new String[] {"fused", "split"}) {
            BlockKernel forced = kernel(key, path);
            byte[] buf = new byte[16 * 32 * 8];
            for (int i = 0; i < 4; i++) {
                forced.encryptBlocks(buf, 0, buf, 0, 32 * 8);
                forced.decryptBlocks(buf, 0, buf, 0, 32 * 8);
                for (boolean enc : new boolean[] {true, false}) {
                    Object now = forced.getClass().getMethod("servingBatch", boolean.class).invoke(forced, enc);
                    assertTrue(path.equals(now), path + " forced, after " + 8 * (i + 1) + " batches: " + now);
                }
            }
            assertArrayEquals(new byte[buf.length], buf, path + " forced: round trip");
            forced.destroy();
        }
    }

    /**
     * The forced split path stays split at the counts' ceiling: a kernel whose count in each
     * direction is set just below it (2^31 batches would take an hour to serve) serves split
     * batches, with the scalar kernel's bytes, across the ceiling.
     */
    @Test
    void forcedSplitNeverSwitchesAtTheCountsCeiling() throws Exception {
        Random r = new Random(2218);
        byte[] key = new byte[32];
        r.nextBytes(key);
        BlockKernel k = kernel(key, "split");
        for (String f : new String[] {"encSplit", "decSplit"}) {
            java.lang.reflect.Field count = k.getClass().getDeclaredField(f);
            count.setAccessible(true);
            count.setInt(k, Integer.MAX_VALUE - 3);
        }
        java.lang.reflect.Method serving = k.getClass().getMethod("servingBatch", boolean.class);
        BlockKernel ref = TwofishTable.oneWay(key);
        byte[] in = new byte[16 * 64], got = new byte[in.length], exp = new byte[in.length];
        for (int i = 0; i < 4; i++) {
            r.nextBytes(in);
            k.encryptBlocks(in, 0, got, 0, 64);
            ref.encryptBlocks(in, 0, exp, 0, 64);
            assertArrayEquals(exp, got, "call " + i);
            k.decryptBlocks(got, 0, got, 0, 64);
            assertArrayEquals(in, got, "decrypting, call " + i);
            for (boolean enc : new boolean[] {true, false}) {
                assertTrue("split".equals(serving.invoke(k, enc)), "after call " + i + ": " + serving.invoke(k, enc));
            }
        }
        k.destroy();
    }

    /** Every mode through the JCA gives the same bytes on either path (each mode reaches the kernel's batches). */
    @Test
    void everyModeAgreesOnBothPaths() throws Exception {
        assumeItRunsHere();
        {
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
                        {
                            Cipher c = Cipher.getInstance("Twofish/" + t + "/NoPadding",
                                    new VectorJceProvider().configure("kernel.twofish=" + NAME + " twofish16.path=" + paths[p]));
                            if (t.equals("ECB")) {
                                c.init(opmode, new SecretKeySpec(key, "Twofish"));
                            } else {
                                c.init(opmode, new SecretKeySpec(key, "Twofish"), new IvParameterSpec(iv));
                            }
                            out[p] = c.doFinal(data);
                        }
                    }
                    assertArrayEquals(out[0], out[1], "Twofish/" + t + (opmode == Cipher.ENCRYPT_MODE ? " encrypt" : " decrypt"));
                }
            }
        }
    }

    @Test
    void badSettingIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> kernel(new byte[16], "fast"));
        assertTrue(e.getMessage().contains("twofish16.path") && e.getMessage().contains("'fast'"), e.getMessage());
        java.security.InvalidParameterException p = assertThrows(java.security.InvalidParameterException.class,
                () -> new VectorJceProvider().configure("twofish16.path=fast"));
        assertTrue(p.getMessage().contains("split, fused"), p.getMessage());
    }

    /**
     * A provider's ciphers follow its own settings alone: the default provider's Twofish kernel,
     * batch path (split) and output are the same before and after other providers (the fused path,
     * forced kernels, the constant-time policy) have keyed and run ciphers in this JVM.
     */
    @Test
    void nothingAnotherProviderDidChangesThisOne() throws Exception {
        assumeItRunsHere();
        Random r = new Random(23);
        byte[] key = new byte[64], iv = new byte[16], data = new byte[16 * 77];
        r.nextBytes(key);
        r.nextBytes(iv);
        r.nextBytes(data);
        VectorJceProvider p = new VectorJceProvider();
        String kernel = p.kernelFor("Twofish");
        assertTrue(p.twofishBatch().startsWith("split"), p.twofishBatch());
        byte[] first = xts(p, data, key, iv);
        for (String other : new String[] {"twofish16.path=fused", "kernel.twofish=twofish-table-2way", "constantTime=true",
            "constantTime=true twofish16.path=fused"}) {
            xts(new VectorJceProvider().configure(other), data, key, iv);
        }
        assertTrue(kernel.equals(p.kernelFor("Twofish")), kernel + " became " + p.kernelFor("Twofish"));
        assertTrue(p.twofishBatch().startsWith("split"), p.twofishBatch());
        assertTrue(new VectorJceProvider().twofishBatch().startsWith("split"), new VectorJceProvider().twofishBatch());
        assertArrayEquals(first, xts(p, data, key, iv));
        assertArrayEquals(first, xts(new VectorJceProvider().configure("kernel.twofish=twofish-table-2way"), data, key, iv),
                "against the scalar kernel");
        assertTrue(((VectorJceProvider) new VectorJceProvider().configure("twofish16.path=fused")).twofishBatch().startsWith("fused"));
    }

    private static byte[] xts(java.security.Provider p, byte[] data, byte[] key, byte[] iv) throws Exception {
        Cipher c = Cipher.getInstance("Twofish/XTS/NoPadding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Twofish"), new IvParameterSpec(iv));
        return c.doFinal(data);
    }
}
