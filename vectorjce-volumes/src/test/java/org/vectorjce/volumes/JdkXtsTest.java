package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The tests' XTS oracle, {@link JdkXts}, against the standard's own vectors. */
class JdkXtsTest {
    /** JdkXts against IEEE 1619-2007 vectors 4 and 5 (512-byte data units 0 and 1, one key). */
    @Test
    void theJdkXtsOracleMatchesIeee1619() throws Exception {
        String text = Files.readString(TestImages.folder().resolveSibling("ieee1619-2007-xts-aes")
                .resolve("ieee1619-2007-appendixB-xts-aes.txt"));
        String[] v4 = record(text, 4), v5 = record(text, 5);
        HexFormat h = HexFormat.of();
        assertEquals(v4[0], v5[0], "one key");
        byte[] key = h.parseHex(v4[0]);
        byte[] pt = concat(h.parseHex(v4[1]), h.parseHex(v5[1]));
        byte[] ct = concat(h.parseHex(v4[2]), h.parseHex(v5[2]));
        assertArrayEquals(ct, JdkXts.crypt(true, key, pt, 512));
        assertArrayEquals(pt, JdkXts.crypt(false, key, ct, 512));
    }

    private static String[] record(String text, int vector) {
        Matcher m = Pattern.compile("VECTOR = " + vector + "\\n[\\s\\S]*?KEY = (\\w+)\\n[\\s\\S]*?PLAINTEXT = (\\w+)\\n"
                + "CIPHERTEXT = (\\w+)").matcher(text);
        assertTrue(m.find(), "vector " + vector);
        return new String[] {m.group(1), m.group(2), m.group(3)};
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
