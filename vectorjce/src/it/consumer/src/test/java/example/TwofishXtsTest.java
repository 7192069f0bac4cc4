package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJceProvider;

/** What a user does first: add the provider, ask the JCA for Twofish-XTS, check known answers. */
class TwofishXtsTest {

    @Test
    void twofishXtsThroughTheJca() throws Exception {
        Security.addProvider(new VectorJceProvider());
        Cipher c = Cipher.getInstance("Twofish/XTS/NoPadding", "VectorJCE");
        assertEquals("VectorJCE", c.getProvider().getName());
        HexFormat hex = HexFormat.of();
        List<Map<String, String>> records = records(Path.of(System.getProperty("vectors")));
        assertEquals(5, records.size(), "records in the Linux testmgr Twofish-XTS file");
        for (Map<String, String> r : records) {
            SecretKeySpec key = new SecretKeySpec(hex.parseHex(r.get("KEY")), "Twofish");
            IvParameterSpec iv = new IvParameterSpec(hex.parseHex(r.get("IV")));
            byte[] pt = hex.parseHex(r.get("PLAINTEXT"));
            byte[] ct = hex.parseHex(r.get("CIPHERTEXT"));
            byte[] k = key.getEncoded();
            int half = k.length / 2;
            if (Arrays.equals(k, 0, half, k, half, k.length)) {
                // equal halves: refused for encryption (as OpenSSL 3 and FIPS), accepted for decryption
                assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, key, iv),
                        "encrypt with K1 = K2, COUNT " + r.get("COUNT"));
            } else {
                c.init(Cipher.ENCRYPT_MODE, key, iv);
                assertArrayEquals(ct, c.doFinal(pt), "encrypt, COUNT " + r.get("COUNT"));
            }
            c.init(Cipher.DECRYPT_MODE, key, iv);
            assertArrayEquals(pt, c.doFinal(ct), "decrypt, COUNT " + r.get("COUNT"));
        }
    }

    /** Blank-line-separated records of {@code NAME = value} lines; {@code #} lines are comments. */
    private static List<Map<String, String>> records(Path file) throws Exception {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> cur = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String s = line.strip();
            if (s.startsWith("#")) {
                continue;
            }
            if (s.isEmpty()) {
                if (!cur.isEmpty()) {
                    out.add(cur);
                    cur = new HashMap<>();
                }
                continue;
            }
            int eq = s.indexOf('=');
            cur.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
        }
        if (!cur.isEmpty()) {
            out.add(cur);
        }
        return out;
    }
}
