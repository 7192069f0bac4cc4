package org.vectorjce.oracle;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/**
 * Differential tests: VectorJCE against Bouncy Castle's JCA provider (the project's test oracle),
 * for AES and Twofish in ECB and CBC (NoPadding, PKCS5Padding) and CTR (NoPadding; BC's CTR is a
 * full 128-bit big-endian counter with a 16-byte IV, as VectorJCE's), key sizes 128/192/256, both
 * directions, under every kernel that can run here (forced through {@link VectorJce#kernelProperty}).
 *
 * <p>Bouncy Castle computes one reference output per message with a one-shot {@code doFinal}; one
 * VectorJCE {@code Cipher}, initialised once, must then reproduce it through every API path in turn
 * (which also checks that {@code doFinal} returns the cipher to its post-{@code init} state):
 * one-shot; random {@code update} split points (including 0- and 1-byte pieces); caller arrays with
 * offsets; heap, sliced, read-only and direct {@code ByteBuffer}s at non-zero positions; in-place
 * (same array and offset) and shifted overlap (output offset = input offset ± 1, ± 16, ± 17).
 *
 * <p>Every test uses its own seeded {@link Random}; the seed is in every failure message. Rerun a
 * failure with {@code -Dvectorjce.test.seed=<base seed>} (the per-test seed is derived from it).
 */
class BcDifferentialTest {
    private static final Provider BC = new BouncyCastleProvider();

    private static final String[] ALGORITHMS = {"AES", "Twofish", "Serpent"};
    private static final String[] MODES = {
        "ECB/NoPadding", "ECB/PKCS5Padding", "CBC/NoPadding", "CBC/PKCS5Padding", "CTR/NoPadding",
    };
    private static final int[] KEY_BYTES = {16, 24, 32};
    /** Block counts that are multiples of no kernel width (and 1000 > one 256-block chunk). */
    private static final int[] BLOCK_COUNTS = {1, 2, 3, 7, 15, 17, 31, 33, 101, 1000};
    /** Output offset minus input offset for the overlap checks. */
    private static final int[] SHIFTS = {-17, -16, -1, 1, 16, 17};
    private static final int MAX_RANDOM_LEN = 4096;

    private static final long BASE_SEED = Long.getLong("vectorjce.test.seed", 0x7EC7_0C3EL);
    private static final HexFormat HEX = HexFormat.of();
    private static final String TEST_NAME = "BcDifferentialTest";

    static Stream<Arguments> kernels() {
        List<Arguments> args = new ArrayList<>();
        for (String alg : ALGORITHMS) {
            List<String> names = org.vectorjce.TestProviders.kernelsToTest(alg);
            for (String k : names) {
                args.add(Arguments.of(alg, k));
            }
        }
        return args.stream();
    }

    @AfterEach
    void clearKernelProperties() {
        for (String alg : ALGORITHMS) {
            TestProviders.reset();
        }
    }

    // ------------------------------------------------------------------ tests

    /** Random keys, IVs and lengths 0..4 KiB (legal for the mode), every API path. */
    @ParameterizedTest(name = "{0} kernel {1}")
    @MethodSource("kernels")
    void randomMessagesMatchBouncyCastle(String alg, String kernel) throws Exception {
        Env env = env("random", alg, kernel);
        for (String mode : MODES) {
            for (int keyBytes : KEY_BYTES) {
                for (boolean enc : new boolean[] {true, false}) {
                    List<Integer> lens = new ArrayList<>(List.of(0, 1, 15, 17, 33, MAX_RANDOM_LEN));
                    for (int i = 0; i < 3; i++) {
                        lens.add(env.rnd.nextInt(MAX_RANDOM_LEN + 1));
                    }
                    for (int len : lens) {
                        Case c = makeCase(env, mode, keyBytes, enc, legalLength(mode, len), null);
                        checkAllApis(env, c);
                    }
                }
            }
        }
        env.report("random");
    }

