package org.vectorjce.volumes.kdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.junit.jupiter.api.Test;

/** {@link Blake2b} against RFC 7693's example and Bouncy Castle's {@code Blake2bDigest}. */
class Blake2bTest {
    /** RFC 7693 appendix A: BLAKE2b-512("abc"). */
    @Test
    void rfc7693Example() {
        Blake2b d = new Blake2b(64);
        d.update("abc".getBytes(StandardCharsets.US_ASCII), 0, 3);
        byte[] out = new byte[64];
        d.doFinal(out, 0);
        assertEquals("ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923", HexFormat.of().formatHex(out));
    }

    /** Every length 1..64, messages of 0..400 bytes (block edges included) fed in random pieces. */
    @Test
    void equalsBouncyCastle() {
        Random rnd = new Random(7693);
        for (int n = 0; n < 600; n++) {
            int length = 1 + n % 64;
            int size = n < 20 ? 128 * (n / 4) + n % 4 - 1 : rnd.nextInt(400);
            byte[] msg = new byte[Math.max(size, 0)];
            rnd.nextBytes(msg);
            Blake2bDigest bc = new Blake2bDigest(length * 8);
            bc.update(msg, 0, msg.length);
            byte[] expected = new byte[length];
            bc.doFinal(expected, 0);
            Blake2b d = new Blake2b(length);
            for (int round = 0; round < 2; round++) { // doFinal leaves it ready for the next message
                int off = 0;
                while (off < msg.length) {
                    int k = Math.min(msg.length - off, rnd.nextInt(200));
                    d.update(msg, off, k);
                    off += k;
                }
                byte[] actual = new byte[length + 2];
                d.doFinal(actual, 1);
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(actual, 1, length + 1),
                        "length " + length + " message " + msg.length);
            }
        }
    }

    @Test
    void refusesLengthsOutsideTheRfc() {
        assertThrows(IllegalArgumentException.class, () -> new Blake2b(0));
        assertThrows(IllegalArgumentException.class, () -> new Blake2b(65));
    }
}
