package org.vectorjce.volumes.kdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

import org.bouncycastle.crypto.digests.WhirlpoolDigest;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

/**
 * The own Whirlpool and its PBKDF2 loop against the ISO/NESSIE test vectors and Bouncy Castle's
 * {@code WhirlpoolDigest} and {@code PKCS5S2ParametersGenerator} (an independent implementation):
 * messages across the one-/two-padding-block boundary, passwords longer than the block (hashed
 * first), several blocks and iteration counts. The VeraCrypt and TrueCrypt Whirlpool images of
 * {@code TcryptImagesTest} check it against the real programs.
 */
class WhirlpoolTest {
    @Test
    void isoVectors() {
        assertEquals("19fa61d75522a4669b44e39c1d2e1726c530232130d407f89afee0964997f7a7"
                + "3e83be698b288febcf88e3e03c4f0757ea8964e59b63d93708b138cc42a66eb3",
                HexFormat.of().formatHex(Whirlpool.hash(new byte[0])));
        assertEquals("4e2448a4c6f486bb16b6562c73b4020bf3043e3a731bce721ae1b303d97e6d4c"
                + "7181eebdb6c57e277d0e34957114cbd6c797fc9d95d8b582d225292076d4eef5",
                HexFormat.of().formatHex(Whirlpool.hash("abc".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void digestEqualsBouncyCastles() {
        Random rnd = new Random(1);
        for (int len = 0; len <= 200; len++) {
            byte[] m = new byte[len];
            rnd.nextBytes(m);
            WhirlpoolDigest d = new WhirlpoolDigest();
            d.update(m, 0, len);
            byte[] want = new byte[64];
            d.doFinal(want, 0);
            assertArrayEquals(want, Whirlpool.hash(m), "length " + len);
        }
    }

    @Test
    void pbkdf2EqualsBouncyCastles() {
        Random rnd = new Random(2);
        for (int pwLen : new int[] {0, 12, 63, 64, 65, 128}) {
            for (int saltLen : new int[] {16, 32, 64}) {
                for (int it : new int[] {1, 2, 3, 1000}) {
                    byte[] pw = new byte[pwLen], salt = new byte[saltLen];
                    rnd.nextBytes(pw);
                    rnd.nextBytes(salt);
                    PKCS5S2ParametersGenerator g = new PKCS5S2ParametersGenerator(new WhirlpoolDigest());
                    g.init(pw, salt, it);
                    byte[] want = ((KeyParameter) g.generateDerivedParameters(192 * 8)).getKey();
                    String at = "password " + pwLen + ", salt " + saltLen + ", iterations " + it;
                    assertArrayEquals(want, Pbkdf2.derive(HashAlgorithm.WHIRLPOOL, pw, salt, it, 192), at);
                    assertArrayEquals(Arrays.copyOf(want, 100), Pbkdf2.derive(HashAlgorithm.WHIRLPOOL, pw, salt, it, 100), at);
                    for (int b = 1; b <= 3; b++) {
                        assertArrayEquals(Arrays.copyOfRange(want, 64 * (b - 1), 64 * b),
                                Pbkdf2.block(HashAlgorithm.WHIRLPOOL, pw, salt, it, b), at + ", block " + b);
                    }
                }
            }
        }
    }
}
