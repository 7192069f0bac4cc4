package org.vectorjce.volumes.fvault2;

import java.io.IOException;
import java.nio.file.Path;

import org.vectorjce.volumes.SparseImages;

/**
 * cryptsetup's {@code tests/fvault2-images.tar.xz} (testvectors/fvault2-images), read into memory by
 * {@link SparseImages}: the image {@code small} (512 MiB, 52 KiB of data) and the facts
 * {@code tests/fvault2-compat-test} checks about it.
 */
final class Fvault2Images {
    static final String PASSWORD = "heslo123";
    static final String PV_UUID = "fc52bfae-5a1f-4f9b-b3a6-f33303a0e401";
    static final String FAMILY_UUID = "33a76caa-1481-4bc5-8d04-1ac1707c19c0";
    static final long LV_OFFSET = 67108864, LV_SIZE = 167772160;
    static final long ITERATIONS = 204222;
    static final String SALT = "2c 24 9e db 66 63 d6 fb cc 79 05 b7 a4 d7 27 52";
    static final String VOLUME_KEY = "20 73 4d 33 89 21 27 74 d7 61 0c 29 d7 32 88 09 16 f3 be 14 c4 b1 2a c7 aa f0 7e"
            + " 5c cc 77 b3 19";
    /** blkid's UUID of the file system on the opened device (an HFS+ volume: its 64-bit finder-info id as a v3 UUID). */
    static final String FS_UUID = "de124d8a-2164-394e-924f-8e28db0a09cb";
    static final String SHA256 = "2c662e36c0f7e2f5583e6a939bbcbdc660805692d0fccaa45ad4052beb3b8e18";

    private Fvault2Images() {
    }

    static Path tarball() {
        String p = System.getProperty("vectorjce.testvectors");
        Path dir = p != null ? Path.of(p) : Path.of("../testvectors");
        return dir.resolve("fvault2-images").resolve("fvault2-images.tar.xz");
    }

    private static SparseImages.Image small;

    /** The image {@code small}, read once per JVM (callers that change it take a {@link SparseImages.Image#copy()}). */
    static synchronized SparseImages.Image small() throws IOException {
        if (small == null) {
            small = SparseImages.read(tarball()).images().get("small");
        }
        return small;
    }

    /** {@code VOLUME_KEY}'s bytes. */
    static byte[] volumeKey() {
        String[] h = VOLUME_KEY.split(" ");
        byte[] k = new byte[h.length];
        for (int i = 0; i < h.length; i++) {
            k[i] = (byte) Integer.parseInt(h[i], 16);
        }
        return k;
    }
}
