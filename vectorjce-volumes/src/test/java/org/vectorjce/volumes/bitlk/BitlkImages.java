package org.vectorjce.volumes.bitlk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.vectorjce.volumes.SparseImages;

/**
 * cryptsetup's {@code tests/bitlk-images.tar.xz} (testvectors/bitlk-images), read into memory by
 * {@link SparseImages}: 21 images of 100 to 128 MiB kept as their extents. {@code images.conf} gives each image's secrets, VMK
 * GUIDs, file-system UUID and the SHA-256 of the device cryptsetup maps.
 */
final class BitlkImages {
    private BitlkImages() {
    }

    static Path tarball() {
        String p = System.getProperty("vectorjce.testvectors");
        Path dir = p != null ? Path.of(p) : Path.of("../testvectors");
        return dir.resolve("bitlk-images").resolve("bitlk-images.tar.xz");
    }

    private static Map<String, SparseImages.Image> images;
    private static Map<String, byte[]> files;

    /** The images by name (without {@code .img}), read once per JVM. */
    static synchronized Map<String, SparseImages.Image> images() throws IOException {
        if (images == null) {
            load();
        }
        return images;
    }

    /** The small files (images.conf, the two .BEK files) by name. */
    static synchronized Map<String, byte[]> files() throws IOException {
        if (files == null) {
            load();
        }
        return files;
    }

    private static void load() throws IOException {
        SparseImages.Contents c = SparseImages.read(tarball());
        images = c.images();
        files = c.files();
    }

    /** images.conf: section → (key → value), in the file's order. */
    static Map<String, Map<String, String>> conf() throws IOException {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        Map<String, String> cur = null;
        for (String line : new String(files().get("images.conf"), StandardCharsets.UTF_8).split("\n")) {
            line = line.strip();
            if (line.startsWith("[") && line.endsWith("]")) {
                cur = new LinkedHashMap<>();
                m.put(line.substring(1, line.length() - 1), cur);
            } else if (cur != null && line.contains("=")) {
                int i = line.indexOf('=');
                cur.put(line.substring(0, i), line.substring(i + 1));
            }
        }
        return m;
    }

    /**
     * The file-system UUID blkid gives for the boot sector {@code s}: NTFS's 64-bit serial at 0x48
     * (16 hex digits, upper case), or FAT32's / FAT16's 32-bit serial as XXXX-XXXX.
     */
    static String uuid(byte[] s) {
        if (new String(s, 3, 8, StandardCharsets.US_ASCII).equals("NTFS    ")) {
            StringBuilder b = new StringBuilder();
            for (int i = 7; i >= 0; i--) {
                b.append(String.format("%02X", s[0x48 + i]));
            }
            return b.toString();
        }
        int o = s[0x42] == 0x29 ? 0x43 : s[0x26] == 0x29 ? 0x27 : -1;
        if (o < 0) {
            return null;
        }
        return String.format("%02X%02X-%02X%02X", s[o + 3], s[o + 2], s[o + 1], s[o]);
    }
}
