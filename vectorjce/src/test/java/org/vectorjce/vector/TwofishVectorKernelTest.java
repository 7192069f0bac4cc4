package org.vectorjce.vector;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * The Twofish vector kernels ({@code twofish-vec128-ct}, {@code twofish-vec256-8way},
 * {@code twofish-vec512-16way}), each
 * forced through its factory and through the JCA ({@code vectorjce.kernel.twofish}), against the
 * one-block scalar kernel {@code twofish-table} and the Linux testmgr vectors; plus a check that
 * the warmed hot path allocates nothing. A kernel that cannot run on this JVM is skipped with its
 * reason.
 */
class TwofishVectorKernelTest {
    /**
     * Multiples of no vector width (8, 32, 64): every batch, padded-tail and scalar-tail path runs
     * (padded tails: 11..31 blocks for the 16-way kernel, 8..31 for the 128-bit one).
     */
    private static final int[] BLOCK_COUNTS = {1, 2, 3, 7, 15, 17, 31, 33, 101, 1000};

    private static final HexFormat HEX = HexFormat.of();

    /**
     * testvectors/linux-testmgr/tf_tv_template.txt records 0-2 (Linux crypto/testmgr.h
     * {@code tf_tv_template}): key, plaintext (all zero), ciphertext.
     */
    private static final String[][] TESTMGR = {
        {"00000000000000000000000000000000", "9f589f5cf6122c32b6bfec2f2ae8c35a"},
        {"0123456789abcdeffedcba98765432100011223344556677", "cfd1d2e5a9be9cdf501f13b892bd2248"},
        {"0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff", "37527be0052334b89f0cfccae87cfa20"},
    };

    /**
     * The two factories. Touching their classes needs {@code jdk.incubator.vector} in the boot
     * layer, so without it (the pom's no-vector-module run) every test here is skipped.
     */
    private static Stream<KernelFactory> factories() {
        Assumptions.assumeTrue(VectorBridge.vectorModulePresent(), "jdk.incubator.vector is not in the boot layer");
        return Stream.of("twofish-vec128-ct", "twofish-vec256-8way", "twofish-vec512-16way").map(TwofishVectorKernelTest::registered);
    }

