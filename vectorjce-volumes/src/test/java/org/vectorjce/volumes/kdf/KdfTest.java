package org.vectorjce.volumes.kdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.digests.WhirlpoolDigest;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.TestImages;

/** PBKDF2 against RFC 6070 and Bouncy Castle's generator; Argon2 against the reference argon2 command. */
class KdfTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** RFC 6070, section 2 (PBKDF2-HMAC-SHA1). */
    @ParameterizedTest
    @CsvSource({
        "password,salt,1,20,0c60c80f961f0e71f3a9b524af6012062fe037a6",
        "password,salt,2,20,ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
        "password,salt,4096,20,4b007901b765489abead49d926f721d065a429c1",
        "passwordPASSWORDpassword,saltSALTsaltSALTsaltSALTsaltSALTsalt,4096,25,3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038",
    })
    void rfc6070(String p, String s, int c, int len, String hex) {
        assertArrayEquals(HexFormat.of().parseHex(hex), Pbkdf2.derive(HashAlgorithm.SHA1, b(p), b(s), c, len));
    }

    /** Every hash, lengths across block boundaries, the empty password: equal to Bouncy Castle's PBKDF2. */
    @Test
    void everyHashAgainstBouncyCastle() {
        Random r = new Random(5);
        for (HashAlgorithm h : HashAlgorithm.values()) {
            for (int pl : new int[] {0, 1, 20, 64, 65, 200}) {
                byte[] pw = new byte[pl];
                byte[] salt = new byte[32];
                r.nextBytes(pw);
                r.nextBytes(salt);
                int len = 1 + r.nextInt(150);
                PKCS5S2ParametersGenerator g = new PKCS5S2ParametersGenerator(switch (h) {
                    case SHA1 -> new org.bouncycastle.crypto.digests.SHA1Digest();
                    case SHA224 -> new org.bouncycastle.crypto.digests.SHA224Digest();
                    case SHA256 -> new SHA256Digest();
                    case SHA384 -> new org.bouncycastle.crypto.digests.SHA384Digest();
                    case SHA512 -> new SHA512Digest();
                    case RIPEMD160 -> new RIPEMD160Digest();
                    case WHIRLPOOL -> new WhirlpoolDigest();
                    case BLAKE2S_256 -> new org.bouncycastle.crypto.digests.Blake2sDigest(256);
                    case STREEBOG512 -> new org.bouncycastle.crypto.digests.GOST3411_2012_512Digest();
                    default -> throw new AssertionError(h);
                });
                g.init(pw, salt, 3);
                byte[] want = ((KeyParameter) g.generateDerivedParameters(len * 8)).getKey();
                assertArrayEquals(want, Pbkdf2.derive(h, pw, salt, 3, len), h + " " + pl + " " + len);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"ARGON2I,-i,3,64,1", "ARGON2ID,-id,2,256,4", "ARGON2ID,-id,1,32,2"})
    void argon2AgainstTheReferenceCommand(Argon2.Type type, String flag, int t, int kib, int lanes) throws Exception {
        TestImages.assumeTool("argon2");
        byte[] salt = b("somesalt-16bytes");
        // argon2 SALT -i|-id -t T -k KiB -p P -l LEN -r  (password on stdin, raw hex out)
        TestImages.Run r = TestImages.ok(b("pass word"), "argon2", new String(salt, StandardCharsets.US_ASCII), flag,
                "-t", String.valueOf(t), "-k", String.valueOf(kib), "-p", String.valueOf(lanes), "-l", "32", "-r");
        byte[] want = HexFormat.of().parseHex(r.out().trim());
        assertArrayEquals(want, Argon2.derive("test", type, b("pass word"), salt, t, kib, lanes, 32));
    }

    @Test
    void argon2Bounds() {
        assertThrows(CorruptHeaderException.class, () -> Argon2.checkParameters("s", 4, Argon2.MAX_MEMORY_KIB + 1, 1));
        assertThrows(CorruptHeaderException.class, () -> Argon2.checkParameters("s", 4, 15, 2)); // < 8 KiB per lane
        assertThrows(CorruptHeaderException.class, () -> Argon2.checkParameters("s", 0, 1024, 1));
        assertThrows(CorruptHeaderException.class, () -> Argon2.checkParameters("s", 17, Argon2.MAX_MEMORY_KIB, 4));
        CorruptHeaderException e = assertThrows(CorruptHeaderException.class,
                () -> Argon2.checkParameters("keyslot 3", 1L << 31, 1024, 1));
        assertTrue(e.getMessage().startsWith("keyslot 3"), e.getMessage());
    }
}
