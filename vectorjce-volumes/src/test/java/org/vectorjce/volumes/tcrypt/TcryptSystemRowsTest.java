package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.vectorjce.volumes.WrongPassphraseException;

/**
 * VeraCrypt's system-encryption iteration counts (the rows cryptsetup's {@code tcrypt_kdf[]}
 * marks "boot only") are tried for {@code --tcrypt-system} only; and the payload channel's two
 * read paths (whole data units into the caller's array, anything else through its work buffer)
 * give the same bytes.
 */
class TcryptSystemRowsTest {
    @TempDir
    static Path tmp;
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        dir = TcryptImages.shared();
    }

    /** The boot-only rows of cryptsetup's lib/tcrypt/tcrypt.c, as hash-iterations (PIM multiplier 2048). */
    static final Set<String> BOOT = Set.of("sha256-200000", "blake2s-256-200000", "ripemd160-327661");

    static Set<String> names(List<Kdf> rows) {
        return rows.stream().map(k -> k.hashName() + "-" + k.iterations()).collect(Collectors.toSet());
    }

    @Test
    void bootRowsOnlyForSystemHeaders() {
        Set<String> normal = names(Kdf.select(null, true, 0, false));
        Set<String> system = names(Kdf.select(null, true, 0, true));
        assertTrue(normal.stream().noneMatch(BOOT::contains), normal.toString());
        assertTrue(system.containsAll(BOOT), system.toString());
        assertEquals(Kdf.ROWS.size(), system.size(), "a system header tries every row");
        assertEquals(Kdf.ROWS.size() - BOOT.size(), normal.size());
        assertTrue(names(Kdf.select("sha256", true, 5, true)).contains("sha256-200000"));
        assertTrue(names(Kdf.select("sha256", true, 5, false)).equals(Set.of("sha256-500000")));
    }

    /**
     * A VeraCrypt system header (SHA-256: 200,000 iterations) opens with {@code system(true)}; the
     * same 512 bytes put at byte 0 of a file do not open as a normal volume, whose SHA-256 rows are
     * VeraCrypt's 500,000 only.
     */
    @Test
    void aSystemHeaderDoesNotOpenAsANormalVolume() throws Exception {
        Path drive = dir.resolve("sys_vc_1_mbr_full-sha256-xts-aes");
        byte[] pw = TcryptImages.PASSWORD.getBytes(StandardCharsets.UTF_8);
        try (TcryptVolume v = TcryptVolume.at(drive).passphrase(pw).system(true).hash("sha256").cipher("aes").open()) {
            assertEquals(200_000, v.info().iterations());
            assertEquals("system", v.info().headerKind());
        }
        byte[] sector = new byte[512];
        try (FileChannel in = FileChannel.open(drive)) {
            in.read(ByteBuffer.wrap(sector), TcryptVolume.SYSTEM_OFFSET);
        }
        byte[] img = new byte[1 << 20];
        System.arraycopy(sector, 0, img, 0, 512);
        Path normal = Files.write(tmp.resolve("system-header-at-0"), img);
        assertThrows(WrongPassphraseException.class,
                () -> TcryptVolume.at(normal).passphrase(pw).hash("sha256").cipher("aes").open());
    }

    @Test
    void payloadReadPathsAgree() throws Exception {
        try (TcryptVolume v = TcryptVolume.at(dir.resolve("tc_5-sha512-xts-aes-twofish"))
                .passphrase(TcryptImages.PASSWORD.getBytes(StandardCharsets.UTF_8)).hash("sha512").cipher("aes").open()) {
            int size = (int) v.payloadSize();
            SeekableByteChannel p = v.payload();
            ByteBuffer whole = ByteBuffer.allocate(size);
            assertEquals(size, p.read(whole));          // heap buffer, whole units: decrypted in place
            assertEquals(-1, p.read(ByteBuffer.allocate(1)));
            ByteBuffer direct = ByteBuffer.allocateDirect(size);
            p.position(0);
            while (direct.hasRemaining() && p.read(direct) > 0) {
                // direct buffer: through the work buffer
            }
            byte[] d = new byte[size];
            direct.flip().get(d);
            assertArrayEquals(whole.array(), d);
            byte[] pieces = new byte[size];
            int at = 0;
            int[] steps = {700, 324, 4096, 1, 511, 8192 + 512, 3};
            p.position(0);
            for (int i = 0; at < size; i++) {
                int n = Math.min(steps[i % steps.length], size - at);
                ByteBuffer b = ByteBuffer.wrap(pieces, at, n).slice();
                assertEquals(n, p.read(b));
                at += n;
            }
            assertArrayEquals(whole.array(), pieces);
        }
    }
}
