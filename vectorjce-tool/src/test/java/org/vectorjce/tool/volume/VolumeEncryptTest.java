package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.LuksVolume;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.JdkXts;

/**
 * {@code volume encrypt IN IMAGE} checked by the real tools: into volumes {@code qemu-img}
 * formatted (LUKS1, Twofish-XTS and AES-XTS; QEMU's own crypto), read back with {@code qemu-img
 * convert}; into volumes cryptsetup formatted (LUKS2 AES-XTS, 512- and 4096-byte sectors), whose
 * payload is decrypted with the volume key {@code luksDump --dump-volume-key} prints through
 * {@link JdkXts} (XTS on the JDK's AES, itself checked against IEEE 1619 by the volumes module's
 * {@code JdkXtsTest}). IN ends inside a sector: the rest of that sector and the payload after it
 * keep their old plaintext. The refusals leave the image's bytes as they were.
 */
class VolumeEncryptTest {
    @TempDir
    Path dir;

    private static final String QEMU_SECRET = "secret,id=s,data=PW q";

    /** {@code qemu-img create -f luks}, retried on its PBKDF2 calibration flake. */
    private void qemuCreate(Path img, String opts, long size) throws Exception {
        TestImages.Run r = null;
        for (int iterTime : new int[] {10, 20, 20, 50, 50, 100, 100, 200}) {
            Files.deleteIfExists(img);
            r = TestImages.run(null, "qemu-img", "create", "-q", "-f", "luks", "--object", QEMU_SECRET, "-o",
                    opts + ",iter-time=" + iterTime, img.toString(), String.valueOf(size));
            if (r.rc() == 0) {
                return;
            }
            Thread.sleep(50);
        }
        Assumptions.assumeFalse(r.err().contains("Unable to get accurate CPU usage"),
                "qemu-img's PBKDF2 calibration failed 8 times (a known QEMU flake on a busy machine): skipped");
        assertEquals(0, r.rc(), r.err());
    }

    /** What QEMU's LUKS driver shows of the payload. */
    private byte[] qemuPlain(Path img) throws Exception {
        Path out = dir.resolve("qemu-out.raw");
        Files.deleteIfExists(out);
        TestImages.ok(null, "qemu-img", "convert", "--object", QEMU_SECRET, "--image-opts",
                "driver=luks,key-secret=s,file.filename=" + img, "-O", "raw", out.toString());
        return Files.readAllBytes(out);
    }

