package org.vectorjce.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.AlgorithmParameters;
import java.security.InvalidKeyException;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorIvs;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.TestProviders;

/**
 * Serpent's JCA surface beside AES's and Twofish's: the names, the defaults, the key generator and
 * parameters, the key-length errors, and the sector API's {@code serpent-*} specifications.
 */
class SerpentProviderTest {
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();

    @Test
    void serpentAloneIsEcbWithPkcs5PaddingAsBouncyCastle() throws Exception {
        byte[] key = new byte[24];
        new Random(1).nextBytes(key);
        byte[] pt = "twenty-one bytes long".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Cipher c = Cipher.getInstance("Serpent", TestProviders.current());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"));
        Cipher b = Cipher.getInstance("Serpent/ECB/PKCS5Padding", BC);
        b.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"));
        byte[] ct = c.doFinal(pt);
        assertEquals(32, ct.length);
        assertArrayEquals(b.doFinal(pt), ct);
    }

    @Test
    void wrongKeyLengthsNameTheAllowedOnes() throws Exception {
        String[][] cases = {
            {"Serpent/ECB/NoPadding", "20", "16, 24, 32"},
            {"Serpent/CBC/PKCS5Padding", "8", "16, 24, 32"},
            {"Serpent/CTR/NoPadding", "33", "16, 24, 32"},
            {"Serpent/XTS/NoPadding", "32x", "32, 48, 64"},
            {"Serpent/LRW/NoPadding", "36", "32, 40, 48"},
        };
        for (String[] k : cases) {
            int len = Integer.parseInt(k[1].replace("x", ""));
            int bad = k[1].endsWith("x") ? 40 : len;
            Cipher c = Cipher.getInstance(k[0], TestProviders.current());
            InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> {
                if (k[0].contains("ECB")) {
                    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[bad], "Serpent"));
                } else {
                    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[bad], "Serpent"), new IvParameterSpec(new byte[16]));
                }
            }, k[0] + " with " + bad + " bytes");
            assertTrue(e.getMessage().contains("Serpent") && e.getMessage().contains(bad + " bytes")
                    && e.getMessage().contains(k[2]), e.getMessage());
        }
    }

    @Test
    void aTwofishKeyIsRefused() throws Exception {
        Cipher c = Cipher.getInstance("Serpent/ECB/NoPadding", TestProviders.current());
        InvalidKeyException e = assertThrows(InvalidKeyException.class,
                () -> c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "Twofish")));
        assertTrue(e.getMessage().contains("Twofish") && e.getMessage().contains("Serpent"), e.getMessage());
    }

    @Test
    void keyGeneratorAndParameters() throws Exception {
        KeyGenerator g = KeyGenerator.getInstance("Serpent", TestProviders.current());
        assertEquals(32, g.generateKey().getEncoded().length);
        g.init(192);
        SecretKey k = g.generateKey();
        assertEquals("Serpent", k.getAlgorithm());
        assertEquals(24, k.getEncoded().length);
        assertThrows(java.security.InvalidParameterException.class, () -> g.init(100));
        Cipher c = Cipher.getInstance("Serpent/CBC/NoPadding", TestProviders.current());
        c.init(Cipher.ENCRYPT_MODE, k);
        AlgorithmParameters p = c.getParameters();
        assertEquals("Serpent", p.getAlgorithm());
        assertArrayEquals(c.getIV(), p.getParameterSpec(IvParameterSpec.class).getIV());
        AlgorithmParameters q = AlgorithmParameters.getInstance("Serpent", TestProviders.current());
        q.init(p.getEncoded());
        assertArrayEquals(c.getIV(), q.getParameterSpec(IvParameterSpec.class).getIV());
    }

    /** dm-crypt's serpent-xts-plain64 on the sector API equals Serpent/XTS/NoPadding with plain64 IVs. */
    @Test
    void sectorCipherAndSectorParameterSpec() throws Exception {
        Random r = new Random(5);
        byte[] key = new byte[64];
        r.nextBytes(key);
        byte[] data = new byte[512 * 5];
        r.nextBytes(data);
        byte[] want = new byte[data.length];
        Cipher c = Cipher.getInstance("Serpent/XTS/NoPadding", TestProviders.current());
        for (int s = 0; s < 5; s++) {
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"), SectorIvs.plain64(100 + s));
            c.doFinal(data, 512 * s, 512, want, 512 * s);
        }
        try (SectorCipher sc = SectorCipher.of("serpent-xts-plain64", key, 512)) {
            assertEquals("Serpent", sc.algorithm());
            byte[] buf = data.clone();
            sc.encrypt(100, buf, 0, buf.length);
            assertArrayEquals(want, buf);
            sc.decrypt(100, buf, 0, buf.length);
            assertArrayEquals(data, buf);
        }
        Cipher spec = Cipher.getInstance("Serpent/XTS/NoPadding", TestProviders.current());
        spec.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"), new SectorParameterSpec("plain64", 100, 512));
        assertArrayEquals(want, spec.doFinal(data));
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> SectorCipher.of("serpent-xts-plain64", new byte[40], 512));
        assertTrue(e.getMessage().contains("32, 48, 64"), e.getMessage());
        Exception u = assertThrows(Exception.class, () -> SectorCipher.of("camellia-xts-plain64", key, 512));
        assertTrue(u.getMessage().contains("aes, twofish or serpent"), u.getMessage());
    }
}
