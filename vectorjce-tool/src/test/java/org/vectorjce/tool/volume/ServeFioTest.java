package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;

/**
 * {@code volume serve} under fio's NBD engine (libnbd): four jobs of 16 requests in flight each,
 * random 4 KiB reads and writes with crc32c verification, each job on its own quarter of the
 * export ({@code size} and {@code offset_increment}) so that one job's writes never meet another's
 * verification; a second each ({@code runtime}: some 15,000 requests here, each job's blocks
 * about twice). LUKS2 and LUKS1 read-write, then the image's header is unchanged and cryptsetup
 * still opens the key slot; a copy of cryptsetup's VeraCrypt image likewise, its header
 * unchanged. Skips, naming fio, where fio or its nbd engine is missing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServeFioTest {
    private static final String PW = "fio";
    private static final int JOB = 8 << 20, JOBS = 4;
    @TempDir
    Path dir;

    @BeforeEach
    void fio() throws Exception {
        TestImages.assumeTool("fio");
        TestImages.Run r = TestImages.run(null, "fio", "--enghelp=nbd");
        assumeTrue(r.rc() == 0 && r.out().contains("uri"), "fio has no nbd ioengine (fio built without libnbd): test skipped");
    }

    /** fio's job options over {@code uri}; each job its quarter of the export. */
    private static List<String> fio(String name, String uri, int seconds, String... extra) {
        List<String> c = new ArrayList<>(List.of("fio", "--name=" + name, "--ioengine=nbd", "--uri=" + uri,
                "--bs=4k", "--iodepth=16", "--numjobs=" + JOBS, "--size=" + JOB, "--offset_increment=" + JOB,
                "--runtime=" + seconds, "--time_based", "--group_reporting",
                // no verify state files in the working directory
                "--verify_state_save=0"));
        c.addAll(Arrays.asList(extra));
        return c;
    }

    private static TestImages.Run runFio(List<String> cmd) throws Exception {
        TestImages.Run r = TestImages.run(null, cmd.toArray(String[]::new));
        String all = r.out() + r.err();
        assertEquals(0, r.rc(), () -> String.join(" ", cmd) + "\n" + all);
        assertFalse(all.contains("verify:") || all.contains("bad magic") || all.contains("crc32c: verify failed"), all);
        assertTrue(all.contains("err= 0"), all);
        return r;
    }

    private void readWrite(Path img, long headerBytes) throws Exception {
        byte[] header = Arrays.copyOf(Files.readAllBytes(img), (int) headerBytes);
        Path sock = dir.resolve("fio.sock");
        try (ServeCommandTest.Served s = ServeCommandTest.serve(PW + "\n", img.toString(), "--socket", sock.toString())) {
            TestImages.Run r = runFio(fio("rw", s.uri(), 1, "--rw=randrw", "--verify=crc32c"));
            assertTrue(r.out().contains("WRITE:"), r.out());
            assertTrue(r.out().contains("READ:"), r.out());
            assertEquals(0, s.stop(), s.err().get());
        }
        assertArrayEquals(header, Arrays.copyOf(Files.readAllBytes(img), header.length), "the header is unchanged");
        if (TestImages.have("cryptsetup")) {
            assertEquals(0, TestImages.cryptsetupTest(img, PW.getBytes(StandardCharsets.UTF_8), 0),
                    "cryptsetup still opens key slot 0");
        }
    }

    private Path image(String name, long header) throws Exception {
        Path img = dir.resolve(name);
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), header + (long) JOB * JOBS - 1);
        }
        return img;
    }

    @Test
    void luks2RandomReadsAndWritesVerify() throws Exception {
        Path img = image("l2.img", 16L << 20);
        Luks2Format.luks2().keySize(256).sectorSize(4096).keySlot(TestImages.fast("pbkdf2"))
                .format(img, PW.getBytes(StandardCharsets.UTF_8));
        readWrite(img, 16L << 20);
    }

    @Test
    void luks1RandomReadsAndWritesVerify() throws Exception {
        Path img = image("l1.img", 2L << 20);
        Luks1Format.luks1().keySize(256).iterations(1000).format(img, PW.getBytes(StandardCharsets.UTF_8));
        readWrite(img, 2L << 20);
    }

    @Test
    void veraCryptRandomReadsAndWritesVerify() throws Exception {
        TestImages.assumeTool("nbdinfo");
        Path img = dir.resolve("vc.img");
        Files.copy(org.vectorjce.volumes.tcrypt.TcryptFilesAccess.images().resolve("vc_1-sha512-xts-aes"), img);
        byte[] header = Arrays.copyOf(Files.readAllBytes(img), 131072);
        String pw = org.vectorjce.volumes.tcrypt.TcryptFilesAccess.PASSWORD + "\n";
        // hinted: the load is what is checked; ServeCommandTest serves this image unhinted
        try (ServeCommandTest.Served s = ServeCommandTest.serve(pw, img.toString(), "--type", "tcrypt", "-h", "sha512",
                "--socket", dir.resolve("vc.sock").toString())) {
            // the export is smaller than four 8 MiB quarters: fio's own size, split in four
            String info = TestImages.ok(null, "nbdinfo", "--size", s.uri()).out().trim();
            long size = Long.parseLong(info);
            long quarter = size / JOBS / 4096 * 4096;
            assertTrue(quarter >= 4096, "export of " + size + " bytes");
            List<String> cmd = fio("vc", s.uri(), 1, "--rw=randrw", "--verify=crc32c");
            cmd.replaceAll(a -> a.equals("--size=" + JOB) ? "--size=" + quarter
                    : a.equals("--offset_increment=" + JOB) ? "--offset_increment=" + quarter : a);
            TestImages.Run r = runFio(cmd);
            assertTrue(r.out().contains("WRITE:"), r.out());
            assertTrue(r.out().contains("READ:"), r.out());
            assertEquals(0, s.stop(), s.err().get());
        }
        assertArrayEquals(header, Arrays.copyOf(Files.readAllBytes(img), header.length),
                "the VeraCrypt header (and its salt) are never written");
    }
}
