package org.vectorjce.fs;

import java.io.IOException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * What {@code fsstat} shows of a filesystem.
 *
 * @param type {@code FAT12}, {@code FAT16}, {@code FAT32}, {@code exFAT}, {@code NTFS}, or {@code ext2},
 *     {@code ext3}, {@code ext4} (blkid's rule: see the ext driver's superblock)
 * @param label the volume label, or {@code ""} where there is none
 * @param serial the volume serial number or UUID as the filesystem's own tools print it
 *     ({@code 1234-ABCD} for FAT and exFAT, 16 hex digits for NTFS, the lower-case 8-4-4-4-12 UUID
 *     for ext)
 * @param clusterSize bytes of one allocation unit (cluster or block)
 * @param totalBytes bytes of the filesystem's data area
 * @param freeBytes bytes of it not allocated, or -1 where that is not known without a full scan
 */
public record FsInfo(String type, String label, String serial, int clusterSize, long totalBytes, long freeBytes) {
    /**
     * The filesystem on {@code device} (a partition's window, or a whole device), or {@code null}
     * when no driver recognises it.
     *
     * @throws CorruptFileSystemException when a driver recognises it but its structures are damaged
     */
    public static FsInfo of(Device device) throws IOException {
        for (FsDriver d : Drivers.ALL) {
            if (d.probe(device)) {
                try (DiskFs fs = d.open(device, FsOptions.defaults())) {
                    return fs.info();
                }
            }
        }
        return null;
    }
}