    /** 1, 2, 3, 7, 15, 17, 31, 33, 101 and 1000 blocks (plus partial tails where legal), every API path. */
    @ParameterizedTest(name = "{0} kernel {1}")
    @MethodSource("kernels")
    void oddBlockCountsMatchBouncyCastle(String alg, String kernel) throws Exception {
        Env env = env("blocks", alg, kernel);
        for (String mode : MODES) {
            for (boolean enc : new boolean[] {true, false}) {
                for (int n : BLOCK_COUNTS) {
                    int keyBytes = KEY_BYTES[env.rnd.nextInt(KEY_BYTES.length)];
                    // Exactly n blocks of input (for PKCS5 decryption: n blocks of ciphertext).
                    int len = 16 * n;
                    if (mode.endsWith("PKCS5Padding") && !enc) {
                        len = 16 * n - 1 - env.rnd.nextInt(16); // plaintext that pads to n blocks
                    }
                    checkAllApis(env, makeCase(env, mode, keyBytes, enc, len, null));
                    if (mode.startsWith("CTR") || (mode.endsWith("PKCS5Padding") && enc)) {
                        // And a partial last block.
                        int tail = 16 * n + 1 + env.rnd.nextInt(15);
                        checkAllApis(env, makeCase(env, mode, keyBytes, enc, tail, null));
                    }
                }
            }
        }
        env.report("blocks");
    }

    /**
     * Messages of a few hundred KiB: longer than the pieces {@code aes-jdk} hands SunJCE (64 KiB)
     * and than the modes' chunks, every API path including in place.
     */
    @ParameterizedTest(name = "{0} kernel {1}")
    @MethodSource("kernels")
    void largeMessagesMatchBouncyCastle(String alg, String kernel) throws Exception {
        Env env = env("large", alg, kernel);
        for (String mode : MODES) {
            for (boolean enc : new boolean[] {true, false}) {
                int keyBytes = KEY_BYTES[env.rnd.nextInt(KEY_BYTES.length)];
                int len = legalLength(mode, 3 * 65536 + 16 * 7 + 5);
                checkAllApis(env, makeCase(env, mode, keyBytes, enc, len, null));
            }
        }
        env.report("large");
    }

    /**
     * CTR counter wrap: the whole 16-byte counter block is one 128-bit big-endian integer. IVs just
     * below 2^128 (wraps to zero; ff..fd with 4+ blocks), all ones, and just below a 2^64 boundary
     * (carry into the upper half), in short messages and at block 300 of a 1000-block message.
     */
    @ParameterizedTest(name = "{0} kernel {1}")
    @MethodSource("kernels")
    void ctrCounterWrapMatchesBouncyCastle(String alg, String kernel) throws Exception {
        Env env = env("ctrwrap", alg, kernel);
        byte[] fffd = filled(0xff);
        fffd[15] = (byte) 0xfd;
        byte[] allOnes = filled(0xff);
        byte[] low64 = new byte[16];
        env.rnd.nextBytes(low64);
        Arrays.fill(low64, 8, 16, (byte) 0xff);
        low64[15] = (byte) 0xfe;
        byte[] low64Zero = filled(0xff);
        Arrays.fill(low64Zero, 0, 8, (byte) 0);
        low64Zero[15] = (byte) 0xfd;
        byte[][] ivs = {fffd, allOnes, low64, low64Zero};
        int[] lens = {64, 69, 81, 16 * 17 + 3, 16 * 100 + 7};
        for (byte[] iv : ivs) {
            for (int keyBytes : KEY_BYTES) {
                for (boolean enc : new boolean[] {true, false}) {
                    for (int len : lens) {
                        checkAllApis(env, makeCase(env, "CTR/NoPadding", keyBytes, enc, len, iv));
                    }
                }
            }
            checkAllApis(env, makeCase(env, "CTR/NoPadding", KEY_BYTES[env.rnd.nextInt(3)], true, 16 * 1000 + 9, iv));
        }
        // The wrap and the 2^64 carry at block 300 of a 1000-block message: past the first
        // 256-block chunk, at a block index that is a multiple of no kernel width.
        BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        BigInteger[] late = {
            BigInteger.ONE.shiftLeft(128).subtract(BigInteger.valueOf(300)),
            new BigInteger(64, env.rnd).shiftLeft(64).add(two64).subtract(BigInteger.valueOf(300)),
        };
        for (BigInteger v : late) {
            byte[] iv = new byte[16];
            byte[] m = v.toByteArray();
            int n = Math.min(16, m.length);
            System.arraycopy(m, m.length - n, iv, 16 - n, n);
            for (boolean enc : new boolean[] {true, false}) {
                checkAllApis(env, makeCase(env, "CTR/NoPadding", KEY_BYTES[env.rnd.nextInt(3)], enc, 16 * 1000 + 9, iv));
            }
        }
        env.report("ctrwrap");
    }

