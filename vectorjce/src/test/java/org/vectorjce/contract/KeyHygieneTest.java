package org.vectorjce.contract;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.VectorJce;
import org.vectorjce.contract.ContractSupport.Spec;
import org.vectorjce.internal.jca.VectorJceCipher;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * Key hygiene: destroyed keys are refused; key schedules are wiped by {@code destroy()} in every
 * kernel and on re-key in the {@code CipherSpi}; no {@code toString} and no exception message shows
 * key bytes.
 *
 * <p>Wiping is checked by reflection: from the kernel (or the SPI's old mode) every object of the
 * provider's own classes is walked, and every primitive array (and every {@code long} field, where
 * LRW keeps its tweak key) must be all zero after {@code destroy()} — except arrays named
 * {@code iv}, copies of the IV, which is public. JDK objects a kernel holds
 * (the SunJCE ciphers of {@code aes-jdk}) cannot be read; for them a behavioural check stands in:
 * after {@code destroy()} the kernel no longer computes the old key's blocks.
 */
class KeyHygieneTest {

    private static final HexFormat HEX = HexFormat.of();

    @AfterEach
    void clearKernelProperties() {
        for (String alg : ContractSupport.ALGORITHMS) {
            TestProviders.reset();
        }
    }

    /** A RAW key that can be destroyed; after destroy() its bytes are zero and getEncoded() fails. */
    static final class DestroyableKey implements SecretKey {
        private static final long serialVersionUID = 1L;
        private final String algorithm;
        private final byte[] bytes;
        private boolean destroyed;

        DestroyableKey(String algorithm, byte[] bytes) {
            this.algorithm = algorithm;
            this.bytes = bytes.clone();
        }

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
            if (destroyed) {
                throw new IllegalStateException("key destroyed");
            }
            return bytes.clone();
        }

        @Override
        public void destroy() {
            Arrays.fill(bytes, (byte) 0);
            destroyed = true;
        }

