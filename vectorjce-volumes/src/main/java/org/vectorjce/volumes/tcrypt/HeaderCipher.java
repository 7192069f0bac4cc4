package org.vectorjce.volumes.tcrypt;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;




/**
 * Decrypts the 448 encrypted bytes of a TrueCrypt/VeraCrypt header with one {@link Chain}, as
 * {@code TCRYPT_decrypt_hdr} does: XTS as one data unit numbered 0, LRW from block index 1, the
 * pre-4.0 CBC modes with their whitening. The chain runs from its last cipher to its first.
 *
 * <p>This is 28 blocks per trial, so the modes are written here over single blocks of an
 * {@link Ecb}: AES, Twofish and Serpent of the provider the volume was given, the other ciphers
 * Bouncy Castle's engines. Every cipher keyed for a trial is re-keyed with zeros when the trial
 * ends, so no key schedule of a header key outlives it.
 */
final class HeaderCipher {
    static final int LEN = 448;

    private HeaderCipher() {
    }

    /** One block of an {@link Ecb}, in place. */
    private record Block(Ecb ecb) {
        int size() {
            return ecb.blockSize();
        }

        void encrypt(byte[] b, int off) throws GeneralSecurityException {
            ecb.encrypt(b, off, ecb.blockSize());
        }

        void decrypt(byte[] b, int off) throws GeneralSecurityException {
            ecb.decrypt(b, off, ecb.blockSize());
        }

        void destroy() {
            ecb.destroy();
        }
    }

    /** A block cipher keyed with {@code key[off, off + len)}, added to {@code made} for {@link Block#destroy}. */
    private static Block block(Provider provider, String name, byte[] key, int off, int len, List<Block> made)
            throws GeneralSecurityException {
        Block b = new Block(Ecb.of(provider, name, key, off, len));
        made.add(b);
        return b;
    }

    /**
     * Loads and keys {@code provider}'s AES, Twofish and Serpent once with a zero key (in a fresh
     * JVM: class loading and the kernel choice), which the trials need next: the header search runs
     * it on the caller's thread while the KDF runs on the others, when a core would otherwise wait.
     */
    static void prepare(Provider provider) {
        try {
            List<Block> made = new ArrayList<>();
            byte[] zero = new byte[32];
            for (String c : List.of("aes", "twofish", "serpent")) {
                block(provider, c, zero, 0, 32, made).decrypt(new byte[16], 0);
            }
            made.forEach(Block::destroy);
        } catch (GeneralSecurityException e) {
            // the trials will report it
        }
    }

    /**
     * Decrypts {@code buf} ({@link #LEN} bytes) in place with {@code chain} keyed from the header
     * key {@code key} (at least {@link Chain#keyBytesNeeded()} bytes, else
     * {@link java.security.InvalidKeyException} naming the chain and both lengths).
     */
    static void decrypt(Provider provider, Chain chain, byte[] key, byte[] buf) throws GeneralSecurityException {
        decrypt(provider, chain, key, buf, LEN);
    }

    /**
     * Decrypts the first {@code len} bytes of the header (a multiple of 16) in {@code buf} in
     * place: the same bytes a whole decryption gives there, since in every mode a block depends
     * only on the blocks before it (XTS and LRW: on none; CBC: on the one before). A trial
     * decrypts the first 16 bytes, which hold the magic, and the rest only when the magic is there.
     */
    static void decrypt(Provider provider, Chain chain, byte[] key, byte[] buf, int len)
            throws GeneralSecurityException {
        String problem = chain.keyMaterialProblem(key, "header key");
        if (problem != null) {
            throw new java.security.InvalidKeyException(problem);
        }
        if (len < 0 || len % 16 != 0 || len > buf.length) {
            throw new IllegalArgumentException(len + " bytes of a " + buf.length + "-byte header: whole 16-byte blocks");
        }
        List<Block> made = new ArrayList<>();
        try {
            decrypt(provider, chain, key, buf, len, made);
        } finally {
            for (Block b : made) {
                b.destroy();
            }
        }
    }

