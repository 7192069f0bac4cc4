package org.vectorjce.fs.ntfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * The NTFS driver (NTFS 3.0 and 3.1 as Windows 2000 and later and ntfs-3g write it), read-only:
 * probes the boot sector's OEM id and geometry, then opens an {@link NtfsFileSystem}.
 */
public final class NtfsDriver implements FsDriver {
    @Override
    public String name() {
        return "ntfs";
    }

    @Override
    public boolean probe(Device device) throws IOException {
        if (device.size() < 512) {
            return false;
        }
        try {
            BootSector.parse(sector(device), device.size());
            return true;
        } catch (CorruptFileSystemException e) {
            return false;
        }
    }

    @Override
    public DiskFs open(Device device, FsOptions options) throws IOException {
        if (device.size() < 512) {
            throw new CorruptFileSystemException("NTFS: device of " + device.size() + " bytes has no boot sector", 0);
        }
        return new NtfsFileSystem(device, BootSector.parse(sector(device), device.size()));
    }

    private static byte[] sector(Device device) throws IOException {
        byte[] s = new byte[512];
        device.readFully(ByteBuffer.wrap(s), 0);
        return s;
    }
}
