package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;

/**
 * {@code aes-cbc-elephant} (dm-crypt's {@code crypt_iv_elephant}): decryption equals
 * {@code aes-cbc-eboiv} under the key's first half followed by the Elephant steps written here a
 * second time, in dm-crypt's own loop form (three running indices with explicit wrap-around, four
 * words per step) rather than the provider's modular indices, and the sector key from SunJCE's
 * AES-ECB; encryption inverts it; one changed ciphertext bit changes the whole 512-byte sector
 * (the diffuser's purpose) and no other; the key and cipher checks are named. BitLocker's
 * Elephant images (volumes module) check it against cryptsetup's SHA-256 sums.
 */
class ElephantTest {
    private static int rotl(int x, int r) {
        return x << r | x >>> (32 - r);
    }

    /** dm-crypt's diffuser_b_decrypt, loop as written there. */
    private static void bDecrypt(int[] d) {
        int n = d.length;
        for (int i = 0; i < 3; i++) {
            int i1 = 0, i2 = 2, i3 = 5;
            while (i1 < n - 1) {
                d[i1] += d[i2] ^ d[i3];
                i1++; i2++; i3++;
                d[i1] += d[i2] ^ rotl(d[i3], 10);
                i1++; i2++; i3++;
                if (i2 >= n) {
                    i2 -= n;
                }
                d[i1] += d[i2] ^ d[i3];
                i1++; i2++; i3++;
                if (i3 >= n) {
                    i3 -= n;
                }
                d[i1] += d[i2] ^ rotl(d[i3], 25);
                i1++; i2++; i3++;
            }
        }
    }

    /** dm-crypt's diffuser_a_decrypt, loop as written there. */
    private static void aDecrypt(int[] d) {
        int n = d.length;
        for (int i = 0; i < 5; i++) {
            int i1 = 0, i2 = n - 2, i3 = n - 5;
            while (i1 < n - 1) {
                d[i1] += d[i2] ^ rotl(d[i3], 9);
                i1++; i2++; i3++;
                if (i3 >= n) {
                    i3 -= n;
                }
                d[i1] += d[i2] ^ d[i3];
                i1++; i2++; i3++;
                if (i2 >= n) {
                    i2 -= n;
                }
                d[i1] += d[i2] ^ rotl(d[i3], 13);
                i1++; i2++; i3++;
                d[i1] += d[i2] ^ d[i3];
                i1++; i2++; i3++;
            }
        }
    }

