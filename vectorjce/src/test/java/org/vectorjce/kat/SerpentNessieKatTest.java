package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.serpent.SerpentBitslice;

/**
 * NESSIE's Serpent vectors (testvectors/serpent-nessie, see its SOURCE.txt): every record on every
 * Serpent kernel that runs here, both directions, through the provider; and the "Iterated 100 /
 * 1000 times" chains of the encryption sets on {@code serpent-bitslice} (a chain is one block at a
 * time, which every vector kernel hands to that kernel anyway).
 */
class SerpentNessieKatTest {
    private static final String DIR = "serpent-nessie/";

    /** Key bits and the record counts the folder's SOURCE.txt states. */
    private static final int[][] SIZES = {{128, 1028, 514}, {192, 449, 448}, {256, 1284, 642}};

    private static String text(String name) {
        return String.join("", VectorFiles.lines(DIR + name)).strip();
    }

    /** Record {@code i} of {@code s}, {@code width} hex digits each. */
    private static byte[] at(String s, int i, int width) {
        return VectorFiles.hex(s.substring(i * width, (i + 1) * width));
    }

    static Kat.Loaded load(int bits, int records) {
        String keys = text("serpentkey" + bits + ".txt");
        String plain = text("serpentplain" + bits + ".txt");
        String cipher = text("serpentcipher" + bits + ".txt");
        assertEquals(records * 32, cipher.length(), "serpentcipher" + bits + ".txt records");
        assertEquals(records * 32, plain.length(), "serpentplain" + bits + ".txt records");
        assertEquals(records * bits / 4, keys.length(), "serpentkey" + bits + ".txt records");
        List<Kat> kats = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            kats.add(Kat.of(DIR + "Serpent-" + bits + " record " + i, "Serpent", "ECB", "NoPadding",
                    at(keys, i, bits / 4), null, at(plain, i, 32), at(cipher, i, 32)));
        }
        return new Kat.Loaded(kats, Map.of());
    }

    @TestFactory
    Stream<DynamicNode> nessie() {
        List<KatRunner.Source> s = new ArrayList<>();
        for (int[] size : SIZES) {
            s.add(new KatRunner.Source(DIR + "Serpent-" + size[0], "Serpent", () -> load(size[0], size[1])));
        }
        return KatRunner.dynamicTests(s);
    }

    /** The first record as printed in NESSIE's file, so the byte order cannot drift with the reader. */
    @Test
    void firstRecordAsPublished() {
        BlockKernel k = SerpentBitslice.create(VectorFiles.hex("80000000000000000000000000000000"));
        byte[] out = new byte[16];
        k.encryptBlocks(new byte[16], 0, out, 0, 1);
        assertEquals("264e5481eff42a4606abda06c0bfda3d", VectorFiles.hex(out));
    }

    /**
     * The records that share a key (sets 2 and 6 have one key for 128 plaintexts), each group as one
     * ECB message: the vector kernels then run them in whole batches, not on their one-block tail.
     */
    @Test
    void recordsSharingAKeyAsOneMessageOnEveryKernel() throws Exception {
        int longest = 0;
        for (String kernel : KatRunner.kernels("Serpent")) {
            for (int[] size : SIZES) {
                Map<String, java.io.ByteArrayOutputStream[]> byKey = new java.util.LinkedHashMap<>();
                for (Kat k : load(size[0], size[1]).kats()) {
                    java.io.ByteArrayOutputStream[] pc = byKey.computeIfAbsent(VectorFiles.hex(k.key()),
                            x -> new java.io.ByteArrayOutputStream[] {new java.io.ByteArrayOutputStream(), new java.io.ByteArrayOutputStream()});
                    pc[0].writeBytes(k.pt());
                    pc[1].writeBytes(k.ct());
                }
                for (Map.Entry<String, java.io.ByteArrayOutputStream[]> e : byKey.entrySet()) {
                    byte[] pt = e.getValue()[0].toByteArray(), ct = e.getValue()[1].toByteArray();
                    longest = Math.max(longest, pt.length / 16);
                    javax.crypto.spec.SecretKeySpec key = new javax.crypto.spec.SecretKeySpec(VectorFiles.hex(e.getKey()), "Serpent");
                    KatRunner.withKernel("Serpent", kernel, () -> {
                        try {
                            javax.crypto.Cipher c = KatRunner.newCipher("Serpent/ECB/NoPadding");
                            c.init(javax.crypto.Cipher.ENCRYPT_MODE, key);
                            assertEquals(VectorFiles.hex(ct), VectorFiles.hex(c.doFinal(pt)), kernel + " Serpent-" + size[0] + " key " + e.getKey());
                            c.init(javax.crypto.Cipher.DECRYPT_MODE, key);
                            assertEquals(VectorFiles.hex(pt), VectorFiles.hex(c.doFinal(ct)), kernel + " Serpent-" + size[0] + " key " + e.getKey());
                        } catch (java.security.GeneralSecurityException x) {
                            throw new AssertionError(x);
                        }
                        return null;
                    });
                }
            }
        }
        assertTrue(longest >= 128, "a group of 128 blocks (set 2) runs as one message: " + longest);
    }

    @Test
    void iteratedChains() {
        int checked = 0;
        for (int[] size : SIZES) {
            int bits = size[0];
            String keys = text("serpentkey" + bits + ".txt");
            String plain = text("serpentplain" + bits + ".txt");
            String m100 = text("serpentmonte100-" + bits + ".txt");
            String m1000 = text("serpentmonte1000-" + bits + ".txt");
            assertEquals(size[2] * 32, m100.length(), "serpentmonte100-" + bits + ".txt records");
            assertEquals(size[2] * 32, m1000.length(), "serpentmonte1000-" + bits + ".txt records");
            for (int i = 0; i < size[2]; i++) {
                BlockKernel k = SerpentBitslice.create(at(keys, i, bits / 4));
                byte[] x = at(plain, i, 32);
                for (int n = 1; n <= 1000; n++) {
                    k.encryptBlocks(x, 0, x, 0, 1);
                    if (n == 100) {
                        assertEquals(VectorFiles.hex(at(m100, i, 32)), VectorFiles.hex(x), "Serpent-" + bits + " record " + i + " x100");
                    }
                }
                assertEquals(VectorFiles.hex(at(m1000, i, 32)), VectorFiles.hex(x), "Serpent-" + bits + " record " + i + " x1000");
                k.destroy();
                checked++;
            }
        }
        assertEquals(514 + 448 + 642, checked);
    }
}
