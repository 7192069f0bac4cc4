package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.kat.VectorFiles.Rec;

/**
 * Twofish AES-submission known-answer files through {@code Twofish/ECB/NoPadding}: variable key
 * (ecb_vk), variable text (ecb_vt) and the tables test (ecb_tbl, reconstructed layout). The
 * Monte-Carlo files are in {@link TwofishMonteCarloTest}.
 */
class TwofishSubmissionKatTest {
    static final String DIR = "twofish-submission/";

    static Kat.Loaded load(String name, int expected) {
        String file = DIR + name;
        List<Rec> recs = VectorFiles.twofishSubmission(file);
        assertEquals(expected, recs.size(), file + " records");
        assertEquals(VectorFiles.countLinesStartingWith(file, "I="), recs.size(), file + " records vs I= lines");
        List<Kat> kats = new ArrayList<>();
        for (Rec r : recs) {
            byte[] key = r.hex("KEY");
            String label = r.where() + " KEYSIZE=" + r.section() + " I=" + r.req("I");
            assertEquals(r.integer("KEYSIZE"), key.length * 8, label + " KEYSIZE");
            kats.add(Kat.of(label, "Twofish", "ECB", "NoPadding", key, null, r.hex("PT"), r.hex("CT")));
        }
        return new Kat.Loaded(kats, Map.of());
    }

    @TestFactory
    Stream<DynamicNode> twofishSubmission() {
        return KatRunner.dynamicTests(List.of(
                new KatRunner.Source(DIR + "ecb_vk.txt", "Twofish", () -> load("ecb_vk.txt", 576)),
                new KatRunner.Source(DIR + "ecb_vt.txt", "Twofish", () -> load("ecb_vt.txt", 384)),
                new KatRunner.Source(DIR + "ecb_tbl.reconstructed.txt", "Twofish", () -> load("ecb_tbl.reconstructed.txt", 147))));
    }
}
