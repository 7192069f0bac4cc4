package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.Tools;
import org.vectorjce.tool.volume.VolumeMainAccess;
import org.vectorjce.volumes.JdkXts;
import org.vectorjce.volumes.TestImages;

/**
 * Debian's "guided – use entire disk and set up encrypted LVM": a LUKS2 volume (cryptsetup) whose
 * plaintext is an LVM2 physical volume (lvm2, no device mapper) holding an ext4 that
 * {@code mkfs.ext4 -d} made, laid into the logical volume's extents where {@code lvs} reports
 * them; the plaintext encrypted by an XTS on SunJCE's AES. {@code volume fs} lists the logical
 * volumes, and {@code volume ls -R} and {@code cat} reach the files in one command each.
 */
class LuksLvmExtTest {
    @TempDir
    Path dir;

    @Test
    void luksHoldingLvmHoldingExt4() throws Exception {
        Tools.assumeTool("mkfs.ext4", "cryptsetup");
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("home/user/Documents"));
        Files.writeString(src.resolve("home/user/Documents/letter.txt"), "Dear reader,\n");
        Files.writeString(src.resolve("etc-hostname"), "laptop\n");
        for (Path p : new Path[] {src.resolve("home/user/Documents/letter.txt"), src.resolve("etc-hostname")}) {
            Files.setLastModifiedTime(p, FileTime.from(Instant.parse("2023-05-06T07:08:09Z")));
        }
        Files.setPosixFilePermissions(src.resolve("home/user/Documents/letter.txt"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        Path ext4 = Tools.sparse(dir.resolve("root.ext4"), 8L << 20);
        Tools.ok("mkfs.ext4", "-q", "-F", "-L", "root", "-d", src.toString(), ext4.toString());

        Path pv;
        String vg;
        try (LvmLab lab = LvmLab.create(dir, 24L << 20)) {
            vg = lab.vg;
            lab.lvm("pvcreate", lab.loop(0));
            lab.lvm("vgcreate", lab.vg, lab.loop(0));
            lab.lvm("lvcreate", "-an", "-Zn", "-L", "4M", "-n", "swap_1", lab.vg);
            lab.lvm("lvcreate", "-an", "-Zn", "-L", "8M", "-n", "root", lab.vg);
            lab.writeLv("root", Files.readAllBytes(ext4));
            pv = lab.image(0);
        }

        long mib = 1 << 20;
        Path luks = Tools.sparse(dir.resolve("disk.img"), 40 * mib);
        Path key = dir.resolve("key");
        Files.writeString(key, "encrypted lvm");
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000", "--sector-size", "512", luks.toString(), key.toString());
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), luks.toString()).out());
        byte[] ct = JdkXts.crypt(true, vk, Files.readAllBytes(pv), 512);
        try (FileChannel f = FileChannel.open(luks, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(ct), 16 * mib);
        }

        String k = key.toString();
        VolumeMainAccess.Result fs = VolumeMainAccess.run(null, "fs", luks.toString(), "--key-file", k);
        assertEquals(0, fs.rc(), fs.err());
        assertTrue(fs.out().contains(vg + "/root") && fs.out().contains(vg + "/swap_1") && fs.out().contains("ext4")
                && fs.out().contains(" root "), fs.out());
        VolumeMainAccess.Result ls = VolumeMainAccess.run(null, "ls", "-R", "--json", luks.toString(), "--key-file", k);
        assertEquals(0, ls.rc(), ls.err());
        Map<String, String> got = new TreeMap<>();
        for (String line : ls.out().split("\n")) {
            String path = line.replaceAll("^\\{\"path\":\"([^\"]*)\".*", "$1");
            String type = line.replaceAll(".*\"type\":\"(\\w+)\".*", "$1");
            got.put(path, type);
        }
        got.remove("/lost+found");
        assertEquals(expected(src), got);
        VolumeMainAccess.Result cat = VolumeMainAccess.run(null, "cat", "--partition", vg + "/root", luks.toString(),
                "/home/user/Documents/letter.txt", "--key-file", k);
        assertEquals(0, cat.rc(), cat.err());
        assertEquals("Dear reader,\n", new String(cat.stdout(), StandardCharsets.UTF_8));

        // get keeps the mode ext4 holds (as cp -p), and leaves DEST's own as it was
        Path dest = Files.createDirectory(dir.resolve("dest"));
        var before = Files.getPosixFilePermissions(dest);
        VolumeMainAccess.Result get = VolumeMainAccess.run(null, "get", luks.toString(), "/", dest.toString(),
                "--key-file", k);
        assertEquals(0, get.rc(), get.err());
        assertEquals("rw-r-----", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dest.resolve("home/user/Documents/letter.txt"))));
        assertEquals(Files.getLastModifiedTime(src.resolve("etc-hostname")),
                Files.getLastModifiedTime(dest.resolve("etc-hostname")));
        assertEquals(before, Files.getPosixFilePermissions(dest));
    }

    private static Map<String, String> expected(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> !p.equals(root)).forEach(p -> m.put("/" + root.relativize(p), Files.isDirectory(p) ? "dir"
                    : "file"));
        }
        return m;
    }
}
