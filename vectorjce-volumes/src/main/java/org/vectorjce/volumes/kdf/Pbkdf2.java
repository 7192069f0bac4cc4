package org.vectorjce.volumes.kdf;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * PBKDF2 (RFC 8018, section 5.2) with HMAC over any {@link HashAlgorithm}, on a password given as
 * bytes: LUKS passes the passphrase's or key file's bytes as they are, which a {@code char[]}-based
 * {@code SecretKeyFactory} cannot express for bytes that are not UTF-8. Whirlpool runs its own
 * loop ({@link Whirlpool#pbkdf2Block}: pre-keyed states, four compressions on locals and no
 * allocation per iteration) instead of Bouncy Castle's {@code HMac}, which buffers each message
 * and copies its digest's state twice per iteration.
 */
public final class Pbkdf2 {
    /** The largest iteration count a LUKS header can hold (a 32-bit unsigned field). */
    public static final long MAX_ITERATIONS = 0xFFFF_FFFFL;

    private Pbkdf2() {
    }

    /**
     * {@code length} bytes of PBKDF2-HMAC-{@code hash}({@code password}, {@code salt},
     * {@code iterations}).
     */
    public static byte[] derive(HashAlgorithm hash, byte[] password, byte[] salt, long iterations, int length) {
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations " + iterations + " outside 1.." + MAX_ITERATIONS);
        }
        if (length < 1) {
            throw new IllegalArgumentException("PBKDF2 output length " + length);
        }
        if (hash == HashAlgorithm.WHIRLPOOL) {
            byte[] out = new byte[length];
            for (int block = 1, done = 0; done < length; block++, done += Whirlpool.LENGTH) {
                byte[] t = Whirlpool.pbkdf2Block(password, salt, iterations, block, null);
                System.arraycopy(t, 0, out, done, Math.min(t.length, length - done));
                Arrays.fill(t, (byte) 0);
            }
            return out;
        }
        HashAlgorithm.Prf prf = hash.newHmac(password);
        int h = prf.length();
        byte[] out = new byte[length];
        byte[] u = new byte[h];
        byte[] t = new byte[h];
        byte[] index = new byte[4];
        try {
            for (int block = 1, done = 0; done < length; block++, done += h) {
                index[0] = (byte) (block >>> 24);
                index[1] = (byte) (block >>> 16);
                index[2] = (byte) (block >>> 8);
                index[3] = (byte) block;
                prf.update(salt, 0, salt.length);
                prf.update(index, 0, 4);
                prf.doFinal(u, 0);
                System.arraycopy(u, 0, t, 0, h);
                for (long i = 1; i < iterations; i++) {
                    iteration(prf, u, t, h);
                }
                System.arraycopy(t, 0, out, done, Math.min(h, length - done));
            }
            return out;
        } finally {
            Arrays.fill(u, (byte) 0);
            Arrays.fill(t, (byte) 0);
        }
    }

    /**
     * One PBKDF2 iteration, U = PRF(U) and T ^= U: a method of its own so that a fresh JVM's JIT
     * compiles the HMAC by its call count, early, rather than only inside the loop's
     * on-stack-replacement compilation, and so that the loop's exit (never taken while the loop is
     * profiled, so compiled as a trap) deoptimizes the small loop, not the HMAC in it. Both
     * {@link #derive} (a LUKS digest or key slot) and {@link #block} (TrueCrypt's trials) run it.
     */
    private static void iteration(HashAlgorithm.Prf prf, byte[] u, byte[] t, int h) {
        prf.update(u, 0, h);
        prf.doFinal(u, 0);
        for (int j = 0; j < h; j++) {
            t[j] ^= u[j];
        }
    }

    /**
     * Block {@code index} (1-based) of PBKDF2-HMAC-{@code hash}: T_index of RFC 8018 section 5.2,
     * {@code hash.length()} bytes, output bytes {@code (index - 1) × hLen} onward. The blocks are
     * independent, so a caller that needs only the first bytes derives only their blocks, and can
     * derive several on several threads (TrueCrypt and VeraCrypt headers: 192 bytes derived, of
     * which an AES-only chain uses 64). An interrupt of the calling thread stops the loop within
     * 4096 iterations with {@link CancellationException}.
     */
    public static byte[] block(HashAlgorithm hash, byte[] password, byte[] salt, long iterations, int index) {
        return block(hash, password, salt, iterations, index, null);
    }

    /**
     * {@link #block(HashAlgorithm, byte[], byte[], long, int)} that also stops, with
     * {@link CancellationException} within 4096 iterations, once {@code stop} (may be null) says so:
     * the other trials of a header search end this way when one has opened the header.
     */
    public static byte[] block(HashAlgorithm hash, byte[] password, byte[] salt, long iterations, int index,
            BooleanSupplier stop) {
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("PBKDF2 iterations " + iterations + " outside 1.." + MAX_ITERATIONS);
        }
        if (index < 1) {
            throw new IllegalArgumentException("PBKDF2 block index " + index);
        }
        if (hash == HashAlgorithm.WHIRLPOOL) {
            return Whirlpool.pbkdf2Block(password, salt, iterations, index, stop);
        }
        HashAlgorithm.Prf prf = hash.newHmac(password);
        int h = prf.length();
        byte[] u = new byte[h];
        byte[] t = new byte[h];
        byte[] i4 = {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8), (byte) index};
        try {
            prf.update(salt, 0, salt.length);
            prf.update(i4, 0, 4);
            prf.doFinal(u, 0);
            System.arraycopy(u, 0, t, 0, h);
            for (long i = 1; i < iterations; i++) {
                if ((i & 4095) == 0 && (Thread.currentThread().isInterrupted()
                        || stop != null && stop.getAsBoolean())) {
                    throw new CancellationException("PBKDF2 stopped");
                }
                iteration(prf, u, t, h);
            }
            return t.clone();
        } finally {
            Arrays.fill(u, (byte) 0);
            Arrays.fill(t, (byte) 0);
        }
    }
}
