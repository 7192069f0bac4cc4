package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Random;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;

import org.vectorjce.RawKey;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * A TrueCrypt 7-style volume of any size written here, for tests and the payload benchmark
 * (bench/tcrypt.sh): header version 5 at byte 0, PBKDF2-SHA-512 with 1000 iterations, the header
 * and payload encrypted with a chain of cryptsetup's table in XTS (the header as one 448-byte
 * unit 0, the payload in 512-byte units numbered from the data offset / 512), data at 128 KiB. After
 * the sectors given, the payload is random bytes ({@code fill}) or a sparse hole of zeros; either
 * decrypts to noise, which does not matter to a speed measurement.
 */
final class TcryptSynthetic {
    static final long DATA_OFFSET = 131072;

    private TcryptSynthetic() {
    }

    /**
     * Writes {@code file}: a volume of chain {@code chainName} (XTS, e.g. {@code twofish-aes}) with
     * {@code payloadBytes} of payload, whose first bytes are {@code plainStart} (whole 512-byte
     * units) encrypted, the rest random ({@code fill}) or a hole; the volume key area is random
     * from {@code seed}.
     */
    static void write(Path file, String chainName, byte[] password, long payloadBytes, byte[] plainStart, boolean fill,
            long seed) throws IOException, GeneralSecurityException {
        Chain chain = Chain.ROWS.stream().filter(c -> c.mode() == Chain.Mode.XTS && c.name().equals(chainName))
                .findFirst().orElseThrow();
        Random r = new Random(seed);
        byte[] salt = new byte[64], keys = new byte[TcryptHeader.KEYS_LEN];
        r.nextBytes(salt);
        r.nextBytes(keys);
        byte[] h = new byte[HeaderCipher.LEN];
        h[0] = 'T';
        h[1] = 'R';
        h[2] = 'U';
        h[3] = 'E';
        put(h, TcryptHeader.VERSION, 5, 2);
        put(h, TcryptHeader.REQUIRED_VERSION, 0x0700, 2);
        put(h, TcryptHeader.VOLUME_SIZE, payloadBytes, 8);
        put(h, TcryptHeader.DATA_OFFSET, DATA_OFFSET, 8);
        put(h, TcryptHeader.DATA_SIZE, payloadBytes, 8);
        put(h, TcryptHeader.SECTOR_SIZE, 512, 4);
        System.arraycopy(keys, 0, h, TcryptHeader.KEYS, keys.length);
        put(h, TcryptHeader.KEYS_CRC, TcryptHeader.crc32(h, TcryptHeader.KEYS, keys.length), 4);
        put(h, TcryptHeader.HEADER_CRC, TcryptHeader.crc32(h, 0, TcryptHeader.HEADER_CRC), 4);
        byte[] headerKey = Pbkdf2.derive(HashAlgorithm.SHA512, password, salt, 1000, Kdf.KEY_LENGTH);
        encrypt(chain, headerKey, h, 0, h.length, null);
        byte[] data = plainStart.clone();
        encrypt(chain, keys, data, 0, data.length, DATA_OFFSET / 512);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.SPARSE)) {
            out.write(ByteBuffer.wrap(salt), 0);
            out.write(ByteBuffer.wrap(h), 64);
            out.write(ByteBuffer.wrap(data), DATA_OFFSET);
            if (fill) {
                byte[] noise = new byte[1 << 20];
                for (long at = data.length; at < payloadBytes; at += noise.length) {
                    r.nextBytes(noise);
                    out.write(ByteBuffer.wrap(noise, 0, (int) Math.min(noise.length, payloadBytes - at)), DATA_OFFSET + at);
                }
            }
            // the backup header's place and a last byte: the file's size is the volume's
            long end = DATA_OFFSET + payloadBytes + DATA_OFFSET;
            out.write(ByteBuffer.wrap(new byte[1]), end - 1);
        } finally {
            Arrays.fill(headerKey, (byte) 0);
        }
    }

    /**
     * Encrypts {@code b} with the chain, its first cipher first: the header (as one XTS unit 0)
     * when {@code unit} is null, else 512-byte units from {@code unit}.
     */
    static void encrypt(Chain chain, byte[] area, byte[] b, int off, int len, Long unit)
            throws GeneralSecurityException {
        for (int i = 0; i < chain.parts().size(); i++) {
            String cipher = chain.parts().get(i).cipher();
            byte[] k = chain.partKey(i, area);
            if (!Ecb.PROVIDER.contains(cipher)) {
                // Camellia, Kuznyechik: Bouncy Castle's engine under the module's XTS
                try (var x = org.vectorjce.volumes.internal.BlockCipherXts.of(() -> engine(cipher), k,
                        unit == null ? len : 512)) {
                    x.encrypt(unit == null ? 0 : unit, b, off, len);
                }
                Arrays.fill(k, (byte) 0);
                continue;
            }
            String alg = Ecb.jcaName(cipher);
            Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", new org.vectorjce.VectorJceProvider());
            if (unit == null) {
                c.init(Cipher.ENCRYPT_MODE, new RawKey(alg, k), new IvParameterSpec(new byte[16]));
            } else {
                c.init(Cipher.ENCRYPT_MODE, new RawKey(alg, k), new SectorParameterSpec("plain64", unit, 512));
            }
            c.doFinal(b, off, len, b, off);
            Arrays.fill(k, (byte) 0);
        }
    }

    static org.bouncycastle.crypto.BlockCipher engine(String cipher) {
        try {
            return Ecb.engine(cipher);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static void put(byte[] b, int off, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = (byte) (v >>> (8 * (n - 1 - i)));
        }
    }
}
