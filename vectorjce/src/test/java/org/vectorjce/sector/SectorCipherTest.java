package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.TestProviders;
import org.vectorjce.VectorJceProvider;

/**
 * The sector API against the JCA path: every dm-crypt specification it takes gives, sector by
 * sector, what {@code Cipher.init} with a {@link SectorParameterSpec} (tested against Bouncy Castle
 * and the XTS/LRW reference elsewhere) or with each sector's own IV gives; on arrays in place and
 * out of place, heap and direct buffers, with and without {@code iv_large_sectors}, on every kernel
 * that runs here; and every bad input answered by name.
 */
class SectorCipherTest {
    private static final String[] SPECS = {
        "aes-xts-plain64", "aes-xts-plain", "aes-xts-plain64be", "aes-xts-null",
        "aes-lrw-benbi", "aes-lrw-plain64be", "aes-lrw-null",
        "aes-cbc-essiv:sha256", "aes-cbc-plain64", "aes-cbc-plain", "aes-cbc-null",
        "twofish-xts-plain64", "twofish-lrw-benbi", "twofish-cbc-essiv:sha256", "twofish-cbc-plain",
    };

    private static int keyLength(String mode, Random r) {
        int[] ks = mode.equals("XTS") ? new int[] {32, 48, 64} : mode.equals("LRW") ? new int[] {32, 40, 48}
                : new int[] {16, 24, 32};
        return ks[r.nextInt(ks.length)];
    }

