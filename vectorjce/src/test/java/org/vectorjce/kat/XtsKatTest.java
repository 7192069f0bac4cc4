package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.kat.VectorFiles.Rec;

/**
 * XTS known answers: IEEE 1619-2007 Annex B, NIST CAVP XTSGen (both tweak encodings), Wycheproof
 * {@code aes_xts_test.json} and Botan {@code xts.vec} (AES and Twofish sections). Key = Key1 || Key2,
 * IV = the 16-byte tweak, one data unit per {@code doFinal}. Records with equal key halves run
 * decrypt-only, and encrypt {@code init} must throw {@code InvalidKeyException}.
 */
class XtsKatTest {

    static Kat.Loaded ieee1619() {
        String file = "ieee1619-2007-xts-aes/ieee1619-2007-appendixB-xts-aes.txt";
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        assertEquals(19, recs.size(), file + " records");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            String label = r.where() + " vector " + r.req("VECTOR");
            byte[] key = r.hex("KEY");
            byte[] pt = r.hex("PLAINTEXT");
            assertEquals(r.integer("KEYLEN"), key.length, label + " KEYLEN");
            assertEquals(r.integer("LEN"), pt.length, label + " LEN");
            assertEquals(r.has("EQUAL_KEY_HALVES"), Kat.equalHalves(key), label + " EQUAL_KEY_HALVES");
            kats.add(Kat.xts(label, "AES", key, r.hex("TWEAK"), pt, r.hex("CIPHERTEXT")));
        }
        assertEquals(1, kats.stream().filter(k -> Kat.equalHalves(k.key())).count(), "IEEE vector 1 only has equal halves");
        return new Kat.Loaded(kats, Map.of());
    }

    /**
     * A NIST XTSGen file; records whose DataUnitLen (bits) is not a multiple of 8 cannot be run
     * through a byte API and are skipped: {@code expectedSkipped} of {@code 1000}.
     */
    static Kat.Loaded nist(String file, int expectedSkipped) {
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        assertEquals(1000, recs.size(), file + " records");
        List<Kat> kats = new ArrayList<>();
        int skipped = 0;
        for (Rec r : recs) {
            String label = r.where() + " COUNT=" + r.req("COUNT");
            int bits = r.integer("DataUnitLen");
            if (bits % 8 != 0) {
                skipped++;
                continue;
            }
            byte[] tweak;
            if (r.has("i")) {
                tweak = r.hex("i");
            } else {
                // Data-unit sequence number, as a 16-byte little-endian integer.
                BigInteger n = new BigInteger(r.req("DataUnitSeqNumber").trim());
                byte[] be = n.toByteArray();
                tweak = new byte[16];
                for (int i = 0; i < be.length && i < 16; i++) {
                    tweak[i] = be[be.length - 1 - i];
                }
                label += " seq=" + n;
            }
            assertEquals(16, tweak.length, label + " tweak length");
            byte[] pt = r.hex("PT");
            byte[] ct = r.hex("CT");
            assertEquals(bits / 8, pt.length, label + " DataUnitLen vs PT");
            assertEquals(bits / 8, ct.length, label + " DataUnitLen vs CT");
            kats.add(Kat.xts(label, "AES", r.hex("Key"), tweak, pt, ct));
        }
        System.out.printf("[KAT] %s: %d records, %d run, %d skipped (DataUnitLen not a multiple of 8 bits; expected %d)%n",
                file, recs.size(), kats.size(), skipped, expectedSkipped);
        assertEquals(expectedSkipped, skipped, file + ": records skipped for a non-byte DataUnitLen");
        return new Kat.Loaded(kats, Map.of("DataUnitLen not a multiple of 8", skipped));
    }

    /** Wycheproof: a short iv is the leading bytes of the tweak, zero-padded on the right. */
    static Kat.Loaded wycheproof() {
        String file = "wycheproof/aes_xts_test.json";
        Map<String, Object> root = VectorFiles.obj(VectorFiles.json(file));
        assertEquals("AES-XTS", root.get("algorithm"));
        List<Kat> kats = new ArrayList<>();
        Map<String, Integer> results = new TreeMap<>();
        for (Object g : VectorFiles.arr(root.get("testGroups"))) {
            Map<String, Object> group = VectorFiles.obj(g);
            int keySize = ((Number) group.get("keySize")).intValue();
            int ivSize = ((Number) group.get("ivSize")).intValue();
            for (Object t : VectorFiles.arr(group.get("tests"))) {
                Map<String, Object> tc = VectorFiles.obj(t);
                String result = (String) tc.get("result");
                results.merge(result, 1, Integer::sum);
                String label = file + " tcId " + tc.get("tcId") + " (" + tc.get("comment") + ", " + result + ")";
                byte[] key = VectorFiles.hex((String) tc.get("key"));
                byte[] iv = VectorFiles.hex((String) tc.get("iv"));
                assertEquals(keySize / 8, key.length, label + " keySize");
                assertEquals(ivSize / 8, iv.length, label + " ivSize");
                assertTrue(iv.length <= 16, label + " iv longer than a block");
                byte[] tweak = Arrays.copyOf(iv, 16);
                byte[] msg = VectorFiles.hex((String) tc.get("msg"));
                byte[] ct = VectorFiles.hex((String) tc.get("ct"));
                switch (result) {
                    case "valid", "acceptable" -> kats.add(Kat.xts(label, "AES", key, tweak, msg, ct));
                    case "invalid" -> kats.add(new Kat(label, "AES", "XTS", "NoPadding", key, tweak, msg, ct,
                            Kat.Outcome.REJECT, Kat.Outcome.REJECT, "Wycheproof invalid"));
                    default -> throw new AssertionError(label + ": unknown result " + result);
                }
            }
        }
        assertEquals(((Number) root.get("numberOfTests")).intValue(), kats.size(), file + " numberOfTests");
        assertEquals(123, kats.size(), file + " tests");
        System.out.println("[KAT] " + file + ": results " + results);
        return new Kat.Loaded(kats, Map.of());
    }

    /** Botan xts.vec, sections for one algorithm; Nonce zero-padded on the right to 16 bytes. */
    static Kat.Loaded botan(String algorithm) {
        String file = "botan/xts.vec";
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        Map<String, Integer> sections = new LinkedHashMap<>();
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            sections.merge(r.section(), 1, Integer::sum);
            String alg = switch (r.section()) {
                case "AES-128/XTS", "AES-192/XTS", "AES-256/XTS" -> "AES";
                case "Twofish/XTS" -> "Twofish";
                default -> null; // Serpent, TripleDES, SHACAL2, Threefish: not in VectorJCE
            };
            if (!algorithm.equals(alg)) {
                continue;
            }
            byte[] key = r.hex("Key");
            if (alg.equals("AES")) {
                int bits = Integer.parseInt(r.section().substring(4, 7));
                assertEquals(2 * bits / 8, key.length, r.where() + " key length for " + r.section());
            }
            byte[] nonce = r.hex("Nonce");
            assertTrue(nonce.length <= 16, r.where() + " nonce longer than a block");
            kats.add(Kat.xts(r.where() + " record " + r.index(), alg, key, Arrays.copyOf(nonce, 16), r.hex("In"), r.hex("Out")));
        }
        System.out.println("[KAT] " + file + ": records per section " + sections);
        assertEquals(173, sections.get("AES-128/XTS"), "[AES-128/XTS] records");
        assertEquals(51, sections.get("AES-256/XTS"), "[AES-256/XTS] records");
        assertEquals(240, sections.get("Twofish/XTS"), "[Twofish/XTS] records");
        assertEquals(algorithm.equals("AES") ? 224 : 240, kats.size(), file + " " + algorithm + " records");
        return new Kat.Loaded(kats, Map.of());
    }

    @TestFactory
    Stream<DynamicNode> xts() {
        List<KatRunner.Source> s = new ArrayList<>();
        s.add(new KatRunner.Source("ieee1619-2007-xts-aes/ieee1619-2007-appendixB-xts-aes.txt", "AES", XtsKatTest::ieee1619));
        for (String style : new String[] {"tweak-128hexstr", "tweak-dataunitseqno"}) {
            String f128 = "nist-cavp-xts/" + style + "/XTSGenAES128.rsp";
            String f256 = "nist-cavp-xts/" + style + "/XTSGenAES256.rsp";
            s.add(new KatRunner.Source(f128, "AES", () -> nist(f128, 200)));
            s.add(new KatRunner.Source(f256, "AES", () -> nist(f256, 400)));
        }
        s.add(new KatRunner.Source("wycheproof/aes_xts_test.json", "AES", XtsKatTest::wycheproof));
        s.add(new KatRunner.Source("botan/xts.vec [AES-*/XTS]", "AES", () -> botan("AES")));
        s.add(new KatRunner.Source("botan/xts.vec [Twofish/XTS]", "Twofish", () -> botan("Twofish")));
        return KatRunner.dynamicTests(s);
    }
}
