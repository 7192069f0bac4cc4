package org.vectorjce.fs.exfat;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.vectorjce.fs.testing.Tools;

/**
 * Builds exFAT images with the real tools (exfatprogs' mkfs.exfat and tune.exfat, filled through
 * exfat-fuse on a loop device) and reads their facts back with dump.exfat, for the exFAT tests. The
 * patching helpers here find entries by their bytes and recompute the SetChecksum by the
 * specification (section 6.3.3), independently of the driver; fsck.exfat then confirms a patched
 * set is well formed.
 */
final class ExfatImages {
    private ExfatImages() {
    }

    /** What a test does with a mounted image. */
    interface Mounted {
        void run(Path dir) throws Exception;
    }

    /** Skips the test, naming what is missing, unless mkfs.exfat, exfat-fuse, losetup and /dev/fuse are usable. */
    static void assumeTools() {
        Tools.assumeTool("mkfs.exfat", "tune.exfat", "dump.exfat", "fsck.exfat", "losetup", "mount.exfat-fuse",
                "umount");
        Tools.assumeFuse();
        assumeTrue(Files.exists(Path.of("/dev/loop-control")), "/dev/loop-control is missing: test skipped");
    }

    /** A sparse image of {@code size} bytes made by mkfs.exfat, with a label, a serial and a cluster size. */
    static Path mkfs(Path image, long size, String label, String serialHex, String clusterSize, String... extra)
            throws Exception {
        Tools.sparse(image, size);
        String[] cmd = new String[6 + extra.length];
        cmd[0] = "mkfs.exfat";
        cmd[1] = "-L";
        cmd[2] = label;
        cmd[3] = "-c";
        cmd[4] = clusterSize;
        System.arraycopy(extra, 0, cmd, 5, extra.length);
        cmd[cmd.length - 1] = image.toString();
        Tools.ok(cmd);
        // exfatprogs 1.2's mkfs has no --volume-serial; tune.exfat sets it (and rewrites the boot checksum)
        Tools.ok("tune.exfat", "-I", "0x" + serialHex, image.toString());
        return image;
    }

    /**
     * Attaches {@code image} to a loop device, mounts it with exfat-fuse (environment {@code env},
     * e.g. a TZ), runs {@code action} on the mount, and always unmounts, waits for exfat-fuse to let
     * go of the loop device, and detaches it.
     */
    static void mounted(Path image, Map<String, String> env, Mounted action) throws Exception {
        Tools.Run attach = Tools.run("losetup", "-f", "--show", image.toString());
        assumeTrue(attach.exit() == 0, "losetup cannot attach a loop device here (" + attach.stderr().trim()
                + "): test skipped");
        String loop = attach.out().trim();
        Path dir = Files.createTempDirectory("exfat-mnt");
        boolean mounted = false;
        try {
            Tools.ok(env, "mount.exfat-fuse", loop, dir.toString());
            mounted = true;
            action.run(dir);
        } finally {
            if (mounted) {
                Tools.ok("umount", dir.toString());
            }
            release(image, loop);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Formats a sparse image of {@code size} bytes on a loop device of {@code sectorSize}-byte
     * logical sectors (so that mkfs.exfat writes that BytesPerSectorShift), with the cluster size,
     * label and serial given, then mounts it with exfat-fuse and runs {@code fill} on the mount;
     * always unmounts and detaches.
     */
    static Path formatAndFill(Path image, long size, int sectorSize, String clusterSize, String label,
            String serialHex, Mounted fill) throws Exception {
        Tools.sparse(image, size);
        Tools.Run attach = Tools.run("losetup", "-b", Integer.toString(sectorSize), "-f", "--show", image.toString());
        assumeTrue(attach.exit() == 0, "losetup cannot attach a loop device here (" + attach.stderr().trim()
                + "): test skipped");
        String loop = attach.out().trim();
        Path dir = Files.createTempDirectory("exfat-mnt");
        boolean mounted = false;
        try {
            Tools.ok("mkfs.exfat", "-c", clusterSize, "-L", label, loop);
            Tools.ok("tune.exfat", "-I", "0x" + serialHex, loop);
            Tools.ok("mount.exfat-fuse", loop, dir.toString());
            mounted = true;
            fill.run(dir);
        } finally {
            if (mounted) {
                Tools.ok("umount", dir.toString());
            }
            release(image, loop);
            Files.deleteIfExists(dir);
        }
        return image;
    }

    /** Detaches {@code loop} once exfat-fuse has closed it (it writes its last changes after the unmount returns). */
    private static void release(Path image, String loop) throws Exception {
        Tools.run("losetup", "-d", loop);
        for (int i = 0; i < 200 && !Tools.run("losetup", "-j", image.toString()).out().isBlank(); i++) {
            Thread.sleep(50);
        }
    }

    /** dump.exfat's "name: value" lines. */
    static Map<String, String> dump(Path image) throws Exception {
        Map<String, String> m = new HashMap<>();
        for (String line : Tools.ok("dump.exfat", image.toString()).out().split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                m.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        return m;
    }

    static long dumpNumber(Map<String, String> dump, String key) {
        String v = dump.get(key);
        if (v == null) {
            throw new IllegalStateException("dump.exfat printed no '" + key + "': " + dump);
        }
        return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
    }

    /** Whether fsck.exfat, checking only, finds the image sound. */
    static Tools.Run fsck(Path image) throws Exception {
        return Tools.run("fsck.exfat", "-n", image.toString());
    }

    /**
     * The byte offset of the File entry (0x85) whose set's first File Name entry holds {@code name}
     * (at most 15 characters): the File Name entry is found by its bytes, the File entry lies two
     * entries before it.
     */
    static int fileEntry(byte[] image, String name) {
        byte[] pattern = new byte[2 + 2 * name.length()];
        pattern[0] = (byte) 0xC1;
        byte[] utf16 = name.getBytes(StandardCharsets.UTF_16LE);
        System.arraycopy(utf16, 0, pattern, 2, utf16.length);
        int found = -1;
        for (int i = 64; i + pattern.length + 2 <= image.length; i += 32) {
            boolean match = true;
            for (int j = 0; j < pattern.length && match; j++) {
                match = image[i + j] == pattern[j];
            }
            // the name ends here: padding zero, or the entry's end
            if (match && (pattern.length == 32 || image[i + pattern.length] == 0 && image[i + pattern.length + 1] == 0)
                    && (image[i - 64] & 0xff) == 0x85) {
                if (found >= 0) {
                    throw new IllegalStateException("two entries named " + name);
                }
                found = i - 64;
            }
        }
        if (found < 0) {
            throw new IllegalStateException("no entry named " + name);
        }
        return found;
    }

    /** Recomputes the SetChecksum (6.3.3) of the entry set at {@code at}. */
    static void fixSetChecksum(byte[] image, int at) {
        int count = (image[at + 1] & 0xff) + 1;
        int sum = 0;
        for (int i = 0; i < count * 32; i++) {
            if (i == 2 || i == 3) {
                continue;
            }
            sum = (((sum & 1) != 0 ? 0x8000 : 0) + (sum >>> 1) + (image[at + i] & 0xff)) & 0xffff;
        }
        le(image).putShort(at + 2, (short) sum);
    }

    static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }
}
