package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import org.vectorjce.SectorChannel;
import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.internal.BlockCipherXts;
import org.vectorjce.volumes.internal.ImageIo;

/**
 * The sectors of a TrueCrypt/VeraCrypt volume under the provider's {@link SectorChannel}: bytes
 * {@code [offset, offset + size)} of the image in 512-byte data units, decrypted by the chain's
 * ciphers from the last to the first (the order dm-crypt's stacked devices take when cryptsetup
 * maps a cascade). The data unit of plaintext byte {@code p} is {@code ivOffset + (p >> 9)}, as
 * {@code TCRYPT_get_iv_offset} gives the offset. Each cipher is the provider's sector API
 * ({@link SectorCipher}, no {@code Cipher.init} per run): {@code aes|twofish|serpent-xts-plain64},
 * or {@code -lrw-benbi} for TrueCrypt 4.x; Camellia and Kuznyechik are Bouncy Castle's engines
 * under {@link BlockCipherXts} (one block per engine call, so those chains read slower). TrueCrypt
 * before 4.0 is CBC with its sector IV and whitening ({@link LegacyCbc}). Each run goes through
 * each cipher whole before the next. Writable when the volume was opened for writing and the chain
 * is XTS or LRW: a write encrypts with the chain's first cipher first (so that reading undoes it);
 * the pre-4.0 CBC modes are read-only. Each {@link #transform()} keys the chain anew from the
 * volume's key area (which the volume owns and wipes); the image stays open when the channel
 * closes (the volume owns it).
 */
final class TcryptSectors implements SectorChannel.Sectors {
    static final int UNIT = 512;

    private final SeekableByteChannel image;
    private final Chain chain;
    private final byte[] keyArea;
    private final VectorJceProvider provider;
    private final long offset, size, ivOffset;
    private final boolean writable;

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

    /**
     * Over {@code [offset, offset + size)} of {@code image}, keyed from {@code keyArea} (kept, not
     * copied: the volume wipes it), writable when {@code writable} (XTS and LRW chains only).
     *
     * @throws UnsupportedVolumeException for a writable pre-4.0 CBC chain, or key material too short
     */
    TcryptSectors(SeekableByteChannel image, Chain chain, byte[] keyArea, long offset, long size, long ivOffset,
            VectorJceProvider provider, boolean writable) throws UnsupportedVolumeException {
        if (writable && chain.mode().legacy()) {
            throw new UnsupportedVolumeException(chain + ": TrueCrypt's pre-4.0 CBC volumes are read-only here");
        }
        String problem = chain.keyMaterialProblem(keyArea, "key area");
        if (problem != null) {
            throw new UnsupportedVolumeException(problem);
        }
        this.image = image;
        this.chain = chain;
        this.keyArea = keyArea;
        this.provider = provider;
        this.offset = offset;
        this.size = size;
        this.ivOffset = ivOffset;
        this.writable = writable;
    }

    /** The plaintext channel over these sectors, the chain keyed once here so that a refusal comes now. */
    SectorChannel channel() throws UnsupportedVolumeException {
        try {
            return SectorChannel.over(this, size, UNIT, writable);
        } catch (GeneralSecurityException e) {
            throw new UnsupportedVolumeException(e.getMessage());
        }
    }

    @Override
    public void read(long p, ByteBuffer b) throws IOException {
        ImageIo.readPayload(image, offset + p, b);
    }

    @Override
    public void write(long p, ByteBuffer b) throws IOException {
        ImageIo.write(image, offset + p, b);
    }

    /** The chain's layers, keyed from the key area; a refusal names the chain. */
    @Override
    public SectorChannel.Transform transform() throws GeneralSecurityException {
        int n = chain.parts().size();
        Layer[] layers = new Layer[chain.mode().legacy() ? (chain.mode() == Chain.Mode.CBCI_TCRYPT ? 1 : n) : n];
        try {
            if (chain.mode().legacy()) {
                LegacyCbc.layers(provider, chain, keyArea).toArray(layers);
            } else {
                for (int i = 0; i < n; i++) {
                    layers[i] = layer(chain, i, keyArea, provider);
                }
            }
        } catch (GeneralSecurityException | UnsupportedVolumeException e) {
            close(layers);
            throw new GeneralSecurityException(e instanceof UnsupportedVolumeException ? e.getMessage()
                    : chain + ": the provider refused its key or data units: " + e.getMessage(), e);
        }
        return new SectorChannel.Transform() {
            /** The chain's last cipher first. */
            @Override
            public void decrypt(long p, byte[] b, int off, int len) throws GeneralSecurityException {
                long unit = ivOffset + (p >> 9);
                for (int i = layers.length - 1; i >= 0; i--) {
                    layers[i].decrypt(unit, b, off, len);
                }
            }

            /** The chain's first cipher first, the reverse of decrypt. */
            @Override
            public void encrypt(long p, byte[] b, int off, int len) throws GeneralSecurityException {
                long unit = ivOffset + (p >> 9);
                for (Layer l : layers) {
                    l.encrypt(unit, b, off, len);
                }
            }

            @Override
            public void close() {
                TcryptSectors.close(layers);
            }
        };
    }

    private static void close(Layer[] layers) {
        for (Layer l : layers) {
            if (l != null) {
                l.close();
            }
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
}
