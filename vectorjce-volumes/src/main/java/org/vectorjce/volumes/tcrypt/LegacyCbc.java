package org.vectorjce.volumes.tcrypt;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The payload of a TrueCrypt volume from before version 4.0, read-only: CBC per 512-byte sector
 * with TrueCrypt's sector IV and whitening, as Linux dm-crypt's {@code tcw} IV generator
 * ({@code drivers/md/dm-crypt.c}, {@code crypt_iv_tcw_gen} and {@code crypt_iv_tcw_whitening})
 * computes them for cryptsetup's {@code cbc-tcw}. For sector {@code n} (its number
 * counted from the image's start, as {@code TCRYPT_get_iv_offset} gives it) and a cipher of block
 * size {@code bs}, with {@code s} the first 32 bytes of the key area (the IV seed, then the
 * whitening seed) and {@code N} the 8 bytes of {@code n} little-endian:
 * <ul>
 *   <li>IV = {@code s[0, bs) ⊕ N N};</li>
 *   <li>whitening: {@code x = s[bs, bs + 16) ⊕ N N}, four CRC-32s {@code c0..c3} of its four 4-byte
 *       words, {@code W = le32(c0 ⊕ c3) ‖ le32(c1 ⊕ c2)}, XORed over every 8 bytes of the
 *       sector's ciphertext before CBC decryption.</li>
 * </ul>
 * cryptsetup maps only {@code cbc-tcw} (one cipher); it reads the headers of the other two modes
 * but the kernel cannot map them, so they follow the same arithmetic in TrueCrypt's two cascade
 * forms: {@code cbci-tcrypt} (TrueCrypt's "outer CBC") is one CBC around the whole chain, its IV
 * and whitening of the first cipher's block size — the form of {@code TCRYPT_decrypt_cbci} for
 * the header; {@code cbc-tcrypt} (the Blowfish cascades, "inner CBC") gives each cipher its own
 * CBC with the IV and whitening of its block size, from the same seeds, the last cipher's undone
 * first.
 *
 * <p>CBC decryption is parallel: a run of sectors is de-whitened, copied, decrypted whole by each
 * cipher's ECB ({@link Ecb}: the provider's multi-block kernels for AES, Twofish and Serpent),
 * then each block XORed with the ciphertext block before it (the sector's IV for its first).
 * {@link #close()} wipes the seeds and the copy and re-keys the ciphers with zeros.
 */
final class LegacyCbc implements TcryptSectors.Layer {
    static final int UNIT = 512;

    private final Ecb[] ciphers;   // inside one CBC, the chain's order: the last decrypts first
    private final int bs;
    private final byte[] seed;     // IV seed ‖ whitening seed
    private final byte[] w = new byte[8], iv = new byte[16];
    private final CRC32 crc = new CRC32();
    private byte[] copy = new byte[0];

    private LegacyCbc(Ecb[] ciphers, byte[] seed) {
        this.ciphers = ciphers;
        this.bs = ciphers[0].blockSize();
        this.seed = seed;
    }

    /**
     * The layers of {@code chain} (a legacy mode) keyed from the volume's key area: one for
     * {@code cbci-tcrypt} (the whole chain, {@link TcryptSectors} runs layer 0 only), else one per
     * cipher.
     */
    static List<TcryptSectors.Layer> layers(Provider provider, Chain chain, byte[] area)
            throws GeneralSecurityException {
        List<TcryptSectors.Layer> out = new ArrayList<>();
        List<Ecb> made = new ArrayList<>();
        boolean ok = false;
        try {
            if (chain.mode() == Chain.Mode.CBCI_TCRYPT) {
                Ecb[] all = new Ecb[chain.parts().size()];
                for (int i = 0; i < all.length; i++) {
                    Chain.Part p = chain.parts().get(i);
                    all[i] = Ecb.of(provider, p.cipher(), area, p.keyOffset(), p.keySize());
                    made.add(all[i]);
                }
                out.add(new LegacyCbc(all, Arrays.copyOf(area, 32)));
            } else {
                for (Chain.Part p : chain.parts()) {
                    Ecb e = Ecb.of(provider, p.cipher(), area, p.keyOffset(), p.keySize());
                    made.add(e);
                    out.add(new LegacyCbc(new Ecb[] {e}, Arrays.copyOf(area, 32)));
                }
            }
            ok = true;
            return out;
        } finally {
            if (!ok) {
                out.forEach(TcryptSectors.Layer::close); // their seed copies
                made.forEach(Ecb::destroy);             // and the ciphers not yet in a layer
            }
        }
    }

    @Override
    public void decrypt(long unit, byte[] b, int off, int len) throws GeneralSecurityException {
        if (copy.length < len) {
            Arrays.fill(copy, (byte) 0);
            copy = new byte[len]; // at most SectorChannel's run, 1 MiB
        }
        long n = unit;
        for (int o = off; o < off + len; o += UNIT, n++) {
            whitening(n);
            for (int j = o; j < o + UNIT; j += 8) {
                for (int k = 0; k < 8; k++) {
                    b[j + k] ^= w[k];
                }
            }
        }
        System.arraycopy(b, off, copy, 0, len);
        for (int i = ciphers.length - 1; i >= 0; i--) {
            ciphers[i].decrypt(b, off, len);
        }
        n = unit;
        for (int o = off; o < off + len; o += UNIT, n++) {
            for (int k = 0; k < bs; k++) {
                iv[k] = (byte) (seed[k] ^ (n >>> (8 * (k & 7))));
            }
            for (int k = 0; k < bs; k++) {
                b[o + k] ^= iv[k];
            }
            for (int j = o + bs; j < o + UNIT; j++) {
                b[j] ^= copy[j - off - bs];
            }
        }
        Arrays.fill(w, (byte) 0);
        Arrays.fill(iv, (byte) 0);
    }

    /** Sector {@code n}'s 8 whitening bytes into {@link #w}. */
    private void whitening(long n) {
        int c0 = crc(n, 0), c1 = crc(n, 4), c2 = crc(n, 8), c3 = crc(n, 12);
        le32(c0 ^ c3, 0);
        le32(c1 ^ c2, 4);
    }

    /** CRC-32 of the 4-byte word at {@code at} of {@code s[bs, bs + 16) ⊕ N N}. */
    private int crc(long n, int at) {
        crc.reset();
        for (int k = at; k < at + 4; k++) {
            crc.update((byte) (seed[bs + k] ^ (n >>> (8 * (k & 7)))));
        }
        return (int) crc.getValue();
    }

    private void le32(int v, int at) {
        for (int k = 0; k < 4; k++) {
            w[at + k] = (byte) (v >>> (8 * k));
        }
    }

    @Override
    public void close() {
        for (Ecb c : ciphers) {
            c.destroy();
        }
        Arrays.fill(seed, (byte) 0);
        Arrays.fill(copy, (byte) 0);
    }
}
