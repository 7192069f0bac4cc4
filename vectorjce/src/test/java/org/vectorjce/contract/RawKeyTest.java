package org.vectorjce.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vectorjce.RawKey;
import org.vectorjce.VectorJceProvider;

/** The public wipeable key: its own copy, wiped by destroy(), nothing secret in toString(), a key every cipher takes. */
class RawKeyTest {
    @Test
    void holdsACopyThatDestroyWipes() {
        byte[] b = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
        RawKey k = new RawKey("AES", b);
        Arrays.fill(b, (byte) 0x55); // the caller's array is not the key's
        assertArrayEquals(HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f"), k.getEncoded());
        k.getEncoded()[0] = 9; // nor is the array getEncoded gives
        assertEquals(0, k.getEncoded()[0]);
        assertEquals("RAW", k.getFormat());
        assertEquals("RawKey[AES, 128 bits]", k.toString());
        assertFalse(k.isDestroyed());
        k.destroy();
        assertTrue(k.isDestroyed());
        assertArrayEquals(new byte[16], k.getEncoded());
        assertEquals(16, k.length(), "the length stays, for re-keying with zeros");
        assertFalse(k.replace(new byte[16]), "a destroyed key is not re-keyed");
    }

    @Test
    void replaceTakesTheSameLengthOnly() {
        RawKey k = new RawKey("AES", new byte[16]);
        assertFalse(k.replace(new byte[32]));
        assertArrayEquals(new byte[16], k.getEncoded());
        byte[] n = new byte[16];
        n[15] = 1;
        assertTrue(k.replace(n));
        n[15] = 2;
        assertEquals(1, k.getEncoded()[15]);
    }

    @Test
    void encryptsAsTheSameBytesInASecretKeySpec() throws Exception {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (i * 7);
        }
        byte[] msg = new byte[64];
        Cipher a = Cipher.getInstance("Twofish/ECB/NoPadding", new VectorJceProvider());
        a.init(Cipher.ENCRYPT_MODE, new RawKey("Twofish", key));
        Cipher b = Cipher.getInstance("Twofish/ECB/NoPadding", new VectorJceProvider());
        b.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Twofish"));
        assertArrayEquals(b.doFinal(msg), a.doFinal(msg));
    }
}
