package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.VolumeException;

/**
 * Keyfile folders ({@code --key-file DIR}, {@code .keyFile(dir)}) as VeraCrypt takes them
 * ({@code src/Volume/Keyfile.cpp}, {@code ApplyListToPassword}, and {@code Directory::GetFilePaths}
 * with regular files only): every regular file of the folder, not its subfolders, not the files
 * whose names start with a dot; an empty folder is an error naming it. Checked on cryptsetup's
 * {@code vck_1-sha512-xts-aes}, made by VeraCrypt with keyfile1 + keyfile2 and the password.
 */
class TcryptKeyfileFolderTest {
    static final String IMAGE = "vck_1-sha512-xts-aes";

    @TempDir
    static Path tmp;
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        dir = TcryptImages.shared();
    }

    static TcryptVolume.Builder vck() {
        return TcryptVolume.at(dir.resolve(IMAGE)).passphrase(TcryptImages.PASSWORD.getBytes(StandardCharsets.UTF_8))
                .hash("sha512").cipher("aes");
    }

    static void opens(TcryptVolume.Builder b) throws Exception {
        try (TcryptVolume v = b.open()) {
            assertEquals("DEAD-BABE", TestImages.fatSerial(TestImages.first(v.payload())));
        }
    }

    /** Both keyfiles in a folder beside a hidden file and a subfolder, which would spoil the pool if used. */
    @Test
    void aFolderGivesItsRegularVisibleFiles() throws Exception {
        Path kf = Files.createDirectories(tmp.resolve("keys"));
        Files.copy(dir.resolve("keyfile1"), kf.resolve("keyfile1"));
        Files.copy(dir.resolve("keyfile2"), kf.resolve("b-second"));
        Files.write(kf.resolve(".hidden"), new byte[] {1, 2, 3});
        Files.write(Files.createDirectories(kf.resolve("sub")).resolve("inner"), new byte[] {4, 5, 6});
        assertEquals(List.of(kf.resolve("b-second"), kf.resolve("keyfile1")), KeyfilePool.folder(kf));
        opens(vck().keyFile(kf));

        // a folder holding one keyfile, the other given as a file: the same pool
        Path one = Files.createDirectories(tmp.resolve("one"));
        Files.copy(dir.resolve("keyfile2"), one.resolve("k"));
        opens(vck().keyFile(dir.resolve("keyfile1")).keyFile(one));
    }

    @Test
    void aFolderWithoutKeyfilesIsRefusedNamingIt() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        VolumeException e = assertThrows(VolumeException.class, () -> vck().keyFile(empty));
        assertTrue(e.getMessage().contains(empty.toString()) && e.getMessage().contains("no keyfile"), e.getMessage());
        Path hiddenOnly = Files.createDirectories(tmp.resolve("hidden-only"));
        Files.copy(dir.resolve("keyfile1"), hiddenOnly.resolve(".keyfile1"));
        Files.createDirectories(hiddenOnly.resolve("sub"));
        assertThrows(VolumeException.class, () -> vck().keyFile(hiddenOnly));
    }

    /**
     * The pool is a sum per byte (mod 256), so the keyfiles' order cannot change it: the folder's
     * listing order is free. Keyfiles of lengths that leave the pool's cursor at different places.
     */
    @Test
    void theKeyfilesOrderDoesNotChangeThePool() throws Exception {
        Random rnd = new Random(7);
        byte[] a = Files.readAllBytes(dir.resolve("keyfile1")), b = new byte[1001], c = new byte[37];
        rnd.nextBytes(b);
        rnd.nextBytes(c);
        byte[] pw = "pw".getBytes(StandardCharsets.US_ASCII);
        for (int pool : new int[] {KeyfilePool.TC_POOL, KeyfilePool.VC_POOL}) {
            byte[] abc = KeyfilePool.password(pw, List.of(a, b, c), pool);
            assertArrayEquals(abc, KeyfilePool.password(pw, List.of(c, a, b), pool));
            assertArrayEquals(abc, KeyfilePool.password(pw, List.of(b, c, a), pool));
            assertFalse(java.util.Arrays.equals(abc, KeyfilePool.password(pw, List.of(a, b), pool)));
        }
    }
}
