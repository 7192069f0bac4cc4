package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.WrongPassphraseException;
import org.vectorjce.volumes.kdf.HashAlgorithm;
import org.vectorjce.volumes.kdf.Pbkdf2;

/**
 * Headers made here that decrypt and pass both CRC32s but lie: a volume bigger than the image, a
 * data offset past its end or not on a sector, an offset + size that overflows, a hidden volume
 * larger than the image, a sector size the format does not have. Each is refused as corrupt
 * before any payload is read or allocated; and a valid forged header opens, so the forgery is
 * right. The header is TrueCrypt's (PBKDF2-SHA-512, 1000 iterations; AES-XTS, data unit 0).
 */
class TcryptForgedHeaderTest {
    static final byte[] PW = "forged".getBytes(StandardCharsets.UTF_8);
    static final int IMAGE = 64 * 1024 + 2 * 4096;

    @TempDir
    Path tmp;

    /** An image whose header has these fields (big-endian at the format's offsets) and a random key area. */
    Path image(long volumeSize, long dataOffset, long hiddenSize, int sectorSize, int version) throws Exception {
        Random r = new Random(volumeSize * 31 + dataOffset * 7 + sectorSize);
        byte[] salt = new byte[64];
        r.nextBytes(salt);
        byte[] h = new byte[448];
        h[0] = 'T';
        h[1] = 'R';
        h[2] = 'U';
        h[3] = 'E';
        put(h, TcryptHeader.VERSION, version, 2);
        put(h, TcryptHeader.REQUIRED_VERSION, 0x0700, 2);
        put(h, TcryptHeader.HIDDEN_SIZE, hiddenSize, 8);
        put(h, TcryptHeader.VOLUME_SIZE, volumeSize, 8);
        put(h, TcryptHeader.DATA_OFFSET, dataOffset, 8);
        put(h, TcryptHeader.DATA_SIZE, volumeSize, 8);
        put(h, TcryptHeader.SECTOR_SIZE, sectorSize, 4);
        byte[] keys = new byte[256];
        r.nextBytes(keys);
        System.arraycopy(keys, 0, h, TcryptHeader.KEYS, 256);
        put(h, TcryptHeader.KEYS_CRC, TcryptHeader.crc32(h, TcryptHeader.KEYS, 256), 4);
        put(h, TcryptHeader.HEADER_CRC, TcryptHeader.crc32(h, 0, TcryptHeader.HEADER_CRC), 4);
        byte[] key = Pbkdf2.derive(HashAlgorithm.SHA512, PW, salt, 1000, 64);
        Cipher c = Cipher.getInstance("AES/XTS/NoPadding", new VectorJceProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
        byte[] img = new byte[IMAGE];
        r.nextBytes(img);
        System.arraycopy(salt, 0, img, 0, 64);
        c.doFinal(h, 0, 448, img, 64);
        Path p = tmp.resolve("forged-" + System.nanoTime());
        Files.write(p, img);
        return p;
    }

    static void put(byte[] b, int off, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = (byte) (v >>> (8 * (n - 1 - i)));
        }
    }

    static TcryptVolume open(Path p, boolean hidden) throws Exception {
        return TcryptVolume.at(p).passphrase(PW).hash("sha512").cipher("aes").veracrypt(false).hidden(hidden).open();
    }

    @Test
    void aValidForgedHeaderOpens() throws Exception {
        Path p = image(16384, 32768, 0, 512, 5);
        try (TcryptVolume v = open(p, false)) {
            assertEquals(32768, v.info().payloadOffset());
            assertEquals(16384, v.info().payloadSize());
            assertEquals(64, v.info().ivOffset());
            ByteBuffer b = ByteBuffer.allocate(16384);
            assertEquals(16384, v.payload().read(b));
        }
    }

    @Test
    void liesAboutTheLayoutAreRefusedAsCorrupt() throws Exception {
        long[][] bad = {
            // volume size, data offset, hidden size, sector size
            {IMAGE, 32768, 0, 512},                 // runs past the end
            {16384, IMAGE + 512, 0, 512},            // starts past the end
            {16384, 32768 + 100, 0, 512},            // not on a sector
            {16384 + 100, 32768, 0, 512},            // not whole sectors
            {0x7FFF_FFFF_FFFF_FE00L, 32768, 0, 512}, // offset + size overflows
            {-512, 32768, 0, 512},                    // unsigned 2^64 - 512
            {16384, -4096, 0, 512},                   // unsigned, huge
            {16384, 32768, 0, 3},                     // a sector size the format does not have
            {16384, 32768, 0, 8192},
        };
        for (long[] b : bad) {
            Path p = image(b[0], b[1], b[2], (int) b[3], 5);
            byte[] before = Files.readAllBytes(p);
            CorruptHeaderException e = assertThrows(CorruptHeaderException.class, () -> open(p, false).close(),
                    Arrays.toString(b));
            assertTrue(e.getMessage().contains("normal header"), e.getMessage());
            assertArrayEquals(before, Files.readAllBytes(p));
        }
    }

    @Test
    void aHiddenVolumeLargerThanTheImageIsRefused() throws Exception {
        // the hidden header at 64 KiB of an image whose own header at 0 is random
        Path outer = image(16384, 32768, 0, 512, 5);
        byte[] img = Files.readAllBytes(outer);
        Path forged = image(8192, 32768, IMAGE * 2L, 512, 5);
        System.arraycopy(Files.readAllBytes(forged), 0, img, 65536, 512);
        Files.write(outer, img);
        CorruptHeaderException e = assertThrows(CorruptHeaderException.class, () -> open(outer, true).close());
        assertTrue(e.getMessage().contains("hidden header"), e.getMessage());
    }

    @Test
    void damagedHeadersDoNotOpen() throws Exception {
        Random r = new Random(1);
        Path p = image(16384, 32768, 0, 512, 5);
        byte[] good = Files.readAllBytes(p);
        for (int i = 0; i < 40; i++) {
            byte[] img = good.clone();
            img[r.nextInt(512)] ^= (byte) (1 << r.nextInt(8)); // one bit, salt or encrypted header
            Files.write(p, img);
            VolumeException e = assertThrows(VolumeException.class, () -> open(p, false).close());
            assertTrue(e instanceof WrongPassphraseException, e.toString());
        }
    }
}
