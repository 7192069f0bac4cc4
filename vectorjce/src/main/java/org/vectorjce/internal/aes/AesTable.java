package org.vectorjce.internal.aes;

import org.vectorjce.internal.kernel.BlockKernel;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * AES (FIPS 197) on 32-bit T-tables: the portable scalar kernel {@code aes-table}.
 *
 * <p>Encryption uses the four round tables Te0..Te3 (SubBytes, ShiftRows and MixColumns folded,
 * FIPS 197 §5.1 as in Daemen and Rijmen's reference code); decryption uses the equivalent inverse
 * cipher (FIPS 197 §5.3.5): the decryption round keys are the encryption ones in reverse order,
 * passed through InvMixColumns, so decryption has the same shape as encryption.
 *
 * <p>The tables are computed at class initialisation from GF(2^8) arithmetic, not pasted in.
 *
 * <p><b>Not constant-time</b>: the lookups are indexed by secret state bytes, so cache timing can
 * leak key material to a co-located attacker. The Vector API and JDK kernels avoid this.
 */
public final class AesTable extends BlockKernel {

    private static final VarHandle BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    static final byte[] SBOX = new byte[256];
    static final byte[] INV_SBOX = new byte[256];
    private static final int[] TE0 = new int[256], TE1 = new int[256], TE2 = new int[256], TE3 = new int[256];
    private static final int[] TD0 = new int[256], TD1 = new int[256], TD2 = new int[256], TD3 = new int[256];

    static {
        // S-box: multiplicative inverse in GF(2^8) mod x^8+x^4+x^3+x+1, then the affine map (FIPS 197 §5.1.1).
        int[] exp = new int[256];
        int[] log = new int[256];
        int x = 1;
        for (int i = 0; i < 255; i++) {
            exp[i] = x;
            log[x] = i;
            x ^= xtime(x); // multiply by 3, a generator
        }
        for (int a = 0; a < 256; a++) {
            int inv = a == 0 ? 0 : exp[(255 - log[a]) % 255];
            int s = inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63;
            SBOX[a] = (byte) s;
            INV_SBOX[s] = (byte) a;
        }
        for (int a = 0; a < 256; a++) {
            int s = SBOX[a] & 0xff;
            int s2 = xtime(s), s3 = s2 ^ s;
            int te = (s2 << 24) | (s << 16) | (s << 8) | s3; // column (2,1,1,3)·s
            TE0[a] = te;
            TE1[a] = Integer.rotateRight(te, 8);
            TE2[a] = Integer.rotateRight(te, 16);
            TE3[a] = Integer.rotateRight(te, 24);
            int v = INV_SBOX[a] & 0xff;
            int td = (mul(v, 14) << 24) | (mul(v, 9) << 16) | (mul(v, 13) << 8) | mul(v, 11);
            TD0[a] = td;
            TD1[a] = Integer.rotateRight(td, 8);
            TD2[a] = Integer.rotateRight(td, 16);
            TD3[a] = Integer.rotateRight(td, 24);
        }
    }

    private static int xtime(int a) {
        return ((a << 1) ^ ((a & 0x80) != 0 ? 0x11b : 0)) & 0xff;
    }

    private static int rotl8(int a, int n) {
        return ((a << n) | (a >>> (8 - n))) & 0xff;
    }

    static int mul(int a, int b) {
        int r = 0;
        while (b != 0) {
            if ((b & 1) != 0) {
                r ^= a;
            }
            a = xtime(a);
            b >>>= 1;
        }
        return r;
    }

    /** Number of rounds: 10, 12 or 14. */
    private final int rounds;
    /** Encryption round keys, 4 words per round, big-endian words (FIPS 197 §5.2). */
    private final int[] ek;
    /** Decryption round keys for the equivalent inverse cipher. */
    private final int[] dk;

    /** {@code aes-table} keyed with {@code key}. */
    public static BlockKernel create(byte[] key) {
        return new AesTable(key);
    }

    AesTable(byte[] key) {
        super("aes-table");
        this.rounds = key.length / 4 + 6;
        this.ek = new int[4 * (rounds + 1)];
        this.dk = new int[ek.length];
        setKey(key);
    }

    @Override
    public boolean rekey(byte[] key) {
        if (key.length / 4 + 6 != rounds) {
            return false;
        }
        setKey(key);
        return true;
    }

    private void setKey(byte[] key) {
        expandKey(key, ek);
        inverseKey(ek, rounds, dk);
    }

    /** FIPS 197 §5.2 KeyExpansion; shared with the other AES kernels. */
    static int[] expandKey(byte[] key) {
        int[] w = new int[4 * (key.length / 4 + 7)];
        expandKey(key, w);
        return w;
    }

    /** {@link #expandKey(byte[])} into {@code w}, which has 4·(rounds+1) words. */
    private static void expandKey(byte[] key, int[] w) {
        int nk = key.length / 4;
        for (int i = 0; i < nk; i++) {
            w[i] = (int) BE.get(key, 4 * i);
        }
        int rcon = 1;
        for (int i = nk; i < w.length; i++) {
            int t = w[i - 1];
            if (i % nk == 0) {
                t = subWord(Integer.rotateLeft(t, 8)) ^ (rcon << 24);
                rcon = xtime(rcon);
            } else if (nk > 6 && i % nk == 4) {
                t = subWord(t);
            }
            w[i] = w[i - nk] ^ t;
        }
    }

    private static int subWord(int w) {
        return (SBOX[w >>> 24] & 0xff) << 24 | (SBOX[(w >>> 16) & 0xff] & 0xff) << 16
                | (SBOX[(w >>> 8) & 0xff] & 0xff) << 8 | (SBOX[w & 0xff] & 0xff);
    }

    /** Round keys for the equivalent inverse cipher (FIPS 197 §5.3.5). */
    private static void inverseKey(int[] ek, int rounds, int[] dk) {
        for (int r = 0; r <= rounds; r++) {
            for (int c = 0; c < 4; c++) {
                int w = ek[4 * (rounds - r) + c];
                if (r != 0 && r != rounds) {
                    // InvMixColumns(w) = TD applied to SBOX(w) bytes, since TD folds InvSbox.
                    w = TD0[SBOX[w >>> 24] & 0xff] ^ TD1[SBOX[(w >>> 16) & 0xff] & 0xff]
                            ^ TD2[SBOX[(w >>> 8) & 0xff] & 0xff] ^ TD3[SBOX[w & 0xff] & 0xff];
                }
                dk[4 * r + c] = w;
            }
        }
    }

    @Override
    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        final int[] k = ek;
        final int last = 4 * rounds;
        for (int b = 0; b < blocks; b++, inOff += 16, outOff += 16) {
            int s0 = (int) BE.get(in, inOff) ^ k[0];
            int s1 = (int) BE.get(in, inOff + 4) ^ k[1];
            int s2 = (int) BE.get(in, inOff + 8) ^ k[2];
            int s3 = (int) BE.get(in, inOff + 12) ^ k[3];
            int i = 4;
            for (; i < last; i += 4) {
                int t0 = TE0[s0 >>> 24] ^ TE1[(s1 >>> 16) & 0xff] ^ TE2[(s2 >>> 8) & 0xff] ^ TE3[s3 & 0xff] ^ k[i];
                int t1 = TE0[s1 >>> 24] ^ TE1[(s2 >>> 16) & 0xff] ^ TE2[(s3 >>> 8) & 0xff] ^ TE3[s0 & 0xff] ^ k[i + 1];
                int t2 = TE0[s2 >>> 24] ^ TE1[(s3 >>> 16) & 0xff] ^ TE2[(s0 >>> 8) & 0xff] ^ TE3[s1 & 0xff] ^ k[i + 2];
                int t3 = TE0[s3 >>> 24] ^ TE1[(s0 >>> 16) & 0xff] ^ TE2[(s1 >>> 8) & 0xff] ^ TE3[s2 & 0xff] ^ k[i + 3];
                s0 = t0; s1 = t1; s2 = t2; s3 = t3;
            }
            BE.set(out, outOff, finalRound(SBOX, s0, s1, s2, s3) ^ k[i]);
            BE.set(out, outOff + 4, finalRound(SBOX, s1, s2, s3, s0) ^ k[i + 1]);
            BE.set(out, outOff + 8, finalRound(SBOX, s2, s3, s0, s1) ^ k[i + 2]);
            BE.set(out, outOff + 12, finalRound(SBOX, s3, s0, s1, s2) ^ k[i + 3]);
        }
    }

    @Override
    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        final int[] k = dk;
        final int last = 4 * rounds;
        for (int b = 0; b < blocks; b++, inOff += 16, outOff += 16) {
            int s0 = (int) BE.get(in, inOff) ^ k[0];
            int s1 = (int) BE.get(in, inOff + 4) ^ k[1];
            int s2 = (int) BE.get(in, inOff + 8) ^ k[2];
            int s3 = (int) BE.get(in, inOff + 12) ^ k[3];
            int i = 4;
            for (; i < last; i += 4) {
                int t0 = TD0[s0 >>> 24] ^ TD1[(s3 >>> 16) & 0xff] ^ TD2[(s2 >>> 8) & 0xff] ^ TD3[s1 & 0xff] ^ k[i];
                int t1 = TD0[s1 >>> 24] ^ TD1[(s0 >>> 16) & 0xff] ^ TD2[(s3 >>> 8) & 0xff] ^ TD3[s2 & 0xff] ^ k[i + 1];
                int t2 = TD0[s2 >>> 24] ^ TD1[(s1 >>> 16) & 0xff] ^ TD2[(s0 >>> 8) & 0xff] ^ TD3[s3 & 0xff] ^ k[i + 2];
                int t3 = TD0[s3 >>> 24] ^ TD1[(s2 >>> 16) & 0xff] ^ TD2[(s1 >>> 8) & 0xff] ^ TD3[s0 & 0xff] ^ k[i + 3];
                s0 = t0; s1 = t1; s2 = t2; s3 = t3;
            }
            BE.set(out, outOff, finalRound(INV_SBOX, s0, s3, s2, s1) ^ k[i]);
            BE.set(out, outOff + 4, finalRound(INV_SBOX, s1, s0, s3, s2) ^ k[i + 1]);
            BE.set(out, outOff + 8, finalRound(INV_SBOX, s2, s1, s0, s3) ^ k[i + 2]);
            BE.set(out, outOff + 12, finalRound(INV_SBOX, s3, s2, s1, s0) ^ k[i + 3]);
        }
    }

    /** Last round (no MixColumns): one S-box byte from each of the four words. */
    private static int finalRound(byte[] sbox, int a, int b, int c, int d) {
        return (sbox[a >>> 24] & 0xff) << 24 | (sbox[(b >>> 16) & 0xff] & 0xff) << 16
                | (sbox[(c >>> 8) & 0xff] & 0xff) << 8 | (sbox[d & 0xff] & 0xff);
    }

    @Override
    public void destroy() {
        Arrays.fill(ek, 0);
        Arrays.fill(dk, 0);
    }
}
