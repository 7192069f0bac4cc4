package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.tcrypt.TcryptImages;
import org.vectorjce.volumes.tcrypt.TcryptVolume;

/**
 * The {@code volume} command on TrueCrypt/VeraCrypt images (cryptsetup's tcrypt-images): exit
 * codes and one-line errors, {@code decrypt} equal to the library's payload, a {@code -c} hint
 * naming no chain, {@code --key-file DIR}, and the main class in a JVM of its own. What the
 * library opens and refuses is tested in the volumes module.
 */
class TcryptCommandTest {
    static final String VCK = "vck_1-sha512-xts-aes";

    @TempDir
    static Path tmp;
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        dir = TcryptImages.shared();
    }

    /** A {@code -c} hint that matches no chain: exit 1 with one line naming it, no stack trace. */
    @Test
    void unknownChainNameIsOneLine() throws Exception {
        Path tc = dir.resolve("tc_5-sha512-xts-aes");
        VolumeMainAccess.Result r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "info", "--type",
                "tcrypt", "-c", "rijndael", tc.toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("rijndael") && !r.err().contains("Exception"), r.err());
    }

    /** {@code --key-file DIR}: the folder's regular visible files are the keyfiles. */
    @Test
    void aKeyfileFolder() throws Exception {
        Path kf = Files.createDirectories(tmp.resolve("keys"));
        Files.copy(dir.resolve("keyfile1"), kf.resolve("keyfile1"));
        Files.copy(dir.resolve("keyfile2"), kf.resolve("b-second"));
        Files.write(kf.resolve(".hidden"), new byte[] {1, 2, 3});
        Files.write(Files.createDirectories(kf.resolve("sub")).resolve("inner"), new byte[] {4, 5, 6});
        VolumeMainAccess.Result r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "test", "--type",
                "tcrypt", "-h", "sha512", "-c", "aes", "--key-file", kf.toString(), dir.resolve(VCK).toString());
        assertEquals(0, r.rc(), r.err());
    }

    /** {@code --key-file DIR} of a folder without keyfiles: exit 1 with one line naming it. */
    @Test
    void aFolderWithoutKeyfilesIsOneLine() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        VolumeMainAccess.Result r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "test", "--type",
                "tcrypt", "--key-file", empty.toString(), dir.resolve(VCK).toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(empty.toString()), r.err());
    }

    @Test
    void commandExitCodesAndDecrypt() throws Exception {
        String img = dir.resolve("tc_5-sha512-xts-aes-twofish").toString();
        VolumeMainAccess.Result r = VolumeMainAccess.run("wrong\n", "volume", "test", "--type", "tcrypt", "-h",
                "sha512", "-c", "aes", img);
        assertEquals(2, r.rc());
        assertEquals("No header opened with the password, keyfiles and PIM given.\n", r.err());
        r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "test", "--type", "tcrypt", "-h", "sha512",
                "-c", "aes", "--threads", "1", img);
        assertEquals(0, r.rc(), r.err());
        r = VolumeMainAccess.run("", "info", "--type", "tcrypt", dir.resolve("none").toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "info", "--type", "tcrypt", "--dump-volume-key",
                img);
        assertEquals(1, r.rc(), "no terminal, no -q: refused");
        r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "info", "--type", "tcrypt",
                dir.resolve("vc_1-sha512-xts-camellia").toString(), "-h", "sha512", "-c", "camellia");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("camellia"), r.out());
        Path out = tmp.resolve("plain.img");
        r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "decrypt", "--type", "tcrypt", "--hash=sha512",
                img, out.toString());
        assertEquals(0, r.rc(), r.err());
        try (TcryptVolume v = TcryptImages.at("tc_5-sha512-xts-aes-twofish", TcryptImages.PASSWORD).hash("sha512")
                .cipher("aes").open()) {
            assertEquals(v.payloadSize(), Files.size(out));
            ByteBuffer b = ByteBuffer.allocate((int) v.payloadSize());
            v.payload().read(b);
            assertArrayEquals(b.array(), Files.readAllBytes(out));
        }
        r = VolumeMainAccess.run(TcryptImages.PASSWORD + "\n", "decrypt", "--type", "tcrypt", img, out.toString());
        assertEquals(1, r.rc(), "an existing OUT is refused");
        r = VolumeMainAccess.run("x\n", "test", "--type", "tcrypt", "--veracrypt-pim", "-3", img);
        assertEquals(1, r.rc());
    }

    /**
     * The runnable jar's main class hands --type tcrypt to this command: exit codes in a JVM of its
     * own. TrueCrypt's rows only ({@code --disable-veracrypt}): the dispatch and the exit codes are
     * what is checked here, and a wrong password's walk over VeraCrypt's 500,000-iteration rows is
     * {@link #commandExitCodesAndDecrypt}'s, in this JVM; so the JVMs compile with C1 alone.
     */
    @Test
    void volumeMainDispatchesTcryptInItsOwnJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        String main = "org.vectorjce.tool.volume.VolumeMain";
        String img = dir.resolve("tc_5-sha512-xts-aes-twofish").toString();
        TestImages.Run r = TestImages.run((TcryptImages.PASSWORD + "\n").getBytes(StandardCharsets.UTF_8), java,
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, main, "volume", "info", "--type", "tcrypt",
                "--disable-veracrypt", "-h", "sha512", "-c", "aes", img);
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("Cipher chain:\ttwofish-aes"), r.out());
        r = TestImages.run("wrong\n".getBytes(StandardCharsets.UTF_8), java, "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", cp, main, "test", "--type=tcrypt", "--disable-veracrypt", "-h", "sha512",
                "-c", "aes", img);
        assertEquals(2, r.rc(), r.err());
        assertEquals("No header opened with the password, keyfiles and PIM given.\n", r.err());
    }
}
