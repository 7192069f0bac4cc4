package org.vectorjce.volumes.tcrypt;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Arrays;
import java.util.Set;

import javax.crypto.Cipher;

import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.engines.BlowfishEngine;
import org.bouncycastle.crypto.engines.CAST5Engine;
import org.bouncycastle.crypto.engines.CamelliaEngine;
import org.bouncycastle.crypto.engines.DESedeEngine;
import org.bouncycastle.crypto.engines.GOST3412_2015Engine;
import org.bouncycastle.crypto.params.KeyParameter;

import org.vectorjce.RawKey;

/**
 * One cipher of a TrueCrypt/VeraCrypt chain, keyed, over whole blocks in place (ECB), by
 * cryptsetup's name: {@code aes}, {@code twofish} and {@code serpent} are the JCA provider's
 * {@code ECB/NoPadding} (one call per run of blocks, so the provider's multi-block kernels do the
 * work); {@code camellia}, {@code kuznyechik}, {@code blowfish_le}, {@code cast5} and
 * {@code des3_ede} are Bouncy Castle's lightweight engines, one block per call. {@code blowfish_le}
 * is TrueCrypt's Blowfish, which reads its two 32-bit halves little-endian (cryptsetup's
 * {@code TCRYPT_swab_le}): the halves are byte-swapped around the big-endian engine.
 * {@link #destroy()} re-keys with zeros, overwriting the schedules, and drops the engines.
 */
abstract class Ecb {
    /** The ciphers the JCA provider gives (the others come from Bouncy Castle). */
    static final Set<String> PROVIDER = Set.of("aes", "twofish", "serpent");

    /** Every cipher a chain of cryptsetup's table uses. */
    static final Set<String> ALL = Set.of("aes", "twofish", "serpent", "camellia", "kuznyechik", "blowfish_le",
            "cast5", "des3_ede");

    abstract int blockSize();

    /** Encrypts {@code len} bytes (whole blocks) of {@code b} from {@code off} in place. */
    abstract void encrypt(byte[] b, int off, int len) throws GeneralSecurityException;

    /** Decrypts {@code len} bytes (whole blocks) of {@code b} from {@code off} in place. */
    abstract void decrypt(byte[] b, int off, int len) throws GeneralSecurityException;

    /** Re-keys with zeros, overwriting the key schedule; the cipher is not to be used after. */
    abstract void destroy();

    /** Cipher {@code name} keyed with {@code key[off, off + len)} (not kept: the caller wipes {@code key}). */
    static Ecb of(Provider provider, String name, byte[] key, int off, int len) throws GeneralSecurityException {
        byte[] k = Arrays.copyOfRange(key, off, off + len);
        try {
            return PROVIDER.contains(name) ? new Jca(provider, name, k) : new Bc(name, k);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    /** Bouncy Castle's engine for a cipher the provider lacks. */
    static BlockCipher engine(String name) throws GeneralSecurityException {
        return switch (name) {
            case "camellia" -> new CamelliaEngine();
            case "kuznyechik" -> new GOST3412_2015Engine();
            case "blowfish_le" -> new BlowfishEngine();
            case "cast5" -> new CAST5Engine();
            case "des3_ede" -> new DESedeEngine();
            default -> throw new GeneralSecurityException("no cipher " + name);
        };
    }

    /** The provider's name of {@code aes}, {@code twofish}, {@code serpent}. */
    static String jcaName(String name) {
        return switch (name) {
            case "aes" -> "AES";
            case "twofish" -> "Twofish";
            case "serpent" -> "Serpent";
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static final class Jca extends Ecb {
        private final String alg;
        private final int keyLen;
        private final Cipher e, d;

        Jca(Provider provider, String name, byte[] k) throws GeneralSecurityException {
            alg = jcaName(name);
            keyLen = k.length;
            RawKey sk = new RawKey(alg, k);
            try {
                e = Cipher.getInstance(alg + "/ECB/NoPadding", provider);
                d = Cipher.getInstance(alg + "/ECB/NoPadding", provider);
                e.init(Cipher.ENCRYPT_MODE, sk);
                d.init(Cipher.DECRYPT_MODE, sk);
            } finally {
                sk.destroy();
            }
        }

        @Override
        int blockSize() {
            return 16;
        }

        @Override
        void encrypt(byte[] b, int off, int len) throws GeneralSecurityException {
            e.doFinal(b, off, len, b, off);
        }

        @Override
        void decrypt(byte[] b, int off, int len) throws GeneralSecurityException {
            d.doFinal(b, off, len, b, off);
        }

        @Override
        void destroy() {
            RawKey zero = new RawKey(alg, new byte[keyLen]);
            try {
                e.init(Cipher.ENCRYPT_MODE, zero);
                d.init(Cipher.DECRYPT_MODE, zero);
            } catch (GeneralSecurityException x) {
                // the schedule goes with the cipher
            }
        }
    }

    private static final class Bc extends Ecb {
        private final boolean le;
        private final int size, keyLen;
        private BlockCipher e, d;

        Bc(String name, byte[] k) throws GeneralSecurityException {
            le = name.equals("blowfish_le");
            keyLen = k.length;
            e = engine(name);
            d = engine(name);
            KeyParameter p = new KeyParameter(k); // its own copy, which the engines may keep: wiped below
            try {
                e.init(true, p);
                d.init(false, p);
            } catch (IllegalArgumentException x) {
                throw new GeneralSecurityException(name + " refused its " + k.length + "-byte key");
            } finally {
                Arrays.fill(p.getKey(), (byte) 0);
            }
            size = e.getBlockSize();
        }

        @Override
        int blockSize() {
            return size;
        }

        @Override
        void encrypt(byte[] b, int off, int len) {
            run(e, b, off, len);
        }

        @Override
        void decrypt(byte[] b, int off, int len) {
            run(d, b, off, len);
        }

        private void run(BlockCipher c, byte[] b, int off, int len) {
            for (int o = off; o < off + len; o += size) {
                if (le) {
                    swab(b, o);
                    swab(b, o + 4);
                }
                c.processBlock(b, o, b, o);
                if (le) {
                    swab(b, o);
                    swab(b, o + 4);
                }
            }
        }

        @Override
        void destroy() {
            try {
                if (e != null) {
                    e.init(true, new KeyParameter(new byte[keyLen]));
                    d.init(false, new KeyParameter(new byte[keyLen]));
                }
            } catch (RuntimeException x) {
                // the schedule goes with the engine
            }
            e = d = null;
        }

        private static void swab(byte[] b, int o) {
            byte t = b[o];
            b[o] = b[o + 3];
            b[o + 3] = t;
            t = b[o + 1];
            b[o + 1] = b[o + 2];
            b[o + 2] = t;
        }
    }
}
