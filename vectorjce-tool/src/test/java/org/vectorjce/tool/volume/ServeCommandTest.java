package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * {@code volume serve} as a user runs it: a process of its own (the command line's signal
 * handling is the process's), clients no one here wrote (nbdinfo, nbdcopy, qemu-io), SIGTERM, and
 * the image afterwards through {@code volume decrypt}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ServeCommandTest {
    private static final String PW = "serve me";

    /** A running {@code volume serve} (or {@code browse}, {@code mount}): its process, the first line it printed, and its stderr. */
    record Served(Process p, String uri, CompletableFuture<String> err) implements AutoCloseable {
        int stop() throws Exception {
            p.destroy();    // SIGTERM
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
            return p.exitValue();
        }

        @Override
        public void close() {
            p.destroyForcibly();
        }
    }

    static Served serve(String stdin, String... args) throws Exception {
        return start("serve", stdin, args);
    }

    /**
     * {@code volume VERB ARGS} in a process of its own, {@code stdin} its standard input; returns
     * once it has printed its first line (a URI, or the mount's path).
     */
    static Served start(String verb, String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), VolumeMain.class.getName(), verb));
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        // threads of their own: both block until the process writes, and the common pool may have one thread
        CompletableFuture<String> err = new CompletableFuture<>();
        daemon(() -> {
            try {
                err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.complete(e.toString());
            }
        });
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = new CompletableFuture<>();
        daemon(() -> {
            try {
                line.complete(out.readLine());
            } catch (IOException e) {
                line.complete(null);
            }
        });
        String uri;
        try {
            uri = line.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(verb + " printed nothing in 60 s; stderr: " + err.get(), e);
        }
        if (uri == null) {
            p.waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError(verb + " printed nothing; rc " + p.exitValue() + ", stderr: " + err.get());
        }
        return new Served(p, uri, err);
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "serve-output");
        t.setDaemon(true);
        t.start();
    }

    private static Path luks2(Path dir) throws Exception {
        Path img = dir.resolve("disk.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.truncate(0);
            c.write(ByteBuffer.wrap(new byte[1]), (24L << 20) - 1);
        }
        Luks2Format.luks2().keySize(256).sectorSize(512).keySlot(TestImages.fast("pbkdf2"))
                .format(img, PW.getBytes(StandardCharsets.UTF_8));
        // plaintext with content: the first MiB through the command
        Path in = dir.resolve("in.bin");
        byte[] b = new byte[1 << 20];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + (i >> 9));
        }
        Files.write(in, b);
        VolumeMainAccess.Result r = VolumeMainAccess.run(PW + "\n", "encrypt", in.toString(), img.toString());
        assertEquals(0, r.rc(), r.err());
        return img;
    }

    private static byte[] decrypt(Path img, Path dir, String name, String stdin, String... extra) throws Exception {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("decrypt"));
        args.addAll(Arrays.asList(extra));
        args.addAll(List.of(img.toString(), out.toString()));
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, args.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return Files.readAllBytes(out);
    }

    @Test
    void luks2ReadWriteThroughNbdClientsThenSigtermExitsZero(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("nbdcopy");
        TestImages.assumeTool("qemu-io");
        Path img = luks2(dir);
        byte[] header = Arrays.copyOf(Files.readAllBytes(img), 16 << 20);
        byte[] before = decrypt(img, dir, "before.bin", PW + "\n");
        Path sock = dir.resolve("s.sock");
        try (Served s = serve(PW + "\n", img.toString(), "--socket", sock.toString())) {
            assertEquals("nbd+unix:///?socket=" + sock, s.uri());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(sock)));
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("export-size: " + before.length), info);
            assertTrue(info.contains("is_read_only: false"), info);
            assertTrue(info.contains("can_flush: true"), info);
            assertTrue(info.contains("can_fua: true"), info);

            Path copy = dir.resolve("copy.bin");
            TestImages.ok(null, "nbdcopy", s.uri(), copy.toString());
            assertArrayEquals(before, Files.readAllBytes(copy), "nbdcopy of the export = volume decrypt");

            TestImages.ok(null, "qemu-io", "-f", "raw", "-c", "write -P 0xab 1M 1M", "-c", "flush", s.uri());

            // a second serve for writing is refused while this one runs, before asking for a secret
            Served second = null;
            try {
                second = serve(PW + "\n", img.toString(), "--socket", dir.resolve("s2.sock").toString());
            } catch (AssertionError e) {
                assertTrue(e.getMessage().contains("rc 1") && e.getMessage().contains("is in use by another volume serve or mount"),
                        e.getMessage());
            } finally {
                if (second != null) {
                    second.close();
                }
            }
            assertNotNull(s.p());
            assertEquals(0, s.stop(), s.err().get());
            assertTrue(s.err().get().contains("read-write"), s.err().get());
        }
        assertFalse(Files.exists(sock), "the socket is removed on exit");
        byte[] after = decrypt(img, dir, "after.bin", PW + "\n");
        byte[] expected = before.clone();
        Arrays.fill(expected, 1 << 20, 2 << 20, (byte) 0xab);
        assertArrayEquals(expected, after, "the pattern at 1 MiB, nothing else changed");
        assertArrayEquals(header, Arrays.copyOf(Files.readAllBytes(img), 16 << 20), "the header is unchanged");
    }

    @Test
    void luks1WritesThroughTheExportAreWhatQemusOwnLuksDriverReads(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("qemu-io");
        TestImages.assumeTool("qemu-img");
        Path img = dir.resolve("l1.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[1]), (10L << 20) - 1);
        }
        org.vectorjce.volumes.luks.Luks1Format.luks1().iterations(1000).format(img, PW.getBytes(StandardCharsets.UTF_8));
        try (Served s = serve(PW + "\n", img.toString(), "--socket", dir.resolve("l1.sock").toString())) {
            TestImages.ok(null, "qemu-io", "-f", "raw", "-c", "write -P 0xab 1M 1M", "-c", "flush", s.uri());
            assertEquals(0, s.stop(), s.err().get());
        }
        Path out = dir.resolve("qemu.raw");
        TestImages.ok(null, "qemu-img", "convert", "--object", "secret,id=k0,data=" + PW, "--image-opts",
                "driver=luks,key-secret=k0,file.driver=file,file.filename=" + img, "-O", "raw", out.toString());
        byte[] plain = Files.readAllBytes(out);
        byte[] one = new byte[1 << 20];
        Arrays.fill(one, (byte) 0xab);
        assertArrayEquals(one, Arrays.copyOfRange(plain, 1 << 20, 2 << 20), "qemu reads the pattern written at 1 MiB");
        if (TestImages.have("cryptsetup")) {
            assertEquals(0, TestImages.cryptsetupTest(img, PW.getBytes(StandardCharsets.UTF_8), 0),
                    "cryptsetup still opens key slot 0");
        }
    }

    @Test
    void readOnlyRefusesWritesWithEperm(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("qemu-io");
        Path img = luks2(dir);
        byte[] image = Files.readAllBytes(img);
        try (Served s = serve(PW + "\n", img.toString(), "--socket", dir.resolve("r.sock").toString(), "--read-only")) {
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: true"), info);
            TestImages.Run w = TestImages.run(null, "qemu-io", "-f", "raw", "-c", "write -P 0xab 0 4k", s.uri());
            assertTrue((w.out() + w.err()).contains("Operation not permitted") || w.rc() != 0, w.out() + w.err());
            assertEquals(0, s.stop(), s.err().get());
        }
        assertArrayEquals(image, Files.readAllBytes(img), "a read-only export writes nothing");
    }

    @Test
    void bitlockerIsServedReadOnlyAsDecryptReadsIt(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("nbdcopy");
        Path img = BitlkFiles.write("bitlk-aes-xts-128", dir);
        byte[] plain = decrypt(img, dir, "plain.bin", "anaconda\n", "--type", "bitlk");
        try (Served s = serve("anaconda\n", img.toString(), "--socket", dir.resolve("b.sock").toString())) {
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: true"), info);
            Path copy = dir.resolve("copy.bin");
            TestImages.ok(null, "nbdcopy", s.uri(), copy.toString());
            assertArrayEquals(plain, Files.readAllBytes(copy));
            assertEquals(0, s.stop(), s.err().get());
            assertTrue(s.err().get().contains("Found a BitLocker volume"), s.err().get());
        }
    }

    @Test
    void fileVault2ExportHasTheSha256OfCryptsetupsImagesConf(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("nbdcopy");
        Path img = org.vectorjce.volumes.fvault2.Fvault2FilesAccess.small(dir);
        try (Served s = serve(org.vectorjce.volumes.fvault2.Fvault2FilesAccess.PASSWORD + "\n", img.toString(),
                "--socket", dir.resolve("f.sock").toString())) {
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: true"), info);
            Path copy = dir.resolve("copy.bin");
            TestImages.ok(null, "nbdcopy", s.uri(), copy.toString());
            assertEquals(org.vectorjce.volumes.fvault2.Fvault2FilesAccess.SHA256,
                    java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(Files.readAllBytes(copy))));
            assertEquals(0, s.stop(), s.err().get());
        }
    }

    @Test
    void veraCryptIsServedAsDecryptReadsIt(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("nbdcopy");
        Path img = org.vectorjce.volumes.tcrypt.TcryptFilesAccess.images().resolve("vc_1-sha512-xts-aes");
        String pw = org.vectorjce.volumes.tcrypt.TcryptFilesAccess.PASSWORD + "\n";
        byte[] plain = decrypt(img, dir, "plain.bin", pw, "--type", "tcrypt");
        try (Served s = serve(pw, img.toString(), "--type", "tcrypt", "--read-only", "--socket",
                dir.resolve("t.sock").toString())) {
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: true"), info);
            assertTrue(info.contains("export-size: " + plain.length), info);
            Path copy = dir.resolve("copy.bin");
            TestImages.ok(null, "nbdcopy", s.uri(), copy.toString());
            assertArrayEquals(plain, Files.readAllBytes(copy));
            assertEquals(0, s.stop(), s.err().get());
        }
    }

    /**
     * Hinted ({@code -h sha512}): the writes are what is checked, and without the hint the search
     * spends a core on SHA-256's 500,000 iterations beside SHA-512's, three times over;
     * {@link #veraCryptIsServedAsDecryptReadsIt} serves and decrypts the same image unhinted.
     */
    @Test
    void aVeraCryptExportTakesWritesThatDecryptShows(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("qemu-io");
        Path img = dir.resolve("vc.img");
        Files.copy(org.vectorjce.volumes.tcrypt.TcryptFilesAccess.images().resolve("vc_1-sha512-xts-aes"), img);
        String pw = org.vectorjce.volumes.tcrypt.TcryptFilesAccess.PASSWORD + "\n";
        byte[] before = decrypt(img, dir, "before.bin", pw, "--type", "tcrypt", "-h", "sha512");
        byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(img), 131072);
        int at = 8192, len = 4096 + 512; // a whole unit run and a partial one
        try (Served s = serve(pw, img.toString(), "--type", "tcrypt", "-h", "sha512", "--foreground", "--socket",
                dir.resolve("w.sock").toString())) {
            String info = TestImages.ok(null, "nbdinfo", s.uri()).out();
            assertTrue(info.contains("is_read_only: false"), info);
            TestImages.ok(null, "qemu-io", "-f", "raw", "-c", "write -P 0x5a " + at + " " + len, "-c", "flush", s.uri());
            assertEquals(0, s.stop(), s.err().get());
        }
        byte[] after = decrypt(img, dir, "after.bin", pw, "--type", "tcrypt", "-h", "sha512");
        byte[] expected = before.clone();
        java.util.Arrays.fill(expected, at, at + len, (byte) 0x5a);
        assertArrayEquals(expected, after, "the pattern where qemu-io wrote it, nothing else changed");
        assertArrayEquals(header, java.util.Arrays.copyOf(Files.readAllBytes(img), 131072), "the header is never written");
    }

    @Test
    void tcpOnAnotherAddressWarns(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        Path img = luks2(dir);
        try (Served s = serve(PW + "\n", img.toString(), "--tcp", "0.0.0.0:0", "--read-only")) {
            assertTrue(s.uri().startsWith("nbd://0.0.0.0:"), s.uri());
            String port = s.uri().replaceAll("^nbd://0\\.0\\.0\\.0:(\\d+)/$", "$1");
            String info = TestImages.ok(null, "nbdinfo", "nbd://127.0.0.1:" + port + "/").out();
            assertTrue(info.contains("is_read_only: true"), info);
            assertEquals(0, s.stop());
            assertTrue(s.err().get().contains("WARNING: the export is reachable from the network"), s.err().get());
        }
        try (Served s = serve(PW + "\n", img.toString(), "--tcp", "0", "--read-only")) {
            assertTrue(s.uri().startsWith("nbd://127.0.0.1:"), s.uri());
            assertEquals(0, s.stop());
            assertFalse(s.err().get().contains("WARNING: the export"), s.err().get());
        }
    }

    @Test
    void tlsIsRequiredWhenACertificateIsGiven(@TempDir Path dir) throws Exception {
        TestImages.assumeTool("nbdinfo");
        TestImages.assumeTool("nbdcopy");
        TestImages.assumeTool("openssl");
        Path img = luks2(dir);
        byte[] plain = decrypt(img, dir, "plain.bin", PW + "\n");
        Path certs = Files.createDirectory(dir.resolve("certs"));
        TestImages.ok(null, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", certs.resolve("server-key.pem").toString(), "-out", certs.resolve("server-cert.pem").toString());
        // libnbd (GnuTLS) trusts the folder's ca-cert.pem: the self-signed certificate itself
        Files.copy(certs.resolve("server-cert.pem"), certs.resolve("ca-cert.pem"));
        try (Served s = serve(PW + "\n", img.toString(), "--tcp", "0", "--tls-cert", certs.resolve("server-cert.pem").toString(),
                "--tls-key", certs.resolve("server-key.pem").toString())) {
            assertTrue(s.uri().startsWith("nbds://127.0.0.1:"), s.uri());
            String port = s.uri().replaceAll("^nbds://127\\.0\\.0\\.1:(\\d+)/$", "$1");
            String tls = "nbds://localhost:" + port + "/?tls-certificates=" + certs;
            String info = TestImages.ok(null, "nbdinfo", tls).out();
            assertTrue(info.contains("with TLS"), info);
            assertTrue(info.contains("export-size: " + plain.length), info);
            Path copy = dir.resolve("copy.bin");
            TestImages.ok(null, "nbdcopy", tls, copy.toString());
            assertArrayEquals(plain, Files.readAllBytes(copy), "nbdcopy over TLS = volume decrypt");
            TestImages.Run bare = TestImages.run(null, "nbdinfo", "nbd://localhost:" + port + "/");
            assertTrue(bare.rc() != 0, "a client without TLS gets no export: " + bare.out());
            assertEquals(0, s.stop(), s.err().get());
        }
        String[][] bad = {
            {"serve", img.toString(), "--tls-cert", certs.resolve("server-cert.pem").toString()},
            {"serve", img.toString(), "--tls-cert", certs.resolve("server-key.pem").toString(), "--tls-key",
                certs.resolve("server-key.pem").toString()},
            {"serve", img.toString(), "--tls-cert", certs.resolve("server-cert.pem").toString(), "--tls-key",
                certs.resolve("server-cert.pem").toString()},
        };
        String[] says = {"go together", "is not an X.509 certificate", "holds no PEM private key"};
        for (int i = 0; i < bad.length; i++) {
            VolumeMainAccess.Result r = VolumeMainAccess.run(PW + "\n", bad[i]);
            assertEquals(1, r.rc(), r.err());
            assertTrue(r.err().contains(says[i]), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }

    @Test
    void badCommandLinesAreOneLineAndStatusOne(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("x.img");
        Files.write(img, new byte[4096]);
        String[][] cases = {
            {"serve", img.toString(), "--socket", dir.resolve("a").toString(), "--tcp", "1"},
            {"serve", img.toString(), "--tcp", "70000"},
            {"serve", img.toString(), "--tcp", "localhost:x"},
            {"serve", dir.resolve("missing.img").toString()},
            {"serve", img.toString(), "--socket", img.toString()},
        };
        String[] says = {"give one place to listen", "port of 0 to 65535", "port of 0 to 65535", "No such file",
            "Refusing to overwrite"};
        for (int i = 0; i < cases.length; i++) {
            VolumeMainAccess.Result r = VolumeMainAccess.run(PW + "\n", cases[i]);
            assertEquals(1, r.rc(), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(r.err().contains(says[i]), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }
}
