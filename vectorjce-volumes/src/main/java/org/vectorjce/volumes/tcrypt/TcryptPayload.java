package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.BlockCipherXts;
import org.vectorjce.volumes.internal.SectorPayload;

/**
 * The plaintext of a TrueCrypt/VeraCrypt volume: bytes {@code [offset, offset + size)}
 * of the image in 512-byte data units, decrypted by the chain's ciphers from the last to the first
 * (the order dm-crypt's stacked devices take when cryptsetup maps a cascade). Each cipher is the
 * provider's sector API ({@link SectorCipher}, no {@code Cipher.init} per run):
 * {@code aes|twofish|serpent-xts-plain64} (data unit {@code ivOffset + i}, as {@code TCRYPT_get_iv_offset}
 * gives it), or {@code -lrw-benbi} for TrueCrypt 4.x; Camellia and Kuznyechik are Bouncy Castle's
 * engines under {@link BlockCipherXts} (one block per engine call, so those chains read slower).
 * TrueCrypt before 4.0 is CBC with its sector IV and whitening ({@link LegacyCbc}).
 * Each run ({@link SectorPayload}: up to 1 MiB, read into the caller's heap buffer or a work buffer)
 * goes through each cipher whole before the next. Writable when the volume was opened for writing
 * and the chain is XTS or LRW: a write encrypts with the chain's first cipher first (so that
 * reading undoes it), as {@link SectorPayload} writes; the pre-4.0 CBC modes are read-only.
 * Otherwise writes and truncation throw {@link NonWritableChannelException}. Closing wipes the
 * keys, buffers and cipher schedules and leaves the image open (the volume owns it). Not
 * thread-safe.
 */
final class TcryptPayload extends SectorPayload {
    static final int UNIT = 512;

    private final SeekableByteChannel image;
    private final long offset, ivOffset;
    private final Layer[] layers;   // the chain's order: decrypted from the last (cbci-tcrypt: one for the chain)

    /** One stage of the chain over runs of whole data units, in place. */
    interface Layer {
        void decrypt(long unit, byte[] b, int off, int len) throws GeneralSecurityException;

        /** Encrypts in place; refused by the layers that only read (the pre-4.0 CBC modes). */
        default void encrypt(long unit, byte[] b, int off, int len) throws GeneralSecurityException {
            throw new NonWritableChannelException();
        }

        /** Wipes the keys and schedules. */
        void close();
    }

    TcryptPayload(SeekableByteChannel image, Chain chain, byte[] keyArea, long offset, long size, long ivOffset,
            VectorJceProvider provider) throws UnsupportedVolumeException {
        this(image, chain, keyArea, offset, size, ivOffset, provider, false);
    }

    /** As the other constructor, writable when {@code writable} (XTS and LRW chains only). */
    TcryptPayload(SeekableByteChannel image, Chain chain, byte[] keyArea, long offset, long size, long ivOffset,
            VectorJceProvider provider, boolean writable) throws UnsupportedVolumeException {
        super(size, UNIT, writable);
        if (writable && chain.mode().legacy()) {
            throw new UnsupportedVolumeException(chain + ": TrueCrypt's pre-4.0 CBC volumes are read-only here");
        }
        this.image = image;
        this.offset = offset;
        this.ivOffset = ivOffset;
        String problem = chain.keyMaterialProblem(keyArea, "key area");
        if (problem != null) {
            throw new UnsupportedVolumeException(problem);
        }
        int n = chain.parts().size();
        layers = new Layer[chain.mode().legacy() ? (chain.mode() == Chain.Mode.CBCI_TCRYPT ? 1 : n) : n];
        try {
            if (chain.mode().legacy()) {
                LegacyCbc.layers(provider, chain, keyArea).toArray(layers);
            } else {
                for (int i = 0; i < n; i++) {
                    layers[i] = layer(chain, i, keyArea, provider);
                }
            }
        } catch (GeneralSecurityException e) {
            wipe();
            throw new UnsupportedVolumeException(chain + ": the provider refused its key or data units: "
                    + e.getMessage());
        } catch (UnsupportedVolumeException e) {
            wipe();
            throw e;
        }
    }

    /** Cipher {@code i} of the chain as a layer. */
    private static Layer layer(Chain chain, int i, byte[] keyArea, VectorJceProvider provider)
            throws GeneralSecurityException, UnsupportedVolumeException {
        String cipher = chain.parts().get(i).cipher();
        String mode = switch (chain.mode()) {
            case XTS -> "xts-plain64";
            case LRW -> "lrw-benbi";
            default -> throw new UnsupportedVolumeException("Cipher mode " + chain.mode().cryptsetupName
                    + " has no payload reader");
        };
        if (!Ecb.PROVIDER.contains(cipher)) {
            if (chain.mode() != Chain.Mode.XTS || !Ecb.ALL.contains(cipher)) {
                throw new UnsupportedVolumeException(chain + ": no payload reader for " + cipher);
            }
            byte[] k = chain.partKey(i, keyArea);
            try {
                BlockCipherXts x = BlockCipherXts.of(() -> bcEngine(cipher), k, UNIT);
                return new Layer() {
                    @Override
                    public void decrypt(long unit, byte[] b, int off, int len) {
                        x.decrypt(unit, b, off, len);
                    }

                    @Override
                    public void encrypt(long unit, byte[] b, int off, int len) {
                        x.encrypt(unit, b, off, len);
                    }

                    @Override
                    public void close() {
                        x.close();
                    }
                };
            } catch (IllegalArgumentException e) {
                throw new GeneralSecurityException(e.getMessage(), e);
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        }
        byte[] k = chain.partKey(i, keyArea);
        try {
            SectorCipher c = SectorCipher.of(cipher + "-" + mode, k, UNIT, false, provider);
            String refusal = c.encryptionRefusal();
            return new Layer() {
                @Override
                public void decrypt(long unit, byte[] b, int off, int len) {
                    c.decrypt(unit, b, off, len);
                }

                @Override
                public void encrypt(long unit, byte[] b, int off, int len) throws GeneralSecurityException {
                    if (refusal != null) {
                        throw new java.security.InvalidKeyException(refusal);
                    }
                    c.encrypt(unit, b, off, len);
                }

                @Override
                public void close() {
                    c.close(); // wipes the key schedules
                }
            };
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }

    private static org.bouncycastle.crypto.BlockCipher bcEngine(String cipher) {
        try {
            return Ecb.engine(cipher);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Decrypts {@code len} bytes (whole data units from {@code unit}) in place: the chain's last cipher first. */
    @Override
    protected void decrypt(byte[] b, int off, int len, long unit) throws GeneralSecurityException {
        for (int i = layers.length - 1; i >= 0; i--) {
            layers[i].decrypt(ivOffset + unit, b, off, len);
        }
    }

    /** Encrypts in place: the chain's first cipher first, the reverse of {@link #decrypt}. */
    @Override
    protected void encrypt(byte[] b, int off, int len, long unit) throws GeneralSecurityException {
        for (Layer l : layers) {
            l.encrypt(ivOffset + unit, b, off, len);
        }
    }

    @Override
    protected void readCiphertext(long p, ByteBuffer b) throws IOException {
        readFully(image, offset + p, b);
    }

    @Override
    protected void writeCiphertext(long p, ByteBuffer b) throws IOException {
        writeFully(image, offset + p, b);
    }

    @Override
    protected void wipe() {
        for (Layer l : layers) {
            if (l != null) {
                l.close();
            }
        }
    }
}
