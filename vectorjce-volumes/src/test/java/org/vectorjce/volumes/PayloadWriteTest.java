package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * The writable payload ({@code LuksVolume.Builder.readWrite()}): random writes at any offset and
 * length (partial sectors, runs over 1 MiB, heap and direct buffers) against a plain byte-array
 * model of the payload, read back through the channel, through a new volume, and with bytes
 * outside the payload unchanged; writes past the end and truncation refused with nothing written;
 * read-only opens leave the image's bytes and mtime alone (the command's read-only verbs: the
 * tool's {@code LuksCommandTest}).
 */
class PayloadWriteTest {
    private static final byte[] PASS = "payload write".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    /** A LUKS1 volume of {@code cipher} with a payload of {@code payload} bytes of random ciphertext. */
    private Path volume(String cipher, int keyBits, int payload) throws Exception {
        Path img = dir.resolve("v.img");
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (4L << 20) + payload - 1);
        }
        Luks1Format.luks1().cipher(cipher).keySize(keyBits).hash("sha256").iterations(1000).format(img, PASS);
        long size;
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).open()) {
            size = v.payloadSize();
        }
        // Shrink to the payload asked for, and fill the payload with noise (the "old" ciphertext).
        long offset = Files.size(img) - size;
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.WRITE)) {
            f.truncate(offset + payload);
            byte[] noise = new byte[payload];
            new Random(7).nextBytes(noise);
            f.write(ByteBuffer.wrap(noise), offset);
        }
        return img;
    }

    private static byte[] readAll(SeekableByteChannel c) throws IOException {
        byte[] b = new byte[(int) c.size()];
        ByteBuffer bb = ByteBuffer.wrap(b);
        c.position(0);
        while (bb.hasRemaining()) {
            if (c.read(bb) < 0) {
                throw new IOException("short");
            }
        }
        return b;
    }

    @ParameterizedTest
    @CsvSource({
        "twofish-xts-plain64, 512",   // SectorChannel underneath
        "aes-cbc-essiv:sha256, 256",  // SectorChannel, CBC: a sector's bytes depend on each other
        "aes-ecb, 256",               // the module's own whole-sector path
        "twofish-lrw-plain64, 384",   // the module's own path, one sector per call
    })
    void randomWritesMatchAPlainFileModel(String cipher, int keyBits) throws Exception {
        int payload = (3 << 20) + 5 * 512; // over three 1 MiB runs
        Path img = volume(cipher, keyBits, payload);
        byte[] before = Files.readAllBytes(img);
        long offset;
        byte[] model;
        Random rnd = new Random(cipher.hashCode());
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).readWrite().open()) {
            assertTrue(v.isWritable());
            offset = v.info().payloadOffset();
            SeekableByteChannel p = v.payload();
            assertEquals(payload, p.size());
            model = readAll(p); // the old plaintext: what the noise decrypts to
            for (int i = 0; i < 60; i++) {
                int len = switch (i % 4) {
                    case 0 -> rnd.nextInt(1, 40);             // inside one sector, mostly
                    case 1 -> rnd.nextInt(1, 3 * 512);        // across a few sectors
                    case 2 -> 512 * rnd.nextInt(1, 9);        // whole sectors (at any offset)
                    default -> rnd.nextInt(1, (5 << 19));     // over a 1 MiB run
                };
                len = Math.min(len, payload);
                long at = i % 8 == 2 ? 512L * rnd.nextInt(payload / 512 - 8) : rnd.nextInt(payload - len + 1);
                byte[] data = new byte[len];
                rnd.nextBytes(data);
                ByteBuffer src = i % 3 == 0 ? ByteBuffer.allocateDirect(len).put(data).flip() : ByteBuffer.wrap(data);
                p.position(at);
                assertEquals(len, p.write(src));
                assertFalse(src.hasRemaining());
                assertEquals(at + len, p.position());
                System.arraycopy(data, 0, model, (int) at, len);
                if (i % 10 == 9) {
                    assertArrayEquals(model, readAll(p), "after write " + i);
                }
                if (i % 7 == 0) { // a read at an odd place, from another channel of the volume
                    SeekableByteChannel q = v.payload();
                    int from = rnd.nextInt(payload - 1000);
                    ByteBuffer b = ByteBuffer.allocate(999);
                    q.position(from).read(b);
                    assertArrayEquals(Arrays.copyOfRange(model, from, from + 999), b.array(), "read at " + from);
                }
            }
            // the last byte, and an empty write at the end
            p.position(payload - 1).write(ByteBuffer.wrap(new byte[] {42}));
            model[payload - 1] = 42;
            assertEquals(0, p.position(payload).write(ByteBuffer.allocate(0)));
            assertArrayEquals(model, readAll(p));
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).open()) { // read-only, fresh
            assertArrayEquals(model, readAll(v.payload()), "after reopening");
        }
        byte[] after = Files.readAllBytes(img);
        assertEquals(before.length, after.length, "the image never grows");
        assertArrayEquals(Arrays.copyOf(before, (int) offset), Arrays.copyOf(after, (int) offset), "header untouched");
    }

    @Test
    void writesPastTheEndAndTruncateAreRefusedWritingNothing() throws Exception {
        int payload = (2 << 20) + 64 * 512;
        Path img = volume("aes-xts-plain64", 256, payload);
        byte[] before = Files.readAllBytes(img);
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).readWrite().open()) {
            SeekableByteChannel p = v.payload();
            ByteBuffer src = ByteBuffer.wrap(new byte[11]);
            p.position(payload - 10);
            IOException e = assertThrows(IOException.class, () -> p.write(src));
            assertTrue(e.getMessage().contains(payload + "-byte payload"), e.getMessage());
            assertEquals(11, src.remaining(), "nothing consumed");
            assertEquals(payload - 10, p.position(), "position unchanged");
            // over 1 MiB (more than one run of the sector cipher) reaching past the end: no run written
            p.position(payload - (1 << 20) - 512);
            e = assertThrows(IOException.class, () -> p.write(ByteBuffer.allocate((3 << 19) + 7)));
            assertTrue(e.getMessage().contains(payload + "-byte payload"), e.getMessage());
            p.position(payload + 4096);
            e = assertThrows(IOException.class, () -> p.write(ByteBuffer.wrap(new byte[1])));
            assertTrue(e.getMessage().contains(payload + "-byte payload"), e.getMessage());
            e = assertThrows(IOException.class, () -> p.truncate(512));
            assertTrue(e.getMessage().contains("truncate"), e.getMessage());
            assertThrows(IOException.class, () -> p.truncate(payload * 2L));
            assertEquals(payload, p.size());
        }
        assertArrayEquals(before, Files.readAllBytes(img), "nothing written");
        Files.delete(img);
        img = volume("aes-ecb", 256, payload); // the same on the module's own path
        before = Files.readAllBytes(img);
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).readWrite().open()) {
            SeekableByteChannel p = v.payload();
            p.position(payload - 1);
            IOException e = assertThrows(IOException.class, () -> p.write(ByteBuffer.wrap(new byte[2])));
            assertTrue(e.getMessage().contains(payload + "-byte payload"), e.getMessage());
            assertThrows(IOException.class, () -> p.truncate(0));
        }
        assertArrayEquals(before, Files.readAllBytes(img), "nothing written");
    }

    @Test
    void readOnlyOpensNeverWrite() throws Exception {
        Path img = volume("aes-xts-plain64", 512, 256 * 1024);
        Path key = dir.resolve("pass");
        Files.write(key, PASS);
        FileTime old = FileTime.fromMillis(1_500_000_000_000L);
        Files.setLastModifiedTime(img, old);
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(img));
        try (LuksVolume v = LuksVolume.at(img).passphrase(PASS).open()) {
            assertFalse(v.isWritable());
            SeekableByteChannel p = v.payload();
            readAll(p);
            assertThrows(NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(512)));
            assertThrows(NonWritableChannelException.class, () -> p.truncate(0));
        }
        try (LuksVolume v = LuksVolume.at(img).keyFile(key).open()) {
            assertThrows(NonWritableChannelException.class, () -> v.payload().position(3).write(ByteBuffer.allocate(1)));
        }
        LuksVolume.at(img).info();
        assertEquals(old, Files.getLastModifiedTime(img), "mtime unchanged");
        assertArrayEquals(sha, MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(img)), "bytes unchanged");
    }
}