    /**
     * PKCS#5 unpadding: last blocks with every pad value 0..17, valid and with one pad byte flipped,
     * and random last blocks. VectorJCE must throw {@link BadPaddingException} exactly when Bouncy
     * Castle does, give the same plaintext otherwise, and stay usable after a failure.
     */
    @ParameterizedTest(name = "{0} kernel {1}")
    @MethodSource("kernels")
    void pkcs5UnpaddingMatchesBouncyCastle(String alg, String kernel) throws Exception {
        Env env = env("unpad", alg, kernel);
        for (String mode : new String[] {"ECB", "CBC"}) {
            for (int keyBytes : KEY_BYTES) {
                SecretKeySpec key = new SecretKeySpec(bytes(env.rnd, keyBytes), alg);
                IvParameterSpec iv = mode.equals("ECB") ? null : new IvParameterSpec(bytes(env.rnd, 16));
                String padded = alg + "/" + mode + "/PKCS5Padding";
                String raw = alg + "/" + mode + "/NoPadding";
                Cipher vj = init(padded, TestProviders.current(), Cipher.DECRYPT_MODE, key, iv);
                List<byte[]> lastBlocks = new ArrayList<>();
                for (int pad = 0; pad <= 17; pad++) {
                    byte[] last = bytes(env.rnd, 16);
                    for (int i = Math.max(0, 16 - pad); i < 16; i++) {
                        last[i] = (byte) pad;
                    }
                    lastBlocks.add(last);
                    if (pad >= 1 && pad <= 16) {
                        byte[] bad = last.clone();
                        bad[16 - 1 - env.rnd.nextInt(pad)] ^= (byte) (1 << env.rnd.nextInt(8));
                        lastBlocks.add(bad);
                    }
                }
                for (int i = 0; i < 20; i++) {
                    lastBlocks.add(bytes(env.rnd, 16));
                }
                for (byte[] last : lastBlocks) {
                    int blocks = 1 + env.rnd.nextInt(5);
                    byte[] pt = bytes(env.rnd, 16 * blocks);
                    System.arraycopy(last, 0, pt, pt.length - 16, 16);
                    byte[] ct = init(raw, BC, Cipher.ENCRYPT_MODE, key, iv).doFinal(pt);
                    env.count(ct.length);
                    String ctx = env.ctx + " " + padded + " key=" + HEX.formatHex(key.getEncoded())
                            + (iv == null ? "" : " iv=" + HEX.formatHex(iv.getIV()))
                            + " decrypt ciphertext=" + HEX.formatHex(ct) + " (last plaintext block "
                            + HEX.formatHex(last) + ")";
                    byte[] want;
                    try {
                        want = init(padded, BC, Cipher.DECRYPT_MODE, key, iv).doFinal(ct);
                    } catch (BadPaddingException e) {
                        want = null;
                    }
                    for (int variant = 0; variant < 2; variant++) {
                        byte[] got;
                        try {
                            if (variant == 0) {
                                got = vj.doFinal(ct);
                            } else {
                                got = splitUpdates(vj, ct, pieces(env.rnd, ct.length));
                            }
                        } catch (BadPaddingException e) {
                            got = null;
                        }
                        String v = variant == 0 ? " [one-shot]" : " [split update]";
                        if (want == null) {
                            if (got != null) {
                                fail(ctx + v + ": Bouncy Castle throws BadPaddingException, VectorJCE returned "
                                        + HEX.formatHex(got));
                            }
                        } else {
                            assertTrue(got != null, ctx + v + ": VectorJCE threw BadPaddingException, Bouncy Castle gave "
                                    + HEX.formatHex(want));
                            assertArrayEquals(want, got, ctx + v);
                        }
                    }
                }
            }
        }
        env.report("unpad");
    }

