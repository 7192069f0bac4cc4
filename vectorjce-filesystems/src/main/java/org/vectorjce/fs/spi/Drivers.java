package org.vectorjce.fs.spi;

import java.io.IOException;
import java.util.List;
import org.vectorjce.device.Device;
import org.vectorjce.fs.UnknownFileSystemException;
import org.vectorjce.fs.exfat.ExfatDriver;
import org.vectorjce.fs.ext.ExtDriver;
import org.vectorjce.fs.fat.FatDriver;
import org.vectorjce.fs.ntfs.NtfsDriver;
import org.vectorjce.fs.xfs.XfsDriver;

/** The table of filesystem drivers, and the probe loop over it. */
public final class Drivers {
    /** Every driver, in the order they are probed. */
    public static final List<FsDriver> ALL = List.of(new FatDriver(), new ExfatDriver(), new NtfsDriver(),
            new ExtDriver(), new XfsDriver());

    /** The filesystems the drivers read, for messages. */
    public static final String NAMES = "FAT, exFAT, NTFS, ext2/3/4 or XFS";

    private Drivers() {
    }

    /** The first driver whose probe accepts {@code device}. */
    public static FsDriver find(Device device) throws IOException, UnknownFileSystemException {
        for (FsDriver d : ALL) {
            if (d.probe(device)) {
                return d;
            }
        }
        throw new UnknownFileSystemException("no " + NAMES + " filesystem found on " + device);
    }

    /** Opens what {@link #find} finds. */
    public static DiskFs open(Device device, FsOptions options) throws IOException {
        return find(device).open(device, options);
    }
}
