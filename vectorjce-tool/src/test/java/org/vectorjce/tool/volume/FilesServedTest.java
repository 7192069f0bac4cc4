package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.Tools;
import org.vectorjce.volumes.JdkXts;
import org.vectorjce.volumes.TestImages;

/**
 * {@code volume browse} and {@code volume mount --files} as a user runs them, each in a process of
 * its own: an ext4 that {@code mkfs.ext4 -d} filled from a source tree, inside a LUKS2 volume that
 * cryptsetup formatted (the payload written by SunJCE's AES in the tests' XTS, with the key
 * cryptsetup dumps). curl reads through {@code browse}; ls, cat and stat through the mount. The
 * expected values are the source tree, never what our reader says.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FilesServedTest {
    private static final String NON_ASCII = "docs/deep/Grüße Ω.txt";

    @TempDir
    static Path dir;
    static Path src;
    static Path luks;
    static Path key;

    @BeforeAll
    static void image() throws Exception {
        Tools.assumeTool("mkfs.ext4", "cryptsetup");
        src = dir.resolve("src");
        Files.createDirectories(src.resolve("docs/deep"));
        Files.writeString(src.resolve("readme.txt"), "hello from an ext4 inside LUKS2\n");
        Files.writeString(src.resolve(NON_ASCII), "a non-ASCII name\n");
        byte[] big = new byte[300_001];
        new Random(50).nextBytes(big);
        Files.write(src.resolve("big.bin"), big);
        Path ext4 = Tools.sparse(dir.resolve("ext4.img"), 8 << 20);
        Tools.ok("mkfs.ext4", "-q", "-F", "-L", "served", "-d", src.toString(), ext4.toString());
        luks = Tools.sparse(dir.resolve("luks2.img"), 24 << 20);
        key = dir.resolve("key");
        Files.writeString(key, "served files");
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000", "--cipher", "aes-xts-plain64", "--key-size", "512",
                "--sector-size", "512", luks.toString(), key.toString());
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), luks.toString()).out());
        byte[] ct = JdkXts.crypt(true, vk, Files.readAllBytes(ext4), 512);
        try (FileChannel f = FileChannel.open(luks, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(ct), 16 << 20);    // cryptsetup's LUKS2 data offset: 16 MiB
        }
    }

    private static ServeCommandTest.Served browse(String stdin, String... extra) throws Exception {
        String[] args = new String[extra.length + 3];
        args[0] = luks.toString();
        args[1] = "--key-file";
        args[2] = key.toString();
        System.arraycopy(extra, 0, args, 3, extra.length);
        return ServeCommandTest.start("browse", stdin, args);
    }

    private static byte[] curl(String... args) throws Exception {
        String[] cmd = new String[args.length + 3];
        cmd[0] = "curl";
        cmd[1] = "-sS";
        cmd[2] = "-f";
        System.arraycopy(args, 0, cmd, 3, args.length);
        return Tools.ok(cmd).stdout();
    }

    private static String status(String... args) throws Exception {
        String[] cmd = new String[args.length + 5];
        cmd[0] = "curl";
        cmd[1] = "-s";
        cmd[2] = "-o";
        cmd[3] = "/dev/null";
        cmd[4] = "-w%{http_code}";
        System.arraycopy(args, 0, cmd, 5, args.length);
        return Tools.run(cmd).out();
    }

    @Test
    void browseServesTheFilesToCurlAndStopsOnSigterm() throws Exception {
        Tools.assumeTool("curl");
        try (ServeCommandTest.Served s = browse("")) {
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/([A-Za-z0-9_-]{22})/").matcher(s.uri());
            assertTrue(m.matches(), "the address alone on the first line: " + s.uri());
            assertArrayEquals(Files.readAllBytes(src.resolve("big.bin")), curl(s.uri() + "big.bin"));
            assertArrayEquals(Files.readAllBytes(src.resolve(NON_ASCII)),
                    curl(s.uri() + "docs/deep/Gr%C3%BC%C3%9Fe%20%CE%A9.txt"));
            assertArrayEquals(java.util.Arrays.copyOfRange(Files.readAllBytes(src.resolve("big.bin")), 1000, 2000),
                    curl("-r", "1000-1999", s.uri() + "big.bin"));
            String page = new String(curl(s.uri()), StandardCharsets.UTF_8);
            for (String part : new String[] {"LUKS2", "ext4", "served", "readme.txt", "docs"}) {
                assertTrue(page.contains(part), "the page names " + part + ":\n" + page);
            }
            String root = "http://127.0.0.1:" + m.group(1) + "/";
            assertEquals("404", status(root + "big.bin"), "no token");
            assertEquals("404", status(root + "AAAAAAAAAAAAAAAAAAAAAA/big.bin"), "a wrong token");
            assertEquals(0, s.stop(), s.err().get());
            String err = s.err().get();
            assertTrue(err.contains("Serving the files of " + luks + " (LUKS2, ext4 \"served\") read-only"), err);
            assertFalse(err.contains(m.group(2)), "the token is not on stderr: " + err);
        }
    }

    @Test
    void listeningBeyondLoopbackSaysSo() throws Exception {
        Tools.assumeTool("curl");
        try (ServeCommandTest.Served s = browse("", "--listen", "0.0.0.0:0")) {
            assertTrue(s.uri().startsWith("http://127.0.0.1:"), s.uri());
            assertEquals("200", status(s.uri() + "readme.txt"));
            assertEquals(0, s.stop(), s.err().get());
            String err = s.err().get();
            assertTrue(Pattern.compile("(?m)^WARNING: listening on 0\\.0\\.0\\.0:\\d+: the files are reachable from"
                    + " the network by anyone who has the address, unencrypted\\.$").matcher(err).find(), err);
        }
    }

    @Test
    void passwordOverTlsIsBasicWithTheUserNameShown() throws Exception {
        Tools.assumeTool("curl", "openssl");
        Path certs = Files.createDirectories(dir.resolve("certs"));
        Tools.ok("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-keyout", certs.resolve("key.pem").toString(), "-out", certs.resolve("cert.pem").toString());
        try (ServeCommandTest.Served s = browse("open sesame\n", "--password", "--tls-cert",
                certs.resolve("cert.pem").toString(), "--tls-key", certs.resolve("key.pem").toString())) {
            assertTrue(s.uri().matches("https://127\\.0\\.0\\.1:\\d+/"), "no token with a password: " + s.uri());
            // the user name the documentation and the command's stderr give
            assertArrayEquals(Files.readAllBytes(src.resolve("readme.txt")),
                    curl("-k", "-u", "volume:open sesame", s.uri() + "readme.txt"));
            assertEquals("401", status("-k", s.uri() + "readme.txt"));
            assertEquals("401", status("-k", "-u", "volume:open", s.uri() + "readme.txt"));
            assertEquals(0, s.stop(), s.err().get());
            assertTrue(s.err().get().contains(" to the user volume with the password given"), s.err().get());
            assertFalse(s.err().get().contains("sesame"), s.err().get());
        }
    }

    @Test
    void aWrongSecretExits2BeforeListening() throws Exception {
        Path wrong = dir.resolve("wrong");
        Files.writeString(wrong, "not it");
        // mount says first what FUSE lacks (exit 1), before it asks for a secret
        boolean fuse = Tools.have("fusermount3") && Files.isWritable(Path.of("/dev/fuse"));
        for (String verb : fuse ? new String[] {"browse", "mount"} : new String[] {"browse"}) {
            String[] args = verb.equals("browse") ? new String[] {verb, luks.toString(), "--key-file", wrong.toString()}
                    : new String[] {verb, "--files", luks.toString(), dir.toString(), "--key-file", wrong.toString()};
            VolumeMainAccess.Result r = VolumeMainAccess.run(null, args);
            assertEquals(2, r.rc(), verb + ": " + r.err());
            assertEquals("", r.out(), verb);
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }

    @Test
    void passwordWithoutTlsAndPartitionWithoutFilesAreUsageErrors() {
        VolumeMainAccess.Result r = VolumeMainAccess.run("pw\n", "browse", luks.toString(), "--key-file",
                key.toString(), "--password");
        assertEquals(1, r.rc(), r.err());
        assertEquals("--password needs --tls-cert and --tls-key: HTTP Basic sends the password readable by anyone"
                + " on the path\n", r.err());
        assertEquals("", r.out());
        r = VolumeMainAccess.run(null, "mount", luks.toString(), dir.toString(), "--partition", "1");
        assertEquals(1, r.rc(), r.err());
        assertEquals("--partition and --code-page choose the filesystem of mount --files: without --files, mount"
                + " shows the whole plaintext\n", r.err());
    }

    @Test
    void mountFilesShowsTheTreeToLsCatAndStatUntilFusermount() throws Exception {
        Tools.assumeFuse();
        Tools.assumeTool("fusermount3");
        Path mnt = Files.createDirectory(dir.resolve("mnt"));
        ServeCommandTest.Served s = ServeCommandTest.start("mount", "", "--files", luks.toString(), mnt.toString(),
                "--key-file", key.toString());
        try {
            assertEquals(mnt.toString(), s.uri());
            Set<String> root = new TreeSet<>(ls(src));
            root.add("lost+found");    // mkfs.ext4's
            assertEquals(root, new TreeSet<>(ls(mnt)));
            assertEquals(ls(src.resolve("docs/deep")), ls(mnt.resolve("docs/deep")));
            assertArrayEquals(Files.readAllBytes(src.resolve(NON_ASCII)),
                    Tools.ok("cat", mnt.resolve(NON_ASCII).toString()).stdout());
            assertEquals(Files.size(src.resolve("big.bin")) + "\n",
                    Tools.ok("stat", "-c", "%s", mnt.resolve("big.bin").toString()).out());
            assertArrayEquals(Files.readAllBytes(src.resolve("big.bin")),
                    Tools.ok("cat", mnt.resolve("big.bin").toString()).stdout());
            Tools.ok("fusermount3", "-u", mnt.toString());
            assertTrue(s.p().waitFor(30, TimeUnit.SECONDS), "mount --files did not end after fusermount3 -u");
            assertEquals(0, s.p().exitValue(), s.err().get());
            assertTrue(s.err().get().contains("Mounted the files of " + luks + " (LUKS2, ext4 \"served\") read-only"),
                    s.err().get());
        } finally {
            if (s.p().isAlive()) {
                Tools.run("fusermount3", "-u", mnt.toString());
                s.close();
            }
        }
    }

    /** {@code ls -A DIR}'s lines. */
    private static java.util.List<String> ls(Path d) throws Exception {
        return Tools.ok("ls", "-A", d.toString()).out().lines().toList();
    }
}
