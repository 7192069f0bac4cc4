package org.vectorjce.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.engines.SerpentEngine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.TestProviders;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * Every Serpent kernel at the width it claims: each registered kernel that runs here against
 * Bouncy Castle's {@code SerpentEngine} (one block at a time, NESSIE byte order) at block counts
 * around every batch size, in place and at odd offsets, both directions, and forced by name
 * through the provider; each one that does not run here declines with its reason. Also the key
 * padding the specification defines (a short key equals the 256-bit key it pads to) and Linux
 * testmgr's empty-key record, which only the kernels take.
 */
class SerpentKernelTest {
    private static final HexFormat HEX = HexFormat.of();
    /** Around the batches: 8 (vec128), 16 (vec256), 32 (vec512) blocks. */
    private static final int[] BLOCK_COUNTS = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 101};

    private static List<KernelFactory> all() {
        return KernelRegistry.all("Serpent");
    }

    private static BlockKernel bcReference(byte[] key, boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        SerpentEngine e = new SerpentEngine();
        e.init(enc, new KeyParameter(key));
        for (int i = 0; i < blocks; i++) {
            e.processBlock(in, inOff + 16 * i, out, outOff + 16 * i);
        }
        return null;
    }

    private static void run(BlockKernel k, boolean enc, byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        if (enc) {
            k.encryptBlocks(in, inOff, out, outOff, blocks);
        } else {
            k.decryptBlocks(in, inOff, out, outOff, blocks);
        }
    }

    @Test
    void registryIsAllConstantTimeBestFirst() {
        List<String> names = all().stream().map(KernelFactory::name).toList();
        assertEquals(List.of("serpent-vec512-32way", "serpent-vec256-16way", "serpent-vec128-8way", "serpent-bitslice"), names);
        for (KernelFactory f : all()) {
            assertTrue(f.constantTime(), f.name() + " is constant-time by construction");
        }
        assertTrue(KernelRegistry.availableNames("Serpent").contains("serpent-bitslice"));
    }

    @TestFactory
    Stream<DynamicTest> everyKernelMatchesBouncyCastleOrDeclines() {
        return all().stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            String why = f.unavailableReason();
            if (why != null) {
                assertTrue(f.name().contains("-vec"), "only vector kernels decline: " + f.name() + ": " + why);
                if (VectorBridge.vectorCodeUnavailable() == null && VectorBridge.vectorModuleStatus().equals("present")
                        && !why.contains("C2")) {
                    // A width the JVM does not prefer, as the other 512-bit kernels decline.
                    assertTrue(why.matches("preferred vector width is \\d+ bits, the kernel needs \\d+"), why);
                }
            }
            assumeTrue(why == null, () -> f.name() + " declines here: " + why);
            Random r = new Random(f.name().hashCode());
            for (int keyLen : new int[] {16, 24, 32}) {
                byte[] key = new byte[keyLen];
                r.nextBytes(key);
                BlockKernel k = f.create(key);
                assertEquals(f.name(), k.name());
                for (int blocks : BLOCK_COUNTS) {
                    int inOff = r.nextInt(20), outOff = r.nextInt(20);
                    byte[] in = new byte[inOff + blocks * 16 + 3];
                    r.nextBytes(in);
                    for (boolean enc : new boolean[] {true, false}) {
                        byte[] want = new byte[outOff + blocks * 16 + 5];
                        byte[] got = want.clone();
                        bcReference(key, enc, in, inOff, want, outOff, blocks);
                        run(k, enc, in, inOff, got, outOff, blocks);
                        String what = f.name() + " key " + keyLen + " blocks " + blocks + (enc ? " enc" : " dec");
                        assertArrayEquals(want, got, what);
                        byte[] inPlace = in.clone();
                        run(k, enc, inPlace, inOff, inPlace, inOff, blocks);
                        assertArrayEquals(Arrays.copyOfRange(want, outOff, outOff + 16 * blocks),
                                Arrays.copyOfRange(inPlace, inOff, inOff + 16 * blocks), what + " in place");
                    }
                }
                // Re-keyed in place with another length: the new key's results, no trace of the old one.
                byte[] key2 = new byte[keyLen == 32 ? 16 : 32];
                r.nextBytes(key2);
                assertTrue(k.rekey(key2), f.name() + " rekey");
                byte[] in = new byte[16 * 40];
                r.nextBytes(in);
                byte[] want = new byte[in.length], got = new byte[in.length];
                bcReference(key2, true, in, 0, want, 0, 40);
                run(k, true, in, 0, got, 0, 40);
                assertArrayEquals(want, got, f.name() + " after rekey");
                k.destroy();
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> forcedByNameThroughTheProvider() {
        return all().stream().filter(f -> f.unavailableReason() == null).map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            VectorJceProvider p = TestProviders.withKernel("Serpent", f.name());
            assertEquals(f.name(), p.kernelFor("Serpent"));
            Random r = new Random(7);
            byte[] key = new byte[32];
            r.nextBytes(key);
            byte[] pt = new byte[16 * 77];
            r.nextBytes(pt);
            Cipher c = Cipher.getInstance("Serpent/ECB/NoPadding", p);
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"));
            byte[] want = new byte[pt.length];
            bcReference(key, true, pt, 0, want, 0, 77);
            assertArrayEquals(want, c.doFinal(pt), f.name());
        }));
    }

    /**
     * CTR through each kernel forced by name, whose vector kernels build counter words in lanes
     * ({@code ctrXor}): counters whose low 32, 64 and all 128 bits wrap inside or at the edge of a
     * batch, in one call and in pieces, against counter blocks counted with {@code BigInteger}
     * and encrypted by Bouncy Castle's {@code SerpentEngine}.
     */
    @TestFactory
    Stream<DynamicTest> ctrCountersWrapAsOneBigEndianNumber() {
        return all().stream().filter(f -> f.unavailableReason() == null).map(f -> DynamicTest.dynamicTest(f.name(), () -> {
            VectorJceProvider p = TestProviders.withKernel("Serpent", f.name());
            Random r = new Random(11);
            byte[] key = new byte[32];
            r.nextBytes(key);
            SerpentEngine bc = new SerpentEngine();
            bc.init(true, new KeyParameter(key));
            java.math.BigInteger mod = java.math.BigInteger.ONE.shiftLeft(128);
            String[] ivs = {"00000000000000000000000000000000", "0123456789abcdef00000000fffffff0",
                    "0123456789abcdef00000000ffffffe1", "0123456789abcdefffffffffffffffed",
                    "fffffffffffffffffffffffffffffff9", "00000000000000000000000000000041"};
            Cipher c = Cipher.getInstance("Serpent/CTR/NoPadding", p);
            for (String ivHex : ivs) {
                byte[] iv = HEX.parseHex(ivHex);
                for (int len : new int[] {16 * 16, 16 * 32 + 5, 16 * 80, 16 * 101 + 9}) {
                    byte[] pt = new byte[len];
                    r.nextBytes(pt);
                    byte[] want = new byte[len];
                    java.math.BigInteger ctr = new java.math.BigInteger(1, iv);
                    byte[] block = new byte[16], ks = new byte[16];
                    for (int off = 0; off < len; off += 16, ctr = ctr.add(java.math.BigInteger.ONE).mod(mod)) {
                        byte[] b = ctr.toByteArray();
                        Arrays.fill(block, (byte) 0);
                        System.arraycopy(b, Math.max(0, b.length - 16), block, Math.max(0, 16 - b.length), Math.min(16, b.length));
                        bc.processBlock(block, 0, ks, 0);
                        for (int i = 0; i < 16 && off + i < len; i++) {
                            want[off + i] = (byte) (pt[off + i] ^ ks[i]);
                        }
                    }
                    String what = f.name() + " iv " + ivHex + " length " + len;
                    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"), new javax.crypto.spec.IvParameterSpec(iv));
                    assertArrayEquals(want, c.doFinal(pt), what);
                    // In pieces that end mid-batch and mid-block, in place.
                    byte[] buf = pt.clone();
                    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"), new javax.crypto.spec.IvParameterSpec(iv));
                    int done = 0;
                    for (int piece : new int[] {16 * 3 + 7, 16 * 21, 16 * 17 + 1}) {
                        int n = Math.min(piece, len - done);
                        done += c.update(buf, done, n, buf, done);
                    }
                    c.doFinal(buf, done, len - done, buf, done);
                    assertArrayEquals(want, buf, what + " in pieces");
                }
            }
        }));
    }

    /**
     * A vector kernel whose width this JVM does not prefer (on AVX2: {@code serpent-vec512-32way})
     * declines, so the tests above skip it; the Vector API still runs its code, in Java rather than
     * compiled to SIMD. Built directly, it is checked here against Bouncy Castle all the same: both
     * directions at block counts around its batch, CTR through {@code ctrXor} across the 32-, 64-
     * and 128-bit wraps, and XTS through {@code xts} with tweaks whose doubling reduces.
     */
    @Test
    void declinedVectorKernelsStillComputeSerpent() throws Exception {
        assumeTrue(VectorBridge.vectorCodeUnavailable() == null && VectorBridge.vectorModuleStatus().equals("present"),
                () -> "no vector code on this JVM: " + (VectorBridge.vectorCodeUnavailable() != null
                        ? VectorBridge.vectorCodeUnavailable() : "the vector module is " + VectorBridge.vectorModuleStatus()));
        java.lang.reflect.Method create = Class.forName("org.vectorjce.internal.vector.VectorKernels")
                .getMethod("create", String.class, byte[].class, boolean.class, int.class);
        int checked = 0;
        for (KernelFactory f : all()) {
            if (f.unavailableReason() == null || !f.name().contains("-vec")) {
                continue; // the ones that run here are checked above
            }
            checked++;
            Random r = new Random(f.name().hashCode() + 1);
            byte[] key = new byte[32];
            r.nextBytes(key);
            BlockKernel k = (BlockKernel) create.invoke(null, f.name(), key, false, 0);
            int way = k.batchBlocks();
            assertTrue(way >= 8, f.name() + " batch " + way);
            for (int blocks : new int[] {way - 1, way, way + 1, 2 * way + 3}) {
                byte[] in = new byte[16 * blocks];
                r.nextBytes(in);
                for (boolean enc : new boolean[] {true, false}) {
                    byte[] want = new byte[in.length], got = new byte[in.length];
                    bcReference(key, enc, in, 0, want, 0, blocks);
                    run(k, enc, in, 0, got, 0, blocks);
                    assertArrayEquals(want, got, f.name() + " " + blocks + " blocks " + (enc ? "enc" : "dec"));
                }
            }
            SerpentEngine bc = new SerpentEngine();
            bc.init(true, new KeyParameter(key));
            for (long[] start : new long[][] {{0, 0}, {7, 0xFFFF_FFFFL - way + 1}, {7, -way}, {-1, -way}, {3, 0xFFFF_FFF0L}}) {
                byte[] in = new byte[16 * 2 * way];
                r.nextBytes(in);
                long[] ctr = start.clone();
                byte[] out = new byte[in.length];
                int done = k.ctrXor(ctr, in, 0, out, 0, 2 * way);
                assertTrue(done % way == 0 && done <= 2 * way, f.name() + " ctrXor did " + done);
                java.math.BigInteger c = new java.math.BigInteger(1, java.nio.ByteBuffer.allocate(16).putLong(start[0]).putLong(start[1]).array());
                byte[] block = new byte[16], ks = new byte[16];
                for (int b = 0; b < done; b++) {
                    byte[] be = c.add(java.math.BigInteger.valueOf(b)).mod(java.math.BigInteger.ONE.shiftLeft(128)).toByteArray();
                    Arrays.fill(block, (byte) 0);
                    System.arraycopy(be, Math.max(0, be.length - 16), block, Math.max(0, 16 - be.length), Math.min(16, be.length));
                    bc.processBlock(block, 0, ks, 0);
                    for (int i = 0; i < 16; i++) {
                        assertEquals((byte) (in[16 * b + i] ^ ks[i]), out[16 * b + i], f.name() + " ctr block " + b);
                    }
                }
                java.math.BigInteger after = c.add(java.math.BigInteger.valueOf(done)).mod(java.math.BigInteger.ONE.shiftLeft(128));
                assertEquals(after, new java.math.BigInteger(1, java.nio.ByteBuffer.allocate(16).putLong(ctr[0]).putLong(ctr[1]).array()),
                        f.name() + " counter after " + done + " blocks");
            }
            // XTS through xts(): T_j = T_0·α^j (IEEE 1619 §5.2, little-endian), each block BC's.
            for (boolean enc : new boolean[] {true, false}) {
                SerpentEngine e = new SerpentEngine();
                e.init(enc, new KeyParameter(key));
                long[] t = {r.nextLong() | Long.MIN_VALUE, r.nextLong() | Long.MIN_VALUE}; // top bits set: reductions
                byte[] in = new byte[16 * 2 * way];
                r.nextBytes(in);
                byte[] out = new byte[in.length];
                long lo = t[0], hi = t[1];
                int done = k.xts(enc, t, in, 0, out, 0, 2 * way + 1);
                assertEquals(2 * way, done, f.name() + " xts whole batches");
                byte[] x = new byte[16];
                for (int b = 0; b < done; b++) {
                    java.nio.ByteBuffer tb = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(lo).putLong(hi);
                    for (int i = 0; i < 16; i++) {
                        x[i] = (byte) (in[16 * b + i] ^ tb.get(i));
                    }
                    e.processBlock(x, 0, x, 0);
                    for (int i = 0; i < 16; i++) {
                        assertEquals((byte) (x[i] ^ tb.get(i)), out[16 * b + i], f.name() + (enc ? " xts enc" : " xts dec") + " block " + b);
                    }
                    long carry = hi >> 63;
                    hi = (hi << 1) | (lo >>> 63);
                    lo = (lo << 1) ^ (carry & 0x87);
                }
                assertEquals(lo, t[0], f.name() + " tweak after");
                assertEquals(hi, t[1], f.name() + " tweak after");
            }
            k.destroy();
        }
        System.out.println("[SerpentKernelTest] declined vector kernels checked in the Vector API's Java code: " + checked);
    }

    /** Section 3 of the submission: a short key is the 256-bit key "1 bit, then zeros" after it. */
    @Test
    void shortKeysArePaddedAsTheSpecificationSays() {
        Random r = new Random(3);
        for (KernelFactory f : all()) {
            if (f.unavailableReason() != null) {
                continue;
            }
            for (int len : new int[] {16, 24}) {
                byte[] key = new byte[len];
                r.nextBytes(key);
                byte[] padded = Arrays.copyOf(key, 32);
                padded[len] = 1;
                byte[] in = new byte[16 * 33];
                r.nextBytes(in);
                byte[] a = new byte[in.length], b = new byte[in.length];
                f.create(key).encryptBlocks(in, 0, a, 0, 33);
                f.create(padded).encryptBlocks(in, 0, b, 0, 33);
                assertArrayEquals(b, a, f.name() + " " + len + "-byte key");
            }
        }
    }

    /** serpent_tv_template record 0 (testvectors/serpent-linux-testmgr): no key at all, padded to 256 bits. */
    @Test
    void linuxEmptyKeyRecordOnEveryKernel() {
        byte[] pt = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
        String ct = "1207fcce9bd0d6476ae98fbed143a0e2";
        for (KernelFactory f : all()) {
            if (f.unavailableReason() != null) {
                continue;
            }
            byte[] out = new byte[16];
            BlockKernel k = f.create(new byte[0]);
            k.encryptBlocks(pt, 0, out, 0, 1);
            assertEquals(ct, HEX.formatHex(out), f.name());
            k.decryptBlocks(out, 0, out, 0, 1);
            assertArrayEquals(pt, out, f.name());
        }
    }

    @Test
    void destroyWipesTheSchedule() {
        org.vectorjce.internal.serpent.SerpentBitslice s = org.vectorjce.internal.serpent.SerpentBitslice.schedule(new byte[32]);
        int[] k = s.subkeys();
        assertTrue(Arrays.stream(k).anyMatch(w -> w != 0));
        s.destroy();
        assertTrue(Arrays.stream(k).allMatch(w -> w == 0));
        assertNotNull(s.toString());
        assertTrue(!s.toString().matches(".*[0-9a-f]{16}.*"), s.toString());
    }
}
