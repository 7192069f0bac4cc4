package org.vectorjce.contract;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.engines.SerpentEngine;
import org.bouncycastle.crypto.engines.TwofishEngine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.provider.Arguments;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/** Shared tables and helpers of the JCA contract and bad-input tests. */
final class ContractSupport {
    static final int BLOCK = 16;
    static final String[] ALGORITHMS = {"AES", "Twofish", "Serpent"};

    private ContractSupport() {
    }

    /** One transformation of the provider, with the layout rules of its key, IV and input. */
    record Spec(String alg, String mode, boolean padded) {
        String transformation() {
            return alg + "/" + mode + "/" + (padded ? "PKCS5Padding" : "NoPadding");
        }

        boolean ecb() {
            return mode.equals("ECB");
        }

        boolean cbc() {
            return mode.equals("CBC");
        }

        boolean ctr() {
            return mode.equals("CTR");
        }

        boolean xts() {
            return mode.equals("XTS");
        }

        boolean lrw() {
            return mode.equals("LRW");
        }

        /** Allowed total key lengths in bytes. */
        int[] keyLengths() {
            if (xts()) {
                return new int[] {32, 48, 64};
            }
            if (lrw()) {
                return new int[] {32, 40, 48};
            }
            return new int[] {16, 24, 32};
        }

        boolean usesIv() {
            return !ecb();
        }

        /** CBC and CTR encryption may generate a random IV. */
        boolean generatesIv() {
            return cbc() || ctr();
        }

        /** Whether {@code n} bytes are a valid input for encryption (one doFinal). */
        boolean validPlainLength(long n) {
            if (padded || ctr()) {
                return true;
            }
            if (xts()) {
                return n >= BLOCK && n <= (1L << 24);
            }
            return n % BLOCK == 0;
        }

        /** Bytes encryption of {@code n} valid bytes gives. */
        int cipherLength(int n) {
            return padded ? (n / BLOCK + 1) * BLOCK : n;
        }

        @Override
        public String toString() {
            return transformation();
        }
    }

    /** Every transformation the contract covers. */
    static List<Spec> specs() {
        List<Spec> l = new ArrayList<>();
        for (String alg : ALGORITHMS) {
            for (String m : new String[] {"ECB", "CBC"}) {
                l.add(new Spec(alg, m, false));
                l.add(new Spec(alg, m, true));
            }
            l.add(new Spec(alg, "CTR", false));
            l.add(new Spec(alg, "XTS", false));
            l.add(new Spec(alg, "LRW", false));
        }
        return l;
    }

    static List<String> kernels(String alg) {
        return org.vectorjce.TestProviders.kernelsToTest(alg);
    }

    /** (Spec, kernel) for every transformation and every kernel of its algorithm. */
    static Stream<Arguments> specsAndKernels() {
        List<Arguments> l = new ArrayList<>();
        for (Spec s : specs()) {
            for (String k : kernels(s.alg())) {
                l.add(Arguments.of(s, k));
            }
        }
        return l.stream();
    }

    static Stream<Arguments> specArgs() {
        return specs().stream().map(Arguments::of);
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Runs {@code body} with the ciphers of a provider whose {@code alg} keys get {@code kernel}. */
    static void withKernel(String alg, String kernel, ThrowingRunnable body) throws Exception {
        TestProviders.run(alg, kernel, body::run);
    }

    static Random random(Object... seedParts) {
        return new Random(Arrays.deepHashCode(seedParts) * 0x9E3779B97F4A7C15L);
    }

    static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** A random key of {@code len} bytes; XTS halves always differ. */
    static byte[] key(Random rnd, int len) {
        byte[] k = bytes(rnd, len);
        k[0] = (byte) 0x11;
        k[len / 2] = (byte) 0x22;
        return k;
    }

    static byte[] ivFor(Spec s, Random rnd) {
        return s.usesIv() ? bytes(rnd, BLOCK) : null;
    }

    static Cipher cipher(Spec s) throws GeneralSecurityException {
        return Cipher.getInstance(s.transformation(), TestProviders.current());
    }

    static void init(Cipher c, Spec s, int opmode, byte[] key, byte[] iv) throws GeneralSecurityException {
        SecretKeySpec k = new SecretKeySpec(key, s.alg());
        if (iv == null) {
            c.init(opmode, k);
        } else {
            c.init(opmode, k, new IvParameterSpec(iv));
        }
    }

    static Cipher cipher(Spec s, int opmode, byte[] key, byte[] iv) throws GeneralSecurityException {
        Cipher c = cipher(s);
        init(c, s, opmode, key, iv);
        return c;
    }

    /** One-shot doFinal on a freshly initialised cipher. */
    static byte[] oneShot(Spec s, boolean enc, byte[] key, byte[] iv, byte[] input) throws GeneralSecurityException {
        return cipher(s, enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, key, iv).doFinal(input);
    }

    static byte[] nz(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += nz(p).length;
        }
        byte[] r = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            p = nz(p);
            System.arraycopy(p, 0, r, o, p.length);
            o += p.length;
        }
        return r;
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    // ------------------------------------------------------------------ exception checks

    /** Every message and string form in the cause chain (and suppressed exceptions) of {@code t}. */
    static String allText(Throwable t) {
        StringBuilder sb = new StringBuilder();
        List<Throwable> seen = new ArrayList<>();
        collect(t, sb, seen);
        return sb.toString();
    }