    private static void decrypt(Provider provider, Chain chain, byte[] key, byte[] buf, int len, List<Block> made)
            throws GeneralSecurityException {
        int n = chain.parts().size();
        switch (chain.mode()) {
            case XTS -> {
                for (int i = n - 1; i >= 0; i--) {
                    Chain.Part p = chain.parts().get(i);
                    xts(block(provider, p.cipher(), key, p.keyOffset(), 32, made), block(provider, p.cipher(), key, p.ivOffset(), 32, made), buf,
                            len);
                }
            }
            case LRW -> {
                for (int i = n - 1; i >= 0; i--) {
                    Chain.Part p = chain.parts().get(i);
                    lrw(block(provider, p.cipher(), key, p.keyOffset(), p.keySize() - 16, made), Arrays.copyOfRange(key, 0, 16), buf,
                            len);
                }
            }
            case CBC_TCW, CBC_TCRYPT -> {
                for (int i = n - 1; i >= 0; i--) {
                    Chain.Part p = chain.parts().get(i);
                    whiten(buf, key, len);
                    Block b = block(provider, p.cipher(), key, p.keyOffset(), p.keySize(), made);
                    cbc(new Block[] {b}, Arrays.copyOfRange(key, p.ivOffset(), p.ivOffset() + b.size()), buf, len);
                }
            }
            case CBCI_TCRYPT -> {
                whiten(buf, key, len);
                Block[] bs = new Block[n];
                for (int i = 0; i < n; i++) {
                    Chain.Part p = chain.parts().get(i);
                    bs[i] = block(provider, p.cipher(), key, p.keyOffset(), p.keySize(), made);
                }
                Chain.Part first = chain.parts().get(0);
                cbc(bs, Arrays.copyOfRange(key, first.ivOffset(), first.ivOffset() + bs[0].size()), buf, len);
            }
        }
    }

    /** IEEE 1619 XTS decryption of one data unit numbered 0 (whole blocks). */
    private static void xts(Block data, Block tweak, byte[] buf, int len) throws GeneralSecurityException {
        byte[] t = new byte[16];
        tweak.encrypt(t, 0);
        for (int off = 0; off < len; off += 16) {
            xor(buf, off, t);
            data.decrypt(buf, off);
            xor(buf, off, t);
            // t × α in GF(2^128), little-endian (IEEE 1619 section 5.2)
            int carry = 0;
            for (int j = 0; j < 16; j++) {
                int v = t[j] & 0xff;
                t[j] = (byte) ((v << 1) | carry);
                carry = v >>> 7;
            }
            if (carry != 0) {
                t[0] ^= (byte) 0x87;
            }
        }
        Arrays.fill(t, (byte) 0);
    }

    /**
     * LRW decryption (Linux {@code lrw()}, TrueCrypt 4.x): block i (from 1) is
     * D(C ⊕ T) ⊕ T with T = K2 ⊗ i in GF(2^128), the 128-bit values big-endian (x^127 the top bit of
     * byte 0), reduced by x^128 + x^7 + x^2 + x + 1.
     */
    private static void lrw(Block data, byte[] k2, byte[] buf, int len) throws GeneralSecurityException {
        byte[] t = new byte[16];
        for (int off = 0, index = 1; off < len; off += 16, index++) {
            byte[] i = new byte[16];
            for (int j = 0; j < 4; j++) {
                i[15 - j] = (byte) (index >>> (8 * j));
            }
            gfMul(k2, i, t);
            xor(buf, off, t);
            data.decrypt(buf, off);
            xor(buf, off, t);
        }
        Arrays.fill(t, (byte) 0);
        Arrays.fill(k2, (byte) 0);
    }

    /** r = a ⊗ b, big-endian bit order. */
    static void gfMul(byte[] a, byte[] b, byte[] r) {
        Arrays.fill(r, (byte) 0);
        for (int bit = 0; bit < 128; bit++) {
            // r = r·x
            int carry = (r[0] & 0x80) != 0 ? 1 : 0;
            for (int j = 0; j < 15; j++) {
                r[j] = (byte) ((r[j] << 1) | ((r[j + 1] & 0xff) >>> 7));
            }
            r[15] = (byte) (r[15] << 1);
            if (carry != 0) {
                r[15] ^= (byte) 0x87;
            }
            if ((b[bit >>> 3] & (0x80 >>> (bit & 7))) != 0) {
                xor(r, 0, a);
            }
        }
    }

    /** CBC decryption with a chain inside (one cipher: plain CBC); the last cipher of {@code bs} runs first. */
    private static void cbc(Block[] bs, byte[] iv, byte[] buf, int len) throws GeneralSecurityException {
        int size = bs[0].size();
        byte[] old = new byte[size];
        for (int off = 0; off < len; off += size) {
            System.arraycopy(buf, off, old, 0, size);
            for (int i = bs.length - 1; i >= 0; i--) {
                bs[i].decrypt(buf, off);
            }
            for (int j = 0; j < size; j++) {
                buf[off + j] ^= iv[j];
            }
            System.arraycopy(old, 0, iv, 0, size);
        }
        Arrays.fill(old, (byte) 0);
        Arrays.fill(iv, (byte) 0);
    }

    /** TrueCrypt's whitening: the 8 bytes at 8 of the key, repeated, XORed over the header. */
    private static void whiten(byte[] buf, byte[] key, int len) {
        for (int j = 0; j < len; j++) {
            buf[j] ^= key[8 + (j % 8)];
        }
    }

    private static void xor(byte[] b, int off, byte[] t) {
        for (int j = 0; j < 16; j++) {
            b[off + j] ^= t[j];
        }
    }
}