        @Override
        public boolean isDestroyed() {
            return destroyed;
        }
    }

    private static void init(Cipher c, Spec s, int opmode, Key key, byte[] iv) throws Exception {
        if (iv == null) {
            c.init(opmode, key);
        } else {
            c.init(opmode, key, new IvParameterSpec(iv));
        }
    }

    // ------------------------------------------------------------------ destroyed keys

    @TestFactory
    Stream<DynamicTest> destroyedKeyIsRefusedWithInvalidKeyException() {
        return ContractSupport.specs().stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> {
            Random rnd = ContractSupport.random("destroyed", s.transformation());
            byte[] raw = ContractSupport.key(rnd, s.keyLengths()[0]);
            byte[] iv = ContractSupport.ivFor(s, rnd);
            DestroyableKey key = new DestroyableKey(s.alg(), raw);
            Cipher c = ContractSupport.cipher(s);
            init(c, s, Cipher.ENCRYPT_MODE, key, iv); // accepted while alive
            byte[] ct = c.doFinal(new byte[64]);
            assertNotNull(ct);
            key.destroy();
            assertTrue(key.isDestroyed());
            for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                // Also the same key object again: the "same key, keep the schedule" shortcut must
                // still see that it was destroyed.
                InvalidKeyException e = assertThrows(InvalidKeyException.class,
                        () -> init(c, s, opmode, key, iv), s + ": a destroyed key must be refused");
                assertTrue(e.getMessage() != null && e.getMessage().toLowerCase(Locale.ROOT).contains("destroyed"),
                        () -> "the message should say the key was destroyed: " + e.getMessage());
                ContractSupport.assertNoKeyBytes(e, raw);
                // A fresh cipher too.
                assertThrows(InvalidKeyException.class, () -> init(ContractSupport.cipher(s), s, opmode, key, iv));
            }
            // getKeySize-style probing through Cipher.getMaxAllowedKeyLength is not provider code;
            // wrap/unwrap with a destroyed wrapping key is init, checked above.
        }));
    }

    // ------------------------------------------------------------------ reflection walk

    private static boolean ownClass(Class<?> c) {
        return c.getName().startsWith("org.vectorjce.");
    }

    /** Shared, key-independent objects a mode points at (arithmetic singletons): not walked. */
    private static boolean shared(Object o) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.vectorjce.internal.mode.BlockPasses")) {
                return true;
            }
        }
        return false;
    }

    private static boolean allZero(Object array) {
        int n = Array.getLength(array);
        for (int i = 0; i < n; i++) {
            Object v = Array.get(array, i);
            if (v instanceof Number num ? num.longValue() != 0 : v instanceof Character ch ? ch != 0 : Boolean.TRUE.equals(v)) {
                return false;
            }
        }
        return true;
    }

    /**
     * What the walk saw: primitive arrays (zero or not), JDK objects it could not read, and a copy
     * of every primitive array by path.
     */
    private record Walk(List<String> nonZero, List<String> zero, List<String> opaque, java.util.Map<String, Object> copies) {
        Walk() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new java.util.LinkedHashMap<>());
        }
    }

    private static Walk walk(Object root) throws IllegalAccessException {
        Walk w = new Walk();
        walk(root, root.getClass().getSimpleName(), w, Collections.newSetFromMap(new IdentityHashMap<>()), true);
        return w;
    }

    private static void walk(Object o, String path, Walk w, Set<Object> seen, boolean checkLongs)
            throws IllegalAccessException {
        if (o == null || !seen.add(o)) {
            return;
        }
        for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                Object v = f.get(o);
                String p = path + "." + f.getName();
                Class<?> t = f.getType();
                if (t.isArray() && t.getComponentType().isPrimitive()) {
                    if (v != null) {
                        Object copy = Array.newInstance(t.getComponentType(), Array.getLength(v));
                        System.arraycopy(v, 0, copy, 0, Array.getLength(v));
                        w.copies().put(p, copy);
                    }
                    if (v != null && f.getName().equals("iv")) {
                        w.zero().add(p + " (the IV: public, not key material)");
                    } else if (v != null) {
                        (allZero(v) ? w.zero() : w.nonZero()).add(p + " (" + t.getComponentType() + "[" + Array.getLength(v) + "])");
                    }
                } else if (t == long.class && checkLongs && f.getLong(o) != 0) {
                    w.nonZero().add(p + " (long)");
                } else if (t.isPrimitive() || v == null || v instanceof String || v instanceof Enum<?>) {
                    continue;
                } else if (ownClass(v.getClass())) {
                    if (!shared(v)) {
                        walk(v, p, w, seen, checkLongs);
                    }
                } else if (v.getClass().isArray()) {
                    for (int i = 0; i < Array.getLength(v); i++) {
                        Object e = Array.get(v, i);
                        if (e != null && ownClass(e.getClass())) {
                            walk(e, p + "[" + i + "]", w, seen, checkLongs);
                        }
                    }
                } else {
                    w.opaque().add(p + " (" + v.getClass().getName() + ")");
                }
            }
        }
    }

    // ------------------------------------------------------------------ kernels

    private static Stream<KernelFactory> factories() {
        List<KernelFactory> l = new ArrayList<>();
        for (String alg : ContractSupport.ALGORITHMS) {
            for (String name : ContractSupport.kernels(alg)) {
                l.add(KernelRegistry.byName(alg, name));
            }
        }
        return l.stream();
    }

    /**
     * Every kernel, every key size: after use and {@code destroy()}, every primitive array reachable
     * through the provider's own objects is zero; and the kernel no longer encrypts with the old key.
     */
    @TestFactory
    Stream<DynamicTest> everyKernelWipesItsKeyScheduleOnDestroy() {
        return factories().map(f -> DynamicTest.dynamicTest(f.algorithm() + " " + f.name(), () -> {
            Random rnd = new Random(f.name().hashCode());
            for (int keyLen : new int[] {16, 24, 32}) {
                byte[] key = ContractSupport.bytes(rnd, keyLen);
                BlockKernel k = f.create(key.clone());
                // Use it: one block, a kernel width, a padded tail and a long run, both directions,
                // so lazily built state (decryption schedules, scratch batches) exists too.
                byte[] in = ContractSupport.bytes(rnd, 16 * 101);
                byte[] before = new byte[in.length];
                for (int blocks : new int[] {1, 8, 17, 40, 101}) {
                    k.encryptBlocks(in, 0, before, 0, blocks);
                    k.decryptBlocks(before, 0, new byte[in.length], 0, blocks);
                }
                k.encryptBlocks(in, 0, before, 0, 101);
                Walk live = walk(k);
                assertFalse(live.nonZero().isEmpty() && live.opaque().isEmpty(),
                        () -> f.name() + ": the walk found no key material at all (is the test blind?) " + live);
                String s = k.toString();
                assertNoKeyText(f.name() + " toString()", s, key);

                k.destroy();

                Walk after = walk(k);
                if (!after.nonZero().isEmpty()) {
                    fail(f.name() + " (" + keyLen + "-byte key): destroy() left non-zero arrays: " + after.nonZero()
                            + "\n  (wiped: " + after.zero() + ")");
                }
                assertNoKeyText(f.name() + " toString() after destroy", k.toString(), key);
                // Behaviour: whatever a destroyed kernel does if misused, it must not still be the
                // old key's permutation (this covers what the walk cannot read: SunJCE's copy of the
                // expanded key in aes-jdk).
                byte[] afterOut = new byte[in.length];
                try {
                    k.encryptBlocks(in, 0, afterOut, 0, 101);
                    assertFalse(Arrays.equals(before, afterOut), f.name() + ": still encrypts with the old key after destroy()");
                } catch (RuntimeException | AssertionError e) {
                    // Refusing to work after destroy() is fine too.
                }
            }
        }));
    }

    // ------------------------------------------------------------------ the SPI on re-key

    static Method spiMethod(String name, Class<?>... types) throws NoSuchMethodException {
        Method m = VectorJceCipher.class.getDeclaredMethod(name, types);
        m.setAccessible(true);
        return m;
    }

    /**
     * The SPI of {@code s} made directly ({@code Cipher} hides its SPI; the class is public) with
     * its mode and padding set, for tests that walk or drive it through its engine methods.
     */
    static VectorJceCipher spiFor(Spec s, java.security.Provider provider) throws Exception {
        VectorJceCipher spi = new VectorJceCipher(s.alg(), TestProviders.settingsOf((org.vectorjce.VectorJceProvider) provider), provider);
        invoke(spiMethod("engineSetMode", String.class), spi, s.mode());
        invoke(spiMethod("engineSetPadding", String.class), spi, s.padded() ? "PKCS5Padding" : "NoPadding");
        return spi;
    }

    /** {@code engineInit(int, Key, AlgorithmParameterSpec, SecureRandom)}, accessible. */
    static Method engineInit() throws NoSuchMethodException {
        return spiMethod("engineInit", int.class, Key.class, AlgorithmParameterSpec.class, SecureRandom.class);
    }

    static Object invoke(Method m, Object target, Object... args) throws Exception {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }

    private static Field spiField(String name) {
        try {
            Field f = VectorJceCipher.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /**
     * Re-keying a cipher wipes the old key schedule. {@code Cipher} hides its SPI, so the SPI is made
     * directly (it is public) and driven through its engine methods; its old mode object (with its
     * kernels) and any copy of the old key it kept are then walked as above.
     */
    @TestFactory
    Stream<DynamicTest> reKeyWipesTheOldScheduleInEveryModeAndKernel() {
        return ContractSupport.specsAndKernels().map(a -> {
            Spec s = (Spec) a.get()[0];
            String kernel = (String) a.get()[1];
            return DynamicTest.dynamicTest(s + " " + kernel, () -> ContractSupport.withKernel(s.alg(), kernel, () -> {
                Random rnd = ContractSupport.random("rekey", s.transformation(), kernel);
                VectorJceCipher spi = spiFor(s, TestProviders.current());
                Method engineInit = engineInit();
                Method doFinal = spiMethod("engineDoFinal", byte[].class, int.class, int.class);
                Field modeField = spiField("mode");
                assertNotNull(modeField, "VectorJceCipher has no 'mode' field any more: update this test");
                Field keyCopyField = spiField("keyCopy");

                byte[] key1 = ContractSupport.key(rnd, s.keyLengths()[0]);
                byte[] iv = ContractSupport.ivFor(s, rnd);
                IvParameterSpec ivSpec = iv == null ? null : new IvParameterSpec(iv);
                for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    invoke(engineInit, spi, opmode, new SecretKeySpec(key1, s.alg()), ivSpec, null);
                    byte[] data = ContractSupport.bytes(rnd, 16 * 70);
                    try {
                        invoke(doFinal, spi, data, 0, data.length);
                    } catch (javax.crypto.BadPaddingException e) {
                        // Random "ciphertext" for a padded mode: the blocks were decrypted all the same.
                    }
                }
                Object oldMode = modeField.get(spi);
                byte[] oldKeyCopy = keyCopyField == null ? null : (byte[]) keyCopyField.get(spi);
                Walk live = walk(oldMode);
                assertFalse(live.nonZero().isEmpty(), "the walk found no key material in the live mode " + live);
                assertNoKeyText("SPI toString()", spi.toString(), key1);

                // Re-key with a key of another size.
                byte[] key2 = ContractSupport.key(rnd, s.keyLengths()[2]);
                invoke(engineInit, spi, Cipher.ENCRYPT_MODE, new SecretKeySpec(key2, s.alg()), ivSpec, null);
                assertTrue(modeField.get(spi) != oldMode, "a new key must get a new mode object");
                Walk after = walk(oldMode);
                if (!after.nonZero().isEmpty()) {
                    fail(s + " " + kernel + ": re-key left the old schedule's arrays non-zero: " + after.nonZero()
                            + "\n  (wiped: " + after.zero() + "; not readable: " + after.opaque() + ")");
                }
                if (oldKeyCopy != null) {
                    assertTrue(allZero(oldKeyCopy), s + " " + kernel + ": the SPI's copy of the old key was not wiped");
                }
                assertNoKeyText("SPI toString() after re-key", spi.toString(), key1);
                assertNoKeyText("SPI toString() after re-key", spi.toString(), key2);
            }));
        });
    }

    /**
     * A new key of the same size re-keys the cipher in place (issue 11: the mode keeps its buffers,
     * tables, SunJCE ciphers and native memory). The old schedule must still be gone: no array the
     * mode holds may keep its old non-zero contents, except the IV (public) and data that the new
     * message's start rewrites anyway. Then the cipher encrypts as a fresh one with the new key.
     */
    @TestFactory
    Stream<DynamicTest> sameSizeReKeyOverwritesTheOldScheduleInPlace() {
        return ContractSupport.specsAndKernels().map(a -> {
            Spec s = (Spec) a.get()[0];
            String kernel = (String) a.get()[1];
            return DynamicTest.dynamicTest(s + " " + kernel, () -> ContractSupport.withKernel(s.alg(), kernel, () -> {
                Random rnd = ContractSupport.random("rekey-in-place", s.transformation(), kernel);
                VectorJceCipher spi = spiFor(s, TestProviders.current());
                Method engineInit = engineInit();
                Method doFinal = spiMethod("engineDoFinal", byte[].class, int.class, int.class);
                Field modeField = spiField("mode");
                int len = s.keyLengths()[1];
                byte[] key1 = ContractSupport.key(rnd, len);
                byte[] iv = ContractSupport.ivFor(s, rnd);
                IvParameterSpec ivSpec = iv == null ? null : new IvParameterSpec(iv);
                byte[] data = ContractSupport.bytes(rnd, 16 * 70);
                for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    invoke(engineInit, spi, opmode, new SecretKeySpec(key1, s.alg()), ivSpec, null);
                    try {
                        invoke(doFinal, spi, data, 0, data.length);
                    } catch (javax.crypto.BadPaddingException e) {
                        // random "ciphertext" for a padded mode: decrypted all the same
                    }
                }
                Object mode = modeField.get(spi);
                java.util.Map<String, Object> before = walk(mode).copies();

                byte[] key2 = ContractSupport.key(rnd, len);
                invoke(engineInit, spi, Cipher.ENCRYPT_MODE, new SecretKeySpec(key2, s.alg()), ivSpec, null);
                assertTrue(modeField.get(spi) == mode, s + " " + kernel + ": a same-size key should re-key in place");
                java.util.Map<String, Object> after = walk(mode).copies();
                List<String> kept = new ArrayList<>();
                for (java.util.Map.Entry<String, Object> e : before.entrySet()) {
                    Object now = after.get(e.getKey());
                    // The IV, and what every start sets from it (CBC's chaining value, CTR's counter,
                    // the IVs XTS's tweak read-ahead saw last and made).
                    boolean public_ = e.getKey().endsWith(".iv") || e.getKey().endsWith(".startIv")
                            || e.getKey().matches(".*\\.ahead\\.(last|next|ivs)")
                            || e.getKey().endsWith("CbcMode.chain") || e.getKey().endsWith("CtrMode.ctr");
                    if (!public_ && now != null && !allZero(e.getValue()) && java.util.Objects.deepEquals(
                            new Object[] {e.getValue()}, new Object[] {now})) {
                        kept.add(e.getKey() + " (" + e.getValue().getClass().getComponentType() + "[" + Array.getLength(now) + "])");
                    }
                }
                if (!kept.isEmpty()) {
                    fail(s + " " + kernel + ": in-place re-key kept old contents in " + kept);
                }
                byte[] got = (byte[]) invoke(doFinal, spi, data, 0, data.length);
                assertArrayEquals(ContractSupport.oneShot(s, true, key2, iv, data), got,
                        s + " " + kernel + ": after an in-place re-key");
            }));
        });
    }

    // ------------------------------------------------------------------ toString and messages

    /** Fails if {@code text} shows 4 consecutive key bytes in hex (either case), Base64, or as numbers. */
    static void assertNoKeyText(String what, String text, byte[] key) {
        if (text == null) {
            return;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        for (int i = 0; i + 4 <= key.length; i++) {
            String h = HEX.formatHex(key, i, i + 4);
            assertFalse(lower.contains(h), () -> what + " shows key bytes " + h + ": " + text);
        }
        String b64 = Base64.getEncoder().encodeToString(key);
        assertFalse(text.contains(b64.substring(0, 8)), () -> what + " shows the key in Base64: " + text);
        String signed = Arrays.toString(Arrays.copyOf(key, 4));
        assertFalse(text.contains(signed.substring(1, signed.length() - 1)), () -> what + " shows key bytes as numbers: " + text);
        StringBuilder unsigned = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            unsigned.append(i == 0 ? "" : ", ").append(key[i] & 0xff);
        }
        assertFalse(text.contains(unsigned), () -> what + " shows key bytes as numbers: " + text);
    }

    /** A key whose every 4-byte window is distinctive in every encoding. */
    private static byte[] distinctiveKey(int len) {
        byte[] k = new byte[len];
        for (int i = 0; i < len; i++) {
            k[i] = (byte) (0xC3 + 7 * i);
        }
        return k;
    }

    @Test
    void toStringsNeverShowKeyBytes() throws Exception {
        String providerText = TestProviders.current() + " " + TestProviders.current().getInfo()
                + " " + TestProviders.current().getServices();
        for (Spec s : ContractSupport.specs()) {
            for (String kernel : ContractSupport.kernels(s.alg())) {
                ContractSupport.withKernel(s.alg(), kernel, () -> {
                    byte[] key = distinctiveKey(s.keyLengths()[1]);
                    Random rnd = ContractSupport.random("toString", s.transformation(), kernel);
                    byte[] iv = ContractSupport.ivFor(s, rnd);
                    Cipher c = ContractSupport.cipher(s);
                    assertNoKeyText("Cipher.toString() before init", c.toString(), key);
                    init(c, s, Cipher.ENCRYPT_MODE, new SecretKeySpec(key, s.alg()), iv);
                    c.update(new byte[40]);
                    assertNoKeyText("Cipher.toString()", c.toString(), key);
                    AlgorithmParameters ap = c.getParameters();
                    assertNoKeyText("AlgorithmParameters.toString()", String.valueOf(ap), key);
                    assertNoKeyText("provider", providerText, key);
                });
            }
        }
        for (String alg : ContractSupport.ALGORITHMS) {
            KeyGenerator kg = KeyGenerator.getInstance(alg, TestProviders.current());
            SecretKey k = kg.generateKey();
            assertNoKeyText("KeyGenerator's key toString()", k.toString(), k.getEncoded());
        }
    }

    /**
     * Every exception the runtime calls throw — short buffers, bad lengths, bad padding, bad offsets,
     * equal XTS halves, wrong key lengths — under every kernel, with a distinctive key: no message (or
     * cause) shows key bytes. (BadInputTest checks the init refusals on the default kernel.)
     */
    @TestFactory
    Stream<DynamicTest> exceptionMessagesUnderEveryKernelNeverShowKeyBytes() {
        return ContractSupport.specsAndKernels().map(a -> {
            Spec s = (Spec) a.get()[0];
            String kernel = (String) a.get()[1];
            return DynamicTest.dynamicTest(s + " " + kernel, () -> ContractSupport.withKernel(s.alg(), kernel, () -> {
                byte[] key = distinctiveKey(s.keyLengths()[0]);
                Random rnd = ContractSupport.random("messages", s.transformation(), kernel);
                byte[] iv = ContractSupport.ivFor(s, rnd);
                List<Throwable> seen = new ArrayList<>();
                for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    Cipher c = ContractSupport.cipher(s);
                    init(c, s, opmode, new SecretKeySpec(key, s.alg()), iv);
                    collect(seen, () -> c.update(new byte[64], 0, 64, new byte[3], 0));
                    collect(seen, () -> c.doFinal(new byte[64], 0, 64, new byte[3], 0));
                    collect(seen, () -> c.update(ByteBuffer.allocate(64), ByteBuffer.allocate(3)));
                    collect(seen, () -> c.update(new byte[16], 0, 16, new byte[64], 65));
                    collect(seen, () -> c.update(new byte[16], 0, 16, null, 0));
                    collect(seen, () -> c.doFinal(new byte[16], 0, 16, new byte[64], Integer.MAX_VALUE));
                    collect(seen, () -> c.doFinal(new byte[17]));
                    collect(seen, () -> c.doFinal(new byte[5]));
                    collect(seen, () -> c.doFinal(new byte[48])); // bad padding when decrypting padded
                    collect(seen, () -> c.getOutputSize(-1));
                    collect(seen, () -> c.updateAAD(new byte[4]));
                    collect(seen, () -> c.init(opmode, new SecretKeySpec(Arrays.copyOf(key, key.length + 1), s.alg())));
                }
                if (s.xts()) {
                    byte[] equal = distinctiveKey(s.keyLengths()[0] / 2);
                    byte[] both = ContractSupport.concat(equal, equal);
                    collect(seen, () -> init(ContractSupport.cipher(s), s, Cipher.ENCRYPT_MODE, new SecretKeySpec(both, s.alg()), iv));
                    for (Throwable t : seen) {
                        assertNoKeyText(s + " " + kernel + " " + t.getClass().getSimpleName(), ContractSupport.allText(t), both);
                    }
                }
                assertTrue(seen.size() >= 6, () -> "expected several refusals, saw " + seen);
                for (Throwable t : seen) {
                    assertNoKeyText(s + " " + kernel + " " + t.getClass().getSimpleName(), ContractSupport.allText(t), key);
                }
            }));
        });
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void collect(List<Throwable> seen, Call call) {
        try {
            call.run();
        } catch (Exception | AssertionError e) {
            seen.add(e);
        }
    }

    @Test
    void walkSeesWipedAndUnwipedArrays() throws Exception {
        // The walk itself: a kernel's arrays are found, non-zero while keyed.
        KernelFactory f = KernelRegistry.byName("AES", "aes-table");
        BlockKernel k = f.create(new byte[16]);
        Walk w = walk(k);
        assertFalse(w.nonZero().isEmpty(), "aes-table's expanded key of the all-zero key is not all zero");
        k.destroy();
        assertEquals(List.of(), walk(k).nonZero());
    }
}
