package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Wycheproof {@code aes_cbc_pkcs5_test.json} through {@code AES/CBC/PKCS5Padding}: "valid" cases
 * must match both ways; "invalid" ones (bad or missing padding) must make decryption throw
 * {@code BadPaddingException} or {@code IllegalBlockSizeException} (they have no encryption).
 */
class WycheproofCbcPkcs5KatTest {

    static Kat.Loaded load() {
        String file = "wycheproof/aes_cbc_pkcs5_test.json";
        Map<String, Object> root = VectorFiles.obj(VectorFiles.json(file));
        assertEquals("AES-CBC-PKCS5", root.get("algorithm"));
        List<Kat> kats = new ArrayList<>();
        Map<String, Integer> results = new TreeMap<>();
        for (Object g : VectorFiles.arr(root.get("testGroups"))) {
            Map<String, Object> group = VectorFiles.obj(g);
            int keySize = ((Number) group.get("keySize")).intValue();
            for (Object t : VectorFiles.arr(group.get("tests"))) {
                Map<String, Object> tc = VectorFiles.obj(t);
                String result = (String) tc.get("result");
                results.merge(result, 1, Integer::sum);
                String label = file + " tcId " + tc.get("tcId") + " (" + tc.get("comment") + ", " + result
                        + ", flags " + tc.get("flags") + ")";
                byte[] key = VectorFiles.hex((String) tc.get("key"));
                assertEquals(keySize / 8, key.length, label + " keySize");
                byte[] iv = VectorFiles.hex((String) tc.get("iv"));
                byte[] msg = VectorFiles.hex((String) tc.get("msg"));
                byte[] ct = VectorFiles.hex((String) tc.get("ct"));
                switch (result) {
                    case "valid", "acceptable" -> kats.add(Kat.of(label, "AES", "CBC", "PKCS5Padding", key, iv, msg, ct));
                    case "invalid" -> kats.add(new Kat(label, "AES", "CBC", "PKCS5Padding", key, iv, msg, ct,
                            Kat.Outcome.SKIP, Kat.Outcome.REJECT, "invalid padding: decrypt-only"));
                    default -> throw new AssertionError(label + ": unknown result " + result);
                }
            }
        }
        assertEquals(((Number) root.get("numberOfTests")).intValue(), kats.size(), file + " numberOfTests");
        assertEquals(216, kats.size(), file + " tests");
        System.out.println("[KAT] " + file + ": results " + results);
        return new Kat.Loaded(kats, Map.of());
    }

    @TestFactory
    Stream<DynamicNode> wycheproofCbcPkcs5() {
        return KatRunner.dynamicTests(List.of(
                new KatRunner.Source("wycheproof/aes_cbc_pkcs5_test.json", "AES", WycheproofCbcPkcs5KatTest::load)));
    }
}
