package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * {@code aes-cbc-eboiv} (dm-crypt's {@code crypt_iv_eboiv_gen}): each sector is AES-CBC with the IV
 * E_K(LE64(IV sector number × sector size) ‖ 0^64), built here from the JDK's own AES-ECB and
 * AES-CBC, for 128- and 256-bit keys, 512- and 4096-byte sectors, with and without
 * {@code iv_large_sectors}, across a batch boundary (more than 64 sectors) and at a sector number
 * past 2^32. The BitLocker images of the volumes module check it against cryptsetup's SHA-256 sums.
 */
class EboivTest {
    private static byte[] oracle(byte[] key, int size, long first, boolean large, byte[] ct, boolean encrypt)
            throws GeneralSecurityException {
        SecretKeySpec k = new SecretKeySpec(key, "AES");
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
        ecb.init(Cipher.ENCRYPT_MODE, k);
        Cipher cbc = Cipher.getInstance("AES/CBC/NoPadding", "SunJCE");
        byte[] out = new byte[ct.length];
        for (int s = 0; s < ct.length / size; s++) {
            long ivSector = large ? first + s : (first + s) * (size / 512);
            long offset = ivSector * size;
            byte[] seed = new byte[16];
            for (int b = 0; b < 8; b++) {
                seed[b] = (byte) (offset >>> (8 * b));
            }
            byte[] iv = ecb.doFinal(seed);
            cbc.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, k, new IvParameterSpec(iv));
            cbc.doFinal(ct, s * size, size, out, s * size);
        }
        return out;
    }

    @Test
    void equalsCbcWithTheEncryptedByteOffsetAsIv() throws GeneralSecurityException {
        Random r = new Random(29);
        VectorJceProvider p = new VectorJceProvider();
        for (int keyLen : new int[] {16, 32}) {
            for (int size : new int[] {512, 4096}) {
                for (boolean large : new boolean[] {false, true}) {
                    for (long first : new long[] {0, 5, (1L << 32) + 3}) {
                        byte[] key = new byte[keyLen];
                        r.nextBytes(key);
                        byte[] data = new byte[size * 70];
                        r.nextBytes(data);
                        try (SectorCipher c = SectorCipher.of("aes-cbc-eboiv", key, size, large, p)) {
                            assertEquals("eboiv", c.ivGenerator());
                            byte[] d = data.clone();
                            c.decrypt(first, d, 0, d.length);
                            String what = keyLen * 8 + "-bit, " + size + "-byte sectors, large " + large + ", from "
                                    + first;
                            assertArrayEquals(oracle(key, size, first, large, data, false), d, what);
                            c.encrypt(first, d, 0, d.length);
                            assertArrayEquals(data, d, "round trip, " + what);
                            byte[] e = data.clone();
                            c.encrypt(first, e, 0, e.length);
                            assertArrayEquals(oracle(key, size, first, large, data, true), e, "encrypt, " + what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void onlyTheSectorApiTakesIt() {
        // the JCA's SectorParameterSpec path has no sector size for the generator: refused there by name
        InvalidAlgorithmParameterException e = assertThrows(InvalidAlgorithmParameterException.class, () -> {
            Cipher c = Cipher.getInstance("AES/CBC/NoPadding", new VectorJceProvider());
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(new byte[16], "AES"),
                    new SectorParameterSpec("eboiv", 0, 512, false));
        });
        assertTrue(e.getMessage().contains("'eboiv'"), e.getMessage());
        InvalidAlgorithmParameterException x = assertThrows(InvalidAlgorithmParameterException.class,
                () -> SectorCipher.of("aes-xts-eboiv", new byte[32], 512));
        assertTrue(x.getMessage().contains("eboiv"), x.getMessage());
    }
}
