package org.vectorjce.contract;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vectorjce.contract.ContractSupport.BLOCK;
import static org.vectorjce.contract.ContractSupport.assertThrowsNamed;
import static org.vectorjce.contract.ContractSupport.bytes;
import static org.vectorjce.contract.ContractSupport.cipher;
import static org.vectorjce.contract.ContractSupport.key;
import static org.vectorjce.contract.ContractSupport.oneShot;
import static org.vectorjce.contract.ContractSupport.random;

import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.vectorjce.VectorJce;
import org.vectorjce.contract.ContractSupport.Spec;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * Table-driven bad-input tests: every refusal has the right exception type, a message that names
 * the problem, and never shows key bytes. All through {@code Cipher.getInstance(T, provider)}.
 */
class BadInputTest {

    private static final int ENC = Cipher.ENCRYPT_MODE;
    private static final int DEC = Cipher.DECRYPT_MODE;

    /** 2^24 + 16 bytes: one block more than the largest XTS data unit. Allocated once. */
    private static byte[] hugeUnit;

    private static synchronized byte[] hugeUnit() {
        if (hugeUnit == null) {
            hugeUnit = new byte[(1 << 24) + 16];
            new Random(1).nextBytes(hugeUnit);
        }
        return hugeUnit;
    }

    /** A RAW secret key with any encoding, even empty (SecretKeySpec refuses empty keys). */
    private record RawKey(String algorithm, byte[] bytes) implements SecretKey {
        private static final long serialVersionUID = 1L;

        @Override
        public String getAlgorithm() {
            return algorithm;
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }
    }

    private static Stream<DynamicTest> perSpec(String name, SpecCase body) {
        return ContractSupport.specs().stream().map(s -> DynamicTest.dynamicTest(name + " " + s, () -> body.run(s)));
    }

    private interface SpecCase {
        void run(Spec s) throws Exception;
    }

    private static String dir(int opmode) {
        return opmode == ENC ? "encrypt" : "decrypt";
    }

    private static byte[] validKey(Spec s, Random rnd) {
        return key(rnd, s.keyLengths()[0]);
    }

    private static IvParameterSpec validIv(Spec s, Random rnd) {
        return s.usesIv() ? new IvParameterSpec(bytes(rnd, BLOCK)) : null;
    }

    private static void init(Cipher c, int opmode, SecretKey k, IvParameterSpec iv) throws Exception {
        if (iv == null) {
            c.init(opmode, k);
        } else {
            c.init(opmode, k, iv);
        }
    }

    private static String allowedSizes(Spec s, int i) {
        return Integer.toString(s.keyLengths()[i]);
    }

    // ------------------------------------------------------------------ keys