    // ------------------------------------------------------------------ cases

    /** One test's environment: seed, Random, kernel forced, and the context prefix for messages. */
    private record Env(String alg, String kernel, long seed, Random rnd, String ctx, long[] counts) {
        /** One message checked, of {@code bytes} input bytes. */
        void count(int bytes) {
            counts[0]++;
            counts[1] += bytes;
        }

        void report(String test) {
            System.out.printf("[%s] %s %s kernel %s: %d messages, %d KiB input, seed 0x%x%n",
                    TEST_NAME, test, alg, kernel, counts[0], counts[1] >> 10, seed);
        }
    }

    private static Env env(String test, String alg, String kernel) {
        long seed = BASE_SEED * 0x9E3779B97F4A7C15L + (test + "/" + alg + "/" + kernel).hashCode();
        TestProviders.force(alg, kernel);
        assertEquals(kernel, TestProviders.current().kernelFor(alg), "forced kernel");
        String ctx = "[" + test + " seed=0x" + Long.toHexString(seed) + " (base -Dvectorjce.test.seed=" + BASE_SEED
                + ") kernel=" + kernel + "]";
        return new Env(alg, kernel, seed, new Random(seed), ctx, new long[2]);
    }

    /** One message: VectorJCE must produce {@code expected} (Bouncy Castle's one-shot output). */
    private record Case(String ctx, String transformation, SecretKeySpec key, IvParameterSpec iv, int opmode,
            byte[] input, byte[] expected) {
    }

    /** Rounds {@code len} down to what the mode accepts (NoPadding ECB/CBC: whole blocks). */
    private static int legalLength(String mode, int len) {
        if (mode.equals("ECB/NoPadding") || mode.equals("CBC/NoPadding")) {
            return len & ~15;
        }
        return len;
    }

    /**
     * A random message of {@code len} bytes; for PKCS5 decryption {@code len} is the plaintext
     * length and the input is Bouncy Castle's ciphertext of it.
     */
    private static Case makeCase(Env env, String mode, int keyBytes, boolean enc, int len, byte[] fixedIv)
            throws Exception {
        String t = env.alg + "/" + mode;
        SecretKeySpec key = new SecretKeySpec(bytes(env.rnd, keyBytes), env.alg);
        IvParameterSpec iv = mode.startsWith("ECB") ? null
                : new IvParameterSpec(fixedIv != null ? fixedIv.clone() : bytes(env.rnd, 16));
        byte[] input = bytes(env.rnd, len);
        if (!enc && mode.endsWith("PKCS5Padding")) {
            input = init(t, BC, Cipher.ENCRYPT_MODE, key, iv).doFinal(input);
        }
        int opmode = enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
        byte[] expected = init(t, BC, opmode, key, iv).doFinal(input);
        String ctx = env.ctx + " " + t + " " + (enc ? "encrypt" : "decrypt") + " key(" + keyBytes * 8 + ")="
                + HEX.formatHex(key.getEncoded()) + (iv == null ? "" : " iv=" + HEX.formatHex(iv.getIV()))
                + " input length " + input.length;
        return new Case(ctx, t, key, iv, opmode, input, expected);
    }

