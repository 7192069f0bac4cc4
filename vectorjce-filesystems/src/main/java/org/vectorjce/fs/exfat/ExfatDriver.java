package org.vectorjce.fs.exfat;

import java.io.IOException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * The exFAT driver (Microsoft's exFAT file system specification, 2019), read-only.
 *
 * <p>The probe accepts a device whose first sector is named {@code "EXFAT   "} and whose main boot
 * sector's fields (or, failing that, the backup boot sector's at sector 12) are in range: MustBeZero,
 * the sector and cluster shifts, the FAT and cluster heap placement, the root folder's cluster and
 * the 0xAA55 signature. The boot checksum is verified by {@link #open}: a main boot region that fails
 * it is replaced by the backup region when that one is sound, else the volume is refused with a
 * {@link org.vectorjce.fs.CorruptFileSystemException} naming the mismatch. A volume thus damaged is
 * reported as a damaged exFAT volume, not as an unknown one. {@link FsOptions} has nothing for
 * exFAT: names are UTF-16.
 */
public final class ExfatDriver implements FsDriver {
    @Override
    public String name() {
        return "exfat";
    }

    @Override
    public boolean probe(Device device) throws IOException {
        return ExfatBootSector.probe(device);
    }

    @Override
    public DiskFs open(Device device, FsOptions options) throws IOException {
        return ExfatFs.open(device);
    }
}
