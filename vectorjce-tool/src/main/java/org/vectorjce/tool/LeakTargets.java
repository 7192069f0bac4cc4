package org.vectorjce.tool;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.tool.LeakSampler.Target;

/**
 * What {@code leakcheck} times per secret class ({@link LeakCheck.SecretClass}): the keys of each
 * class, the {@code data}, {@code key} and {@code key-setup} targets over a {@link Cipher} of the
 * provider, and the planted leak with its constant-time control.
 */
final class LeakTargets {
    private LeakTargets() {
    }


    static int keyBytes(String transformation, int keyBits) {
        String mode = transformation.split("/")[1].toUpperCase(Locale.ROOT);
        switch (mode) {
            case "XTS":
                return 2 * keyBits / 8;
            case "LRW":
                return keyBits / 8 + 16;
            default:
                return keyBits / 8;
        }
    }

    static boolean needsIv(String transformation) {
        return !transformation.split("/")[1].equalsIgnoreCase("ECB");
    }

    static boolean isXts(String transformation) {
        return transformation.split("/")[1].equalsIgnoreCase("XTS");
    }

    /** The fixed class's key: all zero; for XTS the last byte 1, so that the halves differ. */
    static byte[] fixedKey(String transformation, int keyBits) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        if (isXts(transformation)) {
            k[k.length - 1] = 1;
        }
        return k;
    }

    /** The untimed "reset" key: 0xA5 bytes (XTS: second half 0x5A). */
    static byte[] resetKey(String transformation, int keyBits) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        Arrays.fill(k, (byte) 0xA5);
        if (isXts(transformation)) {
            Arrays.fill(k, k.length / 2, k.length, (byte) 0x5A);
        }
        return k;
    }

    static byte[] randomKey(String transformation, int keyBits, SplittableRandom rnd) {
        byte[] k = new byte[keyBytes(transformation, keyBits)];
        rnd.nextBytes(k);
        if (isXts(transformation)) {
            k[k.length - 1] ^= (byte) (k[k.length / 2 - 1] == k[k.length - 1] ? 1 : 0); // halves differ
        }
        return k;
    }

    /** Common part: a transformation, its algorithm, a public fixed IV. */
    abstract static class CipherTarget extends Target {
        final VectorJceProvider provider;
        final String transformation;
        final String algorithm;
        final int keyBits;
        final IvParameterSpec iv;
        final SplittableRandom rnd;

        CipherTarget(String transformation, VectorJceProvider provider, int keyBits, SplittableRandom rnd) {
            this.provider = provider;
            this.transformation = transformation;
            this.algorithm = transformation.substring(0, transformation.indexOf('/'));
            this.keyBits = keyBits;
            this.rnd = rnd;
            byte[] ivBytes = new byte[16];
            rnd.nextBytes(ivBytes);
            this.iv = needsIv(transformation) ? new IvParameterSpec(ivBytes) : null;
        }

        Cipher newCipher() throws Exception {
            return Cipher.getInstance(transformation, provider);
        }

        void init(Cipher c, byte[] key) throws Exception {
            SecretKeySpec k = new SecretKeySpec(key, algorithm);
            if (iv == null) {
                c.init(Cipher.ENCRYPT_MODE, k);
            } else {
                c.init(Cipher.ENCRYPT_MODE, k, iv);
            }
        }
    }

    /**
     * The message buffer of a sample, prepared by the same instructions on the same memory in both
     * classes: random bytes are drawn into a scratch buffer, then copied into {@code in} through
     * a mask, all ones for the random class and zero for the fixed class (all-zero messages).
     * Only the bytes differ, not the work, the access pattern, or what is left in the caches for
     * the timed calls. Copying one fixed message into {@code in} for the fixed class instead
     * leaves more of {@code in} in L1, which the constant-time control shows as leak evidence
     * (docs/constant-time.md, how inputs are prepared).
     */
    static final class Inputs {
        byte[] in = new byte[0];
        private byte[] scratch = new byte[0];
        private final int len;

        Inputs(int len) {
            this.len = len;
        }

        void resize(int batch) {
            in = new byte[batch * len];
            scratch = new byte[batch * len];
        }

        void prepare(int cls, SplittableRandom rnd) {
            rnd.nextBytes(scratch);
            maskedCopy(scratch, in, cls == 0 ? 0 : -1);
        }
    }

    /** {@code dst[i] = src[i] & mask}: the same loop for both classes; mask 0 or -1. */
    static void maskedCopy(byte[] src, byte[] dst, int mask) {
        for (int i = 0; i < dst.length; i++) {
            dst[i] = (byte) (src[i] & mask);
        }
    }

    /**
     * A fresh key array of class {@code cls}: a random key is drawn in both classes and merged with
     * the fixed key through a mask, so allocation, instructions and memory accesses are the same.
     */
    static byte[] classKey(int cls, byte[] fixedKey, String transformation, int keyBits, SplittableRandom rnd) {
        byte[] r = randomKey(transformation, keyBits, rnd);
        byte[] k = new byte[r.length];
        int m = cls == 0 ? 0 : -1;
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) ((r[i] & m) | (fixedKey[i] & ~m));
        }
        return k;
    }

    /** {@code data}: one keyed cipher; fixed (all-zero) vs random messages. */
    static final class DataTarget extends CipherTarget {
        private final Cipher c;
        private final int len;
        private final Inputs inputs;
        private final byte[] out;

        DataTarget(String transformation, VectorJceProvider provider, int keyBits, int blocks, SplittableRandom rnd)
                throws Exception {
            super(transformation, provider, keyBits, rnd);
            c = newCipher();
            init(c, randomKey(transformation, keyBits, rnd));
            len = 16 * blocks;
            inputs = new Inputs(len);
            out = new byte[len + 32];
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
            inputs.resize(batch);
        }

        @Override
        void prepare(int cls) {
            inputs.prepare(cls, rnd);
        }

        @Override
        void run() throws Exception {
            byte[] in = inputs.in;
            for (int i = 0, off = 0; i < batch; i++, off += len) {
                c.doFinal(in, off, len, out, 0);
            }
        }

        @Override
        int bytesPerCall() {
            return len;
        }
    }

    /**
     * {@code key}: one cipher, re-keyed (untimed) before every sample with the fixed key or a fresh
     * random key, then timed encrypting one fixed random message {@code batch} times. The same
     * cipher object serves both classes: with a pool of ciphers per class, the two pools' different
     * places in memory alone show as leak evidence on aes-jdk, whose block function does not look
     * at the key bytes beyond AES-NI instructions (docs/constant-time.md).
     */
    static final class KeyTarget extends CipherTarget {
        private final Cipher c;
        private final byte[] fixedKey;
        private final byte[] resetKey;
        private final byte[] msg;
        private final byte[] out;

        KeyTarget(String transformation, VectorJceProvider provider, int keyBits, int blocks, SplittableRandom rnd)
                throws Exception {
            super(transformation, provider, keyBits, rnd);
            fixedKey = fixedKey(transformation, keyBits);
            resetKey = resetKey(transformation, keyBits);
            msg = new byte[16 * blocks];
            rnd.nextBytes(msg);
            out = new byte[msg.length + 32];
            c = newCipher();
            init(c, resetKey);
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
        }

        @Override
        void prepare(int cls) throws Exception {
            // Via the reset key, so that the fixed class, too, gets a freshly built schedule
            // (the provider keeps the schedule when the key is unchanged).
            init(c, resetKey);
            init(c, classKey(cls, fixedKey, transformation, keyBits, rnd));
        }

        @Override
        void run() throws Exception {
            for (int i = 0; i < batch; i++) {
                c.doFinal(msg, 0, msg.length, out, 0);
            }
        }

        @Override
        int bytesPerCall() {
            return msg.length;
        }
    }

    /** {@code key-setup}: Cipher.init with the fixed key vs random keys, each on a cipher last keyed with the reset key. */
    static final class KeySetupTarget extends CipherTarget {
        private final byte[] fixedKey;
        private final byte[] resetKey;
        private Cipher[] ciphers = new Cipher[0];
        private SecretKeySpec[] keys = new SecretKeySpec[0];

        KeySetupTarget(String transformation, VectorJceProvider provider, int keyBits, SplittableRandom rnd) {
            super(transformation, provider, keyBits, rnd);
            fixedKey = fixedKey(transformation, keyBits);
            resetKey = resetKey(transformation, keyBits);
        }

        @Override
        void setBatch(int batch) throws Exception {
            Cipher[] c = Arrays.copyOf(ciphers, batch);
            for (int i = ciphers.length; i < batch; i++) {
                c[i] = newCipher();
            }
            ciphers = c;
            keys = new SecretKeySpec[batch];
            this.batch = batch;
        }

        @Override
        void prepare(int cls) throws Exception {
            for (int i = 0; i < batch; i++) {
                init(ciphers[i], resetKey);
                keys[i] = new SecretKeySpec(classKey(cls, fixedKey, transformation, keyBits, rnd), algorithm);
            }
        }

        @Override
        void run() throws Exception {
            for (int i = 0; i < batch; i++) {
                if (iv == null) {
                    ciphers[i].init(Cipher.ENCRYPT_MODE, keys[i]);
                } else {
                    ciphers[i].init(Cipher.ENCRYPT_MODE, keys[i], iv);
                }
            }
        }

        @Override
        int bytesPerCall() {
            return 0;
        }
    }

    /**
     * The planted leak: a reference "cipher" that mixes the message with constant-time word
     * arithmetic (so a call costs about what a kernel's does) and then makes one load from a
     * 32 MiB table at a 64-byte line chosen by the message's first four bytes. All-zero messages
     * always load the same line (a cache hit); random ones a random line of 512 Ki (a cache and
     * usually a TLB miss). The data-dependent access a table kernel makes, made large.
     */
    static final class PlantedLeak extends Target {
        /** 32 MiB: larger than this machine's L2 and, on most, its L3 share. */
        private static final int TABLE_INTS = 8 << 20;
        private static int[] table;

        private final int len;
        private final SplittableRandom rnd;
        private final byte[] out;
        private final Inputs inputs;
        /** Index mask: the table's size for the planted leak, 0 for the control (always line 0). */
        private final int mask;
        int sink;

        /**
         * @param leak true for the planted leak; false for its constant-time twin, the negative
         *     control, which makes the same load at a fixed index
         */
        PlantedLeak(int blocks, boolean leak, SplittableRandom rnd) {
            this.len = 16 * blocks;
            this.inputs = new Inputs(len);
            this.mask = leak ? (TABLE_INTS - 1) & ~15 : 0;
            this.rnd = rnd;
            this.out = new byte[len];
            synchronized (PlantedLeak.class) {
                if (table == null) {
                    int[] t = new int[TABLE_INTS];
                    for (int i = 0; i < t.length; i++) {
                        t[i] = i * 0x9E3779B9; // touch every page
                    }
                    table = t;
                }
            }
        }

        @Override
        void setBatch(int batch) {
            this.batch = batch;
            inputs.resize(batch);
        }

        @Override
        void prepare(int cls) {
            inputs.prepare(cls, rnd);
        }

        @Override
        void run() {
            byte[] in = inputs.in;
            int s = 0;
            for (int i = 0, off = 0; i < batch; i++, off += len) {
                s += call(in, off, len, out, table, mask);
            }
            sink += s;
        }

        /** One call; returns a word of its output. */
        static int call(byte[] in, int off, int len, byte[] out, int[] table, int mask) {
            int acc = 0x6A09E667;
            for (int j = 0; j < len; j += 4) {
                int w = (in[off + j] & 0xff) | (in[off + j + 1] & 0xff) << 8 | (in[off + j + 2] & 0xff) << 16
                        | in[off + j + 3] << 24;
                acc = Integer.rotateLeft(acc ^ w, 7) * 0x01000193 + j;
                out[j] = (byte) acc;
            }
            int first = (in[off] & 0xff) | (in[off + 1] & 0xff) << 8 | (in[off + 2] & 0xff) << 16 | in[off + 3] << 24;
            int idx = first & mask; // the leak: a secret-chosen cache line (0 for the control)
            acc ^= table[idx];
            out[0] = (byte) acc;
            return acc;
        }

        @Override
        int bytesPerCall() {
            return len;
        }
    }
}
