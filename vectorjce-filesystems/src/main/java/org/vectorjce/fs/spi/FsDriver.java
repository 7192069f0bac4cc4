package org.vectorjce.fs.spi;

import java.io.IOException;
import org.vectorjce.device.Device;

/**
 * One filesystem driver: a probe of the boot sector or superblock, and the open. The drivers are
 * rows of {@link Drivers#ALL}, probed in turn as The Sleuth Kit's {@code fs_open.c} does.
 */
public interface FsDriver {
    /** The driver's name ({@code fat}, {@code exfat}, {@code ntfs}). */
    String name();

    /**
     * Whether {@code device} holds this driver's filesystem, from its signature and the fields the
     * open depends on: reads a few sectors, never throws for a device that simply holds something else.
     *
     * @throws IOException only when the device cannot be read
     */
    boolean probe(Device device) throws IOException;

    /**
     * Opens the filesystem on {@code device}, which stays the caller's: closing the filesystem
     * leaves it open.
     *
     * @throws org.vectorjce.fs.CorruptFileSystemException when its structures are out of range
     */
    DiskFs open(Device device, FsOptions options) throws IOException;
}
