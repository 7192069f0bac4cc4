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
import org.vectorjce.internal.kernel.Kernels;
import org.vectorjce.internal.kernel.Settings;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * {@code twofish-vec512-16way}'s batch ({@code TwofishVec512Rounds}, one round per loop iteration
 * with the state in registers) against the scalar kernel and the known answers, every block count
 * through batches, padded tails and the fallback; and that what a provider runs depends on its own
 * settings only, whatever other providers did before in this JVM.
 */
class Twofish16BatchTest {
    private static final String NAME = "twofish-vec512-16way";

    /**
     * Needs the vector code. Where the kernel declines (no AVX-512 VBMI: the byte permutes would be
     * emulated), it is built directly and checked all the same, in the Vector API's Java code.
     */
    @BeforeEach
    void needsTheVectorCode() {
        Assumptions.assumeTrue(Kernels.vectorModulePresent(), "jdk.incubator.vector is not in the boot layer");
        Assumptions.assumeTrue(Kernels.vectorCodeUnavailable() == null, () -> "no vector code: " + Kernels.vectorCodeUnavailable());
        if (factory().unavailableReason() != null) {
            System.out.println("[Twofish16BatchTest] " + NAME + " declines here (" + factory().unavailableReason()
                    + "): checked in the Vector API's Java code");
        }
    }

    private static KernelFactory factory() {
        return Kernels.all("Twofish").stream().filter(f -> f.name().equals(NAME)).findFirst().orElseThrow();
    }

    /** A {@code twofish-vec512-16way} kernel keyed with a copy of {@code key}: through the registry, or built directly where it declines. */
    private static BlockKernel kernel(byte[] key) {
        if (factory().unavailableReason() == null) {
            return Kernels.select("Twofish", Settings.BUILT_IN.apply("kernel.twofish=" + NAME)).create(key.clone());
        }
        try {
            return (BlockKernel) Class.forName("org.vectorjce.internal.vector.VectorKernels")
                    .getMethod("create", String.class, byte[].class, boolean.class).invoke(null, NAME, key.clone(), false);
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

    /** Every block count 1..40 (each padded-tail and fallback length, one and two batches) and some large. */
    @Test
    void batchEqualsScalarKernel() {
        Random r = new Random(2216);
        List<Integer> counts = new ArrayList<>();
        for (int b = 1; b <= 40; b++) {
            counts.add(b);
        }
        counts.addAll(List.of(63, 64, 65, 100, 333, 1000));
        for (int keyLen : new int[] {16, 24, 32}) {
            byte[] key = new byte[keyLen];
            r.nextBytes(key);
            BlockKernel k = kernel(key);
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

    /** Linux testmgr {@code tf_tv_template} records 0-2 (all-zero plaintext), over batches and tails. */
    @Test
    void batchKnownAnswers() {
        HexFormat hex = HexFormat.of();
        String[][] records = {
            {"00000000000000000000000000000000", "9f589f5cf6122c32b6bfec2f2ae8c35a"},
            {"0123456789abcdeffedcba98765432100011223344556677", "cfd1d2e5a9be9cdf501f13b892bd2248"},
            {"0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff", "37527be0052334b89f0cfccae87cfa20"},
        };
        for (String[] rec : records) {
            BlockKernel k = kernel(hex.parseHex(rec[0]));
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
     * A provider's ciphers follow its own settings alone: the default provider's Twofish kernel and
     * output are the same before and after other providers (forced kernels, the constant-time
     * policy) have keyed and run ciphers in this JVM, and a setting no provider has is refused.
     */
    @Test
    void nothingAnotherProviderDidChangesThisOne() throws Exception {
        Assumptions.assumeTrue(factory().unavailableReason() == null, () -> NAME + " declines here: " + factory().unavailableReason());
        Random r = new Random(23);
        byte[] key = new byte[64], iv = new byte[16], data = new byte[16 * 77];
        r.nextBytes(key);
        r.nextBytes(iv);
        r.nextBytes(data);
        VectorJceProvider p = new VectorJceProvider();
        String kernel = p.kernelFor("Twofish");
        byte[] first = xts(p, data, key, iv);
        for (String other : new String[] {"kernel.twofish=twofish-table-2way", "constantTime=true", "kernel.twofish=" + NAME}) {
            xts(new VectorJceProvider().configure(other), data, key, iv);
        }
        assertTrue(kernel.equals(p.kernelFor("Twofish")), kernel + " became " + p.kernelFor("Twofish"));
        assertArrayEquals(first, xts(p, data, key, iv));
        assertArrayEquals(first, xts(new VectorJceProvider().configure("kernel.twofish=twofish-table-2way"), data, key, iv),
                "against the scalar kernel");
        java.security.InvalidParameterException e = assertThrows(java.security.InvalidParameterException.class,
                () -> new VectorJceProvider().configure("twofish16.path=fused"));
        assertTrue(e.getMessage().contains("twofish16.path"), e.getMessage());
    }

    private static byte[] xts(java.security.Provider p, byte[] data, byte[] key, byte[] iv) throws Exception {
        Cipher c = Cipher.getInstance("Twofish/XTS/NoPadding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Twofish"), new IvParameterSpec(iv));
        return c.doFinal(data);
    }
}
