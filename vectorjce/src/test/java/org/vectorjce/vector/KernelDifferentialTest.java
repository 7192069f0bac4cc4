package org.vectorjce.vector;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.VectorJce;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * Every kernel available on this JVM, created by name, against the scalar table kernel of its
 * algorithm (an independent implementation, itself checked by the public vectors): block counts
 * that are multiples of no width, odd offsets, in place and out of place, both directions. Plus:
 * the kernel choice matches what this surefire execution expects (full AVX-512, -XX:UseAVX=2, or
 * no vector module). The allocation check is {@link KernelAllocationTest}.
 */
class KernelDifferentialTest {
    private static final int[] BLOCK_COUNTS = {1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 101, 1000};

    private static List<KernelFactory> kernels() {
        List<KernelFactory> l = new ArrayList<>();
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            for (String name : KernelRegistry.availableNames(alg)) {
                l.add(KernelRegistry.byName(alg, name));
            }
        }
        return l;
    }

    private static BlockKernel reference(String alg, byte[] key) {
        return KernelRegistry.byName(alg, switch (alg) {
            case "AES" -> "aes-table";
            case "Twofish" -> "twofish-table";
            default -> "serpent-bitslice";
        }).create(key);
    }

    @TestFactory
    Stream<DynamicTest> everyKernelEqualsTheScalarKernel() {
        return kernels().stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            Random r = new Random(f.name().hashCode());
            for (int keyLen : new int[] {16, 24, 32}) {
                byte[] key = new byte[keyLen];
                r.nextBytes(key);
                BlockKernel k = f.create(key);
                BlockKernel ref = reference(f.algorithm(), key);
                for (int blocks : BLOCK_COUNTS) {
                    int inOff = r.nextInt(20), outOff = r.nextInt(20);
                    byte[] in = new byte[inOff + blocks * 16 + 7];
                    r.nextBytes(in);
                    for (boolean enc : new boolean[] {true, false}) {
                        byte[] want = new byte[outOff + blocks * 16 + 5];
                        byte[] got = want.clone();
                        run(ref, enc, in, inOff, want, outOff, blocks);
                        run(k, enc, in, inOff, got, outOff, blocks);
                        String what = f.name() + " key " + keyLen + " blocks " + blocks + (enc ? " enc" : " dec");
                        assertArrayEquals(want, got, what);
                        byte[] inPlace = in.clone();
                        run(k, enc, inPlace, inOff, inPlace, inOff, blocks);
                        assertArrayEquals(java.util.Arrays.copyOfRange(want, outOff, outOff + blocks * 16),
                                java.util.Arrays.copyOfRange(inPlace, inOff, inOff + blocks * 16), what + " in place");
                    }
                }
                k.destroy();
            }
        }));
    }

    private static void run(BlockKernel k, boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (enc) {
            k.encryptBlocks(in, inOff, out, outOff, blocks);
        } else {
            k.decryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    /**
     * Which kernels this JVM chooses: each surefire execution in pom.xml says what it expects
     * (AVX-512 with the vector module, -XX:UseAVX=2, no vector module).
     */
    @Test
    void selectionMatchesTheExecution() {
        String aes = org.vectorjce.TestMachine.expect("aes");
        String twofish = org.vectorjce.TestMachine.expect("twofish");
        Assumptions.assumeTrue(aes != null && twofish != null, "no expectation given (run outside the pom's executions)");
        assertEquals(aes, TestProviders.current().kernelFor("AES"));
        assertEquals(twofish, TestProviders.current().kernelFor("Twofish"));
        String serpent = org.vectorjce.TestMachine.expect("serpent");
        if (serpent != null) {
            assertEquals(serpent, TestProviders.current().kernelFor("Serpent"));
        }
        String vectorKernels = org.vectorjce.TestMachine.expect("vectorKernels");
        if (vectorKernels != null) {
            List<String> names = new ArrayList<>(KernelRegistry.availableNames("AES"));
            names.addAll(KernelRegistry.availableNames("Twofish"));
            names.addAll(KernelRegistry.availableNames("Serpent"));
            List<String> vec = names.stream().filter(n -> n.contains("-vec")).sorted().toList();
            assertEquals(vectorKernels.equals("none") ? List.of() : List.of(vectorKernels.split(",")).stream().sorted().toList(), vec);
        }
    }
}
