package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.vectorjce.volumes.CryptsetupFormatTest;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.luks.Luks1Format;

/**
 * The {@code volume} command's own behaviour on LUKS volumes cryptsetup makes: exit codes, the
 * one line on stderr, options such as {@code --header}. What the library reads and writes is
 * tested in the volumes module.
 */
class LuksCommandTest {
    @TempDir
    Path dir;

    /** {@code test --header}: a detached header (LUKS1 and LUKS2) opens the data image it names. */
    @Test
    void detachedHeaders() throws Exception {
        TestImages.assumeTool("cryptsetup");
        for (String type : new String[] {"luks1", "luks2"}) {
            Path data = TestImages.sparse(dir.resolve(type + "-data.img"), 1 << 20);
            Path hdr = TestImages.sparse(dir.resolve(type + "-hdr.img"), 16 << 20);
            Path key = Files.write(dir.resolve("k"), "detached".getBytes(StandardCharsets.UTF_8));
            TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", type, "--pbkdf-force-iterations", "1000",
                    "--pbkdf", "pbkdf2", "--header", hdr.toString(), data.toString(), key.toString());
            assertEquals(0, VolumeMainAccess.run(null, "test", data.toString(), "--header", hdr.toString(),
                    "--key-file", key.toString()).rc(), type);
        }
    }

    /**
     * The main class in a JVM of its own: exit codes 0, 2, 1 and one line on stderr, no stack trace.
     * The JVMs compile with C1 alone and one GC thread: their work is start-up and 1000 PBKDF2
     * iterations, which C2's compilations outlast.
     */
    @Test
    void commandInItsOwnJvm() throws Exception {
        Path img = TestImages.unxz("compatimage2.img.xz", dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), VolumeMain.class.getName());
        TestImages.Run r = TestImages.run("compatkey\n".getBytes(StandardCharsets.UTF_8), command(jvm,
                "test", img.toString(), "-S", "0"));
        assertEquals(0, r.rc(), r.err());
        r = TestImages.run("wrong\n".getBytes(StandardCharsets.UTF_8), command(jvm, "test", img.toString(),
                "--key-slot", "0"));
        assertEquals(2, r.rc(), r.err());
        assertEquals("No key slot opened with the passphrase given.\n", r.err());
        r = TestImages.run(null, command(jvm, "info", dir.resolve("none").toString()));
        assertEquals(1, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    private static String[] command(List<String> jvm, String... args) {
        List<String> c = new ArrayList<>(jvm);
        c.addAll(List.of(args));
        return c.toArray(String[]::new);
    }

    /** volume decrypt with one and with three workers (the payload is two 4 MiB chunks): the same file, FAT inside. */
    @Test
    void decryptCommandWithThreads() throws Exception {
        TestImages.untarXz("luks1-images.tar.xz", dir);
        Path luks1 = dir.resolve("luks1-images");
        Path img = luks1.resolve("luks1_twofish-xts-plain64-sha256.img");
        Path one = dir.resolve("one.raw"), three = dir.resolve("three.raw");
        String key = luks1.resolve("keyfile1").toString();
        assertEquals(0, VolumeMainAccess.run(null, "decrypt", img.toString(), one.toString(), "--key-file", key,
                "--threads", "1").rc());
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "decrypt", img.toString(), three.toString(),
                "--key-file", key, "--threads", "3");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err(), "no progress bar when stderr is not a terminal");
        byte[] a = Files.readAllBytes(one);
        assertTrue(a.length > 4 << 20, "more than one chunk");
        assertArrayEquals(a, Files.readAllBytes(three));
        assertEquals("DEAD-BABE", TestImages.fatSerial(java.util.Arrays.copyOf(a, 512)));
        assertEquals(1, VolumeMainAccess.run(null, "decrypt", img.toString(), dir.resolve("x.raw").toString(),
                "--key-file", key, "--threads", "0").rc());
    }

    /** The read-only verbs ({@code info}, {@code test}, {@code decrypt}) leave the image's bytes and mtime alone. */
    @Test
    void readOnlyVerbsNeverWrite() throws Exception {
        byte[] pass = "payload write".getBytes(StandardCharsets.UTF_8);
        Path img = TestImages.sparse(dir.resolve("v.img"), (4L << 20) + 256 * 1024);
        Luks1Format.luks1().cipher("aes-xts-plain64").keySize(512).hash("sha256").iterations(1000).format(img, pass);
        Path key = Files.write(dir.resolve("pass"), pass);
        FileTime old = FileTime.fromMillis(1_500_000_000_000L);
        Files.setLastModifiedTime(img, old);
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(img));
        assertEquals(0, VolumeMainAccess.run(null, "info", img.toString()).rc());
        assertEquals(0, VolumeMainAccess.run(null, "test", img.toString(), "--key-file", key.toString()).rc());
        assertEquals(2, VolumeMainAccess.run("wrong\n", "test", img.toString()).rc());
        assertEquals(0, VolumeMainAccess.run(null, "info", img.toString(), "--dump-volume-key", "-q", "--key-file",
                key.toString()).rc());
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "decrypt", img.toString(), dir.resolve("out").toString(),
                "--key-file", key.toString(), "--threads", "2");
        assertEquals(0, r.rc(), r.err());
        assertEquals(old, Files.getLastModifiedTime(img), "mtime unchanged");
        assertArrayEquals(sha, MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(img)), "bytes unchanged");
    }

    /**
     * {@code decrypt} of a payload QEMU's own LUKS1 driver wrote ({@code qemu-img create -f luks},
     * then {@code qemu-img convert}): the plaintext byte for byte; an existing OUT is refused and
     * left alone.
     */
    @Test
    void decryptOfWhatQemuWrote() throws Exception {
        TestImages.assumeTool("qemu-img");
        Path img = dir.resolve("q.img"), plain = dir.resolve("plain.raw");
        byte[] data = new byte[512 * 1024];
        new Random(5).nextBytes(data);
        Files.write(plain, data);
        TestImages.Run r = null;
        // QEMU's PBKDF2 calibration fails now and then ("Unable to get accurate CPU usage"),
        // mostly with short iter-times: retry, longer each time.
        for (int iterTime : new int[] {10, 20, 20, 50, 50, 100, 100, 200}) {
            Files.deleteIfExists(img);
            r = TestImages.run(null, "qemu-img", "create", "-q", "-f", "luks", "--object", "secret,id=s,data=PW p",
                    "-o", "key-secret=s,cipher-alg=aes-256,cipher-mode=xts,ivgen-alg=plain64,hash-alg=sha256,iter-time="
                    + iterTime, img.toString(), String.valueOf(data.length));
            if (r.rc() == 0) {
                break;
            }
            Thread.sleep(50);
        }
        Assumptions.assumeFalse(r.rc() != 0 && r.err().contains("Unable to get accurate CPU usage"),
                "qemu-img's PBKDF2 calibration failed 8 times (a known QEMU flake on a busy machine): skipped");
        assertEquals(0, r.rc(), r.err());
        TestImages.ok(null, "qemu-img", "convert", "-n", "--object", "secret,id=s,data=PW p", "-f", "raw",
                plain.toString(), "--target-image-opts", "driver=luks,key-secret=s,file.filename=" + img);

        Path out = dir.resolve("out.raw");
        VolumeMainAccess.Result res = VolumeMainAccess.run("PW p\n", "decrypt", img.toString(), out.toString());
        assertEquals(0, res.rc(), res.err());
        assertArrayEquals(data, Files.readAllBytes(out));
        // an existing OUT is refused, and left alone
        res = VolumeMainAccess.run("PW p\n", "decrypt", img.toString(), out.toString());
        assertEquals(1, res.rc());
        assertEquals(1, res.err().lines().count(), res.err());
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    /**
     * {@code test} and {@code info} on volumes cryptsetup formats (the volumes module's
     * {@code CryptsetupFormatTest} cases): a key file, the first line of stdin, a wrong passphrase
     * (exit 2); {@code info --dump-volume-key} prints what {@code luksDump --dump-volume-key} does,
     * and {@code info} luksDump's cipher lines.
     */
    @ParameterizedTest
    @MethodSource("org.vectorjce.volumes.CryptsetupFormatTest#cases")
    void cryptsetupVolumesAnswerTheCommand(CryptsetupFormatTest.Case c) throws Exception {
        CryptsetupFormatTest.Made m = CryptsetupFormatTest.make(c, dir);
        Path img = m.img(), key = m.key();
        byte[] expectedKey = m.expectedKey();
        String vkDump = m.vkDump();
        assertEquals(0, VolumeMainAccess.run(null, "volume", "test", img.toString(), "--key-file", key.toString()).rc());
        VolumeMainAccess.Result r = VolumeMainAccess.run("second passphrase\nignored", "test", img.toString(), "-v");
        assertEquals(0, r.rc(), r.err());
        assertEquals("Key slot 1 unlocked.\n", r.out());
        r = VolumeMainAccess.run("third ünïcode", "test", img.toString(), "--key-file", "-", "-v");
        assertEquals(0, r.rc(), r.err());
        assertEquals("Key slot 3 unlocked.\n", r.out());
        r = VolumeMainAccess.run("wrong\n", "test", img.toString());
        assertEquals(2, r.rc());
        assertEquals("No key slot opened with the passphrase given.\n", r.err());
        r = VolumeMainAccess.run(null, "info", img.toString(), "--dump-volume-key", "-q", "--key-file", key.toString());
        assertEquals(0, r.rc(), r.err());
        assertArrayEquals(expectedKey, TestImages.dumpedKey(r.out()));
        assertEquals(vkDump, r.out(), "info --dump-volume-key prints what luksDump --dump-volume-key does");
        r = VolumeMainAccess.run(null, "info", img.toString());
        assertEquals(0, r.rc(), r.err());
        // luksDump's layouts: LUKS1 the cipher's name and mode on lines of their own, LUKS2 the segment's cipher
        int dash = c.cipher().indexOf('-');
        assertTrue(c.type().equals("luks2") ? r.out().contains("\tcipher: " + c.cipher() + "\n")
                : r.out().contains("Cipher name:   \t" + c.cipher().substring(0, dash) + "\n")
                        && r.out().contains("Cipher mode:   \t" + c.cipher().substring(dash + 1) + "\n"), r.out());
    }
}