    /** What the JCA gives for {@code sectors} sectors from {@code first}. */
    private static byte[] viaJca(VectorJceProvider p, String alg, String mode, String iv, byte[] key, int size,
            long first, boolean large, boolean encrypt, byte[] in) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", p);
        c.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, alg),
                new SectorParameterSpec(iv, first, size, large));
        return c.doFinal(in);
    }

    @TestFactory
    Stream<DynamicTest> equalsTheJcaPathOnEveryKernel() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String spec : SPECS) {
            String[] parts = spec.split("-", 3);
            String alg = parts[0].equals("aes") ? "AES" : "Twofish";
            String mode = parts[1].toUpperCase();
            for (String kernel : org.vectorjce.VectorJce.availableKernels(alg)) {
                tests.add(DynamicTest.dynamicTest(spec + " " + kernel, () -> {
                    VectorJceProvider p = TestProviders.withKernel(alg, kernel);
                    Random r = new Random((spec + kernel).hashCode());
                    for (int size : new int[] {512, 4096}) {
                        for (boolean large : new boolean[] {false, true}) {
                            byte[] key = new byte[keyLength(mode, r)];
                            r.nextBytes(key);
                            key[key.length - 1] ^= 1; // XTS halves never equal here
                            long first = r.nextBoolean() ? r.nextInt(1 << 20) : -3L; // -3: unsigned wrap
                            int sectors = 1 + r.nextInt(70);
                            byte[] plain = new byte[sectors * size];
                            r.nextBytes(plain);
                            String what = spec + " " + kernel + " " + size + (large ? " large" : "") + " first "
                                    + Long.toUnsignedString(first) + " x" + sectors;
                            byte[] want = viaJca(p, alg, mode, parts[2], key, size, first, large, true, plain);
                            try (SectorCipher c = SectorCipher.of(spec, key, size, large, p)) {
                                assertEquals(kernel, c.kernel());
                                byte[] buf = plain.clone();
                                c.encrypt(first, buf, 0, buf.length);
                                assertArrayEquals(want, buf, what + ", encrypt in place");
                                c.decrypt(first, buf, 0, buf.length);
                                assertArrayEquals(plain, buf, what + ", decrypt in place");
                                // out of place, at offsets, the second half from its own first sector
                                byte[] in = new byte[buf.length + 7], out = new byte[buf.length + 3];
                                System.arraycopy(want, 0, in, 7, want.length);
                                int half = sectors / 2 * size;
                                c.decrypt(first, in, 7, out, 3, half);
                                c.decrypt(first + half / size, in, 7 + half, out, 3 + half, want.length - half);
                                assertArrayEquals(plain, Arrays.copyOfRange(out, 3, 3 + plain.length), what + ", out of place");
                                // direct and heap buffers
                                ByteBuffer d = ByteBuffer.allocateDirect(plain.length).put(plain).flip();
                                c.encrypt(first, d);
                                assertEquals(d.limit(), d.position());
                                byte[] got = new byte[plain.length];
                                d.get(0, got);
                                assertArrayEquals(want, got, what + ", direct buffer");
                                ByteBuffer h = ByteBuffer.wrap(got);
                                c.decrypt(first, h);
                                assertArrayEquals(plain, got, what + ", heap buffer");
                            }
                        }
                    }
                }));
            }
        }
        return tests.stream();
    }

    /** lrw-plain64 (plain64's bytes as LRW's index) and ecb, which no SectorParameterSpec takes: per sector through the JCA. */
    @Test
    void lrwPlain64AndEcbEqualThePerSectorJca() throws Exception {
        Random r = new Random(64);
        for (String alg : new String[] {"AES", "Twofish"}) {
            byte[] key = new byte[48];
            r.nextBytes(key);
            int size = 512;
            byte[] plain = new byte[9 * size];
            r.nextBytes(plain);
            long first = 77;
            Cipher lrw = Cipher.getInstance(alg + "/LRW/NoPadding", TestProviders.current());
            byte[] want = new byte[plain.length];
            for (int s = 0; s < 9; s++) {
                byte[] iv = new byte[16];
                long n = first + s;
                for (int b = 0; b < 8; b++) {
                    iv[b] = (byte) (n >>> (8 * b));
                }
                lrw.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, alg), new IvParameterSpec(iv));
                lrw.doFinal(plain, s * size, size, want, s * size);
            }
            try (SectorCipher c = SectorCipher.of(alg.toLowerCase() + "-lrw-plain64", key, size)) {
                byte[] buf = plain.clone();
                c.encrypt(first, buf, 0, buf.length);
                assertArrayEquals(want, buf, alg + " lrw-plain64");
            }
            byte[] k16 = Arrays.copyOf(key, 16);
            Cipher ecb = Cipher.getInstance(alg + "/ECB/NoPadding", TestProviders.current());
            ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k16, alg));
            byte[] wantEcb = ecb.doFinal(plain);
            for (String spec : new String[] {"-ecb", "-ecb-plain64"}) {
                try (SectorCipher c = SectorCipher.of(alg.toLowerCase() + spec, k16, size)) {
                    byte[] buf = plain.clone();
                    c.encrypt(5, buf, 0, buf.length);
                    assertArrayEquals(wantEcb, buf, alg + spec);
                    c.decrypt(5, buf, 0, buf.length);
                    assertArrayEquals(plain, buf, alg + spec + " decrypt");
                }
            }
            // dm-crypt's compatibility form: "aes" alone is aes-cbc-plain
            try (SectorCipher a = SectorCipher.of(alg.toLowerCase(), k16, size);
                    SectorCipher b = SectorCipher.of(alg.toLowerCase() + "-cbc-plain", k16, size)) {
                byte[] x = plain.clone(), y = plain.clone();
                a.encrypt(3, x, 0, x.length);
                b.encrypt(3, y, 0, y.length);
                assertArrayEquals(y, x);
                assertEquals("CBC", a.mode());
                assertEquals("plain", a.ivGenerator());
            }
        }
    }

    /**
     * essiv:HASH for any hash, with CBC and XTS: sector n's IV is E_{HASH(key)}(plain64(n)) under
     * the same cipher (Bouncy Castle's, for the reference), then the mode through the JCA with that
     * IV. wp256 (Whirlpool's first 256 bits, Bouncy Castle's Whirlpool here) comes from the
     * caller's {@link SectorCipher.EssivHash}, the others from the JDK.
     */
    @Test
    void essivWithAnyHashEqualsThePerSectorJca() throws Exception {
        java.security.Provider bc = new org.bouncycastle.jce.provider.BouncyCastleProvider();
        SectorCipher.EssivHash wp = (h, k) -> {
            if (!h.equals("wp256")) {
                return null;
            }
            org.bouncycastle.crypto.digests.WhirlpoolDigest d = new org.bouncycastle.crypto.digests.WhirlpoolDigest();
            d.update(k, 0, k.length);
            byte[] o = new byte[64];
            d.doFinal(o, 0);
            return Arrays.copyOf(o, 32);
        };
        Random r = new Random(33);
        String[][] cases = {
            {"aes-xts-essiv:sha256", "SHA-256"}, {"aes-xts-essiv:wp256", null}, {"aes-cbc-essiv:md5", "MD5"},
            {"serpent-xts-essiv:sha3-256", "SHA3-256"}, {"twofish-cbc-essiv:wp256", null}, {"aes-cbc-essiv:wp256", null},
        };
        for (String[] cs : cases) {
            String[] part = cs[0].split("-", 3);
            String alg = part[0].equals("aes") ? "AES" : part[0].equals("serpent") ? "Serpent" : "Twofish";
            String mode = part[1].toUpperCase(java.util.Locale.ROOT);
            byte[] key = new byte[mode.equals("XTS") ? 64 : 32];
            r.nextBytes(key);
            byte[] salt = cs[1] == null ? wp.digest("wp256", key) : java.security.MessageDigest.getInstance(cs[1]).digest(key);
            Cipher ivc = Cipher.getInstance(alg + "/ECB/NoPadding", bc);
            ivc.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(salt, alg));
            int size = 512;
            byte[] plain = new byte[5 * size];
            r.nextBytes(plain);
            long first = 1L << 33;
            Cipher jca = Cipher.getInstance(alg + "/" + mode + "/NoPadding", TestProviders.current());
            byte[] want = new byte[plain.length];
            for (int s = 0; s < 5; s++) {
                byte[] n = new byte[16];
                for (int b = 0; b < 8; b++) {
                    n[b] = (byte) ((first + s) >>> (8 * b));
                }
                jca.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, alg), new IvParameterSpec(ivc.doFinal(n)));
                jca.doFinal(plain, s * size, size, want, s * size);
            }
            try (SectorCipher c = SectorCipher.of(cs[0], key, size, false, TestProviders.current(), wp)) {
                byte[] buf = plain.clone();
                c.encrypt(first, buf, 0, buf.length);
                assertArrayEquals(want, buf, cs[0]);
                c.decrypt(first, buf, 0, buf.length);
                assertArrayEquals(plain, buf, cs[0] + " decrypt");
                assertEquals(part[2], c.ivGenerator());
            }
            if (cs[1] == null) {
                InvalidAlgorithmParameterException none = assertThrows(InvalidAlgorithmParameterException.class,
                        () -> SectorCipher.of(cs[0], key, size));
                assertTrue(none.getMessage().contains("'wp256'"), none.getMessage());
            }
        }
    }

    @Test
    void badInputIsAnsweredByName() throws Exception {
        byte[] k64 = new byte[64];
        new Random(1).nextBytes(k64);
        for (String[] c : new String[][] {
            {"camellia-xts-plain64", "'camellia'"}, {"aes-ctr-plain64", "'ctr'"}, {"aes-xts-benbi", "'benbi'"},
            {"aes-xts", "no IV generator"}, {"aes-cbc-essiv:", "not a hash name"}, {"aes-xts-essiv:nosuch", "'nosuch'"},
            {"aes-lrw-essiv:sha256", "'essiv:sha256'"}, {"", "No cipher"},
            {"capi:xts(aes)-plain64", "capi"},
        }) {
            InvalidAlgorithmParameterException e = assertThrows(InvalidAlgorithmParameterException.class,
                    () -> SectorCipher.of(c[0], k64, 512), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
        }
        InvalidAlgorithmParameterException size = assertThrows(InvalidAlgorithmParameterException.class,
                () -> SectorCipher.of("aes-xts-plain64", k64, 520));
        assertTrue(size.getMessage().contains("520"), size.getMessage());
        InvalidKeyException key = assertThrows(InvalidKeyException.class,
                () -> SectorCipher.of("aes-xts-plain64", new byte[20], 512));
        assertTrue(key.getMessage().contains("20 bytes") && key.getMessage().contains("32, 48, 64"), key.getMessage());
        assertThrows(InvalidKeyException.class, () -> SectorCipher.of("aes-xts-plain64", null, 512));
        // ESSIV's digest keys the same cipher: SHA-1's 160 bits are no AES key (as in dm-crypt)
        InvalidKeyException sha1 = assertThrows(InvalidKeyException.class,
                () -> SectorCipher.of("aes-cbc-essiv:sha1", new byte[16], 512));
        assertTrue(sha1.getMessage().contains("'sha1'") && sha1.getMessage().contains("160-bit"), sha1.getMessage());

        SectorCipher c = SectorCipher.of("aes-xts-plain64", k64, 512);
        byte[] buf = new byte[1024];
        IllegalArgumentException partial = assertThrows(IllegalArgumentException.class, () -> c.encrypt(0, buf, 0, 100));
        assertTrue(partial.getMessage().contains("whole number of 512-byte sectors"), partial.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> c.encrypt(0, buf, 512, 1024));
        assertThrows(IllegalArgumentException.class, () -> c.encrypt(0, buf, 0, buf, 16, 512), "overlap");
        assertThrows(java.nio.ReadOnlyBufferException.class,
                () -> c.encrypt(0, ByteBuffer.allocate(512).asReadOnlyBuffer()));
        assertFalse(c.toString().matches(".*[0-9a-f]{32}.*"), c.toString());
        c.close();
        c.close();
        assertThrows(IllegalStateException.class, () -> c.decrypt(0, buf, 0, 512));

        // XTS with equal halves: decryption only, as Cipher.init
        byte[] equal = new byte[64];
        try (SectorCipher e = SectorCipher.of("aes-xts-plain64", equal, 512)) {
            assertTrue(e.encryptionRefusal().contains("halves K1 and K2 are equal"), e.encryptionRefusal());
            e.decrypt(0, buf, 0, 512);
            IllegalStateException x = assertThrows(IllegalStateException.class, () -> e.encrypt(0, buf, 0, 512));
            assertTrue(x.getMessage().contains("equal"), x.getMessage());
        }
        // a provider's settings reach it: a kernel that runs nowhere is refused at of()
        VectorJceProvider bad = (VectorJceProvider) new VectorJceProvider().configure("kernel.aes=aes-table constantTime=true");
        InvalidKeyException ct = assertThrows(InvalidKeyException.class,
                () -> SectorCipher.of("aes-xts-plain64", k64, 512, false, bad));
        assertTrue(ct.getMessage().contains("not constant-time"), ct.getMessage());
    }
}
