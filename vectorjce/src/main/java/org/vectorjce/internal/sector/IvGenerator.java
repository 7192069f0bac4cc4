package org.vectorjce.internal.sector;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;

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

    /** Which generators a mode takes: XTS, LRW, CBC (NoPadding). */
    public static String[] allowed(String mode) {
        return switch (mode) {
            case "XTS" -> new String[] {"plain", "plain64", "plain64be", "null"};
            case "LRW" -> new String[] {"benbi", "plain64be", "null"};
            case "CBC" -> new String[] {"essiv:sha256", "plain", "plain64", "null"};
            default -> new String[0];
        };
    }

    /**
     * Which generators a dm-crypt cipher specification may name with a mode: those of
     * {@link #allowed}, for LRW also {@code plain64} (dm-crypt's {@code lrw-plain64}, which
     * gives plain64's bytes to {@code lrw()} as its block index; QEMU and cryptsetup write it),
     * and for CBC also {@code eboiv} (BitLocker's, which cryptsetup maps as {@code aes-cbc-eboiv};
     * only the sector API takes it, since it needs the sector size the JCA's spec path does not
     * hand to {@link #create(String, byte[], KernelFactory)}).
     */
    public static String[] allowedInSpecs(String mode) {
        if (mode.equals("LRW")) {
            return new String[] {"benbi", "plain64be", "null", "plain64"};
        }
        if (mode.equals("CBC")) {
            return new String[] {"essiv:sha256", "plain", "plain64", "null", "eboiv"};
        }
        return allowed(mode);
    }

    /** Whether the generator {@code name} needs the cipher key (ESSIV hashes it, EBOIV encrypts with it). */
    public static boolean needsKey(String name) {
        return name.startsWith("essiv") || name.equals("eboiv");
    }

    /**
     * {@link #create(String, byte[], KernelFactory)} for sectors of {@code sectorSize} bytes: the
     * size matters to {@code eboiv} only, which encrypts the sector's byte offset.
     */
    public static IvGenerator create(String name, byte[] key, KernelFactory f, int sectorSize) {
        if (name.equals("eboiv")) {
            return new Eboiv(key, f, sectorSize);
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
    private static final class Eboiv extends IvGenerator {
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
            Arrays.fill(out, off, off + BLOCK * count, (byte) 0);
            long n = n0;
            for (int i = 0, o = off; i < count; i++, n += step, o += BLOCK) {
                long v = n * sectorSize;
                for (int b = 0; b < 8; b++) {
                    out[o + b] = (byte) (v >>> (8 * b));
                }
            }
            cipher.encryptBlocks(out, off, out, off, count); // the batch's IVs in one multi-block call
        }

        @Override
        public void destroy() {
            cipher.destroy();
        }
    }

    /** essiv:sha256: E(SHA-256(key), plain64(n)) with the same block cipher (a 256-bit key). */
    private static final class Essiv extends IvGenerator {
        private final BlockKernel salt;

        Essiv(byte[] key, KernelFactory f) {
            byte[] h;
            try {
                h = MessageDigest.getInstance("SHA-256").digest(key);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            }
            try {
                salt = f.create(h);
            } finally {
                Arrays.fill(h, (byte) 0);
            }
        }

        @Override
        public String name() {
            return "essiv:sha256";
        }

        @Override
        public void fill(long n0, long step, int count, byte[] out, int off) {
            Arrays.fill(out, off, off + BLOCK * count, (byte) 0);
            long n = n0;
            for (int i = 0, o = off; i < count; i++, n += step, o += BLOCK) {
                for (int b = 0; b < 8; b++) {
                    out[o + b] = (byte) (n >>> (8 * b));
                }
            }
            salt.encryptBlocks(out, off, out, off, count); // one multi-block call for the request
        }

        @Override
        public void destroy() {
            salt.destroy();
        }
    }
}
