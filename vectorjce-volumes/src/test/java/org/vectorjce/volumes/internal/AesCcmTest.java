package org.vectorjce.volumes.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import javax.crypto.AEADBadTagException;

import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJceProvider;

/**
 * {@link AesCcm} against RFC 3610's 24 packet vectors, NIST SP 800-38C's four examples and three
 * of IEEE P1619.1's AES-256 vectors (testvectors/ccm), both ways; against Bouncy Castle's CCM at
 * BitLocker's parameters (12-byte nonce, 16-byte tag) and random lengths; and a flipped bit in the
 * tag, the ciphertext, the nonce or the associated data ends in {@link AEADBadTagException}, with
 * no plaintext out.
 */
class AesCcmTest {
    private static final VectorJceProvider P = new VectorJceProvider();

    record Vector(String name, byte[] key, byte[] nonce, byte[] aad, byte[] pt, byte[] ct) {
    }

    static List<Vector> vectors() throws Exception {
        String dir = System.getProperty("vectorjce.testvectors", "../testvectors");
        List<Vector> v = new ArrayList<>();
        HexFormat h = HexFormat.of();
        byte[] pattern = new byte[65536];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) i;
        }
        for (String line : Files.readAllLines(Path.of(dir, "ccm", "ccm.vec"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            for (int i = 0; i < f.length; i++) {
                f[i] = f[i].strip();
            }
            v.add(new Vector(f[0], h.parseHex(f[1]), h.parseHex(f[2]),
                    f[3].equals("PATTERN65536") ? pattern : h.parseHex(f[3]), h.parseHex(f[4]), h.parseHex(f[5])));
        }
        return v;
    }

    @Test
    void knownAnswers() throws Exception {
        List<Vector> vs = vectors();
        assertEquals(31, vs.size(), "vectors in ccm.vec");
        for (Vector v : vs) {
            int tag = v.ct().length - v.pt().length;
            try (AesCcm c = new AesCcm(P, v.key())) {
                assertArrayEquals(v.ct(), c.encrypt(v.nonce(), v.aad(), v.pt(), tag), v.name() + " encrypt");
                byte[] t = Arrays.copyOfRange(v.ct(), v.pt().length, v.ct().length);
                assertArrayEquals(v.pt(), c.decrypt(v.nonce(), v.aad(), v.ct(), 0, v.pt().length, t),
                        v.name() + " decrypt");
            }
        }
    }

    @Test
    void anyFlippedBitIsRefused() throws Exception {
        for (Vector v : vectors()) {
            int tag = v.ct().length - v.pt().length;
            byte[] t = Arrays.copyOfRange(v.ct(), v.pt().length, v.ct().length);
            try (AesCcm c = new AesCcm(P, v.key())) {
                byte[] badTag = t.clone();
                badTag[tag - 1] ^= 1;
                assertThrows(AEADBadTagException.class,
                        () -> c.decrypt(v.nonce(), v.aad(), v.ct(), 0, v.pt().length, badTag), v.name() + " tag");
                if (v.pt().length > 0) {
                    byte[] badCt = v.ct().clone();
                    badCt[0] ^= (byte) 0x80;
                    assertThrows(AEADBadTagException.class,
                            () -> c.decrypt(v.nonce(), v.aad(), badCt, 0, v.pt().length, t), v.name() + " ciphertext");
                }
                byte[] badNonce = v.nonce().clone();
                badNonce[0] ^= 1;
                assertThrows(AEADBadTagException.class,
                        () -> c.decrypt(badNonce, v.aad(), v.ct(), 0, v.pt().length, t), v.name() + " nonce");
                if (v.aad().length > 0) {
                    byte[] badAad = v.aad().clone();
                    badAad[badAad.length - 1] ^= 1;
                    assertThrows(AEADBadTagException.class,
                            () -> c.decrypt(v.nonce(), badAad, v.ct(), 0, v.pt().length, t), v.name() + " aad");
                }
            }
        }
    }

    @Test
    void equalsBouncyCastleAtBitLockersParameters() throws Exception {
        Random r = new Random(3610);
        for (int i = 0; i < 200; i++) {
            byte[] key = new byte[i % 2 == 0 ? 32 : 16];
            byte[] nonce = new byte[12];
            byte[] pt = new byte[r.nextInt(100)];
            byte[] aad = new byte[i % 5 == 0 ? r.nextInt(40) : 0];
            r.nextBytes(key);
            r.nextBytes(nonce);
            r.nextBytes(pt);
            r.nextBytes(aad);
            CCMBlockCipher bc = new CCMBlockCipher(new AESEngine());
            bc.init(true, new AEADParameters(new KeyParameter(key), 128, nonce, aad));
            byte[] want = new byte[bc.getOutputSize(pt.length)];
            int n = bc.processBytes(pt, 0, pt.length, want, 0);
            bc.doFinal(want, n);
            try (AesCcm c = new AesCcm(P, key)) {
                assertArrayEquals(want, c.encrypt(nonce, aad, pt, 16), "encrypt #" + i);
                assertArrayEquals(pt, c.decrypt(nonce, aad, want, 0, pt.length,
                        Arrays.copyOfRange(want, pt.length, want.length)), "decrypt #" + i);
            }
        }
    }

    @Test
    void badParametersAreNamed() throws Exception {
        try (AesCcm c = new AesCcm(P, new byte[16])) {
            assertEquals("CCM nonce of 6 bytes: 7 to 13", assertThrows(IllegalArgumentException.class,
                    () -> c.encrypt(new byte[6], new byte[0], new byte[1], 16)).getMessage());
            assertEquals("CCM tag of 5 bytes: 4, 6, ..., 16", assertThrows(IllegalArgumentException.class,
                    () -> c.decrypt(new byte[12], new byte[0], new byte[4], 0, 4, new byte[5])).getMessage());
        }
    }
}