    private static Cipher init(String t, Provider p, int opmode, SecretKeySpec key, IvParameterSpec iv)
            throws Exception {
        Cipher c = Cipher.getInstance(t, p);
        if (iv == null) {
            c.init(opmode, key);
        } else {
            c.init(opmode, key, iv);
        }
        return c;
    }

    // ------------------------------------------------------------------ API paths

    @FunctionalInterface
    private interface Path {
        byte[] run() throws Exception;
    }

    private static void check(Case c, String variant, Path p) {
        byte[] got;
        try {
            got = p.run();
        } catch (Exception | AssertionError e) {
            throw new AssertionError(c.ctx + " [" + variant + "]: " + e, e);
        }
        if (!Arrays.equals(c.expected, got)) {
            fail(c.ctx + " [" + variant + "]: differs from Bouncy Castle" + diff(c.expected, got));
        }
    }

    /** Runs every API path over one VectorJCE cipher initialised once. */
    private static void checkAllApis(Env env, Case c) throws Exception {
        Random rnd = env.rnd;
        env.count(c.input.length);
        Cipher vj = init(c.transformation, TestProviders.current(), c.opmode, c.key, c.iv);
        check(c, "one-shot doFinal", () -> vj.doFinal(c.input));
        int[] split = pieces(rnd, c.input.length);
        check(c, "split update " + describe(split), () -> splitUpdates(vj, c.input, split));
        int[] split2 = pieces(rnd, c.input.length);
        check(c, "arrays with offsets, pieces " + describe(split2), () -> arraysWithOffsets(vj, c, rnd, split2));
        for (BufKind[] pair : BUFFER_PAIRS) {
            BufKind in = pair[0];
            BufKind out = pair[1];
            int[] split3 = pieces(rnd, c.input.length);
            check(c, "ByteBuffer in " + in + " out " + out + ", pieces " + describe(split3),
                    () -> byteBuffers(vj, c, rnd, in, out, split3));
        }
        check(c, "in-place one-shot", () -> overlap(vj, c, rnd, 0, null));
        int[] split4 = pieces(rnd, c.input.length);
        check(c, "in-place split " + describe(split4), () -> overlap(vj, c, rnd, 0, split4));
        for (int s : SHIFTS) {
            check(c, "overlap one-shot, output offset = input offset " + (s > 0 ? "+" : "") + s,
                    () -> overlap(vj, c, rnd, s, null));
            if (s < 0) {
                // Streaming with the output behind the input never overwrites input not yet passed.
                int[] split5 = pieces(rnd, c.input.length);
                check(c, "overlap split, output offset = input offset " + s + ", pieces " + describe(split5),
                        () -> overlap(vj, c, rnd, s, split5));
            }
        }
        // Finally the cipher still gives the one-shot answer (nothing left over from the paths above).
        check(c, "one-shot doFinal after all paths", () -> vj.doFinal(c.input));
    }

