package org.vectorjce.internal.sector;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.mode.BlockPasses;

/**
 * elephant (dm-crypt's {@code crypt_iv_elephant}, Linux 5.9): BitLocker's AES-CBC with the
 * Elephant diffuser (Windows Vista and 7; Niels Ferguson, "AES-CBC + Elephant diffuser", Microsoft,
 * 2006). The key is the CBC key ‖ the sector key K_s, of equal sizes. The IV is eboiv's under the
 * CBC key. After CBC decryption each sector, read as little-endian 32-bit words, goes through
 * diffuser B's and then diffuser A's decryption (3 and 5 passes of the word mixing below), and is
 * xored with the 32-byte sector key E_Ks(e) ‖ E_Ks(e'), where e = LE64(n · sectorSize) ‖ 0^64 and
 * e' is e with its last byte 0x80; encryption runs the same steps backwards before CBC.
 */
final class Elephant extends IvGenerator {
    private static final int BLOCK = BlockKernel.BLOCK;

    /** Sectors whose sector keys one kernel call encrypts (two blocks each). */
    private static final int KEY_BATCH = 64;
    private final Eboiv eboiv;
    private final BlockKernel sectorKey;
    private final long sectorSize;
    /** The e ‖ e' blocks of a batch of sectors, and their encryptions, the sector keys. */
    private final byte[] es = new byte[KEY_BATCH * 2 * BLOCK], ks = new byte[KEY_BATCH * 2 * BLOCK];
    private int[] words = new int[0];

    Elephant(byte[] key, KernelFactory f, int sectorSize) {
        int half = key.length / 2;
        byte[] k1 = Arrays.copyOfRange(key, 0, half), k2 = Arrays.copyOfRange(key, half, key.length);
        try {
            eboiv = new Eboiv(k1, f, sectorSize);
            sectorKey = f.create(k2);
        } finally {
            Arrays.fill(k1, (byte) 0);
            Arrays.fill(k2, (byte) 0);
        }
        this.sectorSize = sectorSize;
    }

    @Override
    public String name() {
        return "elephant";
    }

    @Override
    public void fill(long n0, long step, int count, byte[] out, int off) {
        eboiv.fill(n0, step, count, out, off);
    }

    @Override
    public boolean transformsData() {
        return true;
    }

    /**
     * The 32-byte sector keys of the {@code count} (at most {@link #KEY_BATCH}) IV sector
     * numbers {@code n0 + i·step} into {@link #ks}, sector i's at {@code 32·i}, in one
     * multi-block kernel call.
     */
    private void sectorKeys(long n0, long step, int count) {
        for (int i = 0; i < count; i++) {
            long e = (n0 + i * step) * sectorSize;
            BlockPasses.LE64.set(es, 32 * i, e);
            BlockPasses.LE64.set(es, 32 * i + 8, 0L);
            BlockPasses.LE64.set(es, 32 * i + 16, e);
            BlockPasses.LE64.set(es, 32 * i + 24, 0x80L << 56);
        }
        sectorKey.encryptBlocks(es, 0, ks, 0, 2 * count);
    }

    private int[] words(int size) {
        if (words.length != size / 4) {
            words = new int[size / 4];
        }
        return words;
    }

    /** The sector keys of {@link #sectorKeys} as little-endian words, sector i's 8 at {@code 8·i}. */
    private final int[] kw = new int[KEY_BATCH * 8];

    /** {@link #sectorKeys}, then the keys as words into {@link #kw}. */
    private void sectorKeyWords(long n0, long step, int count) {
        sectorKeys(n0, step, count);
        ByteBuffer.wrap(ks).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(kw, 0, 8 * count);
    }

    /**
     * The {@code count} sectors at {@code b[off..]} as little-endian words: a view whose bulk
     * reads and writes of a sector's words are one copy each (the words are the bytes' own
     * order on little-endian hardware).
     */
    private static IntBuffer sectorWords(byte[] b, int off, int size, int count) {
        return ByteBuffer.wrap(b, off, size * count).slice().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    }

    @Override
    public void afterDecrypt(byte[] b, int off, int size, int count, long n0, long step) {
        int[] d = words(size);
        IntBuffer view = sectorWords(b, off, size, count);
        for (int done = 0; done < count; ) {
            int batch = Math.min(count - done, KEY_BATCH);
            sectorKeyWords(n0 + done * step, step, batch);
            for (int s = 0; s < batch; s++) {
                int at = (done + s) * d.length;
                view.get(at, d);
                diffuserBDecrypt(d);
                diffuserADecrypt(d);
                xorKey(d, 8 * s);
                view.put(at, d);
            }
            done += batch;
        }
        Arrays.fill(d, 0);
        Arrays.fill(ks, (byte) 0);
        Arrays.fill(kw, 0);
    }

