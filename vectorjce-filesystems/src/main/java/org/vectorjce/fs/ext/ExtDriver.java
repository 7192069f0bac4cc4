package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * The ext2/ext3/ext4 driver, read-only. The probe accepts a superblock at byte 1024 with the magic
 * 0xEF53 whose geometry passes {@link Superblock}'s checks; an unsupported incompatible feature
 * and a superblock checksum mismatch are left to the open, which refuses them by name, so that the
 * user learns why rather than "no filesystem".
 */
public final class ExtDriver implements FsDriver {
    @Override
    public String name() {
        return "ext";
    }

    @Override
    public boolean probe(Device device) throws IOException {
        if (device.size() < Superblock.OFFSET + Superblock.SIZE) {
            return false;
        }
        try {
            readSuperblock(device);
            return true;
        } catch (CorruptFileSystemException e) {
            return false;
        }
    }

    @Override
    public DiskFs open(Device device, FsOptions options) throws IOException {
        return ExtFileSystem.open(device);
    }

    static Superblock readSuperblock(Device device) throws IOException {
        if (device.size() < Superblock.OFFSET + Superblock.SIZE) {
            throw new CorruptFileSystemException("ext: the " + device.size() + "-byte device is shorter than a"
                    + " superblock", Superblock.OFFSET);
        }
        byte[] s = new byte[Superblock.SIZE];
        device.readFully(ByteBuffer.wrap(s), Superblock.OFFSET);
        return Superblock.parse(s);
    }
}
