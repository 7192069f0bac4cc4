package org.vectorjce.contract;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.vectorjce.contract.ContractSupport.BLOCK;
import static org.vectorjce.contract.ContractSupport.bytes;
import static org.vectorjce.contract.ContractSupport.cipher;
import static org.vectorjce.contract.ContractSupport.concat;
import static org.vectorjce.contract.ContractSupport.init;
import static org.vectorjce.contract.ContractSupport.ivFor;
import static org.vectorjce.contract.ContractSupport.key;
import static org.vectorjce.contract.ContractSupport.nz;
import static org.vectorjce.contract.ContractSupport.oneShot;
import static org.vectorjce.contract.ContractSupport.random;
import static org.vectorjce.contract.ContractSupport.withKernel;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.security.AlgorithmParameters;
import java.security.InvalidParameterException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.ServiceLoader;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.vectorjce.SectorIvs;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.contract.ContractSupport.Spec;

/**
 * The JCA {@code Cipher} contract, as SunJCE keeps it, over every transformation and every kernel
 * (forced with {@code VectorJce.kernelProperty(alg)}): split updates, reset after doFinal, output
 * sizes, short buffers, guard bytes, overlap, ByteBuffers, parameters, re-init, wrap/unwrap.
 */
class CipherContractTest {
    private static final int ENC = Cipher.ENCRYPT_MODE;
    private static final int DEC = Cipher.DECRYPT_MODE;
    private static final byte GUARD = (byte) 0xA5;
    private static final int G = 9; // guard bytes on each side of an output range

    /** Plaintext lengths; the ones a transformation refuses are skipped. Past 4096 crosses mode chunks. */
    private static final int[] LENGTHS = {0, 1, 5, 15, 16, 17, 31, 32, 33, 47, 48, 64, 100, 255, 256, 257, 1000,
        4096, 4144, 4149, 9607};
    private static final int[] SHORT_LENGTHS = {0, 1, 15, 16, 17, 32, 33, 100, 256, 1000};

