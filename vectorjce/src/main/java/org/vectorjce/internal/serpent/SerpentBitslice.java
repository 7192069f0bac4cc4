package org.vectorjce.internal.serpent;

import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;

/**
 * {@code serpent-bitslice}: Serpent (Anderson, Biham, Knudsen; AES submission, 1998) one block at a
 * time in the specification's bitslice form — the S-boxes as boolean circuits on whole words (see
 * {@link SerpentCore}), the linear transformation as rotations and shifts. There is no table, so
 * the block function makes no secret-indexed memory access and takes no secret-dependent branch:
 * constant-time by construction. The reference for every Serpent kernel, and their tail code.
 *
 * <p>Byte order as NESSIE's test vectors, Linux {@code serpent_generic}, Botan and Bouncy Castle's
 * {@code SerpentEngine} (not its {@code TnepresEngine}, the byte-reversed form of the
 * submission's reference code): key and block bytes read as little-endian 32-bit words, the first
 * word the least significant.
 *
 * <p>Key schedule (section 3 of the submission): a key shorter than 256 bits is padded with one 1
 * bit after its most significant bit, then zeros (in little-endian bytes: a byte 0x01 after the
 * key); the prekeys are w_i = (w_{i-8} ⊕ w_{i-5} ⊕ w_{i-3} ⊕ w_{i-1} ⊕ φ ⊕ i) ⋘ 11 with
 * φ = 0x9e3779b9, and round key K_i is S_{(3 - i) mod 8} applied to w_{4i} .. w_{4i+3}.
 * Schedules are 132 words whatever the key length, so {@link #rekey} takes any length.
 */
public final class SerpentBitslice extends BlockKernel {
    /** Registry name. */
    public static final String NAME = "serpent-bitslice";

    private static final int PHI = 0x9e3779b9;

    /** The 33 round keys K_0 .. K_32, four words each. */
    private final int[] k = new int[132];

    private SerpentBitslice(byte[] key) {
        super(NAME);
        expand(key, k);
    }

    /** A kernel keyed with {@code key} (16, 24 or 32 bytes; the caller owns and wipes it). */
    public static BlockKernel create(byte[] key) {
        return new SerpentBitslice(key);
    }

    /** As {@link #create}, typed for the vector kernels, which use its schedule and its tail code. */
    public static SerpentBitslice schedule(byte[] key) {
        return new SerpentBitslice(key);
    }

    /** The round keys, for the vector kernels of this key (not a copy: they must not change it). */
    public int[] subkeys() {
        return k;
    }

    /**
     * Fills {@code k} (132 words) with the round keys of {@code key} (at most 32 bytes). The eight
     * previous prekeys ride in locals and each new one goes straight into {@code k}: no temporary
     * array holds key material. Keep it so: HotSpot 17.0.15's C2, inlining this into a caller's
     * hot loop, miscompiles the form with local arrays for the padded key and the prekeys (filled
     * by {@code arraycopy}, read through a byte-array view, wiped in {@code finally}) — wrong round
     * keys, which NESSIE's iterated chains caught; {@code -XX:-EliminateAllocations} hides it.
     */
    static void expand(byte[] key, int[] k) {
        int w0 = paddedWord(key, 0), w1 = paddedWord(key, 4), w2 = paddedWord(key, 8), w3 = paddedWord(key, 12);
        int w4 = paddedWord(key, 16), w5 = paddedWord(key, 20), w6 = paddedWord(key, 24), w7 = paddedWord(key, 28);
        for (int i = 0; i < 132; i++) {
            int w = Integer.rotateLeft(w0 ^ w3 ^ w5 ^ w7 ^ PHI ^ i, 11);
            k[i] = w;
            w0 = w1;
            w1 = w2;
            w2 = w3;
            w3 = w4;
            w4 = w5;
            w5 = w6;
            w6 = w7;
            w7 = w;
        }
        for (int i = 0; i < 33; i++) {
            SerpentCore.sbox((35 - i) & 7, k, 4 * i);
        }
    }

    /** The little-endian word at byte {@code o} of the key padded to 32 bytes with 0x01 then zeros. */
    private static int paddedWord(byte[] key, int o) {
        int w = 0;
        for (int i = o + 3; i >= o; i--) {
            int b = i < key.length ? key[i] & 0xff : i == key.length ? 1 : 0;
            w = w << 8 | b;
        }
        return w;
    }

    @Override
    public boolean rekey(byte[] key) {
        expand(key, k);
        return true;
    }

    @Override
    public void encryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        for (int i = 0; i < blocks; i++) {
            SerpentCore.encrypt(k, in, inOff + 16 * i, out, outOff + 16 * i);
        }
    }

    @Override
    public void decryptBlocks(byte[] in, int inOff, byte[] out, int outOff, int blocks) {
        for (int i = 0; i < blocks; i++) {
            SerpentCore.decrypt(k, in, inOff + 16 * i, out, outOff + 16 * i);
        }
    }

    @Override
    public void destroy() {
        Arrays.fill(k, 0);
    }

    /** The little-endian word at {@code b[o]}. */
    public static int le(byte[] b, int o) {
        return SerpentCore.le(b, o);
    }

    /** Writes {@code v} little-endian at {@code b[o]}. */
    public static void putLe(byte[] b, int o, int v) {
        SerpentCore.putLe(b, o, v);
    }
}