    private static KernelFactory registered(String name) {
        return KernelRegistry.all("Twofish").stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    private static void assumeAvailable(KernelFactory f) {
        String why = f.unavailableReason();
        Assumptions.assumeTrue(why == null, () -> f.name() + " not available here: " + why);
    }

    private static void run(BlockKernel k, boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (enc) {
            k.encryptBlocks(in, inOff, out, outOff, blocks);
        } else {
            k.decryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    @TestFactory
    Stream<DynamicTest> factoryKernelEqualsScalarKernel() {
        return factories().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            assumeAvailable(f);
            Random r = new Random(f.name().hashCode());
            for (int keyLen : new int[] {16, 24, 32}) {
                byte[] key = new byte[keyLen];
                r.nextBytes(key);
                BlockKernel k = f.create(key);
                assertEquals(f.name(), k.name());
                BlockKernel ref = TwofishTable.oneWay(key);
                for (int blocks : BLOCK_COUNTS) {
                    int inOff = 1 + r.nextInt(19), outOff = 1 + r.nextInt(19);
                    byte[] in = new byte[inOff + 16 * blocks + 7];
                    r.nextBytes(in);
                    for (boolean enc : new boolean[] {true, false}) {
                        String what = f.name() + ", " + keyLen + "-byte key, " + blocks + " blocks, " + (enc ? "encrypt" : "decrypt");
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
                        assertArrayEquals(Arrays.copyOfRange(in, 0, inOff), Arrays.copyOfRange(inPlace, 0, inOff), what + ", bytes before");
                        assertArrayEquals(Arrays.copyOfRange(in, inOff + 16 * blocks, in.length),
                                Arrays.copyOfRange(inPlace, inOff + 16 * blocks, in.length), what + ", bytes after");
                    }
                }
                k.destroy();
                ref.destroy();
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> jcaForcedKernelEqualsScalarKernel() {
        return factories().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            assumeAvailable(f);
            Random r = new Random(~f.name().hashCode());
            {
                VectorJceProvider provider = TestProviders.withKernel("Twofish", f.name());
                assertEquals(f.name(), provider.kernelFor("Twofish"));
                for (int keyLen : new int[] {16, 24, 32}) {
                    byte[] key = new byte[keyLen];
                    r.nextBytes(key);
                    BlockKernel ref = TwofishTable.oneWay(key);
                    SecretKeySpec spec = new SecretKeySpec(key, "Twofish");
                    for (int blocks : BLOCK_COUNTS) {
                        int off = 1 + r.nextInt(19);
                        byte[] data = new byte[off + 16 * blocks];
                        r.nextBytes(data);
                        String what = f.name() + " via JCA, " + keyLen + "-byte key, " + blocks + " blocks";

                        byte[] want = new byte[16 * blocks];
                        ref.encryptBlocks(data, off, want, 0, blocks);
                        Cipher c = Cipher.getInstance("Twofish/ECB/NoPadding", provider);
                        c.init(Cipher.ENCRYPT_MODE, spec);
                        assertArrayEquals(want, c.doFinal(data, off, 16 * blocks), what + ", encrypt");
                        byte[] inPlace = data.clone();
                        c.init(Cipher.ENCRYPT_MODE, spec);
                        assertEquals(16 * blocks, c.doFinal(inPlace, off, 16 * blocks, inPlace, off));
                        assertArrayEquals(want, Arrays.copyOfRange(inPlace, off, off + 16 * blocks), what + ", encrypt in place");

                        ref.decryptBlocks(data, off, want, 0, blocks);
                        c.init(Cipher.DECRYPT_MODE, spec);
                        assertArrayEquals(want, c.doFinal(data, off, 16 * blocks), what + ", decrypt");
                        inPlace = data.clone();
                        c.init(Cipher.DECRYPT_MODE, spec);
                        assertEquals(16 * blocks, c.doFinal(inPlace, off, 16 * blocks, inPlace, off));
                        assertArrayEquals(want, Arrays.copyOfRange(inPlace, off, off + 16 * blocks), what + ", decrypt in place");
                    }
                    ref.destroy();
                }
            }
        }));
    }

    /** The kernel's heap work memory ({@code byte[] mem}), or null where it has none. */
    private static byte[] heapMemory(BlockKernel k) throws ReflectiveOperationException {
        for (java.lang.reflect.Field fd : k.getClass().getDeclaredFields()) {
            if (fd.getName().equals("mem") && fd.getType() == byte[].class) {
                fd.setAccessible(true);
                return (byte[]) fd.get(k);
            }
        }
        return null;
    }

    /** One kernel re-keyed in place through every key size (longest first) equals a fresh kernel each time. */
    @TestFactory
    Stream<DynamicTest> rekeyAcrossKeySizesEqualsAFreshKernel() {
        return factories().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            assumeAvailable(f);
            Random r = new Random(f.name().hashCode() * 31L);
            byte[] first = new byte[32];
            r.nextBytes(first);
            BlockKernel k = f.create(first);
            for (int keyLen : new int[] {16, 32, 24, 16}) {
                byte[] key = new byte[keyLen];
                r.nextBytes(key);
                byte[] in = new byte[16 * 77];
                r.nextBytes(in);
                assertTrue(k.rekey(key.clone()), f.name() + " re-keys in place");
                byte[] mem = heapMemory(k);
                if (mem != null) { // twofish-vec128-ct: nothing of an old (longer) key may remain
                    assertArrayEquals(heapMemory(f.create(key.clone())), mem, f.name() + " memory after re-key to " + keyLen + " bytes");
                }
                BlockKernel fresh = TwofishTable.oneWay(key);
                byte[] want = new byte[in.length], got = new byte[in.length];
                fresh.encryptBlocks(in, 0, want, 0, 77);
                k.encryptBlocks(in, 0, got, 0, 77);
                assertArrayEquals(want, got, f.name() + " re-keyed to " + keyLen + " bytes, encrypt");
                k.decryptBlocks(got, 0, got, 0, 77);
                assertArrayEquals(in, got, f.name() + " re-keyed to " + keyLen + " bytes, decrypt");
            }
            k.destroy();
        }));
    }

    /**
     * The testmgr records, as one block and repeated (all-zero plaintext, so every block has the
     * record's ciphertext) across full vector batches and each kind of tail.
     */
    @TestFactory
    Stream<DynamicTest> linuxTestmgrVectors() {
        return factories().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            assumeAvailable(f);
            for (String[] rec : TESTMGR) {
                byte[] key = HEX.parseHex(rec[0]);
                byte[] ct = HEX.parseHex(rec[1]);
                BlockKernel k = f.create(key);
                for (int blocks : new int[] {1, 8, 31, 32, 100}) {
                    byte[] want = new byte[16 * blocks];
                    for (int i = 0; i < blocks; i++) {
                        System.arraycopy(ct, 0, want, 16 * i, 16);
                    }
                    byte[] buf = new byte[16 * blocks];
                    k.encryptBlocks(buf, 0, buf, 0, blocks);
                    assertArrayEquals(want, buf, f.name() + ", key " + rec[0] + ", " + blocks + " blocks, encrypt");
                    k.decryptBlocks(buf, 0, buf, 0, blocks);
                    assertArrayEquals(new byte[16 * blocks], buf, f.name() + ", key " + rec[0] + ", " + blocks + " blocks, decrypt");
                }
                k.destroy();
            }
        }));
    }

}
