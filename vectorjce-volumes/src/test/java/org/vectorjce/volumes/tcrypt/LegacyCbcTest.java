package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

/**
 * {@link LegacyCbc} (parallel CBC decryption over runs of sectors) against a reference encryptor
 * written as TrueCrypt's {@code EncryptSectors} / {@code EncryptBufferCBC} (TrueCrypt 3.x
 * {@code Common/Crypto.c}; TrueCrypt 5's {@code Volume/EncryptionModeCBC.cpp}) are written: one
 * sector at a time, one block at a time, the chain's first cipher first; outer CBC when all the
 * chain's ciphers have one block size, else each cipher its own CBC, each with the sector IV and
 * whitening of its block size. Every legacy row of the table, random key areas, runs of 1 to 9
 * sectors from random sector numbers. cryptsetup's tarball wiped the payloads of the Blowfish and
 * cascade images, so this is what checks those modes' payload; the one-cipher rows are also
 * checked by their images (TcryptImagesTest).
 */
class LegacyCbcTest {
    @Test
    void decryptsWhatTrueCryptsSectorCbcEncrypts() throws Exception {
        Random r = new Random(40);
        for (Chain chain : Chain.ROWS) {
            if (!chain.mode().legacy()) {
                continue;
            }
            for (int trial = 0; trial < 4; trial++) {
                byte[] area = new byte[TcryptHeader.KEYS_LEN];
                r.nextBytes(area);
                int sectors = 1 + r.nextInt(9);
                long first = trial == 0 ? 1 : r.nextInt(1 << 30) & ~0L;
                byte[] plain = new byte[sectors * 512];
                r.nextBytes(plain);
                byte[] b = plain.clone();
                for (int s = 0; s < sectors; s++) {
                    encryptSector(chain, area, b, s * 512, first + s);
                }
                List<TcryptSectors.Layer> layers = LegacyCbc.layers(new org.vectorjce.VectorJceProvider(), chain, area);
                for (int i = layers.size() - 1; i >= 0; i--) {
                    layers.get(i).decrypt(first, b, 0, b.length);
                }
                layers.forEach(TcryptSectors.Layer::close);
                assertArrayEquals(plain, b, chain + ", trial " + trial);
            }
        }
    }

    /** TrueCrypt's sector encryption, serial, from its description (see the class comment). */
    private static void encryptSector(Chain chain, byte[] area, byte[] b, int off, long n) throws Exception {
        List<Chain.Part> parts = chain.parts();
        Ecb[] c = new Ecb[parts.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = Ecb.of(new org.vectorjce.VectorJceProvider(), parts.get(i).cipher(), area, parts.get(i).keyOffset(),
                    parts.get(i).keySize());
        }
        boolean outer = c.length > 1 && Arrays.stream(c).allMatch(x -> x.blockSize() == c[0].blockSize());
        if (outer) {
            cbcEncrypt(c, area, b, off, n);
        } else {
            for (Ecb x : c) {
                cbcEncrypt(new Ecb[] {x}, area, b, off, n);
            }
        }
    }

    private static void cbcEncrypt(Ecb[] chain, byte[] area, byte[] b, int off, long n) throws Exception {
        int bs = chain[0].blockSize();
        // InitSectorIVAndWhitening: iv64[i] = ivSeed[i] ^ LE64(n), whitening from iv32[bs/4 ...]
        byte[] iv64 = new byte[32];
        for (int i = 0; i < 32; i++) {
            iv64[i] = (byte) (area[i] ^ (n >>> (8 * (i % 8))));
        }
        int base = bs / 4; // the first whitening word: iv32[4] for 16-byte blocks, iv32[2] for 8
        int w0 = crc(iv64, base) ^ crc(iv64, base + 3), w1 = crc(iv64, base + 1) ^ crc(iv64, base + 2);
        byte[] w = new byte[8];
        for (int k = 0; k < 4; k++) {
            w[k] = (byte) (w0 >>> (8 * k));
            w[4 + k] = (byte) (w1 >>> (8 * k));
        }
        byte[] prev = Arrays.copyOf(iv64, bs);
        for (int o = off; o < off + 512; o += bs) {
            for (int k = 0; k < bs; k++) {
                b[o + k] ^= prev[k];
            }
            for (Ecb x : chain) {
                x.encrypt(b, o, bs);
            }
            System.arraycopy(b, o, prev, 0, bs);
            for (int k = 0; k < bs; k++) {
                b[o + k] ^= w[k % 8];
            }
        }
    }

    /** crc32int: the CRC-32 of the 4 bytes of word {@code i}. */
    private static int crc(byte[] b, int i) {
        CRC32 c = new CRC32();
        c.update(b, 4 * i, 4);
        return (int) c.getValue();
    }
}
