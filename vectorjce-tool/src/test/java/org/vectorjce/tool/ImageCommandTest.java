package org.vectorjce.tool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/** {@code image encrypt|decrypt}: the round trip on a generated image, and every error exit. */
class ImageCommandTest {
    record Run(int status, String out, String err) {
    }

    static Run image(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int status = ImageCommand.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Run(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void roundTripMatchesTheSectorCipher(@TempDir Path dir) throws Exception {
        Random rnd = new Random(13);
        byte[] plain = new byte[3 * (1 << 20) + 8 * 512]; // more than one 1 MiB run
        rnd.nextBytes(plain);
        byte[] key = new byte[64];
        rnd.nextBytes(key);
        Path img = dir.resolve("disk.img"), enc = dir.resolve("disk.enc"), dec = dir.resolve("disk.dec"), kf = dir.resolve("key.bin");
        Files.write(img, plain);
        Files.write(kf, key);
        Run r = image("encrypt", "--cipher", "aes-xts-plain64", "--key-file", kf.toString(), "--key-size", "512",
                "--sector-size", "4096", "--iv-large-sectors", "--skip", "64", img.toString(), enc.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err(), "no progress line when stderr is not a terminal");
        // --skip 64 (512-byte sectors) with 4096-byte sectors and iv_large_sectors: IVs from 8.
        Cipher c = Cipher.getInstance("AES/XTS/NoPadding", new VectorJceProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new SectorParameterSpec("plain64", 8, 4096, true));
        assertArrayEquals(c.doFinal(plain), Files.readAllBytes(enc));
        r = image("decrypt", "-c", "aes-xts-plain64", "-d", kf.toString(), "--sector-size", "4096",
                "--iv-large-sectors", "-p", "64", enc.toString(), dec.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(plain, Files.readAllBytes(dec));
        // Twofish-CBC-ESSIV with a 256-bit key read from the start of a longer key file.
        Files.write(kf, java.util.Arrays.copyOf(key, 48));
        Path enc2 = dir.resolve("disk2.enc");
        assertEquals(0, image("encrypt", "--cipher", "twofish-cbc-essiv:sha256", "--key-file", kf.toString(),
                "--key-size", "256", img.toString(), enc2.toString()).status());
        c = Cipher.getInstance("Twofish/CBC/NoPadding", new VectorJceProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(java.util.Arrays.copyOf(key, 32), "Twofish"),
                new SectorParameterSpec("essiv:sha256", 0, 512));
        assertArrayEquals(c.doFinal(plain), Files.readAllBytes(enc2));
        // serpent-xts-plain64, as LUKS users pick it, with the whole 512-bit key.
        Files.write(kf, key);
        Path enc3 = dir.resolve("disk3.enc");
        assertEquals(0, image("encrypt", "--cipher", "serpent-xts-plain64", "--key-file", kf.toString(),
                "--key-size", "512", img.toString(), enc3.toString()).status());
        c = Cipher.getInstance("Serpent/XTS/NoPadding", new VectorJceProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Serpent"), new SectorParameterSpec("plain64", 0, 512));
        assertArrayEquals(c.doFinal(plain), Files.readAllBytes(enc3));
    }

    /**
     * {@code --threads}: 1, 2, 3 and 7 workers (and the default) give the bytes one
     * SectorParameterSpec call over the whole image gives, for an image whose last 1 MiB chunk is
     * short; decrypting with another thread count gives the input back.
     */
    @Test
    void threadsGiveTheSameImage(@TempDir Path dir) throws Exception {
        Random rnd = new Random(17);
        byte[] plain = new byte[5 * (1 << 20) + 3 * 4096];
        rnd.nextBytes(plain);
        byte[] key = new byte[64];
        rnd.nextBytes(key);
        Path img = dir.resolve("disk.img"), kf = dir.resolve("key.bin");
        Files.write(img, plain);
        Files.write(kf, key);
        Cipher c = Cipher.getInstance("Twofish/XTS/NoPadding", new VectorJceProvider());
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "Twofish"), new SectorParameterSpec("plain64", 16, 4096));
        byte[] expect = c.doFinal(plain);
        for (String threads : new String[] {"1", "2", "3", "7", null}) {
            Path enc = dir.resolve("disk.enc." + threads);
            String[] base = {"encrypt", "--cipher", "twofish-xts-plain64", "--key-file", kf.toString(), "--sector-size",
                "4096", "--skip", "128", img.toString(), enc.toString()};
            String[] args = threads == null ? base : concat(base, "--threads", threads);
            Run r = image(args);
            assertEquals(0, r.status(), r.err());
            assertEquals("", r.err(), "no progress line when stderr is not a terminal");
            assertArrayEquals(expect, Files.readAllBytes(enc), "--threads " + threads);
        }
        Path dec = dir.resolve("disk.dec");
        Run r = image("decrypt", "--cipher", "twofish-xts-plain64", "--key-file", kf.toString(), "--sector-size", "4096",
                "--skip", "128", "--threads", "4", dir.resolve("disk.enc.1").toString(), dec.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(plain, Files.readAllBytes(dec));
    }

    private static String[] concat(String[] a, String... b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void errorsExitNonZeroWithOneLineReasons(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("disk.img"), odd = dir.resolve("odd.img"), kf = dir.resolve("key.bin");
        Files.write(img, new byte[4096]);
        Files.write(odd, new byte[1000]);
        Files.write(kf, new byte[64]);
        String k = kf.toString(), i = img.toString(), o = dir.resolve("out").toString();
        Object[][] cases = {
            {new String[] {}, 2, "Missing required"},
            {new String[] {"scramble", i, o}, 2, "encrypt or decrypt"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", i, o}, 2, "--key-file"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, i, i}, 2, "refusing to overwrite the input"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, odd.toString(), o}, 2, "1000 bytes: not a whole number of 512-byte sectors"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--key-size", "1024", i, o}, 2, "key file has 512 bits"},
            {new String[] {"encrypt", "--cipher", "aes-cbc-essiv:sha256", "--key-file", k, i, o}, 2, "key length"},
            {new String[] {"encrypt", "--cipher", "camellia-xts-plain64", "--key-file", k, i, o}, 2, "aes, twofish or serpent"},
            {new String[] {"encrypt", "--cipher", "aes-xts-benbi", "--key-file", k, i, o}, 2, "'benbi'"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--sector-size", "1000", i, o}, 2, "--sector-size 1000"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--sector-size", "4096", "--skip", "3", i, o}, 2, "--skip 3"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", dir.resolve("none").toString(), i, o}, 2, "not a readable file"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--bogus", i, o}, 2, "Unknown option: '--bogus' (see 'vectorjce image --help')"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--threads", "0", i, o}, 2, "--threads 0: a number from 1 to 1024"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--threads", "two", i, o}, 2, "'two' is not an int"},
            {new String[] {"encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, i, o, "--threads"}, 2, "Missing required parameter for option '--threads'"},
        };
        for (Object[] c : cases) {
            Run r = image((String[]) c[0]);
            String what = String.join(" ", (String[]) c[0]) + " -> " + r.err();
            assertEquals((int) c[1], r.status(), what);
            assertTrue(r.err().contains((String) c[2]), what);
            assertFalse(r.err().contains("Exception\n\tat"), "no stack trace: " + what);
        }
        // The all-zero key: XTS refuses equal halves for encryption, named as such.
        Run r = image("encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, i, o);
        assertEquals(2, r.status());
        assertTrue(r.err().contains("K1 and K2 are equal"), r.err());
        // An existing OUTPUT is not overwritten without --force.
        Files.write(kf, new Random(1).ints(64).collect(java.io.ByteArrayOutputStream::new,
                (b, x) -> b.write(x), (a, b) -> { }).toByteArray());
        Files.write(Path.of(o), new byte[] {1});
        r = image("encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, i, o);
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("exists"), r.err());
        assertEquals(0, image("encrypt", "--cipher", "aes-xts-plain64", "--key-file", k, "--force", i, o).status());
        assertEquals(4096, Files.size(Path.of(o)));
    }
}
