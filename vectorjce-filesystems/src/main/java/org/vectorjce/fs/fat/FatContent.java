package org.vectorjce.fs.fat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.Content;

/**
 * A FAT file's bytes: its size from the directory entry, its clusters from a {@link ClusterChain};
 * each run of clusters that lie next to each other on the disk is one device read. Safe for many
 * threads (the chain locks; the device is positional).
 */
final class FatContent implements Content {
    private final Device device;
    private final BootSector boot;
    private final long size;
    private final ClusterChain chain;
    private final String name;

    /** {@code chain} is null when {@code size} is 0. */
    FatContent(Device device, BootSector boot, long size, ClusterChain chain, String name) {
        this.device = device;
        this.boot = boot;
        this.size = size;
        this.chain = chain;
        this.name = name;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= size) {
            return -1;
        }
        int cs = boot.clusterSize();
        long want = Math.min(dst.remaining(), size - position);
        long done = 0;
        while (done < want) {
            long at = position + done;
            long index = at / cs;
            int in = (int) (at % cs);
            long left = want - done;
            long clustersWanted = (in + left + cs - 1) / cs;
            long[] run = chain.run(index, clustersWanted);
            long n = Math.min(left, run[1] * cs - in);
            long offset = boot.clusterOffset(run[0]) + in;
            if (offset < 0 || offset > device.size() - n) {
                throw new CorruptFileSystemException("FAT: file \"" + name + "\": cluster " + run[0]
                        + " passes the end of the " + device.size() + "-byte device", offset);
            }
            ByteBuffer slice = dst.slice(dst.position(), (int) n);
            device.readFully(slice, offset);
            dst.position(dst.position() + (int) n);
            done += n;
        }
        return (int) done;
    }
}