    /** Random piece lengths summing to {@code len}: many, with 0- and 1-byte pieces. The last goes to doFinal. */
    static int[] pieces(Random rnd, int len) {
        List<Integer> l = new ArrayList<>();
        int left = len;
        while (left > 0) {
            int r = rnd.nextInt(10);
            int n;
            if (r < 2) {
                n = 0;
            } else if (r < 4) {
                n = 1;
            } else if (r < 7) {
                n = 1 + rnd.nextInt(40);
            } else {
                n = 1 + rnd.nextInt(left);
            }
            n = Math.min(n, left);
            l.add(n);
            left -= n;
        }
        if (l.isEmpty() || rnd.nextBoolean()) {
            l.add(0); // doFinal with no input
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    static String describe(int[] pieces) {
        String s = Arrays.toString(pieces);
        return s.length() <= 160 ? s : s.substring(0, 150) + "... (" + pieces.length + " pieces)]";
    }

    static byte[] splitUpdates(Cipher c, byte[] in, int[] pieces) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        for (int i = 0; i < pieces.length - 1; i++) {
            int bound = c.getOutputSize(pieces[i]);
            byte[] r = c.update(in, pos, pieces[i]);
            if (r != null) {
                assertTrue(r.length <= bound, "update output " + r.length + " > getOutputSize " + bound);
                out.write(r);
            }
            pos += pieces[i];
        }
        out.write(c.doFinal(in, pos, pieces[pieces.length - 1]));
        return out.toByteArray();
    }

    /** update/doFinal into a caller array at an offset; bytes outside the output and the input are untouched. */
    private static byte[] arraysWithOffsets(Cipher c, Case k, Random rnd, int[] pieces) throws Exception {
        int len = k.input.length;
        int inOff = rnd.nextInt(40);
        byte[] in = bytes(rnd, inOff + len + rnd.nextInt(8));
        System.arraycopy(k.input, 0, in, inOff, len);
        byte[] inCopy = in.clone();
        int outOff = rnd.nextInt(40);
        int[] slacks = {0, 1, 16, 33};
        byte[] out = bytes(rnd, outOff + k.expected.length + slacks[rnd.nextInt(slacks.length)]);
        byte[] outCopy = out.clone();
        int pos = 0;
        int written = 0;
        for (int i = 0; i < pieces.length - 1; i++) {
            int n = pieces[i];
            int bound = c.getOutputSize(n);
            int w = c.update(in, inOff + pos, n, out, outOff + written);
            assertTrue(w >= 0 && w <= bound, "update returned " + w + ", getOutputSize was " + bound);
            written += w;
            pos += n;
        }
        int n = pieces[pieces.length - 1];
        if (n == 0 && rnd.nextBoolean()) {
            written += c.doFinal(out, outOff + written);
        } else {
            written += c.doFinal(in, inOff + pos, n, out, outOff + written);
        }
        assertArrayEquals(inCopy, in, "input array modified");
        assertUntouched(outCopy, out, 0, outOff, "output array before the output offset");
        assertUntouched(outCopy, out, outOff + written, out.length, "output array after the output");
        return Arrays.copyOfRange(out, outOff, outOff + written);
    }

    private enum BufKind { HEAP, HEAP_SLICED, READ_ONLY, DIRECT }

    /** Input and output buffer kinds tried for every message. */
    private static final BufKind[][] BUFFER_PAIRS = {
        {BufKind.HEAP, BufKind.HEAP},
        {BufKind.HEAP_SLICED, BufKind.DIRECT},
        {BufKind.READ_ONLY, BufKind.HEAP_SLICED},
        {BufKind.DIRECT, BufKind.HEAP},
        {BufKind.DIRECT, BufKind.DIRECT},
    };

    private static ByteBuffer buffer(BufKind kind, int capacity, Random rnd) {
        switch (kind) {
            case DIRECT: {
                ByteBuffer b = ByteBuffer.allocateDirect(capacity);
                b.put(0, bytes(rnd, capacity));
                return b;
            }
            case HEAP_SLICED: {
                int a = 1 + rnd.nextInt(16); // non-zero arrayOffset
                return ByteBuffer.wrap(bytes(rnd, a + capacity)).position(a).slice();
            }
            default:
                return ByteBuffer.wrap(bytes(rnd, capacity));
        }
    }

    /** update(ByteBuffer, ByteBuffer) in pieces, then doFinal(ByteBuffer, ByteBuffer), at non-zero positions. */
    private static byte[] byteBuffers(Cipher c, Case k, Random rnd, BufKind inKind, BufKind outKind, int[] pieces)
            throws Exception {
        int len = k.input.length;
        int p = 1 + rnd.nextInt(31);
        ByteBuffer in = buffer(inKind == BufKind.READ_ONLY ? BufKind.HEAP : inKind, p + len + rnd.nextInt(8), rnd);
        in.put(p, k.input);
        if (inKind == BufKind.READ_ONLY) {
            in = in.asReadOnlyBuffer();
        }
        in.position(p);
        int q = 1 + rnd.nextInt(31);
        // CipherSpi's ByteBuffer path asks for getOutputSize(n) bytes: room for input + a padding block.
        ByteBuffer out = buffer(outKind, q + len + 32 + rnd.nextInt(8), rnd);
        byte[] outBefore = new byte[out.capacity()];
        out.get(0, outBefore);
        out.position(q);
        for (int i = 0; i < pieces.length - 1; i++) {
            in.limit(in.position() + pieces[i]);
            int before = out.position();
            int w = c.update(in, out);
            assertEquals(out.position() - before, w, "update(ByteBuffer) return vs output position");
            assertEquals(in.limit(), in.position(), "update(ByteBuffer) left input unread");
        }
        in.limit(p + len);
        int before = out.position();
        int w = c.doFinal(in, out);
        assertEquals(out.position() - before, w, "doFinal(ByteBuffer) return vs output position");
        assertEquals(p + len, in.position(), "doFinal(ByteBuffer) input position");
        byte[] outAfter = new byte[out.capacity()];
        out.get(0, outAfter);
        assertUntouched(outBefore, outAfter, 0, q, "output buffer before its position");
        assertUntouched(outBefore, outAfter, out.position(), out.capacity(), "output buffer after the output");
        byte[] inAfter = new byte[len];
        in.get(p, inAfter);
        assertArrayEquals(k.input, inAfter, "input buffer modified");
        return Arrays.copyOfRange(outAfter, q, out.position());
    }

    /**
     * Input and output in the same array, output offset = input offset + shift; one-shot doFinal
     * ({@code pieces == null}) or streamed in pieces (only for shift <= 0).
     */
    private static byte[] overlap(Cipher c, Case k, Random rnd, int shift, int[] pieces) throws Exception {
        int len = k.input.length;
        int inOff = 17 + rnd.nextInt(16);
        int outOff = inOff + shift;
        int outRoom = c.getOutputSize(len);
        byte[] buf = bytes(rnd, Math.max(inOff + len, outOff + outRoom) + rnd.nextInt(8));
        System.arraycopy(k.input, 0, buf, inOff, len);
        byte[] before = buf.clone();
        int written;
        if (pieces == null) {
            written = c.doFinal(buf, inOff, len, buf, outOff);
        } else {
            int pos = 0;
            written = 0;
            for (int i = 0; i < pieces.length - 1; i++) {
                written += c.update(buf, inOff + pos, pieces[i], buf, outOff + written);
                pos += pieces[i];
            }
            written += c.doFinal(buf, inOff + pos, pieces[pieces.length - 1], buf, outOff + written);
        }
        int lo = Math.min(inOff, outOff);
        int hi = Math.max(inOff + len, outOff + written);
        assertUntouched(before, buf, 0, lo, "array before input and output");
        assertUntouched(before, buf, hi, buf.length, "array after input and output");
        return Arrays.copyOfRange(buf, outOff, outOff + written);
    }

    // ------------------------------------------------------------------ helpers

    private static void assertUntouched(byte[] before, byte[] after, int from, int to, String what) {
        for (int i = from; i < to; i++) {
            if (before[i] != after[i]) {
                fail(what + " modified at index " + i + " (range " + from + ".." + to + ")");
            }
        }
    }

    static String diff(byte[] want, byte[] got) {
        if (got == null) {
            return ": got null";
        }
        int i = Arrays.mismatch(want, got);
        int from = Math.max(0, i - 4);
        return ": lengths " + want.length + " (BC) / " + got.length + " (VectorJCE), first difference at byte " + i
                + " (block " + i / 16 + "); BC[" + from + "..]=" + HEX.formatHex(want, from, Math.min(want.length, i + 20))
                + " VectorJCE[" + from + "..]=" + HEX.formatHex(got, Math.min(from, got.length), Math.min(got.length, i + 20));
    }

    static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static byte[] filled(int v) {
        byte[] b = new byte[16];
        Arrays.fill(b, (byte) v);
        return b;
    }
}
