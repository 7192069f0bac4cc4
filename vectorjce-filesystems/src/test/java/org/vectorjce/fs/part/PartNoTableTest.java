package org.vectorjce.fs.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.Partitions;
import org.vectorjce.fs.testing.Tools;

/**
 * Devices without a partition table, above all a filesystem from byte 0 whose boot sector ends in
 * the MBR's {@code 55 AA}: images written by {@code mkfs.fat}, {@code mkntfs} and {@code mkfs.exfat}
 * are one partition of scheme {@code none}, as {@code mmls} too finds no table in them. The boot
 * sector check is tested on its own by a partition entry written into each boot sector's table
 * area (as {@code mkfs.fat --mbr=y} writes one), which an MBR reader would otherwise follow.
 */
class PartNoTableTest {
    @TempDir
    Path dir;

    private static List<Partition> ours(Path image) throws IOException {
        try (Device d = Device.open(image, false)) {
            return Partitions.read(d);
        }
    }

    private static void assertNone(Path image) throws IOException {
        assertEquals(List.of(new Partition(1, "none", "", "", "", 0, Files.size(image))), ours(image));
    }

    /** mmls, which tests for a FAT or NTFS boot sector before it reads a DOS table, finds no table either. */
    private static void assertMmlsFindsNoTable(Path image) throws Exception {
        if (Tools.have("mmls")) {
            assertNotEquals(0, Tools.run("mmls", image.toString()).exit(), "mmls read a table in " + image);
        }
    }

    /** An active entry 1 of {@code type} from sector 0 over the whole image, in the boot sector's table area. */
    private static void fakeEntry(Path image, int type) throws IOException {
        ByteBuffer e = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        e.put(0, (byte) 0x80).put(4, (byte) type).putInt(8, 0).putInt(12, (int) (Files.size(image) / 512));
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.WRITE)) {
            ch.write(e, 446);
        }
    }

    @Test
    void fat16() throws Exception {
        Tools.assumeTool("mkfs.fat");
        Path img = dir.resolve("fat16.img");
        Tools.ok("mkfs.fat", "-F", "16", "-C", img.toString(), "16384");
        assertNone(img);
        assertMmlsFindsNoTable(img);
    }

    @Test
    void fat32() throws Exception {
        Tools.assumeTool("mkfs.fat");
        Path img = dir.resolve("fat32.img");
        Tools.ok("mkfs.fat", "-F", "32", "-C", img.toString(), "66000");
        assertNone(img);
        assertMmlsFindsNoTable(img);
    }

    @Test
    void fatWithMkfsFatsFakeMbrEntry() throws Exception {
        Tools.assumeTool("mkfs.fat");
        Path img = dir.resolve("fatmbr.img");
        Tools.ok("mkfs.fat", "--mbr=y", "-C", img.toString(), "16384");
        // an entry from sector 0 over the whole disk, so that Windows mounts a removable disk: mmls and
        // sfdisk read it as a DOS table of one partition; ours sees the FAT boot sector first, the same window
        if (Tools.have("mmls")) {
            List<Mmls.Row> rows = Mmls.rows(Tools.ok("mmls", img.toString()).out());
            assertEquals(1, rows.size(), rows.toString());
            assertEquals(0, rows.get(0).start());
            assertEquals(Files.size(img) / 512, rows.get(0).length());
        }
        assertNone(img);
    }

    @Test
    void ntfs() throws Exception {
        Tools.assumeTool("mkntfs");
        Path img = Tools.sparse(dir.resolve("ntfs.img"), 16L << 20);
        Tools.ok("mkntfs", "-F", "-f", "-q", img.toString());
        assertNone(img);
        assertMmlsFindsNoTable(img);
        fakeEntry(img, 0x07);
        assertNone(img);
    }

    @Test
    void exfat() throws Exception {
        Tools.assumeTool("mkfs.exfat");
        Path img = Tools.sparse(dir.resolve("exfat.img"), 16L << 20);
        Tools.ok("mkfs.exfat", img.toString());
        assertNone(img);
        assertMmlsFindsNoTable(img);
        fakeEntry(img, 0x07);
        assertNone(img);
    }

    @Test
    void fatBootSectorWithAFakeEntry() throws Exception {
        Tools.assumeTool("mkfs.fat");
        Path img = dir.resolve("fat12.img");
        Tools.ok("mkfs.fat", "-F", "12", "-C", img.toString(), "4096");
        fakeEntry(img, 0x01);
        assertNone(img);
    }

    @Test
    void zerosAndTinyDevices() throws Exception {
        assertNone(Tools.sparse(dir.resolve("zeros.img"), 1 << 20));
        Path tiny = dir.resolve("tiny.img");
        Files.write(tiny, new byte[100]);
        assertNone(tiny);
        // the signature over an empty table: no used entry, no table (sfdisk would make this an empty DOS label)
        Path empty = Tools.sparse(dir.resolve("empty.img"), 1 << 20);
        try (FileChannel ch = FileChannel.open(empty, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x55, (byte) 0xaa}), 510);
        }
        assertNone(empty);
    }
}
