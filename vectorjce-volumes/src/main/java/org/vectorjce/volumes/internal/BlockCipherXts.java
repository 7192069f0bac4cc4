package org.vectorjce.volumes.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Supplier;

import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * XTS (IEEE Std 1619-2018, section 5; Linux {@code crypto/xts.c}) over a Bouncy Castle
 * {@link BlockCipher} with 16-byte blocks, for the ciphers the provider lacks (VeraCrypt's
 * Camellia and Kuznyechik): data units of {@code unitSize} bytes, unit {@code n}'s tweak
 * {@code E_K2(n)} with {@code n} little-endian and zero-padded (dm-crypt's {@code plain64}), each
 * block {@code E_K1(P ⊕ T) ⊕ T}, then {@code T ← T·α} in GF(2^128) as two little-endian 64-bit
 * halves. Key = K1 ‖ K2, two keys of equal size. Whole blocks only: the units of a volume are
 * 512 bytes and up, so there is no ciphertext stealing.
 *
 * <p>The provider's own XTS is the fast path (its kernels do many blocks per call); this one does
 * one block per engine call, as Bouncy Castle's engines do. {@link #close()} re-keys the three engines
 * with zeros and drops them; the key copy Bouncy Castle's {@code KeyParameter} makes is wiped
 * after keying. Not thread-safe.
 */
public final class BlockCipherXts implements AutoCloseable {
    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int unitSize, halfKey;
    private final String name;
    private BlockCipher encrypt, decrypt, tweak;
    private final byte[] t = new byte[16];

    private BlockCipherXts(Supplier<BlockCipher> engines, byte[] key, int unitSize) {
        if (unitSize < 16 || unitSize % 16 != 0) {
            throw new IllegalArgumentException("XTS data unit of " + unitSize + " bytes: a multiple of 16");
        }
        if (key.length == 0 || key.length % 2 != 0) {
            throw new IllegalArgumentException("An XTS key is two keys of equal size: " + key.length + " bytes");
        }
        this.unitSize = unitSize;
        this.halfKey = key.length / 2;
        encrypt = engines.get();
        decrypt = engines.get();
        tweak = engines.get();
        if (encrypt.getBlockSize() != 16) {
            throw new IllegalArgumentException(encrypt.getAlgorithmName() + " has " + encrypt.getBlockSize()
                    + "-byte blocks: XTS needs 16");
        }
        name = encrypt.getAlgorithmName();
        KeyParameter k1 = new KeyParameter(key, 0, halfKey), k2 = new KeyParameter(key, halfKey, halfKey);
        try {
            encrypt.init(true, k1);
            decrypt.init(false, k1);
            tweak.init(true, k2);
        } finally {
            Arrays.fill(k1.getKey(), (byte) 0);
            Arrays.fill(k2.getKey(), (byte) 0);
        }
    }

    /**
     * An XTS over the engines {@code engines} makes (three: encryption, decryption, tweak), keyed
     * with {@code key} = K1 ‖ K2 (copied; the caller wipes its array).
     *
     * @throws IllegalArgumentException for a key of odd length, a key size the engine refuses, a
     *     unit size that is not a multiple of 16, or an engine whose block is not 16 bytes
     */
    public static BlockCipherXts of(Supplier<BlockCipher> engines, byte[] key, int unitSize) {
        return new BlockCipherXts(engines, key, unitSize);
    }

    /** Encrypts {@code len} bytes (whole units) of {@code b} at {@code off} in place, the first being unit {@code unit}. */
    public void encrypt(long unit, byte[] b, int off, int len) {
        run(true, unit, b, off, len);
    }

    /** Decrypts {@code len} bytes (whole units) of {@code b} at {@code off} in place, the first being unit {@code unit}. */
    public void decrypt(long unit, byte[] b, int off, int len) {
        run(false, unit, b, off, len);
    }

    private void run(boolean enc, long unit, byte[] b, int off, int len) {
        if (tweak == null) {
            throw new IllegalStateException("closed");
        }
        if (len % unitSize != 0 || off < 0 || len < 0 || off > b.length - len) {
            throw new IllegalArgumentException(len + " bytes at " + off + " of " + b.length + ": not whole "
                    + unitSize + "-byte units inside the array");
        }
        BlockCipher c = enc ? encrypt : decrypt;
        for (int u = off; u < off + len; u += unitSize, unit++) {
            LE.set(t, 0, unit);
            LE.set(t, 8, 0L);
            tweak.processBlock(t, 0, t, 0);
            long lo = (long) LE.get(t, 0), hi = (long) LE.get(t, 8);
            for (int o = u; o < u + unitSize; o += 16) {
                LE.set(b, o, (long) LE.get(b, o) ^ lo);
                LE.set(b, o + 8, (long) LE.get(b, o + 8) ^ hi);
                c.processBlock(b, o, b, o);
                LE.set(b, o, (long) LE.get(b, o) ^ lo);
                LE.set(b, o + 8, (long) LE.get(b, o + 8) ^ hi);
                // T·α: shift the 128-bit little-endian value left by one, x^128 = x^7 + x^2 + x + 1
                long carry = hi >> 63;
                hi = (hi << 1) | (lo >>> 63);
                lo = (lo << 1) ^ (carry & 0x87);
            }
        }
        Arrays.fill(t, (byte) 0);
    }

    /** Re-keys the engines with zeros (overwriting their schedules) and drops them. */
    @Override
    public void close() {
        if (tweak == null) {
            return;
        }
        try {
            KeyParameter zero = new KeyParameter(new byte[halfKey]);
            encrypt.init(true, zero);
            decrypt.init(false, zero);
            tweak.init(true, zero);
        } catch (RuntimeException e) {
            // the schedules go with the engines
        }
        encrypt = decrypt = tweak = null;
    }

    @Override
    public String toString() {
        return "BlockCipherXts[" + name + ", " + halfKey * 8 + "-bit keys, "
                + unitSize + "-byte units]";
    }
}