    @TestFactory
    Stream<DynamicTest> wrongKeyLengthsListAllowedSizes() {
        return perSpec("wrong key length", s -> {
            Random rnd = random("keylen", s.transformation());
            List<Integer> lengths = new ArrayList<>(List.of(0, 1, 15, 17, 31, 33, 65));
            // Lengths valid for another mode but not this one.
            for (int extra : new int[] {16, 24, 40, 48, 64}) {
                if (Arrays.stream(s.keyLengths()).noneMatch(a -> a == extra)) {
                    lengths.add(extra);
                }
            }
            for (int len : lengths) {
                byte[] k = bytes(rnd, len);
                SecretKey key = new RawKey(s.alg(), k);
                for (int opmode : new int[] {ENC, DEC}) {
                    IvParameterSpec iv = validIv(s, rnd);
                    Cipher c = cipher(s);
                    InvalidKeyException e = assertThrowsNamed(InvalidKeyException.class, k, () -> init(c, opmode, key, iv),
                            Integer.toString(len), allowedSizes(s, 0), allowedSizes(s, 1), allowedSizes(s, 2));
                    if (!s.usesIv() || opmode == ENC && s.generatesIv()) {
                        // init(opmode, key) without parameters reports the key, not a missing IV.
                        assertThrowsNamed(InvalidKeyException.class, k, () -> cipher(s).init(opmode, key),
                                Integer.toString(len), allowedSizes(s, 0));
                    }
                    assertTrue(e.getMessage().length() < 400, e::getMessage);
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> keyOfAnotherAlgorithmRefused() {
        return perSpec("key of another algorithm", s -> {
            Random rnd = random("keyalg", s.transformation());
            byte[] k = validKey(s, rnd);
            String other = s.alg().equals("AES") ? "Twofish" : "AES"; // Twofish and Serpent get an AES key
            for (String keyAlg : new String[] {"DES", other, "HmacSHA256"}) {
                SecretKey key = new SecretKeySpec(k, keyAlg);
                for (int opmode : new int[] {ENC, DEC}) {
                    IvParameterSpec iv = validIv(s, rnd);
                    assertThrowsNamed(InvalidKeyException.class, k, () -> init(cipher(s), opmode, key, iv), keyAlg, s.alg());
                }
            }
            // The right algorithm name in another case, and the AES alias, are accepted.
            init(cipher(s), ENC, new SecretKeySpec(k, s.alg().toUpperCase()), validIv(s, rnd));
            if (s.alg().equals("AES")) {
                init(cipher(s), ENC, new SecretKeySpec(k, "Rijndael"), validIv(s, rnd));
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> kernelForcedToUnknownName() {
        return Arrays.stream(ContractSupport.ALGORITHMS).map(alg -> DynamicTest.dynamicTest("unknown kernel " + alg, () -> {
            Spec s = new Spec(alg, "CBC", false);
            Random rnd = random("kernel", alg);
            byte[] k = validKey(s, rnd);
            String key = "kernel." + alg.toLowerCase();
            List<String> all = KernelRegistry.allNames(alg);
            // An unknown name: configure refuses it, naming it and listing every kernel.
            java.security.InvalidParameterException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.security.InvalidParameterException.class, () -> TestProviders.BASE.configure(key + "=nope"));
            assertTrue(e.getMessage().contains("'nope'") && e.getMessage().contains(all.get(0)), e.getMessage());
            // A registered kernel that does not run here: init fails, naming it and listing what runs.
            List<String> available = KernelRegistry.availableNames(alg);
            for (String name : all) {
                if (available.contains(name)) {
                    continue;
                }
                String[] must = new String[available.size() + 1];
                must[0] = name;
                for (int i = 0; i < available.size(); i++) {
                    must[i + 1] = available.get(i);
                }
                ContractSupport.withKernel(alg, name, () -> {
                    assertThrowsNamed(InvalidKeyException.class, k,
                            () -> cipher(s).init(ENC, new SecretKeySpec(k, alg), validIv(s, rnd)), must);
                    Spec xts = new Spec(alg, "XTS", false);
                    byte[] kx = validKey(xts, rnd);
                    assertThrowsNamed(InvalidKeyException.class, kx,
                            () -> cipher(xts).init(DEC, new SecretKeySpec(kx, alg), validIv(xts, rnd)), must);
                });
            }
            cipher(s).init(ENC, new SecretKeySpec(k, alg)); // the default provider still works
        }));
    }

    // ------------------------------------------------------------------ IVs

    @TestFactory
    Stream<DynamicTest> ivOfWrongLength() {
        return perSpec("wrong IV length", s -> {
            if (!s.usesIv()) {
                return;
            }
            Random rnd = random("ivlen", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            for (int len : new int[] {0, 1, 8, 15, 17, 32}) {
                byte[] iv = bytes(rnd, len);
                for (int opmode : new int[] {ENC, DEC}) {
                    assertThrowsNamed(InvalidAlgorithmParameterException.class, k,
                            () -> cipher(s).init(opmode, key, new IvParameterSpec(iv)), "IV", "16", Integer.toString(len));
                    AlgorithmParameters p = AlgorithmParameters.getInstance(s.alg(), TestProviders.current());
                    p.init(new IvParameterSpec(iv));
                    assertThrowsNamed(InvalidAlgorithmParameterException.class, k,
                            () -> cipher(s).init(opmode, key, p), "IV", "16");
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> wrongParameterType() {
        return perSpec("wrong parameter type", s -> {
            Random rnd = random("ptype", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            AlgorithmParameterSpec gcm = new GCMParameterSpec(128, new byte[12]);
            for (int opmode : new int[] {ENC, DEC}) {
                assertThrows(InvalidAlgorithmParameterException.class, () -> cipher(s).init(opmode, key, gcm));
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> ivGivenToEcb() {
        return perSpec("IV given to ECB", s -> {
            if (!s.ecb()) {
                return;
            }
            Random rnd = random("ecbiv", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            for (int opmode : new int[] {ENC, DEC}) {
                assertThrowsNamed(InvalidAlgorithmParameterException.class, k,
                        () -> cipher(s).init(opmode, key, new IvParameterSpec(bytes(rnd, 16))), "ECB", "IV");
                AlgorithmParameters p = AlgorithmParameters.getInstance(s.alg(), TestProviders.current());
                p.init(new IvParameterSpec(bytes(rnd, 16)));
                assertThrowsNamed(InvalidAlgorithmParameterException.class, k, () -> cipher(s).init(opmode, key, p), "ECB");
                // null parameters are fine for ECB
                cipher(s).init(opmode, key, (AlgorithmParameterSpec) null);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> missingIv() {
        return perSpec("missing IV", s -> {
            if (!s.usesIv()) {
                return;
            }
            Random rnd = random("noiv", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            for (int opmode : new int[] {ENC, DEC}) {
                if (opmode == ENC && s.generatesIv()) {
                    continue; // CBC/CTR encryption generates one
                }
                String what = s.xts() || s.lrw() ? s.mode() : "IV";
                assertThrowsNamed(InvalidKeyException.class, k, () -> cipher(s).init(opmode, key), "IV", what);
                assertThrowsNamed(InvalidKeyException.class, k,
                        () -> cipher(s).init(opmode, key, new java.security.SecureRandom()), "IV");
                assertThrowsNamed(InvalidAlgorithmParameterException.class, k,
                        () -> cipher(s).init(opmode, key, (AlgorithmParameterSpec) null), "IV", what);
                assertThrowsNamed(InvalidAlgorithmParameterException.class, k,
                        () -> cipher(s).init(opmode, key, (AlgorithmParameters) null), "IV");
            }
        });
    }

    // ------------------------------------------------------------------ lengths

    @TestFactory
    Stream<DynamicTest> lengthNotMultipleOfBlock() {
        return perSpec("length not a multiple of 16", s -> {
            boolean aligned = !s.padded() && (s.ecb() || s.cbc() || s.lrw());
            if (!aligned && !s.padded()) {
                return;
            }
            Random rnd = random("align", s.transformation());
            byte[] k = validKey(s, rnd);
            IvParameterSpec iv = validIv(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            for (int opmode : new int[] {ENC, DEC}) {
                if (s.padded() && opmode == ENC) {
                    continue; // padded encryption takes any length
                }
                for (int len : new int[] {1, 15, 17, 33, 100}) {
                    byte[] in = bytes(rnd, len);
                    Cipher c = cipher(s);
                    init(c, opmode, key, iv);
                    assertThrowsNamed(IllegalBlockSizeException.class, k, () -> c.doFinal(in), Integer.toString(len), "16");
                    // the same through update pieces, and into an output array
                    c.update(in, 0, len / 2);
                    // (the message may count only the bytes not yet processed)
                    assertThrowsNamed(IllegalBlockSizeException.class, k,
                            () -> c.doFinal(in, len / 2, len - len / 2, new byte[len + 32], 0), "16");
                    // the cipher is reset and usable after the error
                    byte[] ok = bytes(rnd, 48);
                    byte[] expected = opmode == ENC ? oneShotInit(s, ENC, key, iv, ok) : null;
                    if (opmode == ENC) {
                        assertArrayEquals(expected, c.doFinal(ok), "reset after IllegalBlockSizeException");
                    } else {
                        byte[] ct = oneShotInit(s, ENC, key, iv, ok);
                        assertArrayEquals(ok, c.doFinal(ct), "reset after IllegalBlockSizeException");
                    }
                }
            }
        });
    }

    private static byte[] oneShotInit(Spec s, int opmode, SecretKey key, IvParameterSpec iv, byte[] in) throws Exception {
        Cipher c = cipher(s);
        init(c, opmode, key, iv);
        return c.doFinal(in);
    }

    @TestFactory
    Stream<DynamicTest> xtsShorterThanOneBlock() {
        return perSpec("XTS < 16 bytes", s -> {
            if (!s.xts()) {
                return;
            }
            Random rnd = random("xtsshort", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            IvParameterSpec iv = validIv(s, rnd);
            for (int opmode : new int[] {ENC, DEC}) {
                for (int len : new int[] {0, 1, 15}) {
                    byte[] in = bytes(rnd, len);
                    Cipher c = cipher(s);
                    init(c, opmode, key, iv);
                    assertThrowsNamed(IllegalBlockSizeException.class, k, () -> c.doFinal(in), "16");
                    c.update(in);
                    assertThrowsNamed(IllegalBlockSizeException.class, k, () -> c.doFinal(), "16");
                    assertEquals(16, c.doFinal(new byte[16]).length, "usable after the error");
                }
            }
        });
    }

    private static void assertNamesXtsLimit(IllegalBlockSizeException e) {
        String m = e.getMessage();
        assertTrue(m != null && (m.contains("2^20") || m.contains("1048576") || m.contains("16 MiB")
                || m.contains("16777216")), () -> "message should name the 2^20-block limit: " + m);
    }

    @TestFactory
    Stream<DynamicTest> xtsLongerThan2To20Blocks() {
        return Arrays.stream(ContractSupport.ALGORITHMS).map(alg -> DynamicTest.dynamicTest("XTS > 2^20 blocks " + alg, () -> {
            Spec s = new Spec(alg, "XTS", false);
            Random rnd = random("xtslong", alg);
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, alg);
            IvParameterSpec iv = validIv(s, rnd);
            byte[] big = hugeUnit();
            byte[] small = bytes(rnd, 40);
            for (int opmode : new int[] {ENC, DEC}) {
                Cipher c = cipher(s);
                init(c, opmode, key, iv);
                assertNamesXtsLimit(assertThrowsNamed(IllegalBlockSizeException.class, k, () -> c.doFinal(big)));
                assertNamesXtsLimit(assertThrowsNamed(IllegalBlockSizeException.class, k,
                        () -> c.doFinal(big, 0, (1 << 24) + 1)));
                assertArrayEquals(oneShotInit(s, opmode, key, iv, small), c.doFinal(small), "usable after the error");
            }
            // Several update calls: the data before the limit is output, doFinal then refuses.
            Cipher c = cipher(s);
            init(c, ENC, key, iv);
            int[] pieces = {(1 << 22) + 5, 1 << 22, (1 << 23) - 21, 16, 16};
            int off = 0;
            byte[] out = new byte[(1 << 23) + 64];
            for (int p : pieces) {
                c.update(big, off, p, out, 0);
                off += p;
            }
            assertEquals(big.length, off);
            assertNamesXtsLimit(assertThrowsNamed(IllegalBlockSizeException.class, k, () -> c.doFinal(), "XTS"));
            assertArrayEquals(oneShotInit(s, ENC, key, iv, small), c.doFinal(small), "usable after the error");
        }));
    }

    @Test
    void xtsExactly2To20BlocksAccepted() throws Exception {
        Spec s = new Spec("AES", "XTS", false);
        Random rnd = random("xtsmax");
        byte[] k = validKey(s, rnd);
        Cipher c = cipher(s);
        c.init(ENC, new SecretKeySpec(k, "AES"), validIv(s, rnd));
        byte[] big = hugeUnit();
        byte[] out = new byte[1 << 24];
        assertEquals(1 << 24, c.doFinal(big, 0, 1 << 24, out, 0));
        // and 2^20 blocks less one byte (ciphertext stealing at the limit)
        assertEquals((1 << 24) - 1, c.doFinal(big, 0, (1 << 24) - 1, out, 0));
    }

    @TestFactory
    Stream<DynamicTest> xtsEqualKeyHalves() {
        return perSpec("XTS equal halves", s -> {
            if (!s.xts()) {
                return;
            }
            Random rnd = random("xtseq", s.transformation());
            for (int len : s.keyLengths()) {
                byte[] half = bytes(rnd, len / 2);
                byte[] k = new byte[len];
                System.arraycopy(half, 0, k, 0, len / 2);
                System.arraycopy(half, 0, k, len / 2, len / 2);
                SecretKey key = new SecretKeySpec(k, s.alg());
                IvParameterSpec iv = validIv(s, rnd);
                assertThrowsNamed(InvalidKeyException.class, k, () -> cipher(s).init(ENC, key, iv), "equal");
                assertThrowsNamed(InvalidKeyException.class, k, () -> cipher(s).init(Cipher.WRAP_MODE, key, iv), "equal");
                // Decryption with equal halves works, and matches IEEE 1619 computed with BC engines.
                byte[] plain = bytes(rnd, 16 * 37 + 5);
                byte[] ct = ContractSupport.xtsReference(s.alg(), true, k, iv.getIV(), plain);
                Cipher d = cipher(s);
                d.init(DEC, key, iv);
                assertArrayEquals(plain, d.doFinal(ct));
            }
        });
    }

    // ------------------------------------------------------------------ padding

    /** Last plaintext blocks with invalid PKCS#5 padding, one set per position of the last block. */
    private static List<byte[]> badLastBlocks() {
        List<byte[]> l = new ArrayList<>();
        for (int p = 1; p <= 16; p++) {
            for (int j = 16 - p; j < 16; j++) {
                byte[] b = validLastBlock(p);
                if (j < 15) {
                    b[j] ^= 0x01;
                    l.add(b);
                    byte[] b2 = validLastBlock(p);
                    b2[j] ^= (byte) 0x80;
                    l.add(b2);
                } else {
                    for (int v : badPadValues(p)) {
                        byte[] bv = validLastBlock(p);
                        bv[15] = (byte) v;
                        l.add(bv);
                    }
                }
            }
        }
        l.add(new byte[16]);
        return l;
    }

    /** Last-byte values that make a block with pad length {@code p} invalid (data bytes are >= 0x40). */
    private static int[] badPadValues(int p) {
        return p < 16 ? new int[] {0, 17, 0xff, p + 1} : new int[] {0, 17, 0xff};
    }

    /** A last block with valid padding of {@code p} bytes; data bytes 0x40 + i never look like padding. */
    private static byte[] validLastBlock(int p) {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) (i < 16 - p ? 0x40 + i : p);
        }
        return b;
    }

    @TestFactory
    Stream<DynamicTest> corruptPaddingEveryPosition() {
        return perSpec("corrupt PKCS5 padding", s -> {
            if (!s.padded()) {
                return;
            }
            Random rnd = random("pad", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            IvParameterSpec iv = validIv(s, rnd);
            Spec noPad = new Spec(s.alg(), s.mode(), false);
            byte[] prefix = bytes(rnd, 32);
            byte[] goodPlain = bytes(rnd, 21);
            byte[] goodCt = oneShotInit(s, ENC, key, iv, goodPlain);
            Set<String> messages = new HashSet<>();
            Cipher d = cipher(s);
            init(d, DEC, key, iv);
            // 1. Build the ciphertext of a message whose last block has bad padding (NoPadding encryption).
            for (byte[] bad : badLastBlocks()) {
                byte[] ct = oneShotInit(noPad, ENC, key, iv, ContractSupport.concat(prefix, bad));
                messages.add(assertThrowsNamed(BadPaddingException.class, k, () -> d.doFinal(ct), "pad").getMessage());
                byte[] out = new byte[ct.length + 16];
                assertThrows(BadPaddingException.class, () -> d.doFinal(ct, 0, ct.length, out, 0));
                assertArrayEquals(new byte[out.length], out, "no plaintext of a failed message is handed out");
                d.update(ct, 0, 7);
                d.update(ct, 7, 20);
                assertThrows(BadPaddingException.class, () -> d.doFinal(ct, 27, ct.length - 27));
                // reset after the error
                assertArrayEquals(goodPlain, d.doFinal(goodCt), "usable after BadPaddingException");
            }
            // 2. CBC: flip bytes of the second-to-last ciphertext block (or the IV) to corrupt the
            // same byte of the last plaintext block.
            if (s.cbc()) {
                for (int blocksBefore : new int[] {0, 2}) {
                    for (int p = 1; p <= 16; p++) {
                        byte[] plain = ContractSupport.concat(bytes(rnd, 16 * blocksBefore),
                                Arrays.copyOf(validLastBlock(p), 16 - p));
                        byte[] ct = oneShotInit(s, ENC, key, iv, plain);
                        assertEquals(16 * (blocksBefore + 1), ct.length);
                        for (int j = 16 - p; j < 16; j++) {
                            int pad = p;
                            int[] deltas = j < 15 ? new int[] {0x01, 0x80, 0xff}
                                    : Arrays.stream(badPadValues(p)).map(v -> v ^ pad).toArray();
                            for (int delta : deltas) {
                                byte[] ct2 = ct.clone();
                                byte[] iv2 = iv.getIV();
                                if (blocksBefore == 0) {
                                    iv2[j] ^= (byte) delta;
                                } else {
                                    ct2[ct.length - 32 + j] ^= (byte) delta;
                                }
                                Cipher c = cipher(s);
                                c.init(DEC, key, new IvParameterSpec(iv2));
                                messages.add(assertThrowsNamed(BadPaddingException.class, k, () -> c.doFinal(ct2), "pad")
                                        .getMessage());
                            }
                        }
                        // unmodified: valid
                        assertArrayEquals(plain, oneShotInit(s, DEC, key, iv, ct));
                    }
                }
            }
            assertEquals(1, messages.size(), () -> "one message for every padding failure (no oracle): " + messages);
        });
    }

    // ------------------------------------------------------------------ argument checks

    private record ArgCase(String name, Executable call) {
    }

    @TestFactory
    Stream<DynamicTest> badArrayArgumentsAreIllegalArgument() {
        return perSpec("bad array arguments", s -> {
            Random rnd = random("args", s.transformation());
            byte[] k = validKey(s, rnd);
            SecretKey key = new SecretKeySpec(k, s.alg());
            IvParameterSpec iv = s.usesIv() ? new IvParameterSpec(bytes(rnd, 16)) : null;
            byte[] good = bytes(rnd, 48);
            for (int opmode : new int[] {ENC, DEC}) {
                Cipher c = cipher(s);
                init(c, opmode, key, iv);
                byte[] in = new byte[32];
                byte[] out = new byte[64];
                List<ArgCase> cases = List.of(
                        new ArgCase("update(null)", () -> c.update((byte[]) null)),
                        new ArgCase("update(null,0,0)", () -> c.update(null, 0, 0)),
                        new ArgCase("update(in,-1,16)", () -> c.update(in, -1, 16)),
                        new ArgCase("update(in,0,-1)", () -> c.update(in, 0, -1)),
                        new ArgCase("update(in,20,16)", () -> c.update(in, 20, 16)),
                        new ArgCase("update(in,0,33)", () -> c.update(in, 0, 33)),
                        new ArgCase("update(in,1,MAX)", () -> c.update(in, 1, Integer.MAX_VALUE)),
                        new ArgCase("update(in,MAX,1)", () -> c.update(in, Integer.MAX_VALUE, 1)),
                        new ArgCase("update(in,MIN,16)", () -> c.update(in, Integer.MIN_VALUE, 16)),
                        new ArgCase("update(in,0,16,null)", () -> c.update(in, 0, 16, null)),
                        new ArgCase("update(in,0,16,null,0)", () -> c.update(in, 0, 16, null, 0)),
                        new ArgCase("update(in,0,16,out,-1)", () -> c.update(in, 0, 16, out, -1)),
                        new ArgCase("update(in,0,16,out,65)", () -> c.update(in, 0, 16, out, out.length + 1)),
                        new ArgCase("update(in,0,16,out,MAX)", () -> c.update(in, 0, 16, out, Integer.MAX_VALUE)),
                        new ArgCase("update(in,-1,16,out,0)", () -> c.update(in, -1, 16, out, 0)),
                        new ArgCase("update(in,20,16,out,0)", () -> c.update(in, 20, 16, out, 0)),
                        new ArgCase("update(in,MAX,1,out,0)", () -> c.update(in, Integer.MAX_VALUE, 1, out, 0)),
                        new ArgCase("update(in,1,5,out,65)", () -> c.update(in, 1, 5, out, 65)),
                        new ArgCase("doFinal(null)", () -> c.doFinal((byte[]) null)),
                        new ArgCase("doFinal(in,-1,16)", () -> c.doFinal(in, -1, 16)),
                        new ArgCase("doFinal(in,0,-1)", () -> c.doFinal(in, 0, -1)),
                        new ArgCase("doFinal(in,20,16)", () -> c.doFinal(in, 20, 16)),
                        new ArgCase("doFinal(in,1,MAX)", () -> c.doFinal(in, 1, Integer.MAX_VALUE)),
                        new ArgCase("doFinal(in,MAX,1)", () -> c.doFinal(in, Integer.MAX_VALUE, 1)),
                        new ArgCase("doFinal(in,0,16,null)", () -> c.doFinal(in, 0, 16, null)),
                        new ArgCase("doFinal(in,0,16,null,0)", () -> c.doFinal(in, 0, 16, null, 0)),
                        new ArgCase("doFinal(in,0,16,out,-1)", () -> c.doFinal(in, 0, 16, out, -1)),
                        new ArgCase("doFinal(in,0,16,out,65)", () -> c.doFinal(in, 0, 16, out, out.length + 1)),
                        new ArgCase("doFinal(in,0,16,out,MAX)", () -> c.doFinal(in, 0, 16, out, Integer.MAX_VALUE)),
                        new ArgCase("doFinal(in,MAX,1,out,0)", () -> c.doFinal(in, Integer.MAX_VALUE, 1, out, 0)),
                        new ArgCase("doFinal(null,0)", () -> c.doFinal(null, 0)),
                        new ArgCase("doFinal(out,-1)", () -> c.doFinal(out, -1)),
                        new ArgCase("doFinal(out,65)", () -> c.doFinal(out, out.length + 1)),
                        new ArgCase("doFinal(out,MAX)", () -> c.doFinal(out, Integer.MAX_VALUE)),
                        new ArgCase("update(null bb,bb)", () -> c.update(null, ByteBuffer.allocate(64))),
                        new ArgCase("update(bb,null bb)", () -> c.update(ByteBuffer.allocate(16), null)),
                        new ArgCase("doFinal(null bb,bb)", () -> c.doFinal(null, ByteBuffer.allocate(64))),
                        new ArgCase("doFinal(bb,null bb)", () -> c.doFinal(ByteBuffer.allocate(16), null)),
                        new ArgCase("update(bb,same bb)", () -> {
                            ByteBuffer b = ByteBuffer.allocate(64);
                            c.update(b, b);
                        }));
                for (ArgCase ac : cases) {
                    Throwable t = assertThrows(Throwable.class, ac.call(), ac.name());
                    if (!(t instanceof IllegalArgumentException)) {
                        throw new AssertionError(s + " " + dir(opmode) + " " + ac.name()
                                + ": expected IllegalArgumentException, got " + t, t);
                    }
                    ContractSupport.assertNoKeyBytes(t, k);
                }
                // No state change: the cipher still gives the one-shot result.
                byte[] input = opmode == ENC ? good : oneShotInit(s, ENC, key, iv, good);
                assertArrayEquals(oneShotInit(s, opmode, key, iv, input), c.doFinal(input),
                        s + " " + dir(opmode) + ": state changed by a refused call");
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> useBeforeInit() {
        return perSpec("use before init", s -> {
            Cipher c = cipher(s);
            byte[] in = new byte[32];
            List<ArgCase> cases = List.of(
                    new ArgCase("update(in)", () -> c.update(in)),
                    new ArgCase("update(in,0,16,out,0)", () -> c.update(in, 0, 16, new byte[64], 0)),
                    new ArgCase("update(bb,bb)", () -> c.update(ByteBuffer.wrap(in), ByteBuffer.allocate(64))),
                    new ArgCase("doFinal()", () -> c.doFinal()),
                    new ArgCase("doFinal(in)", () -> c.doFinal(in)),
                    new ArgCase("doFinal(out,0)", () -> c.doFinal(new byte[64], 0)),
                    new ArgCase("doFinal(bb,bb)", () -> c.doFinal(ByteBuffer.wrap(in), ByteBuffer.allocate(64))),
                    new ArgCase("getOutputSize", () -> c.getOutputSize(16)),
                    new ArgCase("wrap", () -> c.wrap(new SecretKeySpec(new byte[16], "AES"))),
                    new ArgCase("unwrap", () -> c.unwrap(new byte[32], "AES", Cipher.SECRET_KEY)));
            for (ArgCase ac : cases) {
                Throwable t = assertThrows(Throwable.class, ac.call(), ac.name());
                if (!(t instanceof IllegalStateException)) {
                    throw new AssertionError(s + " " + ac.name() + ": expected IllegalStateException, got " + t, t);
                }
            }
            assertEquals(null, c.getIV());
        });
    }

    // ------------------------------------------------------------------ transformations

    @Test
    void unknownPaddingNames() {
        for (String alg : ContractSupport.ALGORITHMS) {
            for (String t : new String[] {"/ECB/PKCS1Padding", "/CBC/ISO10126Padding", "/CBC/FooPadding",
                    "/ECB/OAEPPadding"}) {
                String name = t.substring(t.lastIndexOf('/') + 1);
                assertThrowsNamed(NoSuchPaddingException.class, null, () -> Cipher.getInstance(alg + t, TestProviders.current()), name);
            }
            for (String m : new String[] {"CTR", "XTS", "LRW"}) {
                assertThrowsNamed(NoSuchPaddingException.class, null,
                        () -> Cipher.getInstance(alg + "/" + m + "/PKCS5Padding", TestProviders.current()), "padding");
            }
        }
    }

    @Test
    void unknownModes() {
        for (String alg : ContractSupport.ALGORITHMS) {
            for (String m : new String[] {"GCM", "CFB", "OFB", "XEX", "Foo"}) {
                assertThrowsNamed(NoSuchAlgorithmException.class, null,
                        () -> Cipher.getInstance(alg + "/" + m + "/NoPadding", TestProviders.current()), m);
            }
        }
        assertThrows(NoSuchAlgorithmException.class, () -> Cipher.getInstance("Camellia/CBC/NoPadding", TestProviders.current()));
    }

    @Test
    void messagesNeverShowKeyBytes() throws Exception {
        // A wide sweep: every kind of key failure with a key of distinctive bytes.
        byte[] k = new byte[64];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (0xA0 + i);
        }
        for (Spec s : ContractSupport.specs()) {
            for (int len = 0; len <= 65; len++) {
                byte[] kk = Arrays.copyOf(k, len);
                if (Arrays.stream(s.keyLengths()).anyMatch(a -> a == kk.length)) {
                    continue;
                }
                for (String alg : new String[] {s.alg(), "DES"}) {
                    Throwable t = assertThrows(InvalidKeyException.class,
                            () -> init(cipher(s), DEC, new RawKey(alg, kk), s.usesIv() ? new IvParameterSpec(new byte[16]) : null));
                    ContractSupport.assertNoKeyBytes(t, kk);
                }
            }
        }
    }
}