    @ParameterizedTest
    @CsvSource({
        "twofish-256, 2, 777",   // IN ends 777 bytes into a sector
        "aes-256, 3, 0",         // IN is the whole payload
    })
    void qemuReadsWhatWeEncrypt(String alg, int threads, int tail) throws Exception {
        TestImages.assumeTool("qemu-img");
        Path img = dir.resolve("q.img"), old = dir.resolve("old.raw"), in = dir.resolve("in.raw");
        int size = (9 << 20) + 4 * 512; // more than two 4 MiB chunks
        qemuCreate(img, "key-secret=s,cipher-alg=" + alg + ",cipher-mode=xts,ivgen-alg=plain64,hash-alg=sha256", size);
        Random rnd = new Random(alg.hashCode());
        byte[] oldPlain = new byte[size];
        rnd.nextBytes(oldPlain);
        Files.write(old, oldPlain);
        TestImages.ok(null, "qemu-img", "convert", "-n", "--object", QEMU_SECRET, "-f", "raw", old.toString(),
                "--target-image-opts", "driver=luks,key-secret=s,file.filename=" + img);
        byte[] data = new byte[tail == 0 ? size : size - 3 * 512 - (512 - tail)];
        rnd.nextBytes(data);
        Files.write(in, data);
        long imageSize = Files.size(img);

        VolumeMainAccess.Result r = VolumeMainAccess.run("PW q\n", "encrypt", in.toString(), img.toString(), "--threads",
                String.valueOf(threads));
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err(), "no progress bar without a terminal");
        assertEquals(imageSize, Files.size(img), "the image never grows");
        byte[] expect = oldPlain.clone();
        System.arraycopy(data, 0, expect, 0, data.length);
        assertArrayEquals(expect, qemuPlain(img), "qemu-img convert of the payload");
    }

    @Test
    void refusalsLeaveTheImageAlone() throws Exception {
        TestImages.assumeTool("qemu-img");
        Path img = dir.resolve("q.img"), in = dir.resolve("in.raw");
        qemuCreate(img, "key-secret=s,cipher-alg=aes-256,cipher-mode=xts,ivgen-alg=plain64,hash-alg=sha256", 64 * 1024);
        byte[] before = Files.readAllBytes(img);
        Files.write(in, new byte[64 * 1024 + 1]);
        VolumeMainAccess.Result r = VolumeMainAccess.run("PW q\n", "encrypt", in.toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("65537 bytes: larger than the 65536-byte payload"), r.err());
        Files.write(in, new byte[4096]);
        r = VolumeMainAccess.run("wrong\n", "encrypt", in.toString(), img.toString());
        assertEquals(2, r.rc());
        assertEquals("No key slot opened with the passphrase given.\n", r.err());
        r = VolumeMainAccess.run("PW q\n", "encrypt", dir.resolve("missing").toString(), img.toString());
        assertEquals(1, r.rc());
        assertEquals("No such file: " + dir.resolve("missing") + "\n", r.err());
        r = VolumeMainAccess.run("PW q\n", "encrypt", dir.toString(), img.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("is not a regular file"), r.err());
        r = VolumeMainAccess.run("PW q\n", "encrypt", img.toString(), img.toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("refusing to encrypt it into itself"), r.err());
        r = VolumeMainAccess.run("PW q\n", "encrypt", in.toString());
        assertEquals(1, r.rc());
        assertEquals("Missing required parameter: 'IMAGE' (see 'volume encrypt --help')\n", r.err());
        assertArrayEquals(before, Files.readAllBytes(img));
        // an empty IN writes nothing and succeeds
        Files.write(in, new byte[0]);
        r = VolumeMainAccess.run("PW q\n", "encrypt", in.toString(), img.toString(), "--threads", "4");
        assertEquals(0, r.rc(), r.err());
        assertArrayEquals(before, Files.readAllBytes(img));
    }

    @ParameterizedTest
    @CsvSource({"512", "4096"})
    void cryptsetupVolumesHoldWhatWeEncrypt(int sectorSize) throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = dir.resolve("c.img"), key = dir.resolve("key"), in = dir.resolve("in.raw");
        byte[] keyBytes = new byte[32];
        new Random(sectorSize).nextBytes(keyBytes);
        Files.write(key, keyBytes);
        int payload = (5 << 20) + 3 * sectorSize;
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (16L << 20) + payload - 1);
        }
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--cipher", "aes-xts-plain64",
                "--key-size", "512", "--pbkdf", "pbkdf2", "--hash", "sha256", "--pbkdf-force-iterations", "1000",
                "--sector-size", String.valueOf(sectorSize), img.toString(), key.toString());
        String dump = TestImages.ok(null, "cryptsetup", "luksDump", img.toString()).out();
        Matcher m = Pattern.compile("offset: (\\d+) \\[bytes\\]").matcher(dump);
        assertTrue(m.find(), dump);
        long offset = Long.parseLong(m.group(1));
        assertEquals(payload, Files.size(img) - offset);
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), img.toString()).out());
        assertEquals(64, vk.length);
        // the old payload: random ciphertext, whose plaintext the JDK oracle gives
        Random rnd = new Random(sectorSize + 1);
        byte[] oldCt = new byte[payload];
        rnd.nextBytes(oldCt);
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(oldCt), offset);
        }
        byte[] header = Arrays.copyOf(Files.readAllBytes(img), (int) offset);
        byte[] expect = JdkXts.crypt(false, vk, oldCt, sectorSize);

        byte[] data = new byte[payload - 2 * sectorSize - 100]; // ends 100 bytes before a sector's end
        rnd.nextBytes(data);
        Files.write(in, data);
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "encrypt", in.toString(), img.toString(), "--key-file",
                key.toString(), "--threads", "2");
        assertEquals(0, r.rc(), r.err());
        System.arraycopy(data, 0, expect, 0, data.length);
        assertArrayEquals(expect, JdkXts.crypt(false, vk, payloadCt(img, offset, payload), sectorSize), "payload");

        // random writes through the API's channel, against the same model and oracle
        try (LuksVolume v = LuksVolume.at(img).keyFile(key).readWrite().open()) {
            SeekableByteChannel p = v.payload();
            for (int i = 0; i < 40; i++) {
                int len = i % 2 == 0 ? rnd.nextInt(1, 2 * sectorSize) : rnd.nextInt(1, 3 << 19);
                int at = rnd.nextInt(payload - len + 1);
                byte[] b = new byte[len];
                rnd.nextBytes(b);
                p.position(at).write(ByteBuffer.wrap(b));
                System.arraycopy(b, 0, expect, at, len);
            }
        }
        assertArrayEquals(expect, JdkXts.crypt(false, vk, payloadCt(img, offset, payload), sectorSize), "after writes");
        assertArrayEquals(header, Arrays.copyOf(Files.readAllBytes(img), (int) offset), "header untouched");
        assertEquals(0, TestImages.run(null, "cryptsetup", "open", "--test-passphrase", "--key-file", key.toString(),
                img.toString()).rc(), "cryptsetup still opens it");
    }

    private static byte[] payloadCt(Path img, long offset, int payload) throws Exception {
        byte[] ct = new byte[payload];
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.wrap(ct);
            while (b.hasRemaining()) {
                f.read(b, offset + b.position());
            }
        }
        return ct;
    }
}
