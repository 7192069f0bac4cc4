package org.vectorjce.fs.fat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * The FAT12/FAT16/FAT32 driver, read-only. The probe accepts a boot sector whose BIOS parameter
 * block passes every check of {@link BootSector} (fatgen103's ranges, the 0x55AA signature, a
 * media byte, a data area, FATs that hold an entry per cluster and fit on the device); exFAT and
 * NTFS boot sectors fail it by their OEM names and their zero FAT fields.
 */
public final class FatDriver implements FsDriver {
    @Override
    public String name() {
        return "fat";
    }

    @Override
    public boolean probe(Device device) throws IOException {
        try {
            readBoot(device);
            return true;
        } catch (CorruptFileSystemException e) {
            return false;
        }
    }

    @Override
    public DiskFs open(Device device, FsOptions options) throws IOException {
        return FatFileSystem.open(device, options);
    }

    /** The device's boot sector, checked. */
    static BootSector readBoot(Device device) throws IOException {
        if (device.size() < 512) {
            throw new CorruptFileSystemException("FAT: the " + device.size() + "-byte device is shorter than a boot"
                    + " sector", 0);
        }
        byte[] s = new byte[512];
        device.readFully(ByteBuffer.wrap(s), 0);
        return BootSector.parse(s, device.size());
    }
}