    @Override
    public void beforeEncrypt(byte[] b, int off, int size, int count, long n0, long step) {
        int[] d = words(size);
        IntBuffer view = sectorWords(b, off, size, count);
        for (int done = 0; done < count; ) {
            int batch = Math.min(count - done, KEY_BATCH);
            sectorKeyWords(n0 + done * step, step, batch);
            for (int s = 0; s < batch; s++) {
                int at = (done + s) * d.length;
                view.get(at, d);
                xorKey(d, 8 * s);
                diffuserAEncrypt(d);
                diffuserBEncrypt(d);
                view.put(at, d);
            }
            done += batch;
        }
        Arrays.fill(d, 0);
        Arrays.fill(ks, (byte) 0);
        Arrays.fill(kw, 0);
    }

    /** d ^= the 32-byte sector key at {@code kw[k..k+8]}, repeated over the sector. */
    private void xorKey(int[] d, int k) {
        int k0 = kw[k], k1 = kw[k + 1], k2 = kw[k + 2], k3 = kw[k + 3];
        int k4 = kw[k + 4], k5 = kw[k + 5], k6 = kw[k + 6], k7 = kw[k + 7];
        for (int i = 0; i < d.length; i += 8) {
            d[i] ^= k0;
            d[i + 1] ^= k1;
            d[i + 2] ^= k2;
            d[i + 3] ^= k3;
            d[i + 4] ^= k4;
            d[i + 5] ^= k5;
            d[i + 6] ^= k6;
            d[i + 7] ^= k7;
        }
    }

    // Diffuser A: 5 passes, rotations 9, 0, 13, 0, word i mixed with words i - 2 and i - 5 (mod n).
    // Diffuser B: 3 passes, rotations 0, 10, 0, 25, with words i + 2 and i + 5 (mod n). As in
    // dm-crypt's diffuser_{a,b}_{de,en}crypt; n is a multiple of 4, so each loop step does 4 words
    // with no index arithmetic, and the 8 words whose neighbours wrap round are written out. Where
    // a step's neighbours were written just before (A's decryption: words i - 1 .. i - 5; B's
    // encryption: words i + 4 .. i + 8) they are carried in locals, since a chain through memory
    // would wait on each store; B's decryption carries its words i + 2 .. i + 8 to read each once.
    static void diffuserADecrypt(int[] d) {
        int n = d.length;
        for (int r = 0; r < 5; r++) {
            // d[i-1] .. d[i-5] for i = 0: the last five words, not yet mixed in this pass
            int a1 = d[n - 1], a2 = d[n - 2], a3 = d[n - 3], a4 = d[n - 4], a5 = d[n - 5];
            for (int i = 0; i < n; i += 4) {
                int x0 = d[i] + (a2 ^ Integer.rotateLeft(a5, 9));
                int x1 = d[i + 1] + (a1 ^ a4);
                int x2 = d[i + 2] + (x0 ^ Integer.rotateLeft(a3, 13));
                int x3 = d[i + 3] + (x1 ^ a2);
                d[i] = x0;
                d[i + 1] = x1;
                d[i + 2] = x2;
                d[i + 3] = x3;
                a5 = a1;
                a4 = x0;
                a3 = x1;
                a2 = x2;
                a1 = x3;
            }
        }
    }

    static void diffuserAEncrypt(int[] d) {
        int n = d.length;
        for (int r = 0; r < 5; r++) {
            // downwards, each word from lower words not yet unmixed in this pass
            for (int j = n - 4; j >= 8; j -= 4) {
                d[j + 3] -= d[j + 1] ^ d[j - 2];
                d[j + 2] -= d[j] ^ Integer.rotateLeft(d[j - 3], 13);
                d[j + 1] -= d[j - 1] ^ d[j - 4];
                d[j] -= d[j - 2] ^ Integer.rotateLeft(d[j - 5], 9);
            }
            // the first 8 words, whose neighbours i - 5 (below 5) and i - 2 (below 2) wrap round
            d[7] -= d[5] ^ d[2];
            d[6] -= d[4] ^ Integer.rotateLeft(d[1], 13);
            d[5] -= d[3] ^ d[0];
            d[4] -= d[2] ^ Integer.rotateLeft(d[n - 1], 9);
            d[3] -= d[1] ^ d[n - 2];
            d[2] -= d[0] ^ Integer.rotateLeft(d[n - 3], 13);
            d[1] -= d[n - 1] ^ d[n - 4];
            d[0] -= d[n - 2] ^ Integer.rotateLeft(d[n - 5], 9);
        }
    }

