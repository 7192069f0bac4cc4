package org.vectorjce.fs.xfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * The XFS driver, read-only. The probe accepts a device whose first sector is a superblock passing
 * every check of {@link Superblock} (the "XFSB" magic, version 4 or 5, consistent sizes and
 * geometry, a v5 CRC, only understood incompatible features).
 */
public final class XfsDriver implements FsDriver {
    /** Bytes read for the superblock: the largest sector size XFS allows. */
    private static final int READ = 32768;

    @Override
    public String name() {
        return "xfs";
    }

    @Override
    public boolean probe(Device device) throws IOException {
        try {
            readSuperblock(device);
            return true;
        } catch (CorruptFileSystemException e) {
            return false;
        }
    }

    @Override
    public DiskFs open(Device device, FsOptions options) throws IOException {
        return new XfsFileSystem(device, readSuperblock(device));
    }

    private static Superblock readSuperblock(Device device) throws IOException {
        if (device.size() < 4096) {
            throw new CorruptFileSystemException("XFS: the " + device.size() + "-byte device is too small", 0);
        }
        byte[] s = new byte[(int) Math.min(READ, device.size())];
        device.readFully(ByteBuffer.wrap(s), 0);
        return Superblock.parse(s, device.size());
    }
}
