package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.kat.VectorFiles.Rec;

/**
 * AES known answers from NIST: CAVP AESAVS ECB/CBC KAT + MMT files, SP 800-38A Appendix F (ECB,
 * CBC, CTR) and the RFC 3686 CTR vectors (whose IV field is the full 16-byte counter block).
 */
class AesNistKatTest {
    static final String[] AESAVS_KINDS = {"GFSbox", "KeySbox", "MMT", "VarKey", "VarTxt"};
    static final int[] KEY_BITS = {128, 192, 256};

    static List<String> aesavsFiles() {
        List<String> files = new ArrayList<>();
        for (String mode : new String[] {"ECB", "CBC"}) {
            for (String kind : AESAVS_KINDS) {
                for (int bits : KEY_BITS) {
                    files.add("nist-cavp-aesavs/" + mode + "/" + mode + kind + bits + ".rsp");
                }
            }
        }
        return files;
    }

    /** A NIST CAVP AESAVS {@code .rsp}: both sections' records run in both directions. */
    static Kat.Loaded aesavs(String file) {
        String mode = file.contains("/ECB/") ? "ECB" : "CBC";
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        assertEquals(VectorFiles.countLinesStartingWith(file, "COUNT"), recs.size(), file + ": records vs COUNT lines");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            kats.add(Kat.of(r.where() + " COUNT=" + r.req("COUNT"), "AES", mode, "NoPadding",
                    r.hex("KEY"), mode.equals("ECB") ? null : r.hex("IV"), r.hex("PLAINTEXT"), r.hex("CIPHERTEXT")));
        }
        return new Kat.Loaded(kats, Map.of());
    }

    static Kat.Loaded sp80038a() {
        String file = "nist-sp800-38a/sp800-38a-aes-ecb-cbc-ctr.txt";
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        assertEquals(9, recs.size(), file + " records");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            String mode = r.req("MODE");
            byte[] key = r.hex("KEY");
            assertEquals(r.integer("KEYLEN"), key.length, r.where() + " KEYLEN");
            kats.add(Kat.of(r.where() + " " + r.req("SECTION"), "AES", mode, "NoPadding",
                    key, mode.equals("ECB") ? null : r.hex("IV"), r.hex("PLAINTEXT"), r.hex("CIPHERTEXT")));
        }
        return new Kat.Loaded(kats, Map.of());
    }

    /** pyca's RFC 3686 files: IV = nonce || IV || 00000001, the full initial counter block. */
    static Kat.Loaded rfc3686(String file) {
        List<Rec> recs = VectorFiles.keyValueBlocks(file);
        assertEquals(3, recs.size(), file + " records");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            byte[] iv = r.hex("IV");
            assertEquals(16, iv.length, r.where() + ": IV must be the full 16-byte counter block");
            assertEquals("00000001", VectorFiles.hex(java.util.Arrays.copyOfRange(iv, 12, 16)),
                    r.where() + ": RFC 3686 block counter starts at 1");
            kats.add(Kat.of(r.where() + " COUNT=" + r.req("COUNT"), "AES", "CTR", "NoPadding",
                    r.hex("KEY"), iv, r.hex("PLAINTEXT"), r.hex("CIPHERTEXT")));
        }
        return new Kat.Loaded(kats, Map.of());
    }

    static List<KatRunner.Source> sources() {
        List<KatRunner.Source> s = new ArrayList<>();
        for (String f : aesavsFiles()) {
            s.add(new KatRunner.Source(f, "AES", () -> aesavs(f)));
        }
        s.add(new KatRunner.Source("nist-sp800-38a/sp800-38a-aes-ecb-cbc-ctr.txt", "AES", AesNistKatTest::sp80038a));
        for (int bits : KEY_BITS) {
            String f = "rfc3686-aes-ctr/aes-" + bits + "-ctr.txt";
            s.add(new KatRunner.Source(f, "AES", () -> rfc3686(f)));
        }
        return s;
    }

    @TestFactory
    Stream<DynamicNode> nistAes() {
        return KatRunner.dynamicTests(sources());
    }

    /** The 30 AESAVS files hold 4,276 records (SOURCE.txt). */
    @Test
    void aesavsTotal() {
        int total = 0;
        for (String f : aesavsFiles()) {
            total += VectorFiles.keyValueBlocks(f).size();
        }
        assertEquals(4276, total, "AESAVS records in 30 files");
    }
}