    private static void collect(Throwable t, StringBuilder sb, List<Throwable> seen) {
        if (t == null || seen.contains(t)) {
            return;
        }
        seen.add(t);
        sb.append(t).append('\n');
        for (Throwable s : t.getSuppressed()) {
            collect(s, sb, seen);
        }
        collect(t.getCause(), sb, seen);
    }

    /** Fails if any message of {@code t} shows bytes of {@code key} (hex, Base64 or Arrays.toString). */
    static void assertNoKeyBytes(Throwable t, byte[] key) {
        if (key == null || key.length < 4) {
            return;
        }
        String text = allText(t);
        String lower = text.toLowerCase(Locale.ROOT);
        int w = Math.min(6, key.length);
        for (int i = 0; i + w <= key.length; i++) {
            String h = hex(Arrays.copyOfRange(key, i, i + w));
            assertFalse(lower.contains(h), () -> "exception text shows key bytes " + h + ": " + text);
        }
        String b64 = Base64.getEncoder().encodeToString(key);
        assertFalse(text.contains(b64.substring(0, Math.min(8, b64.length()))),
                () -> "exception text shows the key in Base64: " + text);
        String arr = Arrays.toString(Arrays.copyOf(key, Math.min(4, key.length)));
        assertFalse(text.contains(arr.substring(1, arr.length() - 1)),
                () -> "exception text shows the key as numbers: " + text);
    }

    /**
     * Asserts {@code body} throws exactly {@code type} (or a subclass), that its message contains every
     * one of {@code mustContain} (case-insensitive; a string of digits must appear as a whole number),
     * and that no key bytes appear in it.
     */
    static <T extends Throwable> T assertThrowsNamed(Class<T> type, byte[] key, Executable body, String... mustContain) {
        T e = assertThrows(type, body);
        String msg = e.getMessage();
        if (mustContain.length > 0 && msg == null) {
            fail(type.getSimpleName() + " without a message", e);
        }
        for (String m : mustContain) {
            boolean ok;
            if (m.matches("\\d+")) {
                ok = java.util.regex.Pattern.compile("(?<![0-9])" + m + "(?![0-9])").matcher(msg).find();
            } else {
                ok = msg.toLowerCase(Locale.ROOT).contains(m.toLowerCase(Locale.ROOT));
            }
            if (!ok) {
                fail("message of " + type.getSimpleName() + " should name '" + m + "': " + msg, e);
            }
        }
        assertNoKeyBytes(e, key);
        return e;
    }

    // ------------------------------------------------------------------ references

    static BlockCipher engine(String alg, boolean enc, byte[] key) {
        BlockCipher e = switch (alg) {
            case "AES" -> AESEngine.newInstance();
            case "Twofish" -> new TwofishEngine();
            default -> new SerpentEngine();
        };
        e.init(enc, new KeyParameter(key));
        return e;
    }

    /** Multiply a little-endian 128-bit tweak by alpha in GF(2^128) (IEEE 1619). */
    static void mulAlpha(byte[] t) {
        int carry = 0;
        for (int i = 0; i < BLOCK; i++) {
            int b = t[i] & 0xff;
            t[i] = (byte) ((b << 1) | carry);
            carry = b >>> 7;
        }
        if (carry != 0) {
            t[0] ^= (byte) 0x87;
        }
    }

    private static void xexBlock(BlockCipher e, byte[] in, int inOff, byte[] t, byte[] out, int outOff) {
        byte[] x = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            x[i] = (byte) (in[inOff + i] ^ t[i]);
        }
        e.processBlock(x, 0, x, 0);
        for (int i = 0; i < BLOCK; i++) {
            out[outOff + i] = (byte) (x[i] ^ t[i]);
        }
    }

    /**
     * Reference XTS (IEEE 1619) built on Bouncy Castle's block engines, with ciphertext stealing.
     * {@code key} = K1 ‖ K2. Does not refuse equal halves.
     */
    static byte[] xtsReference(String alg, boolean enc, byte[] key, byte[] tweakIv, byte[] in) {
        int half = key.length / 2;
        BlockCipher data = engine(alg, enc, Arrays.copyOfRange(key, 0, half));
        BlockCipher tw = engine(alg, true, Arrays.copyOfRange(key, half, key.length));
        byte[] t = new byte[BLOCK];
        tw.processBlock(tweakIv, 0, t, 0);
        int n = in.length;
        int m = n / BLOCK;
        int r = n % BLOCK;
        byte[] out = new byte[n];
        int full = r == 0 ? m : m - 1;
        for (int j = 0; j < full; j++) {
            xexBlock(data, in, j * BLOCK, t, out, j * BLOCK);
            mulAlpha(t);
        }
        if (r != 0) {
            int o = (m - 1) * BLOCK;
            byte[] tPrev = t.clone();
            byte[] tLast = t.clone();
            mulAlpha(tLast);
            byte[] first = enc ? tPrev : tLast;
            byte[] second = enc ? tLast : tPrev;
            byte[] cc = new byte[BLOCK];
            xexBlock(data, in, o, first, cc, 0);
            byte[] pp = new byte[BLOCK];
            System.arraycopy(in, o + BLOCK, pp, 0, r);
            System.arraycopy(cc, r, pp, r, BLOCK - r);
            xexBlock(data, pp, 0, second, out, o);
            System.arraycopy(cc, 0, out, o + BLOCK, r);
        }
        return out;
    }
}