    private static final Provider BC = new BouncyCastleProvider();

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return ContractSupport.specsAndKernels();
    }

    /** A message for one direction: the input and the output one doFinal must give. */
    private record Msg(boolean enc, byte[] input, byte[] expected) {
        int opmode() {
            return enc ? ENC : DEC;
        }

        String describe(Spec s) {
            return s + (enc ? " encrypt " : " decrypt ") + input.length + " bytes";
        }
    }

    /** Encrypt and decrypt messages of the valid lengths; checks the one-shot round trip. */
    private static List<Msg> messages(Spec s, byte[] key, byte[] iv, Random rnd, int... lengths) throws Exception {
        List<Msg> l = new ArrayList<>();
        for (int len : lengths) {
            if (!s.validPlainLength(len)) {
                continue;
            }
            byte[] p = bytes(rnd, len);
            byte[] c = oneShot(s, true, key, iv, p);
            assertEquals(s.cipherLength(len), c.length, s + " ciphertext length of " + len);
            assertArrayEquals(p, oneShot(s, false, key, iv, c), s + " round trip of " + len + " bytes");
            l.add(new Msg(true, p, c));
            l.add(new Msg(false, c, p));
        }
        return l;
    }

    private static boolean paddedDecrypt(Spec s, boolean enc) {
        return s.padded() && !enc;
    }

    // ------------------------------------------------------------------ one checked call

    /**
     * Feeds {@code in[off, off+len)} through one update or doFinal with call variant {@code v}: 0 =
     * byte[]-returning, 1 = into a guarded array, 2..5 = ByteBuffers (heap/direct in × heap/direct out)
     * with positions not at zero. Checks getOutputSize bounds the bytes written (exactly, for doFinal
     * except padded decryption), guard bytes, buffer positions and limits, and that the input is not
     * modified. Returns the bytes written.
     */
    private static byte[] call(Spec s, boolean enc, Cipher c, byte[] in, int off, int len, boolean fin, int v)
            throws Exception {
        String what = s + (enc ? " encrypt " : " decrypt ") + (fin ? "doFinal" : "update") + " of " + len
                + " bytes, variant " + v;
        byte[] inCopy = in.clone();
        int bound = c.getOutputSize(len);
        assertTrue(bound >= 0, what);
        byte[] out;
        switch (v) {
            case 0 -> out = nz(fin ? c.doFinal(in, off, len) : c.update(in, off, len));
            case 1 -> {
                byte[] arr = new byte[G + bound + G];
                Arrays.fill(arr, GUARD);
                int n = fin ? c.doFinal(in, off, len, arr, G) : c.update(in, off, len, arr, G);
                assertTrue(n >= 0 && n <= bound, what + ": wrote " + n + " > getOutputSize " + bound);
                int slackEnd = fin && paddedDecrypt(s, enc) ? G + bound : G + n;
                checkGuards(arr, 0, G, what + " (before output)");
                checkGuards(arr, slackEnd, arr.length, what + " (after output)");
                out = Arrays.copyOfRange(arr, G, G + n);
            }
            default -> {
                boolean directIn = (v - 2) / 2 == 1;
                boolean directOut = (v - 2) % 2 == 1;
                ByteBuffer ib = directIn ? ByteBuffer.allocateDirect(len + 11) : ByteBuffer.allocate(len + 11);
                ib.position(3);
                ib.put(in, off, len);
                ib.put(new byte[] {1, 2, 3}); // beyond the limit: never read
                ib.position(3).limit(3 + len);
                int cap = 5 + bound + 8;
                ByteBuffer ob = directOut ? ByteBuffer.allocateDirect(cap) : ByteBuffer.allocate(cap);
                for (int i = 0; i < cap; i++) {
                    ob.put(i, GUARD);
                }
                ob.position(5).limit(5 + bound + 3);
                int n = fin ? c.doFinal(ib, ob) : c.update(ib, ob);
                assertEquals(3 + len, ib.position(), what + ": input position");
                assertEquals(3 + len, ib.limit(), what + ": input limit");
                assertEquals(5 + n, ob.position(), what + ": output position");
                assertEquals(5 + bound + 3, ob.limit(), what + ": output limit");
                assertTrue(n <= bound, what + ": wrote " + n + " > getOutputSize " + bound);
                out = new byte[n];
                ByteBuffer all = ob.duplicate().clear(); // absolute gets respect the limit
                all.get(5, out);
                int slackEnd = fin && paddedDecrypt(s, enc) ? 5 + bound : 5 + n;
                for (int i = 0; i < cap; i++) {
                    if (i < 5 || i >= slackEnd) {
                        assertEquals(GUARD, all.get(i), what + ": byte " + i + " of the output buffer written");
                    }
                }
            }
        }
        assertTrue(out.length <= bound, what + ": wrote " + out.length + " > getOutputSize " + bound);
        if (fin && !paddedDecrypt(s, enc)) {
            assertEquals(bound, out.length, what + ": getOutputSize should be exact for doFinal");
        }
        assertArrayEquals(inCopy, in, what + ": input modified");
        return out;
    }

    private static void checkGuards(byte[] arr, int from, int to, String what) {
        for (int i = from; i < to; i++) {
            if (arr[i] != GUARD) {
                fail(what + ": byte " + i + " outside the output range was written");
            }
        }
    }

    /** Random cut points of {@code len} into pieces, some empty, some odd, some large. */
    private static List<Integer> pieces(Random rnd, int len) {
        List<Integer> l = new ArrayList<>();
        int left = len;
        while (left > 0) {
            int p = switch (rnd.nextInt(6)) {
                case 0 -> 0;
                case 1 -> 1 + rnd.nextInt(15);
                case 2 -> 16;
                case 3 -> 17 + rnd.nextInt(32);
                case 4 -> rnd.nextInt(300);
                default -> rnd.nextInt(left + 1);
            };
            p = Math.min(p, left);
            l.add(p);
            left -= p;
        }
        return l;
    }

    private static byte[] runPieces(Spec s, Msg m, Cipher c, Random rnd, boolean randomVariants) throws Exception {
        List<Integer> ps = pieces(rnd, m.input().length);
        List<byte[]> outs = new ArrayList<>();
        int off = 0;
        // the last piece goes with doFinal, or doFinal gets no input
        int last = ps.isEmpty() || rnd.nextBoolean() ? 0 : ps.remove(ps.size() - 1);
        for (int p : ps) {
            outs.add(call(s, m.enc(), c, m.input(), off, p, false, randomVariants ? rnd.nextInt(6) : 0));
            off += p;
        }
        outs.add(call(s, m.enc(), c, m.input(), off, last, true, randomVariants ? rnd.nextInt(6) : 0));
        return concat(outs.toArray(new byte[0][]));
    }

    // ------------------------------------------------------------------ tests

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void updateInRandomPiecesEqualsOneDoFinal(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("pieces", s.transformation(), kernel);
            for (int keyLen : s.keyLengths()) {
                byte[] key = key(rnd, keyLen);
                byte[] iv = ivFor(s, rnd);
                for (Msg m : messages(s, key, iv, rnd, LENGTHS)) {
                    Cipher c = cipher(s, m.opmode(), key, iv);
                    for (int trial = 0; trial < 3; trial++) {
                        // the same Cipher object each trial: doFinal resets it
                        assertArrayEquals(m.expected(), runPieces(s, m, c, rnd, trial > 0), m.describe(s) + ", trial " + trial);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void doFinalReturnsToPostInitState(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("reset", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[1]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, SHORT_LENGTHS)) {
                Cipher c = cipher(s, m.opmode(), key, iv);
                byte[] first = c.doFinal(m.input());
                byte[] second = c.doFinal(m.input());
                assertArrayEquals(m.expected(), first, m.describe(s));
                assertArrayEquals(first, second, m.describe(s) + ": second doFinal differs");
                int half = m.input().length / 2;
                byte[] split = concat(c.update(m.input(), 0, half), c.doFinal(m.input(), half, m.input().length - half));
                assertArrayEquals(m.expected(), split, m.describe(s) + ": after two doFinals");
                assertArrayEquals(iv, c.getIV(), "IV kept");
            }
            if (s.generatesIv()) {
                // a generated IV stays for the next message too
                Cipher c = cipher(s);
                c.init(ENC, new SecretKeySpec(key, s.alg()));
                byte[] genIv = c.getIV();
                byte[] p = bytes(rnd, s.padded() || s.ctr() ? 77 : 80);
                byte[] c1 = c.doFinal(p);
                assertArrayEquals(c1, c.doFinal(p));
                assertArrayEquals(genIv, c.getIV());
                assertArrayEquals(oneShot(s, true, key, genIv, p), c1);
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void getOutputSizeBoundsEveryCall(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("size", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            byte[] iv = ivFor(s, rnd);
            int[] firsts = {0, 1, 15, 16, 17, 31, 32, 33};
            int[] seconds = {0, 1, 15, 16, 17, 31, 32, 48};
            for (boolean enc : new boolean[] {true, false}) {
                for (int a : firsts) {
                    for (int b : seconds) {
                        for (int c3 : new int[] {0, 7, 16}) {
                            int total = a + b + c3;
                            byte[] input;
                            if (enc) {
                                if (!s.validPlainLength(total)) {
                                    continue;
                                }
                                input = bytes(rnd, total);
                            } else {
                                // ciphertext lengths: what encryption produces
                                if (s.padded() ? total % 16 != 0 || total == 0 : !s.validPlainLength(total)) {
                                    continue;
                                }
                                input = bytes(rnd, total);
                            }
                            Cipher c = cipher(s, enc ? ENC : DEC, key, iv);
                            for (int v : new int[] {0, 1}) {
                                call(s, enc, c, input, 0, a, false, v);
                                call(s, enc, c, input, a, b, false, v);
                                try {
                                    call(s, enc, c, input, a + b, c3, true, v);
                                } catch (javax.crypto.BadPaddingException e) {
                                    // random ciphertext: the padding check may fail; sizes were checked
                                    // before the call
                                }
                            }
                        }
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void shortBufferArrayChangesNoState(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("short", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[2]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 150, 160, 171)) {
                for (int first : new int[] {5, 21, 32}) {
                    byte[] in = m.input();
                    int mid = 64;
                    Cipher c = cipher(s, m.opmode(), key, iv);
                    Cipher ref = cipher(s, m.opmode(), key, iv);
                    byte[] o1 = nz(c.update(in, 0, first));
                    assertArrayEquals(nz(ref.update(in, 0, first)), o1);
                    byte[] r2 = nz(ref.update(in, first, mid));
                    assertTrue(r2.length > 0, "test set-up: update gives output");
                    // too small by one byte
                    byte[] small = new byte[G + r2.length - 1];
                    Arrays.fill(small, GUARD);
                    assertThrows(ShortBufferException.class, () -> c.update(in, first, mid, small, G), m.describe(s));
                    checkGuards(small, 0, small.length, m.describe(s) + ": ShortBufferException but output written");
                    // exactly big enough
                    byte[] exact = new byte[G + r2.length + G];
                    Arrays.fill(exact, GUARD);
                    assertEquals(r2.length, c.update(in, first, mid, exact, G));
                    assertArrayEquals(r2, Arrays.copyOfRange(exact, G, G + r2.length), m.describe(s) + ": retried update");
                    checkGuards(exact, G + r2.length, exact.length, m.describe(s));
                    int rest = in.length - first - mid;
                    byte[] rf = ref.doFinal(in, first + mid, rest);
                    assertArrayEquals(m.expected(), concat(o1, r2, rf), "reference");
                    if (rf.length > 0) {
                        byte[] smallF = new byte[G + rf.length - 1];
                        Arrays.fill(smallF, GUARD);
                        assertThrows(ShortBufferException.class, () -> c.doFinal(in, first + mid, rest, smallF, G),
                                m.describe(s) + ": doFinal into " + (rf.length - 1) + " bytes");
                        checkGuards(smallF, 0, smallF.length, m.describe(s) + ": ShortBufferException but output written");
                    }
                    // retry into exactly the plaintext/ciphertext size (padded decryption included)
                    byte[] exactF = new byte[G + rf.length + G];
                    Arrays.fill(exactF, GUARD);
                    assertEquals(rf.length, c.doFinal(in, first + mid, rest, exactF, G), m.describe(s));
                    assertArrayEquals(rf, Arrays.copyOfRange(exactF, G, G + rf.length), m.describe(s) + ": retried doFinal");
                    checkGuards(exactF, 0, G, m.describe(s));
                    checkGuards(exactF, G + rf.length, exactF.length, m.describe(s));
                    // and the cipher was reset by that doFinal
                    assertArrayEquals(m.expected(), c.doFinal(in), m.describe(s) + ": after retried doFinal");
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void shortBufferByteBufferChangesNoState(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("shortbb", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 150, 160)) {
                for (boolean direct : new boolean[] {false, true}) {
                    byte[] in = m.input();
                    Cipher c = cipher(s, m.opmode(), key, iv);
                    byte[] o1 = nz(c.update(in, 0, 21));
                    ByteBuffer ib = ByteBuffer.wrap(in, 21, 64);
                    int need = c.getOutputSize(64);
                    ByteBuffer small = direct ? ByteBuffer.allocateDirect(need + 2) : ByteBuffer.allocate(need + 2);
                    small.position(3);
                    assertThrows(ShortBufferException.class, () -> c.update(ib, small), m.describe(s));
                    assertEquals(21, ib.position(), "input position after ShortBufferException");
                    assertEquals(3, small.position(), "output position after ShortBufferException");
                    ByteBuffer ob = direct ? ByteBuffer.allocateDirect(in.length + 64) : ByteBuffer.allocate(in.length + 64);
                    c.update(ib, ob);
                    int rest = in.length - 85;
                    ByteBuffer ib2 = ByteBuffer.wrap(in, 85, rest);
                    int needF = c.getOutputSize(rest);
                    if (needF > 0) {
                        ByteBuffer smallF = direct ? ByteBuffer.allocateDirect(needF - 1) : ByteBuffer.allocate(needF - 1);
                        assertThrows(ShortBufferException.class, () -> c.doFinal(ib2, smallF), m.describe(s));
                        assertEquals(85, ib2.position());
                        assertEquals(0, smallF.position());
                    }
                    c.doFinal(ib2, ob);
                    ob.flip();
                    byte[] rest2 = new byte[ob.remaining()];
                    ob.get(rest2);
                    assertArrayEquals(m.expected(), concat(o1, rest2), m.describe(s) + (direct ? " direct" : " heap"));
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void overlapInOneCallEqualsOutOfPlace(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("overlap1", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            byte[] iv = ivFor(s, rnd);
            int[] shifts = {-33, -17, -16, -1, 0, 1, 15, 16, 17, 33};
            for (Msg m : messages(s, key, iv, rnd, 16, 17, 48, 100, 4149)) {
                Cipher c = cipher(s, m.opmode(), key, iv);
                int len = m.input().length;
                for (int shift : shifts) {
                    for (boolean viaUpdate : new boolean[] {false, true}) {
                        int base = 48;
                        byte[] arr = new byte[base + len + 64];
                        System.arraycopy(m.input(), 0, arr, base, len);
                        int n;
                        if (viaUpdate) {
                            n = c.update(arr, base, len, arr, base + shift);
                            n += c.doFinal(arr, base + shift + n);
                        } else {
                            n = c.doFinal(arr, base, len, arr, base + shift);
                        }
                        assertArrayEquals(m.expected(), Arrays.copyOfRange(arr, base + shift, base + shift + n),
                                m.describe(s) + ", output shifted by " + shift + (viaUpdate ? " (update+doFinal)" : ""));
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void overlapWithBufferedPartialBlocks(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("overlapN", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[1]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 17, 33, 100, 257, 1000, 4149)) {
                byte[] input = m.input();
                int len = input.length;
                Cipher c = cipher(s, m.opmode(), key, iv);
                // (a) one array, sequential calls; output at or behind the input (as a stream in place)
                for (int shift : new int[] {0, -1, -5, -16, -17, -40}) {
                    int base = 48;
                    byte[] arr = new byte[base + len + 64];
                    System.arraycopy(input, 0, arr, base, len);
                    int inPos = base;
                    int outPos = base + shift;
                    for (int p : pieces(rnd, len)) {
                        outPos += c.update(arr, inPos, p, arr, outPos);
                        inPos += p;
                    }
                    outPos += c.doFinal(arr, inPos, 0, arr, outPos);
                    assertArrayEquals(m.expected(), Arrays.copyOfRange(arr, base + shift, outPos),
                            m.describe(s) + ", in place in pieces, output shifted by " + shift);
                }
                // (b) every call in an array of its own, output shifted either way
                for (int shift : new int[] {-17, -16, -3, 0, 1, 5, 16, 17, 33}) {
                    List<byte[]> outs = new ArrayList<>();
                    List<Integer> ps = pieces(rnd, len);
                    int off = 0;
                    for (int i = 0; i <= ps.size(); i++) {
                        boolean fin = i == ps.size();
                        int p = fin ? 0 : ps.get(i);
                        int at = 40;
                        byte[] w = new byte[at + p + 64 + 40];
                        System.arraycopy(input, off, w, at, p);
                        int n = fin ? c.doFinal(w, at, p, w, at + shift) : c.update(w, at, p, w, at + shift);
                        outs.add(Arrays.copyOfRange(w, at + shift, at + shift + n));
                        off += p;
                    }
                    assertArrayEquals(m.expected(), concat(outs.toArray(new byte[0][])),
                            m.describe(s) + ", each call overlapping, shift " + shift);
                }
            }
        });
    }

    private enum BufKind { HEAP, HEAP_SLICE, DIRECT }

    private static ByteBuffer alloc(BufKind k, int n) {
        return switch (k) {
            case HEAP -> ByteBuffer.allocate(n);
            case HEAP_SLICE -> ByteBuffer.wrap(new byte[n + 13], 13, n).slice(); // arrayOffset 13
            case DIRECT -> ByteBuffer.allocateDirect(n);
        };
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void byteBuffersHeapAndDirect(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("bb", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[2]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 16, 33, 100, 1000)) {
                byte[] input = m.input();
                int len = input.length;
                Cipher c = cipher(s, m.opmode(), key, iv);
                for (BufKind ik : BufKind.values()) {
                    for (BufKind ok : BufKind.values()) {
                        String what = m.describe(s) + " " + ik + " -> " + ok;
                        ByteBuffer in = alloc(ik, len + 10);
                        in.position(3);
                        in.put(input);
                        in.put(new byte[] {9, 9, 9, 9, 9, 9, 9}); // after the limit
                        int outRegion = len + 48;
                        ByteBuffer out = alloc(ok, 5 + outRegion + 4);
                        for (int i = 0; i < out.capacity(); i++) {
                            out.put(i, GUARD);
                        }
                        out.position(5).limit(5 + outRegion);
                        int pos = 3;
                        int total = 0;
                        int[] cuts = {Math.min(7, len), Math.min(len, 7 + 33)};
                        for (int cut : cuts) {
                            in.limit(3 + cut).position(pos);
                            total += c.update(in, out);
                            assertEquals(3 + cut, in.position(), what);
                            assertEquals(3 + cut, in.limit(), what);
                            assertEquals(5 + total, out.position(), what);
                            assertEquals(5 + outRegion, out.limit(), what);
                            pos = 3 + cut;
                        }
                        in.limit(3 + len).position(pos);
                        total += c.doFinal(in, out);
                        assertEquals(3 + len, in.position(), what);
                        assertEquals(3 + len, in.limit(), what);
                        assertEquals(5 + total, out.position(), what);
                        assertEquals(5 + outRegion, out.limit(), what);
                        byte[] got = new byte[total];
                        ByteBuffer all = out.duplicate().clear();
                        all.get(5, got);
                        assertArrayEquals(m.expected(), got, what);
                        for (int i = 0; i < out.capacity(); i++) {
                            if (i < 5 || i >= 5 + outRegion) {
                                assertEquals(GUARD, all.get(i), what + ": byte " + i + " outside position..limit written");
                            }
                        }
                    }
                }
                // in place through duplicates of one buffer, output shifted either way
                for (BufKind k : BufKind.values()) {
                    for (int shift : new int[] {-16, -1, 0, 1, 16}) {
                        ByteBuffer b = alloc(k, len + 64);
                        b.position(24);
                        b.put(input);
                        ByteBuffer in = b.duplicate().position(24).limit(24 + len);
                        ByteBuffer out = b.duplicate().position(24 + shift).limit(b.capacity());
                        int n = c.doFinal(in, out);
                        byte[] got = new byte[n];
                        b.get(24 + shift, got);
                        assertArrayEquals(m.expected(), got, m.describe(s) + " " + k + " in place, shift " + shift);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void readOnlyOutputBufferRefused(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("ro", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            byte[] iv = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 48)) {
                Cipher c = cipher(s, m.opmode(), key, iv);
                for (ByteBuffer ro : new ByteBuffer[] {ByteBuffer.allocate(128).asReadOnlyBuffer(),
                    ByteBuffer.allocateDirect(128).asReadOnlyBuffer()}) {
                    ByteBuffer in = ByteBuffer.wrap(m.input());
                    assertThrows(ReadOnlyBufferException.class, () -> c.update(in, ro));
                    assertThrows(ReadOnlyBufferException.class, () -> c.doFinal(in, ro));
                    assertEquals(0, in.position());
                }
                assertArrayEquals(m.expected(), c.doFinal(m.input()), m.describe(s) + ": state unchanged");
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void parametersRoundTrip(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("params", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            SecretKeySpec k = new SecretKeySpec(key, s.alg());
            byte[] p = bytes(rnd, 64);
            if (!s.usesIv()) {
                Cipher c = cipher(s, ENC, key, null);
                assertNull(c.getIV());
                assertNull(c.getParameters());
                return;
            }
            List<Cipher> encs = new ArrayList<>();
            byte[] iv = bytes(rnd, 16);
            encs.add(cipher(s, ENC, key, iv));
            if (s.generatesIv()) {
                Cipher g = cipher(s);
                g.init(ENC, k);
                encs.add(g);
            }
            for (Cipher enc : encs) {
                byte[] encIv = enc.getIV();
                assertNotNull(encIv);
                assertEquals(16, encIv.length);
                byte[] copy = enc.getIV();
                copy[0] ^= 1;
                assertArrayEquals(encIv, enc.getIV(), "getIV returns a copy");
                AlgorithmParameters params = enc.getParameters();
                assertNotNull(params, s + ": getParameters");
                assertEquals(s.alg().toLowerCase(), params.getAlgorithm().toLowerCase());
                assertArrayEquals(encIv, params.getParameterSpec(IvParameterSpec.class).getIV());
                byte[] ct = enc.doFinal(p);
                Cipher dec = cipher(s);
                dec.init(DEC, k, params);
                assertArrayEquals(encIv, dec.getIV());
                assertArrayEquals(p, dec.doFinal(ct), s + ": decrypt with getParameters() of the encrypting cipher");
                // encoded form round trip through the provider's AlgorithmParameters
                AlgorithmParameters p2 = AlgorithmParameters.getInstance(s.alg(), TestProviders.current());
                p2.init(params.getEncoded());
                dec.init(DEC, k, p2);
                assertArrayEquals(p, dec.doFinal(ct), s + ": decrypt with re-encoded parameters");
                AlgorithmParameters p3 = AlgorithmParameters.getInstance(s.alg(), TestProviders.current());
                p3.init(params.getEncoded(), "ASN.1");
                assertArrayEquals(encIv, p3.getParameterSpec(IvParameterSpec.class).getIV());
                // decrypting cipher's parameters can start another decryption
                Cipher dec2 = cipher(s);
                dec2.init(DEC, k, dec.getParameters());
                assertArrayEquals(p, dec2.doFinal(ct));
            }
            // the caller's IV array is copied at init
            byte[] mine = iv.clone();
            IvParameterSpec spec = new IvParameterSpec(mine);
            Cipher c = cipher(s);
            c.init(ENC, k, spec);
            Arrays.fill(mine, (byte) 0);
            assertArrayEquals(oneShot(s, true, key, iv, p), c.doFinal(p));
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void randomIvGeneratedOnlyForCbcAndCtrEncryption(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("randiv", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[1]);
            SecretKeySpec k = new SecretKeySpec(key, s.alg());
            byte[] p = bytes(rnd, s.padded() || s.ctr() ? 50 : 48);
            if (!s.generatesIv()) {
                if (s.ecb()) {
                    Cipher c = cipher(s);
                    c.init(ENC, k);
                    assertNull(c.getIV());
                }
                return; // XTS/LRW without IV: BadInputTest
            }
            List<byte[]> ivs = new ArrayList<>();
            Cipher c = cipher(s);
            for (int i = 0; i < 3; i++) {
                switch (i) {
                    case 0 -> c.init(ENC, k);
                    case 1 -> c.init(ENC, k, (AlgorithmParameterSpec) null);
                    default -> c.init(ENC, k, (AlgorithmParameters) null);
                }
                byte[] iv = c.getIV();
                assertNotNull(iv, s + ": IV generated");
                assertEquals(16, iv.length);
                for (byte[] other : ivs) {
                    assertFalse(Arrays.equals(other, iv), "a fresh IV at every init");
                }
                ivs.add(iv);
                byte[] ct = c.doFinal(p);
                assertArrayEquals(p, oneShot(s, false, key, iv, ct));
                assertNotNull(c.getParameters());
            }
            // the SecureRandom given to init supplies the IV
            byte[] fixed = bytes(rnd, 16);
            SecureRandom sr = new SecureRandom() {
                private static final long serialVersionUID = 1L;

                @Override
                public void nextBytes(byte[] b) {
                    for (int i = 0; i < b.length; i++) {
                        b[i] = fixed[i % 16];
                    }
                }
            };
            c.init(ENC, k, sr);
            assertArrayEquals(fixed, c.getIV(), "IV drawn from the SecureRandom given to init");
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void reinitMidStreamDiscardsBufferedData(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("reinit", s.transformation(), kernel);
            byte[] key = key(rnd, s.keyLengths()[0]);
            byte[] iv = ivFor(s, rnd);
            byte[] iv2 = ivFor(s, rnd);
            for (Msg m : messages(s, key, iv, rnd, 33, 100)) {
                for (int fed : new int[] {5, 16, 21, 40}) {
                    Cipher c = cipher(s, m.opmode(), key, iv);
                    c.update(bytes(rnd, fed));
                    init(c, s, m.opmode(), key, iv);
                    assertArrayEquals(m.expected(), c.doFinal(m.input()), m.describe(s) + " after re-init with " + fed + " bytes fed");
                    c.update(bytes(rnd, fed));
                    init(c, s, m.opmode(), key, iv2);
                    assertArrayEquals(oneShot(s, m.enc(), key, iv2, m.input()), c.doFinal(m.input()), "re-init with another IV");
                    // and the other direction
                    c.update(bytes(rnd, fed));
                    init(c, s, m.enc() ? DEC : ENC, key, iv);
                    assertArrayEquals(m.input(), c.doFinal(m.expected()), "re-init in the other direction");
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void reinitWithKeyOfAnotherSize(Spec s, String kernel) throws Exception {
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("rekey", s.transformation(), kernel);
            int[] sizes = s.keyLengths();
            int[] order = {sizes[2], sizes[0], sizes[1], sizes[2], sizes[0]};
            byte[] iv = ivFor(s, rnd);
            byte[] p = bytes(rnd, 100 - (s.validPlainLength(100) ? 0 : 4)); // 96 for block-aligned modes
            Cipher c = cipher(s);
            for (int i = 0; i < order.length; i++) {
                byte[] key = key(rnd, order[i]);
                boolean enc = i % 2 == 0;
                byte[] in = enc ? p : oneShot(s, true, key, iv, p);
                if (i > 0) {
                    c.update(in, 0, 7); // leave data behind before the next init
                }
                init(c, s, enc ? ENC : DEC, key, iv);
                byte[] expected = enc ? oneShot(s, true, key, iv, p) : p;
                assertArrayEquals(expected, c.doFinal(in), s + " key of " + order[i] + " bytes after another size");
                assertArrayEquals(expected, c.doFinal(in));
            }
        });
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("cases")
    void agreesWithIndependentReference(Spec s, String kernel) throws Exception {
        if (s.lrw()) {
            return; // LRW has no independent JCA reference here; the Linux testmgr KATs cover it
        }
        withKernel(s.alg(), kernel, () -> {
            Random rnd = random("ref", s.transformation(), kernel);
            for (int keyLen : s.keyLengths()) {
                byte[] key = key(rnd, keyLen);
                List<byte[]> ivs = new ArrayList<>();
                ivs.add(ivFor(s, rnd));
                if (s.ctr()) {
                    byte[] allOnes = new byte[16];
                    Arrays.fill(allOnes, (byte) 0xff);
                    ivs.add(allOnes); // wraps to zero after one block
                    byte[] low = bytes(rnd, 16);
                    Arrays.fill(low, 8, 16, (byte) 0xff);
                    low[15] = (byte) 0xf0; // carry into the upper 64 bits after 16 blocks
                    ivs.add(low);
                }
                for (byte[] iv : ivs) {
                    for (int len : LENGTHS) {
                        if (!s.validPlainLength(len)) {
                            continue;
                        }
                        byte[] p = bytes(rnd, len);
                        byte[] expected;
                        if (s.xts()) {
                            expected = ContractSupport.xtsReference(s.alg(), true, key, iv, p);
                        } else {
                            Cipher bc = Cipher.getInstance(s.transformation(), BC);
                            SecretKeySpec k = new SecretKeySpec(key, s.alg());
                            if (iv == null) {
                                bc.init(ENC, k);
                            } else {
                                bc.init(ENC, k, new IvParameterSpec(iv));
                            }
                            expected = bc.doFinal(p);
                        }
                        String what = s + " key " + keyLen + " len " + len + (iv == null ? "" : " iv " + ContractSupport.hex(iv));
                        assertArrayEquals(expected, oneShot(s, true, key, iv, p), what + " encrypt");
                        assertArrayEquals(p, oneShot(s, false, key, iv, expected), what + " decrypt");
                    }
                }
            }
        });
    }

    // ------------------------------------------------------------------ not per transformation

    @Test
    void wrapAndUnwrapSecretKeys() throws Exception {
        Random rnd = random("wrap");
        String[] ts = {"AES/ECB/NoPadding", "AES/CBC/PKCS5Padding", "Twofish/CBC/PKCS5Padding"};
        for (String t : ts) {
            String alg = t.substring(0, t.indexOf('/'));
            for (int kekLen : new int[] {16, 32}) {
                SecretKey kek = new SecretKeySpec(bytes(rnd, kekLen), alg);
                List<SecretKey> keys = new ArrayList<>(List.of(new SecretKeySpec(bytes(rnd, 32), "AES"),
                        new SecretKeySpec(bytes(rnd, 16), "Twofish")));
                if (t.contains("PKCS5")) {
                    keys.add(new SecretKeySpec(bytes(rnd, 20), "HmacSHA256"));
                }
                for (SecretKey k : keys) {
                    Cipher w = Cipher.getInstance(t, TestProviders.current());
                    w.init(Cipher.WRAP_MODE, kek);
                    byte[] wrapped = w.wrap(k);
                    int expectLen = t.contains("PKCS5") ? (k.getEncoded().length / 16 + 1) * 16 : k.getEncoded().length;
                    assertEquals(expectLen, wrapped.length, t);
                    assertFalse(ContractSupport.hex(wrapped).contains(ContractSupport.hex(Arrays.copyOf(k.getEncoded(), 8))));
                    Cipher u = Cipher.getInstance(t, TestProviders.current());
                    if (t.contains("ECB")) {
                        u.init(Cipher.UNWRAP_MODE, kek);
                    } else {
                        u.init(Cipher.UNWRAP_MODE, kek, w.getParameters());
                    }
                    Key back = u.unwrap(wrapped, k.getAlgorithm(), Cipher.SECRET_KEY);
                    assertTrue(back instanceof SecretKey, t);
                    assertEquals(k.getAlgorithm(), back.getAlgorithm(), t);
                    assertArrayEquals(k.getEncoded(), back.getEncoded(), t + " unwrap(wrap(k))");
                    // wrap is encryption of the encoding
                    Cipher e = Cipher.getInstance(t, TestProviders.current());
                    if (t.contains("ECB")) {
                        e.init(ENC, kek);
                    } else {
                        e.init(ENC, kek, w.getParameters());
                    }
                    assertArrayEquals(e.doFinal(k.getEncoded()), wrapped, t);
                }
            }
        }
        // NoPadding cannot wrap a key whose encoding is not a multiple of 16
        Cipher w = Cipher.getInstance("AES/ECB/NoPadding", TestProviders.current());
        w.init(Cipher.WRAP_MODE, new SecretKeySpec(bytes(rnd, 16), "AES"));
        assertThrows(IllegalBlockSizeException.class, () -> w.wrap(new SecretKeySpec(bytes(rnd, 20), "HmacSHA256")));
    }

    @Test
    void keyGeneratorSizes() throws Exception {
        for (String alg : ContractSupport.ALGORITHMS) {
            KeyGenerator kg = KeyGenerator.getInstance(alg, TestProviders.current());
            assertEquals(TestProviders.current().getName(), kg.getProvider().getName());
            int defLen = kg.generateKey().getEncoded().length;
            assertTrue(defLen == 16 || defLen == 24 || defLen == 32, alg + " default key length " + defLen);
            for (int bits : new int[] {128, 192, 256}) {
                for (boolean withRandom : new boolean[] {false, true}) {
                    if (withRandom) {
                        kg.init(bits, new SecureRandom());
                    } else {
                        kg.init(bits);
                    }
                    SecretKey k1 = kg.generateKey();
                    SecretKey k2 = kg.generateKey();
                    assertEquals(bits / 8, k1.getEncoded().length, alg + " " + bits);
                    assertEquals(alg, k1.getAlgorithm());
                    assertEquals("RAW", k1.getFormat());
                    assertFalse(Arrays.equals(k1.getEncoded(), k2.getEncoded()), "two keys differ");
                    Cipher c = Cipher.getInstance(alg + "/CBC/PKCS5Padding", TestProviders.current());
                    c.init(ENC, k1);
                    assertEquals(32, c.doFinal(new byte[20]).length);
                }
            }
            for (int bad : new int[] {100, 0, 64, 127, 512, -128}) {
                assertThrows(InvalidParameterException.class, () -> kg.init(bad), alg + " init(" + bad + ")");
            }
        }
    }

    @Test
    void sectorIvsPlain64IsLittleEndian() throws Exception {
        byte[] expected = {8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0};
        assertArrayEquals(expected, SectorIvs.plain64(0x0102030405060708L).getIV());
        assertArrayEquals(new byte[16], SectorIvs.plain64(0).getIV());
        byte[] ones = new byte[16];
        Arrays.fill(ones, 0, 8, (byte) 0xff);
        assertArrayEquals(ones, SectorIvs.plain64(-1L).getIV(), "unsigned 64-bit sector");
        byte[] one = new byte[16];
        one[0] = 1;
        assertArrayEquals(one, SectorIvs.plain64(1).getIV());
        // usable as the XTS tweak
        byte[] key = key(random("plain64"), 64);
        byte[] data = bytes(random("plain64data"), 512);
        Cipher c = Cipher.getInstance("AES/XTS/NoPadding", TestProviders.current());
        c.init(ENC, new SecretKeySpec(key, "AES"), SectorIvs.plain64(0x0102030405060708L));
        assertArrayEquals(ContractSupport.xtsReference("AES", true, key, expected, data), c.doFinal(data));
    }

    @Test
    void parametersAreFromThisProvider() throws Exception {
        for (String alg : ContractSupport.ALGORITHMS) {
            Cipher c = Cipher.getInstance(alg + "/CBC/NoPadding", TestProviders.current());
            c.init(ENC, new SecretKeySpec(new byte[16], alg));
            AlgorithmParameters p = c.getParameters();
            assertNotNull(p);
            assertEquals(alg, p.getAlgorithm());
            assertNotNull(p.getProvider(), alg + ": getParameters().getProvider() is null");
            assertEquals(VectorJceProvider.NAME, p.getProvider().getName());
            AlgorithmParameters q = AlgorithmParameters.getInstance(alg, TestProviders.current());
            q.init(new IvParameterSpec(c.getIV()));
            assertArrayEquals(p.getEncoded(), q.getEncoded());
        }
    }

    @Test
    void registeredProviderIsFoundByName() throws Exception {
        int pos = Security.addProvider(new VectorJceProvider());
        boolean added = pos != -1;
        try {
            assertNotNull(Security.getProvider("VectorJCE"));
            Cipher c = Cipher.getInstance("Twofish/XTS/NoPadding", "VectorJCE");
            assertEquals("VectorJCE", c.getProvider().getName());
            byte[] key = key(random("reg"), 64);
            byte[] data = bytes(random("regdata"), 100);
            c.init(ENC, new SecretKeySpec(key, "Twofish"), SectorIvs.plain64(7));
            assertArrayEquals(ContractSupport.xtsReference("Twofish", true, key, SectorIvs.plain64(7).getIV(), data),
                    c.doFinal(data));
            // without a provider name, the only provider with XTS is chosen
            Cipher any = Cipher.getInstance("AES/XTS/NoPadding");
            assertEquals("VectorJCE", any.getProvider().getName());
            assertEquals("VectorJCE", KeyGenerator.getInstance("Twofish", "VectorJCE").getProvider().getName());
            assertEquals("VectorJCE", AlgorithmParameters.getInstance("Twofish", "VectorJCE").getProvider().getName());
        } finally {
            if (added) {
                Security.removeProvider("VectorJCE");
            }
        }
        if (added) {
            assertNull(Security.getProvider("VectorJCE"));
        }
    }

    @Test
    void serviceLoaderFindsProvider() {
        List<String> names = new ArrayList<>();
        ServiceLoader.load(Provider.class).stream().forEach(h -> {
            if (h.type().getName().startsWith("org.vectorjce")) {
                names.add(h.get().getName());
            }
        });
        assertTrue(names.contains("VectorJCE"), "ServiceLoader providers from org.vectorjce: " + names);
    }
}
