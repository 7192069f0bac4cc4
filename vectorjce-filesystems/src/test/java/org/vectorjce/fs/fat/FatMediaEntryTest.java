package org.vectorjce.fs.fat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.testing.Tools;

/**
 * FAT[0] repeats the media byte (fatgen103): mkfs.fat's FAT12, FAT16 and FAT32 open; the same
 * images with that entry overwritten (a FAT that is not this boot sector's, as in a trimmed or
 * wiped image) are refused, naming the entry's byte offset.
 */
class FatMediaEntryTest {
    @TempDir
    Path dir;

    @Test
    void firstEntryMustHoldTheMediaByte() throws Exception {
        Tools.assumeTool("mkfs.fat");
        String[][] kinds = {{"12", "1440"}, {"16", "16384"}, {"32", "40000"}};
        for (String[] k : kinds) {
            Path img = dir.resolve("fat" + k[0] + ".img");
            Tools.ok("mkfs.fat", "-F", k[0], "-C", img.toString(), k[1]);
            try (Device d = Device.open(img, false)) {
                new FatDriver().open(d, FsOptions.defaults()).close();
            }
            byte[] b = Files.readAllBytes(img);
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            int fat = (bb.getShort(14) & 0xffff) * (bb.getShort(11) & 0xffff);
            b[fat] ^= 0x5a;
            Files.write(img, b);
            try (Device d = Device.open(img, false)) {
                CorruptFileSystemException e = assertThrows(CorruptFileSystemException.class,
                        () -> new FatDriver().open(d, FsOptions.defaults()));
                assertEquals(fat, e.offset(), e.getMessage());
                assertTrue(e.getMessage().startsWith("FAT" + k[0] + ": the first FAT entry"), e.getMessage());
            }
        }
    }
}
