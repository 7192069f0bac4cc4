package org.vectorjce.oracle;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.BlockCipher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/**
 * Many sectors per call (issue 13) against the independent oracle: each sector encrypted on its own
 * by the test suite's XTS and LRW references on Bouncy Castle's raw engines, and CBC by Bouncy
 * Castle's own CBC on a raw engine, with IVs built here from dm-crypt's definitions
 * ({@code crypt_iv_*_gen} in {@code drivers/md/dm-crypt.c}), ESSIV with the JDK's SHA-256 and a raw
 * engine. Random sector counts, first sectors near 2^32 and 2^64, both IV countings, every kernel,
 * split updates.
 */
class SectorOracleTest {
    private static final String[] ALGORITHMS = {"AES", "Twofish", "Serpent"};

    @AfterEach
    void clearKernelProperties() {
        for (String alg : ALGORITHMS) {
            TestProviders.reset();
        }
    }

    // ---------------------------------------------------------------- the IVs, from dm-crypt

    /** dm-crypt's IV for sector number n (unsigned), written directly from the definitions. */
    static byte[] dmCryptIv(String gen, long n, String alg, byte[] key) throws GeneralSecurityException {
        ByteBuffer iv = ByteBuffer.allocate(16);
        switch (gen) {
            case "plain" -> iv.order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) n);          // cpu_to_le32(sector & 0xffffffff)
            case "plain64" -> iv.order(ByteOrder.LITTLE_ENDIAN).putLong(0, n);              // cpu_to_le64(sector)
            case "plain64be" -> iv.order(ByteOrder.BIG_ENDIAN).putLong(8, n);               // cpu_to_be64, last 8 bytes
            case "benbi" -> iv.order(ByteOrder.BIG_ENDIAN).putLong(8, (n << 5) + 1);        // (sector << shift) + 1, shift = 9 - log2(16)
            case "null" -> { }
            case "essiv:sha256" -> {
                iv.order(ByteOrder.LITTLE_ENDIAN).putLong(0, n);
                byte[] salt = MessageDigest.getInstance("SHA-256").digest(key);
                byte[] out = new byte[16];
                if (alg.equals("AES")) {
                    // SunJCE's AES, independent of the provider under test
                    Cipher e = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
                    e.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(salt, "AES"));
                    return e.doFinal(iv.array());
                }
                TweakOracleTest.engine(alg, salt, true).processBlock(iv.array(), 0, out, 0);
                return out;
            }
            default -> throw new IllegalArgumentException(gen);
        }
        return iv.array();
    }

    /** One sector through the oracle. */
    static byte[] oracleSector(String mode, String alg, byte[] key, byte[] iv, byte[] in, boolean enc) {
        switch (mode) {
            case "XTS":
                return TweakOracleTest.xts(alg, key, iv, in, enc);
            case "LRW":
                return TweakOracleTest.lrw(alg, key, iv, in, enc);
            default: {
                BlockCipher e = TweakOracleTest.engine(alg, key, enc);
                byte[] out = new byte[in.length];
                byte[] chain = iv.clone();
                for (int j = 0; j < in.length; j += 16) {
                    byte[] b = Arrays.copyOfRange(in, j, j + 16);
                    if (enc) {
                        for (int i = 0; i < 16; i++) {
                            b[i] ^= chain[i];
                        }
                        e.processBlock(b, 0, out, j);
                        chain = Arrays.copyOfRange(out, j, j + 16);
                    } else {
                        e.processBlock(b, 0, out, j);
                        for (int i = 0; i < 16; i++) {
                            out[j + i] ^= chain[i];
                        }
                        chain = b;
                    }
                }
                return out;
            }
        }
    }

    @Test
    void generatorsMatchDmCryptDefinitions() throws Exception {
        // A few values worked by hand, beside the ByteBuffer forms above.
        byte[] plain = dmCryptIv("plain", 0x1_0000_0005L, "AES", null);
        assertEquals("05000000000000000000000000000000", hex(plain), "plain wraps at 2^32");
        assertEquals("0100000000000000" + "0000000000000000", hex(dmCryptIv("plain64", 1, "AES", null)));
        assertEquals("0000000000000000" + "0000000000000001", hex(dmCryptIv("plain64be", 1, "AES", null)));
        assertEquals("0000000000000000" + "0000000000000021", hex(dmCryptIv("benbi", 1, "AES", null)));
    }

    private static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }

    static Stream<Arguments> cases() {
        List<Arguments> l = new ArrayList<>();
        String[][] modes = {
            {"XTS", "plain", "plain64", "plain64be", "null"},
            {"LRW", "benbi", "plain64be", "null"},
            {"CBC", "essiv:sha256", "plain", "plain64", "null"},
        };
        for (String alg : ALGORITHMS) {
            for (String k : org.vectorjce.TestProviders.kernelsToTest(alg)) {
                for (String[] m : modes) {
                    for (int g = 1; g < m.length; g++) {
                        l.add(Arguments.of(alg, k, m[0], m[g]));
                    }
                }
            }
        }
        return l.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("cases")
    void manySectorsEqualOneSectorAtATimeThroughTheOracle(String alg, String kernel, String mode, String gen)
            throws Exception {
        TestProviders.force(alg, kernel);
        Random rnd = new Random((alg + kernel + mode + gen).hashCode());
        int keyLen = mode.equals("XTS") ? 64 : mode.equals("LRW") ? 48 : 32;
        long[] firsts = {0, 7, (1L << 32) - 3, (1L << 32) / 8 - 1, -5L, -1L, rnd.nextLong()};
        int[] sizes = {512, 1024, 2048, 4096};
        for (int round = 0; round < 6; round++) {
            byte[] key = new byte[keyLen];
            rnd.nextBytes(key);
            key[0] = 1;
            key[keyLen / 2] = 2;
            int size = sizes[round % sizes.length];
            long first = firsts[rnd.nextInt(firsts.length)];
            boolean large = rnd.nextBoolean();
            int count = 1 + rnd.nextInt(round < 3 ? 5 : 40);
            byte[] plain = new byte[count * size];
            rnd.nextBytes(plain);
            // The oracle, one sector at a time.
            byte[] want = new byte[plain.length];
            for (int i = 0; i < count; i++) {
                long n = (first + i) * (large ? 1 : size / 512);
                byte[] iv = dmCryptIv(gen, n, alg, key);
                byte[] s = oracleSector(mode, alg, key, iv, Arrays.copyOfRange(plain, i * size, (i + 1) * size), true);
                System.arraycopy(s, 0, want, i * size, size);
            }
            SectorParameterSpec spec = new SectorParameterSpec(gen, first, size, large);
            String where = alg + "/" + mode + " " + kernel + " " + spec + ", " + count + " sectors";
            Cipher c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", TestProviders.current());
            SecretKeySpec k = new SecretKeySpec(key, alg);
            c.init(Cipher.ENCRYPT_MODE, k, spec);
            assertArrayEquals(want, c.doFinal(plain), where);
            // Split updates anywhere: the same bytes, whole sectors out of each update.
            int cut1 = rnd.nextInt(plain.length + 1), cut2 = cut1 + rnd.nextInt(plain.length - cut1 + 1);
            byte[] a = c.update(plain, 0, cut1);
            byte[] b = c.update(plain, cut1, cut2 - cut1);
            assertEquals(0, (a == null ? 0 : a.length) % size, where + ": update emits whole sectors");
            byte[] got = concat(a, b, c.doFinal(plain, cut2, plain.length - cut2));
            assertArrayEquals(want, got, where + ", split at " + cut1 + ", " + cut2);
            // Decryption, in place.
            c.init(Cipher.DECRYPT_MODE, k, spec);
            byte[] buf = want.clone();
            assertEquals(buf.length, c.doFinal(buf, 0, buf.length, buf, 0));
            assertArrayEquals(plain, buf, where + ", decrypted in place");
        }
    }

    static Stream<Arguments> xtsKernels() {
        List<Arguments> l = new ArrayList<>();
        for (String alg : ALGORITHMS) {
            for (String k : org.vectorjce.TestProviders.kernelsToTest(alg)) {
                l.add(Arguments.of(alg, k));
            }
        }
        return l.stream();
    }

    /**
     * One sector per call in the orders a disk layer reads, through {@code SectorCipher} and through
     * a JCA {@code init} per sector with the sector's IV: runs that count up (where XTS makes first
     * tweaks ahead), across 2^32 (where {@code plain} wraps and the IVs stop counting) and 2^64,
     * jumps back into and past a run, the same sector twice, and a run broken by a call of many
     * sectors. Each sector against the oracle.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("xtsKernels")
    void xtsSectorBySectorInEveryOrder(String alg, String kernel) throws Exception {
        VectorJceProvider p = TestProviders.withKernel(alg, kernel);
        Random rnd = new Random((alg + kernel).hashCode());
        byte[] key = new byte[64];
        rnd.nextBytes(key);
        List<long[]> calls = new ArrayList<>(); // {first sector, count}
        for (long start : new long[] {0, (1L << 32) - 40, -37L}) {
            for (long n = start; n < start + 75; n++) {
                calls.add(new long[] {n, 1});
            }
        }
        for (long n : new long[] {5, 6, 7, 6, 20, 21, 22, 22, 23, 3, 24, 25, 26, 100, 101, 102, 103, 104, 60, 105, 106}) {
            calls.add(new long[] {n, 1});
        }
        calls.add(new long[] {107, 40});
        for (long n = 147; n < 180; n++) {
            calls.add(new long[] {n, n % 7 == 0 ? 3 : 1});
        }
        for (String gen : new String[] {"plain64", "plain"}) {
            SectorCipher sc = SectorCipher.of(alg.toLowerCase(java.util.Locale.ROOT) + "-xts-" + gen, key, 512, false, p);
            Cipher jca = Cipher.getInstance(alg + "/XTS/NoPadding", p);
            SecretKeySpec k = new SecretKeySpec(key, alg);
            for (long[] call : calls) {
                int count = (int) call[1];
                byte[] plain = new byte[512 * count];
                rnd.nextBytes(plain);
                byte[] want = new byte[plain.length];
                for (int i = 0; i < count; i++) {
                    byte[] iv = dmCryptIv(gen, call[0] + i, alg, key);
                    System.arraycopy(oracleSector("XTS", alg, key, iv, Arrays.copyOfRange(plain, 512 * i, 512 * (i + 1)), true),
                            0, want, 512 * i, 512);
                }
                String where = alg + " " + kernel + " " + gen + " sector " + Long.toUnsignedString(call[0]) + " x" + count;
                byte[] buf = plain.clone();
                sc.encrypt(call[0], buf, 0, buf.length);
                assertArrayEquals(want, buf, where + " (SectorCipher)");
                sc.decrypt(call[0], buf, 0, buf.length);
                assertArrayEquals(plain, buf, where + " (SectorCipher, decrypted)");
                if (count == 1) {
                    jca.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(dmCryptIv(gen, call[0], alg, key)));
                    assertArrayEquals(want, jca.doFinal(plain), where + " (JCA init per sector)");
                }
            }
            sc.close();
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p == null ? 0 : p.length;
        }
        byte[] r = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            if (p != null) {
                System.arraycopy(p, 0, r, o, p.length);
                o += p.length;
            }
        }
        return r;
    }

    @Test
    void partialSectorAtDoFinalLosesNothingAndRestartsAtFirstSector() throws Exception {
        byte[] key = new byte[64];
        new Random(5).nextBytes(key);
        SecretKeySpec k = new SecretKeySpec(key, "AES");
        SectorParameterSpec spec = new SectorParameterSpec("plain64", 100, 512);
        Cipher c = Cipher.getInstance("AES/XTS/NoPadding", TestProviders.current());
        c.init(Cipher.ENCRYPT_MODE, k, spec);
        byte[] data = new byte[3 * 512];
        new Random(6).nextBytes(data);
        byte[] whole = c.doFinal(data);
        // update 700 bytes: one sector out, 188 kept
        assertEquals(512, c.update(data, 0, 700).length);
        IllegalBlockSizeException e = assertThrows(IllegalBlockSizeException.class, () -> c.doFinal(data, 700, 100));
        assertTrue(e.getMessage().contains("512-byte sectors") && e.getMessage().contains("288 bytes (188 buffered)"), e.getMessage());
        // Nothing was lost: the rest completes the message as one doFinal would have.
        byte[] rest = c.doFinal(data, 700, data.length - 700);
        assertArrayEquals(Arrays.copyOfRange(whole, 512, whole.length), rest);
        // ... and the cipher restarted at sector 100.
        assertArrayEquals(whole, c.doFinal(data));
        assertNull(c.getIV(), "no single IV under a SectorParameterSpec");
        assertEquals(spec, c.getParameters().getParameterSpec(SectorParameterSpec.class));
        // getParameters() round trip: init from the AlgorithmParameters.
        Cipher d = Cipher.getInstance("AES/XTS/NoPadding", TestProviders.current());
        d.init(Cipher.DECRYPT_MODE, k, c.getParameters());
        assertArrayEquals(data, d.doFinal(whole));
        // Back to a plain IV: an IvParameterSpec init drops the sector spec.
        c.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[16]));
        assertEquals(17, c.doFinal(new byte[17]).length);
    }

    @Test
    void badSpecsNameWhatIsWrong() throws Exception {
        SecretKeySpec aes32 = new SecretKeySpec(new byte[32], "AES");
        byte[] k64 = new byte[64];
        k64[0] = 1;
        SecretKeySpec aes64 = new SecretKeySpec(k64, "AES");
        Object[][] bad = {
            {"AES/CTR/NoPadding", aes32, new SectorParameterSpec("plain64", 0, 512), "XTS/NoPadding"},
            {"AES/CBC/PKCS5Padding", aes32, new SectorParameterSpec("plain64", 0, 512), "not AES/CBC/PKCS5Padding"},
            {"AES/ECB/NoPadding", aes32, new SectorParameterSpec("plain64", 0, 512), "not AES/ECB/NoPadding"},
            {"AES/XTS/NoPadding", aes64, new SectorParameterSpec("essiv:sha256", 0, 512), "'essiv:sha256'"},
            {"AES/XTS/NoPadding", aes64, new SectorParameterSpec("plain65", 0, 512), "plain, plain64, plain64be, null"},
            {"AES/LRW/NoPadding", new SecretKeySpec(new byte[48], "AES"), new SectorParameterSpec("plain64", 0, 512), "benbi"},
            {"AES/CBC/NoPadding", aes32, new SectorParameterSpec("benbi", 0, 512), "essiv:sha256"},
            {"AES/XTS/NoPadding", aes64, new SectorParameterSpec("plain64", 0, 1000), "Bad sector size 1000"},
            {"AES/XTS/NoPadding", aes64, new SectorParameterSpec("plain64", 0, 8192), "512, 1024, 2048 or 4096"},
        };
        for (Object[] b : bad) {
            Cipher c = Cipher.getInstance((String) b[0], TestProviders.current());
            InvalidAlgorithmParameterException e = assertThrows(InvalidAlgorithmParameterException.class,
                    () -> c.init(Cipher.ENCRYPT_MODE, (SecretKeySpec) b[1], (SectorParameterSpec) b[2]), b[0] + " " + b[2]);
            assertTrue(e.getMessage().contains((String) b[3]), b[0] + " " + b[2] + ": " + e.getMessage());
        }
    }

    /** One CBC-ESSIV cipher re-initialised with other keys and specs: the salt follows the key. */
    @Test
    void essivFollowsTheKeyAcrossReinits() throws Exception {
        Random rnd = new Random(77);
        Cipher c = Cipher.getInstance("AES/CBC/NoPadding", TestProviders.current());
        byte[] plain = new byte[4 * 512];
        rnd.nextBytes(plain);
        byte[] key = new byte[32];
        SecretKeySpec k = null;
        for (int round = 0; round < 6; round++) {
            if (round % 2 == 0) { // a new key every other round; the same key object in between
                rnd.nextBytes(key);
                k = new SecretKeySpec(key, "AES");
            }
            long first = rnd.nextInt(1000);
            String gen = round == 3 ? "plain64" : "essiv:sha256";
            byte[] want = new byte[plain.length];
            for (int i = 0; i < 4; i++) {
                byte[] iv = dmCryptIv(gen, first + i, "AES", key);
                System.arraycopy(oracleSector("CBC", "AES", key, iv, Arrays.copyOfRange(plain, i * 512, (i + 1) * 512), true),
                        0, want, i * 512, 512);
            }
            c.init(Cipher.ENCRYPT_MODE, k, new SectorParameterSpec(gen, first, 512, true));
            assertArrayEquals(want, c.doFinal(plain), "round " + round + " " + gen);
        }
    }
}
