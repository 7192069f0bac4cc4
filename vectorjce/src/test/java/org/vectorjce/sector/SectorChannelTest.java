package org.vectorjce.sector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.security.InvalidAlgorithmParameterException;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.vectorjce.SectorChannel;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * {@link SectorChannel} against an in-memory model of the plaintext: random positions, lengths
 * and interleavings of reads, writes, truncates and re-opens; after each step the whole image,
 * decrypted on its own with a {@link SectorParameterSpec} cipher (tested against the oracle in
 * {@code SectorOracleTest}), must equal the model. Then an image channel that fails at random
 * points: every sector must decrypt to its old or its new plaintext.
 */
class SectorChannelTest {
    private static final VectorJceProvider VJ = new VectorJceProvider();

    /** The whole image decrypted independently of the channel. */
    private static byte[] decryptImage(byte[] image, String alg, String mode, String gen, byte[] key, int sector,
            long first, boolean large) throws Exception {
        Cipher c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", VJ);
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, alg), new SectorParameterSpec(gen, first, sector, large));
        return c.doFinal(image);
    }

    @ParameterizedTest(name = "{0}-{1}-{2} {3}-byte sectors, first {4}, large {5}")
    @CsvSource({
        "AES, XTS, plain64, 512, 0, false",
        "Twofish, XTS, plain64, 4096, 7, true",
        "AES, CBC, essiv:sha256, 1024, 3, false",
        "Twofish, LRW, benbi, 512, 1000, false",
        "AES, XTS, plain, 2048, 4294967290, false",
    })
    void randomOperationsMatchTheModel(String alg, String mode, String gen, int sector, long first, boolean large)
            throws Exception {
        Random rnd = new Random((alg + mode + gen + sector).hashCode());
        byte[] key = new byte[mode.equals("XTS") ? 64 : mode.equals("LRW") ? 48 : 32];
        rnd.nextBytes(key);
        key[0] = 1;
        key[key.length / 2] = 2;
        String spec = alg.toLowerCase() + "-" + mode.toLowerCase() + "-" + gen;
        MemChannel mem = new MemChannel(rnd);
        mem.sector = sector;
        SectorChannel ch = SectorChannel.open(mem, spec, new SecretKeySpec(key, alg), sector, first, large);
        byte[] model = new byte[0];
        for (int step = 0; step < 300; step++) {
            int op = rnd.nextInt(10);
            long limit = model.length + 3L * sector;
            if (op < 4) { // write
                long pos = (long) (rnd.nextDouble() * limit);
                int len = rnd.nextInt(4) == 0 ? rnd.nextInt(5 * sector) : rnd.nextInt(64);
                byte[] data = new byte[len];
                rnd.nextBytes(data);
                ch.position(pos);
                assertEquals(len, ch.write(ByteBuffer.wrap(data)));
                assertEquals(pos + len, ch.position());
                long newSize = Math.max(model.length, (pos + len + sector - 1) / sector * sector);
                model = Arrays.copyOf(model, (int) newSize);
                System.arraycopy(data, 0, model, (int) pos, len);
            } else if (op < 7) { // read
                long pos = (long) (rnd.nextDouble() * limit);
                int len = rnd.nextInt(3 * sector);
                ByteBuffer dst = ByteBuffer.allocate(len);
                ch.position(pos);
                int n = ch.read(dst);
                if (pos >= model.length) {
                    assertEquals(len == 0 ? 0 : -1, n, "read at or past the end");
                } else {
                    int want = (int) Math.min(len, model.length - pos);
                    assertEquals(want, n);
                    assertArrayEquals(Arrays.copyOfRange(model, (int) pos, (int) pos + want),
                            Arrays.copyOf(dst.array(), n), "read at " + pos + ", " + len);
                }
            } else if (op < 8) { // truncate
                long to = sector * (long) rnd.nextInt(model.length / sector + 2);
                if (to <= model.length) {
                    ch.truncate(to);
                    model = Arrays.copyOf(model, (int) to);
                }
                SectorChannel c = ch;
                long bad = model.length + 1L;
                assertThrows(IOException.class, () -> c.truncate(bad), "truncate inside a sector");
            } else if (op < 9) { // re-open
                SectorChannel closed = ch;
                closed.close();
                assertThrows(ClosedChannelException.class, () -> closed.read(ByteBuffer.allocate(1)));
                mem = mem.reopen();
                ch = SectorChannel.open(mem, spec, new SecretKeySpec(key, alg), sector, first, large);
            } else { // the whole image, independently
                assertArrayEquals(model, decryptImage(mem.bytes(), alg, mode, gen, key, sector, first, large),
                        "image after step " + step);
            }
            assertEquals(model.length, ch.size(), "size after step " + step);
            assertEquals(0, ch.size() % sector);
        }
        assertArrayEquals(model, decryptImage(mem.bytes(), alg, mode, gen, key, sector, first, large));
        ch.close();
        assertFalse(ch.isOpen());
    }

    @Test
    void failingImageLeavesEverySectorOldOrNew() throws Exception {
        Random rnd = new Random(42);
        int sector = 512;
        byte[] key = new byte[64];
        rnd.nextBytes(key);
        key[0] = 1;
        MemChannel mem = new MemChannel(rnd);
        SectorChannel ch = SectorChannel.open(mem, "aes-xts-plain64", new SecretKeySpec(key, "AES"), sector, 0, false);
        byte[] model = new byte[64 * sector];
        rnd.nextBytes(model);
        ch.write(ByteBuffer.wrap(model));
        mem.failWrites = 0.3;
        int failures = 0;
        for (int step = 0; step < 200; step++) {
            long pos = rnd.nextInt(model.length);
            int len = rnd.nextInt(4 * 1024 * 1024 / 64 + 1);
            len = (int) Math.min(len, model.length - pos);
            byte[] data = new byte[len];
            rnd.nextBytes(data);
            byte[] after = model.clone();
            System.arraycopy(data, 0, after, (int) pos, len);
            ch.position(pos);
            ByteBuffer src = ByteBuffer.wrap(data);
            try {
                ch.write(src);
                model = after;
            } catch (IOException e) {
                failures++;
                assertEquals(0, src.position(), "a failed write consumes nothing of the source");
                assertEquals(pos, ch.position(), "a failed write does not move the position");
                byte[] now = decryptImage(mem.bytes(), "AES", "XTS", "plain64", key, sector, 0, false);
                for (int s = 0; s < model.length / sector; s++) {
                    byte[] got = Arrays.copyOfRange(now, s * sector, (s + 1) * sector);
                    boolean old = Arrays.equals(got, Arrays.copyOfRange(model, s * sector, (s + 1) * sector));
                    boolean neu = Arrays.equals(got, Arrays.copyOfRange(after, s * sector, (s + 1) * sector));
                    assertTrue(old || neu, "sector " + s + " holds neither its old nor its new plaintext");
                }
                model = now; // what is there now is the new truth
            }
        }
        assertTrue(failures > 10, "the failure injection must have fired: " + failures);
    }

    @Test
    void badImagesAndSpecsAreRefused() throws Exception {
        MemChannel mem = new MemChannel(new Random(1));
        mem.data = new byte[1000];
        mem.size = 1000;
        SecretKeySpec k = new SecretKeySpec(new byte[64], "AES");
        IOException e = assertThrows(IOException.class, () -> SectorChannel.open(mem, "aes-xts-plain64", k, 512, 0, false));
        assertTrue(e.getMessage().contains("1000 bytes") && e.getMessage().contains("512-byte sectors"), e.getMessage());
        MemChannel empty = new MemChannel(new Random(1));
        for (String bad : new String[] {"aes-xts", "camellia-xts-plain64", "aes-ctr-plain64", "aes-xts-benbi"}) {
            assertThrows(InvalidAlgorithmParameterException.class,
                    () -> SectorChannel.open(empty, bad, k, 512, 0, false), bad);
        }
    }
}
