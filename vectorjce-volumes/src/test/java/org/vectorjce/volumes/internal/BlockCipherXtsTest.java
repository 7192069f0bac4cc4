package org.vectorjce.volumes.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import javax.crypto.Cipher;

import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.engines.BlowfishEngine;
import org.bouncycastle.crypto.engines.CamelliaEngine;
import org.junit.jupiter.api.Test;

import org.vectorjce.RawKey;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * {@link BlockCipherXts} differentially: over Bouncy Castle's {@code AESEngine} it must equal the
 * provider's {@code AES/XTS/NoPadding} (plain64 data units through {@link SectorParameterSpec}),
 * both ways, on random keys (128 and 256-bit), unit sizes, unit numbers (including ones past
 * 2^32 and the top bit) and run lengths; and it refuses what it cannot do with a message.
 * Camellia and Kuznyechik under it are checked by the VeraCrypt images (TcryptImagesTest).
 */
class BlockCipherXtsTest {
    private static final VectorJceProvider PROVIDER = new VectorJceProvider();

    @Test
    void overAesEngineEqualsTheProvidersXts() throws Exception {
        Random r = new Random(28);
        Cipher jca = Cipher.getInstance("AES/XTS/NoPadding", PROVIDER);
        for (int trial = 0; trial < 200; trial++) {
            byte[] key = new byte[trial % 2 == 0 ? 64 : 32];
            r.nextBytes(key);
            int unitSize = new int[] {16, 512, 4096, 48}[trial % 4];
            int units = 1 + r.nextInt(9);
            long unit = switch (trial % 3) {
                case 0 -> r.nextInt(1 << 20);
                case 1 -> r.nextLong();
                default -> -1L - r.nextInt(4); // wraps past 2^64 - 1
            };
            byte[] plain = new byte[units * unitSize];
            r.nextBytes(plain);
            byte[] want = plain.clone();
            for (int u = 0; u < units; u++) {
                // one doFinal per unit: the provider's SectorParameterSpec takes 512-byte multiples only
                byte[] tweak = new byte[16];
                long n = unit + u;
                for (int j = 0; j < 8; j++) {
                    tweak[j] = (byte) (n >>> (8 * j));
                }
                jca.init(Cipher.ENCRYPT_MODE, new RawKey("AES", key), new javax.crypto.spec.IvParameterSpec(tweak));
                jca.doFinal(want, u * unitSize, unitSize, want, u * unitSize);
            }
            try (BlockCipherXts x = BlockCipherXts.of(AESEngine::newInstance, key, unitSize)) {
                byte[] got = new byte[plain.length + 32];
                System.arraycopy(plain, 0, got, 16, plain.length);
                x.encrypt(unit, got, 16, plain.length);
                assertArrayEquals(want, Arrays.copyOfRange(got, 16, 16 + plain.length), "encrypt, trial " + trial);
                x.decrypt(unit, got, 16, plain.length);
                assertArrayEquals(plain, Arrays.copyOfRange(got, 16, 16 + plain.length), "decrypt, trial " + trial);
            }
        }
    }

    @Test
    void manySectorsInOneCallEqualTheProvidersSectorSpec() throws Exception {
        Random r = new Random(29);
        byte[] key = new byte[64];
        r.nextBytes(key);
        byte[] data = new byte[101 * 512];
        r.nextBytes(data);
        byte[] want = data.clone();
        Cipher jca = Cipher.getInstance("AES/XTS/NoPadding", PROVIDER);
        jca.init(Cipher.DECRYPT_MODE, new RawKey("AES", key), new SectorParameterSpec("plain64", 4095, 512));
        jca.doFinal(want, 0, want.length, want, 0);
        try (BlockCipherXts x = BlockCipherXts.of(AESEngine::newInstance, key, 512)) {
            x.decrypt(4095, data, 0, data.length);
        }
        assertArrayEquals(want, data);
    }

    @Test
    void refusals() {
        byte[] key = new byte[64];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BlockCipherXts.of(CamelliaEngine::new, new byte[63], 512));
        assertTrue(e.getMessage().contains("63"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BlockCipherXts.of(BlowfishEngine::new, key, 512));
        assertTrue(e.getMessage().contains("16"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BlockCipherXts.of(CamelliaEngine::new, key, 520));
        assertTrue(e.getMessage().contains("520"), e.getMessage());
        BlockCipherXts x = BlockCipherXts.of(CamelliaEngine::new, key, 512);
        e = assertThrows(IllegalArgumentException.class, () -> x.decrypt(0, new byte[1024], 512, 1024));
        assertTrue(e.getMessage().contains("inside"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> x.decrypt(0, new byte[1024], 0, 100));
        x.close();
        assertThrows(IllegalStateException.class, () -> x.decrypt(0, new byte[512], 0, 512));
        assertTrue(x.toString().contains("Camellia"), x.toString());
    }
}