    static void diffuserBDecrypt(int[] d) {
        int n = d.length;
        for (int r = 0; r < 3; r++) {
            // c0 .. c8 = d[i] .. d[i+8], none mixed yet in this pass while i + 8 < n
            int c0 = d[0], c1 = d[1], c2 = d[2], c3 = d[3], c4 = d[4], c5 = d[5], c6 = d[6], c7 = d[7], c8 = d[8];
            int i = 0;
            for (; i < n - 12; i += 4) {
                d[i] = c0 + (c2 ^ c5);
                d[i + 1] = c1 + (c3 ^ Integer.rotateLeft(c6, 10));
                d[i + 2] = c2 + (c4 ^ c7);
                d[i + 3] = c3 + (c5 ^ Integer.rotateLeft(c8, 25));
                c0 = c4;
                c1 = c5;
                c2 = c6;
                c3 = c7;
                c4 = c8;
                c5 = d[i + 9];
                c6 = d[i + 10];
                c7 = d[i + 11];
                c8 = d[i + 12];
            }
            d[i] = c0 + (c2 ^ c5);  // i = n - 12: its neighbours are all carried
            d[i + 1] = c1 + (c3 ^ Integer.rotateLeft(c6, 10));
            d[i + 2] = c2 + (c4 ^ c7);
            d[i + 3] = c3 + (c5 ^ Integer.rotateLeft(c8, 25));
            // the last 8 words, whose neighbours i + 5 (from n - 5) and i + 2 (from n - 2) wrap
            // round to words mixed in this pass (no division: n - 8 is a multiple of 4)
            d[n - 8] += d[n - 6] ^ d[n - 3];
            d[n - 7] += d[n - 5] ^ Integer.rotateLeft(d[n - 2], 10);
            d[n - 6] += d[n - 4] ^ d[n - 1];
            d[n - 5] += d[n - 3] ^ Integer.rotateLeft(d[0], 25);
            d[n - 4] += d[n - 2] ^ d[1];
            d[n - 3] += d[n - 1] ^ Integer.rotateLeft(d[2], 10);
            d[n - 2] += d[0] ^ d[3];
            d[n - 1] += d[1] ^ Integer.rotateLeft(d[4], 25);
        }
    }

    static void diffuserBEncrypt(int[] d) {
        int n = d.length;
        for (int r = 0; r < 3; r++) {
            // downwards; the last 8 words first, whose neighbours wrap round to words not yet unmixed
            d[n - 1] -= d[1] ^ Integer.rotateLeft(d[4], 25);
            d[n - 2] -= d[0] ^ d[3];
            d[n - 3] -= d[n - 1] ^ Integer.rotateLeft(d[2], 10);
            d[n - 4] -= d[n - 2] ^ d[1];
            d[n - 5] -= d[n - 3] ^ Integer.rotateLeft(d[0], 25);
            d[n - 6] -= d[n - 4] ^ d[n - 1];
            d[n - 7] -= d[n - 5] ^ Integer.rotateLeft(d[n - 2], 10);
            d[n - 8] -= d[n - 6] ^ d[n - 3];
            // then four words a step, words j + 4 .. j + 8 (unmixed just before) carried in locals
            int u4 = d[n - 8], u5 = d[n - 7], u6 = d[n - 6], u7 = d[n - 5], u8 = d[n - 4];
            for (int j = n - 12; j >= 0; j -= 4) {
                int y3 = d[j + 3] - (u5 ^ Integer.rotateLeft(u8, 25));
                int y2 = d[j + 2] - (u4 ^ u7);
                int y1 = d[j + 1] - (y3 ^ Integer.rotateLeft(u6, 10));
                int y0 = d[j] - (y2 ^ u5);
                d[j + 3] = y3;
                d[j + 2] = y2;
                d[j + 1] = y1;
                d[j] = y0;
                u8 = u4;
                u7 = y3;
                u6 = y2;
                u5 = y1;
                u4 = y0;
            }
        }
    }


    @Override
    public void destroy() {
        eboiv.destroy();
        sectorKey.destroy();
        Arrays.fill(ks, (byte) 0);
        Arrays.fill(kw, 0);
    }
}
