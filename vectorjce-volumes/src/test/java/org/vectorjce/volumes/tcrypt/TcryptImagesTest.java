package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;


/**
 * Every image of cryptsetup's {@code tests/tcrypt-images.tar.xz} (93, made by TrueCrypt 1-7 and
 * VeraCrypt), opened with what {@code tests/tcrypt-compat-test} opens it with — its password, PIM,
 * keyfiles, and the {@code -h HASH -c FIRST-CIPHER} hints it takes from the image's name. Every
 * image opens (a refusal fails the test) with cryptsetup's chain and mode, and its payload holds the
 * FAT file system that test checks with blkid: volume serial DEAD-BABE, CAFE-BABE for the hidden
 * volume — except where the tarball wiped the payload ({@link TcryptImages.Image#payloadWiped()}:
 * TrueCrypt 1-2's Blowfish and CBC cascade images keep only their headers), which open with their
 * chain and mode and read as noise ({@link LegacyCbcTest} checks those modes). The Argon2id images
 * need more heap than this JVM has: {@link TcryptArgon2Test} opens them in a JVM of their own.
 */
class TcryptImagesTest {
    @TempDir
    static Path tmp;
    static Path dir;

    @BeforeAll
    static void unpack() throws IOException {
        dir = TcryptImages.shared();
    }