    private static byte[] oracleDecrypt(byte[] key, int size, long first, byte[] ct) throws GeneralSecurityException {
        int half = key.length / 2;
        byte[] out = ct.clone();
        try (SectorCipher cbc = SectorCipher.of("aes-cbc-eboiv", Arrays.copyOf(key, half), size, true,
                new VectorJceProvider())) {
            cbc.decrypt(first, out, 0, out.length);
        }
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(Arrays.copyOfRange(key, half, key.length), "AES"));
        for (int s = 0; s < ct.length / size; s++) {
            long e = (first + s) * size;
            byte[] es = new byte[16];
            for (int b = 0; b < 8; b++) {
                es[b] = (byte) (e >>> (8 * b));
            }
            byte[] ks = new byte[32];
            ecb.doFinal(es, 0, 16, ks, 0);
            es[15] = (byte) 0x80;
            ecb.doFinal(es, 0, 16, ks, 16);
            int[] d = new int[size / 4];
            for (int i = 0; i < d.length; i++) {
                int o = s * size + 4 * i;
                d[i] = (out[o] & 0xff) | (out[o + 1] & 0xff) << 8 | (out[o + 2] & 0xff) << 16 | (out[o + 3] & 0xff) << 24;
            }
            bDecrypt(d);
            aDecrypt(d);
            for (int i = 0; i < d.length; i++) {
                for (int b = 0; b < 4; b++) {
                    out[s * size + 4 * i + b] = (byte) ((d[i] >>> (8 * b)) ^ ks[(4 * i + b) % 32]);
                }
            }
        }
        return out;
    }

    @Test
    void equalsEboivThenTheDiffuser() throws GeneralSecurityException {
        Random r = new Random(7);
        VectorJceProvider p = new VectorJceProvider();
        for (int keyLen : new int[] {32, 64}) {
            for (int size : new int[] {512, 4096}) {
                for (long first : new long[] {0, 70000, (1L << 33) + 1}) {
                    byte[] key = new byte[keyLen];
                    r.nextBytes(key);
                    byte[] ct = new byte[size * 67];
                    r.nextBytes(ct);
                    try (SectorCipher c = SectorCipher.of("aes-cbc-elephant", key, size, true, p)) {
                        byte[] d = ct.clone();
                        c.decrypt(first, d, 0, d.length);
                        String what = keyLen * 4 + "-bit, " + size + "-byte sectors, from " + first;
                        assertArrayEquals(oracleDecrypt(key, size, first, ct), d, what);
                        byte[] back = new byte[d.length];
                        c.encrypt(first, d, 0, back, 0, d.length);     // out of place: d must stay as it was
                        assertArrayEquals(ct, back, "round trip, " + what);
                        assertArrayEquals(oracleDecrypt(key, size, first, ct), d, "input untouched, " + what);
                        byte[] shifted = new byte[ct.length + 8];        // at an offset that is no multiple of 4
                        System.arraycopy(ct, 0, shifted, 5, ct.length);
                        c.decrypt(first, shifted, 5, ct.length);
                        assertArrayEquals(d, Arrays.copyOfRange(shifted, 5, 5 + ct.length), "at offset 5, " + what);
                        c.encrypt(first, shifted, 5, ct.length);
                        assertArrayEquals(ct, Arrays.copyOfRange(shifted, 5, 5 + ct.length), "back at offset 5, " + what);
                    }
                }
            }
        }
    }

    @Test
    void oneBitChangesTheWholeSectorOnly() throws GeneralSecurityException {
        byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        byte[] ct = new byte[512 * 3];
        try (SectorCipher c = SectorCipher.of("aes-cbc-elephant", key, 512)) {
            byte[] a = ct.clone();
            c.decrypt(9, a, 0, a.length);
            byte[] flipped = ct.clone();
            flipped[512 + 500] ^= 1;                 // late in sector 1: CBC alone would change 2 blocks
            c.decrypt(9, flipped, 0, flipped.length);
            assertArrayEquals(Arrays.copyOfRange(a, 0, 512), Arrays.copyOfRange(flipped, 0, 512));
            assertArrayEquals(Arrays.copyOfRange(a, 1024, 1536), Arrays.copyOfRange(flipped, 1024, 1536));
            int same = 0;
            for (int i = 512; i < 1024; i += 4) {
                same += a[i] == flipped[i] && a[i + 1] == flipped[i + 1] && a[i + 2] == flipped[i + 2]
                        && a[i + 3] == flipped[i + 3] ? 1 : 0;
            }
            assertTrue(same < 4, same + " of 128 words of the changed sector stayed the same");
            assertFalse(Arrays.equals(a, flipped));
        }
    }

    @Test
    void keyAndCipherChecksAreNamed() {
        assertEquals("'twofish-cbc-elephant': the elephant IV generator is AES-only, as in dm-crypt",
                assertThrows(InvalidAlgorithmParameterException.class,
                        () -> SectorCipher.of("twofish-cbc-elephant", new byte[32], 512)).getMessage());
        assertThrows(InvalidKeyException.class, () -> SectorCipher.of("aes-cbc-elephant", new byte[16], 512));
        assertTrue(assertThrows(InvalidKeyException.class, () -> SectorCipher.of("aes-cbc-elephant", new byte[33],
                512)).getMessage().contains("of equal sizes"));
        assertThrows(InvalidAlgorithmParameterException.class, () -> SectorCipher.of("aes-xts-elephant", new byte[32],
                512));
    }
}
