package org.vectorjce.internal.sector;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.mode.BlockPasses;

/**
 * The dm-crypt IV generators ({@code drivers/md/dm-crypt.c}, {@code crypt_iv_*_gen}) for 16-byte
 * blocks: {@link #fill} writes the IVs of {@code count} consecutive sector numbers into one array,
 * so a mode can take a whole request's IVs at once (ESSIV encrypts them in one kernel call).
 */
public abstract class IvGenerator {
    private static final int BLOCK = BlockKernel.BLOCK;

    /** The dm-crypt name, e.g. {@code plain64}. */
    public abstract String name();

    /**
     * IVs of sector numbers {@code n0 + i·step} (unsigned, wrapping), i &lt; count, into
     * {@code out[off + 16·i ..]}.
     */
    public abstract void fill(long n0, long step, int count, byte[] out, int off);

    /** Wipes key material (ESSIV's salt key). */
    public void destroy() {
    }

    /**
     * Whether this generator also transforms the data around the mode ({@code elephant}): then
     * {@link #afterDecrypt} runs on each sector after the mode decrypts it and {@link #beforeEncrypt}
     * before the mode encrypts it, as dm-crypt's {@code post} and {@code ENCRYPT_PREPROCESS} hooks.
     */
    public boolean transformsData() {
        return false;
    }

    /** Undoes the data transform on {@code count} sectors of {@code size} bytes at {@code b[off..]}, IV numbers {@code n0 + i·step}. */
    public void afterDecrypt(byte[] b, int off, int size, int count, long n0, long step) {
    }

    /** Applies the data transform to {@code count} sectors of {@code size} bytes at {@code b[off..]}, IV numbers {@code n0 + i·step}. */
    public void beforeEncrypt(byte[] b, int off, int size, int count, long n0, long step) {
    }

    /**
     * Whether the generator takes the second half of the key as its own (dm-crypt's
     * {@code key_extra_size}: {@code elephant}'s sector key), the mode the first half.
     */
    public static boolean splitsKey(String name) {
        return name.equals("elephant");
    }

    /**
     * plain64's IVs, which ESSIV, EBOIV and Elephant encrypt: LE64(n0 + i·step) ‖ 0^64 for
     * {@code count} blocks at {@code out[off..]}.
     */
    static void plain64(long n0, long step, int count, byte[] out, int off) {
        for (int i = 0; i < count; i++, n0 += step, off += BLOCK) {
            BlockPasses.LE64.set(out, off, n0);
            BlockPasses.LE64.set(out, off + 8, 0L);
        }
    }

    /** Whether the generator {@code name} needs the cipher key (ESSIV hashes it, EBOIV encrypts with it). */
    public static boolean needsKey(String name) {
        return name.startsWith("essiv") || name.equals("eboiv") || name.equals("elephant");
    }

    /**
     * {@link #create(String, byte[], KernelFactory)} for sectors of {@code sectorSize} bytes: the
     * size matters to {@code eboiv} only, which encrypts the sector's byte offset.
     */
    public static IvGenerator create(String name, byte[] key, KernelFactory f, int sectorSize) {
        return create(name, key, f, sectorSize, null);
    }

    /**
     * {@link #create(String, byte[], KernelFactory, int)}, where an {@code essiv:HASH} generator
     * other than {@code essiv:sha256} takes {@code essivSalt}, HASH of the whole key, which the
     * caller computed (see {@link #essivDigestName}).
     */
    public static IvGenerator create(String name, byte[] key, KernelFactory f, int sectorSize, byte[] essivSalt) {
        if (name.startsWith("essiv:") && essivSalt != null) {
            return new Essiv(name, essivSalt, f);
        }
        if (name.equals("eboiv")) {
            return new Eboiv(key, f, sectorSize);
        }
        if (name.equals("elephant")) {
            return new Elephant(key, f, sectorSize);
        }
        return create(name, key, f);
    }

