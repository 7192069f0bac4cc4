package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.kat.VectorFiles.Rec;

/**
 * Linux {@code crypto/testmgr.h} AES, Twofish and Serpent templates (ECB, CBC, CTR, RFC 3686 CTR, LRW, XTS)
 * in the extracted text format of {@code testvectors/linux-testmgr/README.md}.
 */
class LinuxTestmgrKatTest {
    /** template, algorithm, mode, record count (README table). */
    record Template(String name, String algorithm, String mode, int records) {
        String file() {
            return (algorithm.equals("Serpent") ? "serpent-linux-testmgr/" : "linux-testmgr/") + name + ".txt";
        }
    }

    static final List<Template> TEMPLATES = List.of(
            new Template("aes_tv_template", "AES", "ECB", 4),
            new Template("aes_cbc_tv_template", "AES", "CBC", 5),
            new Template("aes_ctr_tv_template", "AES", "CTR", 5),
            new Template("aes_ctr_rfc3686_tv_template", "AES", "RFC3686", 7),
            new Template("aes_lrw_tv_template", "AES", "LRW", 9),
            new Template("aes_xts_tv_template", "AES", "XTS", 5),
            new Template("tf_tv_template", "Twofish", "ECB", 4),
            new Template("tf_cbc_tv_template", "Twofish", "CBC", 5),
            new Template("tf_ctr_tv_template", "Twofish", "CTR", 3),
            new Template("tf_lrw_tv_template", "Twofish", "LRW", 8),
            new Template("tf_xts_tv_template", "Twofish", "XTS", 5),
            new Template("serpent_tv_template", "Serpent", "ECB", 5),
            new Template("serpent_cbc_tv_template", "Serpent", "CBC", 1),
            new Template("serpent_ctr_tv_template", "Serpent", "CTR", 3),
            new Template("serpent_lrw_tv_template", "Serpent", "LRW", 8),
            new Template("serpent_xts_tv_template", "Serpent", "XTS", 5));

    static Kat.Loaded load(Template t) {
        List<Rec> recs = VectorFiles.keyValueBlocks(t.file());
        assertEquals(t.records(), recs.size(), t.file() + " records");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            String label = r.where() + " COUNT=" + r.req("COUNT") + (r.has("COMMENT") ? " (" + r.get("COMMENT") + ")" : "");
            byte[] key = r.hex("KEY");
            byte[] pt = r.hex("PLAINTEXT");
            byte[] ct = r.hex("CIPHERTEXT");
            assertEquals(r.integer("KEYLEN"), key.length, label + " KEYLEN");
            assertEquals(r.integer("LEN"), pt.length, label + " LEN vs PLAINTEXT");
            assertEquals(r.integer("LEN"), ct.length, label + " LEN vs CIPHERTEXT");
            if (key.length == 0) {
                // serpent_tv_template record 0: the empty key, which Serpent pads to 256 bits but the
                // provider does not take (16, 24 or 32 bytes); SerpentKernelTest runs it on the kernels.
                assertEquals("serpent_tv_template", t.name(), label + ": only this template has an empty key");
                continue;
            }
            switch (t.mode()) {
                case "ECB" -> kats.add(Kat.of(label, t.algorithm(), "ECB", "NoPadding", key, null, pt, ct));
                case "CBC", "CTR", "LRW" -> kats.add(Kat.of(label, t.algorithm(), t.mode(), "NoPadding", key, r.hex("IV"), pt, ct));
                case "RFC3686" -> {
                    // KEY = AES key || 4-byte nonce, IV = 8 bytes; counter block = nonce || IV || 00000001.
                    byte[] iv8 = r.hex("IV");
                    assertEquals(8, iv8.length, label + " RFC 3686 IV");
                    byte[] aesKey = Arrays.copyOf(key, key.length - 4);
                    byte[] block = new byte[16];
                    System.arraycopy(key, key.length - 4, block, 0, 4);
                    System.arraycopy(iv8, 0, block, 4, 8);
                    block[15] = 1;
                    kats.add(Kat.of(label + " counter block " + VectorFiles.hex(block), t.algorithm(), "CTR", "NoPadding",
                            aesKey, block, pt, ct));
                }
                case "XTS" -> {
                    Kat k = Kat.xts(label, t.algorithm(), key, r.hex("IV"), pt, ct);
                    if (r.has("FIPS_SKIP")) { // only aes_xts record 0; tf_xts record 0 has the same all-zero key unmarked
                        assertTrue(Kat.equalHalves(key), label + ": FIPS_SKIP marks an equal-halves record");
                    }
                    kats.add(k);
                }
                default -> throw new AssertionError(t.mode());
            }
        }
        return new Kat.Loaded(kats, Map.of());
    }

    @TestFactory
    Stream<DynamicNode> linuxTestmgr() {
        List<KatRunner.Source> s = new ArrayList<>();
        for (Template t : TEMPLATES) {
            s.add(new KatRunner.Source(t.file(), t.algorithm(), () -> load(t)));
        }
        return KatRunner.dynamicTests(s);
    }
}