    static List<Path> images() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("(tc|tck|vc|vck|vcpim|sys)_.*")).sorted().toList();
        }
    }

    @Test
    void theTarballHolds93Images() throws IOException {
        assertEquals(93, images().size());
    }

    static TcryptVolume.Builder builder(Path f, TcryptImages.Image im, boolean hidden)
            throws IOException, org.vectorjce.volumes.VolumeException {
        TcryptVolume.Builder b = TcryptVolume.at(f)
                .passphrase((hidden ? TcryptImages.PASSWORD_HIDDEN : im.password()).getBytes(StandardCharsets.UTF_8))
                .hash(im.hash()).cipher(im.cipherHint()).pim(im.pim()).hidden(hidden).system(im.system());
        if (im.keyfiles()) {
            b.keyFile(dir.resolve("keyfile1")).keyFile(dir.resolve("keyfile2"));
        }
        return b;
    }

    @TestFactory
    List<DynamicTest> everyImageOpens() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : images()) {
            String n = f.getFileName().toString();
            if (n.contains("argon2id")) {
                continue;
            }
            TcryptImages.Image im = TcryptImages.Image.of(n);
            tests.add(DynamicTest.dynamicTest(n, () -> check(f, im, false)));
            if (im.hidden()) {
                tests.add(DynamicTest.dynamicTest(n + " (hidden)", () -> check(f, im, true)));
            }
        }
        return tests;
    }

    static void check(Path f, TcryptImages.Image im, boolean hidden) throws Exception {
        try (TcryptVolume v = builder(f, im, hidden).open()) {
            TcryptInfo info = v.info();
            assertEquals(im.chainName(), info.chain(), "chain");
            assertEquals(im.modeName(), info.mode());
            assertEquals(n(f).startsWith("vc") || n(f).startsWith("sys_vc"), info.veracrypt(), "magic");
            assertEquals(hidden ? "hidden" : im.system() ? "system" : "normal", info.headerKind());
            SeekableByteChannel p = v.payload();
            if (im.payloadWiped()) {
                // nothing to decrypt but zeros: the chain opened the header and reads the payload
                ByteBuffer ct = ByteBuffer.allocate(512);
                try (var ch = Files.newByteChannel(f)) {
                    ch.position(info.payloadOffset()).read(ct);
                }
                assertTrue(java.util.Arrays.equals(new byte[512], ct.array()), "the tarball's payload is no longer wiped: "
                        + "check its file system");
                assertEquals(512, p.read(ByteBuffer.allocate(512)));
                return;
            }
            Integer serial = fatAt(p, im.system() ? systemFatOffset(f, info) : 0);
            assertEquals(Integer.toHexString(hidden ? TcryptImages.SERIAL_HIDDEN : TcryptImages.SERIAL_NORMAL),
                    serial == null ? "no FAT boot sector" : Integer.toHexString(serial));
        }
    }

    /**
     * The TrueCrypt images through the common entry, {@code Volumes.open(...).type(TCRYPT)}, with no
     * hash or cipher hint (every KDF row and chain tried, as cryptsetup does without them): the
     * same volume key, chain and header kind as the format's own builder with its hints. The first
     * image of each chain, of each mode and with keyfiles (every row is tried either way; the
     * others differ in hash, which {@link #everyImageOpens} covers). VeraCrypt's rows run 200,000 to 655,331 iterations each,
     * Streebog's alone 10 s, so its images go through the hinted builder only.
     */
    @TestFactory
    List<DynamicTest> trueCryptImagesOpenThroughVolumes() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        java.util.Set<String> chains = new java.util.HashSet<>();
        for (Path f : images()) {
            String n = f.getFileName().toString();
            if (!n.startsWith("tc_")) {
                continue;
            }
            TcryptImages.Image im = TcryptImages.Image.of(n);
            if (!chains.add(im.chainName()) && !chains.add(im.modeName()) && !(im.keyfiles() && chains.add("keyfiles"))) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(n, () -> {
                Volumes.Builder b = Volumes.open(f).type(VolumeFormat.TCRYPT)
                        .passphrase(im.password().getBytes(StandardCharsets.UTF_8));
                if (im.keyfiles()) {
                    b.keyFile(dir.resolve("keyfile1")).keyFile(dir.resolve("keyfile2"));
                }
                if (im.system()) {
                    b.system();
                }
                try (Volume v = b.open(); TcryptVolume hinted = builder(f, im, false).open()) {
                    assertEquals(VolumeFormat.TCRYPT, v.info().format());
                    assertTrue(v.readOnly());
                    assertEquals(im.chainName() + "-" + im.modeName(), v.info().cipherSpec());
                    assertEquals(hinted.info(), v.info());
                    assertTrue(java.util.Arrays.equals(hinted.volumeKey(), v.volumeKey()), "volume key");
                }
            }));
        }
        assertTrue(tests.size() >= 8, tests.size() + " TrueCrypt images");
        return tests;
    }

    /**
     * A system partition copied out of its drive, opened with the drive as {@code --header}: the
     * header's data offset is the partition's place on the drive, so the copy's data units count
     * from there (cryptsetup's [PART+IMG] mapping of tcrypt-compat-test).
     */
    @Test
    void systemPartitionCopyWithTheDriveAsHeader() throws Exception {
        for (String name : List.of("sys_vc_1_mbr_part-sha256-xts-aes", "sys_vc_1_gpt_part-sha512-xts-aes")) {
            Path drive = dir.resolve(name);
            TcryptImages.Image im = TcryptImages.Image.of(name);
            long off, size;
            try (TcryptVolume v = builder(drive, im, false).open()) {
                off = v.info().mkOffset();
                size = v.info().volumeSize();
            }
            Path part = tmp.resolve(name + ".part");
            try (var in = java.nio.channels.FileChannel.open(drive);
                    var out = java.nio.channels.FileChannel.open(part, java.nio.file.StandardOpenOption.CREATE_NEW,
                            java.nio.file.StandardOpenOption.WRITE)) {
                in.transferTo(off, size, out);
            }
            try (TcryptVolume v = builder(part, im, false).header(drive).open()) {
                assertEquals(0, v.info().payloadOffset());
                assertEquals(off / 512, v.info().ivOffset());
                assertEquals(Integer.toHexString(TcryptImages.SERIAL_NORMAL), Integer.toHexString(fatAt(v.payload(), 0)));
            }
        }
    }

    static String n(Path f) {
        return f.getFileName().toString();
    }

    static Integer fatAt(SeekableByteChannel p, long off) throws IOException {
        return TcryptImages.fatSerial(p, off);
    }

    /**
     * A system drive image's FAT: its first partition's start (from the MBR, which VeraCrypt leaves
     * in the clear) less the encrypted area's offset — 0 when the header maps one partition.
     */
    static long systemFatOffset(Path f, TcryptInfo info) throws IOException {
        byte[] mbr = new byte[512];
        try (var ch = Files.newByteChannel(f)) {
            ch.read(ByteBuffer.wrap(mbr));
        }
        long start = TcryptImages.le32(mbr, 446 + 8) & 0xFFFFFFFFL;
        int type = mbr[446 + 4] & 0xff;
        if (type == 0xEE || start * 512 < info.payloadOffset()) {
            return 0; // GPT, or the header maps the partition itself
        }
        return start * 512 - info.payloadOffset();
    }
}