    /**
     * The generator {@code name} for a key of the cipher {@code f} runs; {@code key} is the whole
     * cipher key (ESSIV hashes it). The caller checked {@code name} against {@link #allowed}.
     */
    public static IvGenerator create(String name, byte[] key, KernelFactory f) {
        return switch (name) {
            case "plain" -> new Simple(name, false, 4);
            case "plain64" -> new Simple(name, false, 8);
            case "plain64be" -> new Simple(name, true, 0);
            case "benbi" -> new Simple(name, true, 5);
            case "null" -> new Simple(name, false, 0);
            case "essiv:sha256" -> new Essiv(key, f);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** plain (LE, 4 bytes), plain64 (LE, 8), plain64be (BE, last 8), benbi (BE (n &lt;&lt; 5) + 1), null. */
    private static final class Simple extends IvGenerator {
        private final String name;
        private final boolean bigEndian;
        /** LE: how many bytes of n (0 = null); BE: 0 for plain64be, 5 for benbi's shift. */
        private final int param;

        Simple(String name, boolean bigEndian, int param) {
            this.name = name;
            this.bigEndian = bigEndian;
            this.param = param;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void fill(long n0, long step, int count, byte[] out, int off) {
            if (!bigEndian && param == 8) {
                plain64(n0, step, count, out, off);
                return;
            }
            Arrays.fill(out, off, off + BLOCK * count, (byte) 0);
            long n = n0;
            for (int i = 0; i < count; i++, n += step, off += BLOCK) {
                if (bigEndian) {
                    long v = param == 5 ? (n << 5) + 1 : n;
                    for (int b = 0; b < 8; b++) {
                        out[off + 15 - b] = (byte) (v >>> (8 * b));
                    }
                } else {
                    for (int b = 0; b < param; b++) {
                        out[off + b] = (byte) (n >>> (8 * b));
                    }
                }
            }
        }
    }

    /**
     * eboiv ("encrypted byte-offset IV", dm-crypt's {@code crypt_iv_eboiv_gen}, Linux 5.6): the IV is
     * E_K(LE64(n · sectorSize) ‖ 0^64) under the data key K itself — dm-crypt CBC-encrypts one zero
     * block with that 16-byte value as its IV, which is the same single block encryption. BitLocker
     * (Windows 8 and later, AES-CBC without the diffuser) takes the sector's byte offset as its IV
     * seed; with dm-crypt's {@code iv_large_sectors} n counts sectors of {@code sectorSize}, so
     * n · sectorSize is that offset.
     */
    static final class Eboiv extends IvGenerator {
        private final BlockKernel cipher;
        private final long sectorSize;

        Eboiv(byte[] key, KernelFactory f, int sectorSize) {
            this.cipher = f.create(key);
            this.sectorSize = sectorSize;
        }

        @Override
        public String name() {
            return "eboiv";
        }

        @Override
        public void fill(long n0, long step, int count, byte[] out, int off) {
            plain64(n0 * sectorSize, step * sectorSize, count, out, off);
            cipher.encryptBlocks(out, off, out, off, count); // the batch's IVs in one multi-block call
        }

        @Override
        public void destroy() {
            cipher.destroy();
        }
    }

    /**
     * The JDK's {@code MessageDigest} name for dm-crypt's ESSIV hash {@code hash} (the kernel's
     * crypto API name, e.g. {@code sha256}), or null for a hash the JDK does not have, such as
     * {@code wp256}.
     */
    public static String essivDigestName(String hash) {
        return switch (hash) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            case "sha3-224" -> "SHA3-224";
            case "sha3-256" -> "SHA3-256";
            case "sha3-384" -> "SHA3-384";
            case "sha3-512" -> "SHA3-512";
            default -> null;
        };
    }

    /**
     * essiv:HASH, dm-crypt's {@code crypt_iv_essiv_*}: E(HASH(key), plain64(n)) with the same block
     * cipher, keyed with the whole digest (so the digest must be a key length of the cipher:
     * 256 bits for sha256 or wp256).
     */
    private static final class Essiv extends IvGenerator {
        private final String name;
        private final BlockKernel salt;

        Essiv(byte[] key, KernelFactory f) {
            this("essiv:sha256", sha256(key), f);
        }

        /** Keyed with {@code digest}, which it wipes. */
        Essiv(String name, byte[] digest, KernelFactory f) {
            this.name = name;
            try {
                salt = f.create(digest);
            } finally {
                Arrays.fill(digest, (byte) 0);
            }
        }

        private static byte[] sha256(byte[] key) {
            try {
                return MessageDigest.getInstance("SHA-256").digest(key);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            }
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void fill(long n0, long step, int count, byte[] out, int off) {
            plain64(n0, step, count, out, off);
            salt.encryptBlocks(out, off, out, off, count); // one multi-block call for the request
        }

        @Override
        public void destroy() {
            salt.destroy();
        }
    }
}
