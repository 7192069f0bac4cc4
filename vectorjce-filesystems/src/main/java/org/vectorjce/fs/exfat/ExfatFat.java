package org.vectorjce.fs.exfat;

import java.io.IOException;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.spi.BlockCache;

/**
 * The active File Allocation Table (exFAT specification, section 4 "File Allocation Table Region"):
 * one 32-bit entry per cluster, read through a small {@link BlockCache} so that walking a chain
 * never loads the whole table. An entry is the next cluster of a chain (2 to ClusterCount + 1) or
 * 0xFFFFFFFF, the chain's end; any other value (free 0, 1, the bad-cluster mark 0xFFFFFFF7, a
 * cluster past the heap) inside a chain is a {@link CorruptFileSystemException}.
 */
final class ExfatFat {
    /** {@link #next}'s answer at a chain's end. */
    static final long END = -1;

    private final ExfatBootSector boot;
    private final BlockCache cache;

    ExfatFat(ExfatBootSector boot, BlockCache cache) {
        this.boot = boot;
        this.cache = cache;
    }

    /** The cluster after {@code cluster} in its chain, or {@link #END}. */
    long next(long cluster) throws IOException {
        long at = boot.fatOffset + cluster * 4;
        byte[] b = new byte[4];
        cache.read(at, b, 0, 4, "exFAT: FAT entry of cluster " + cluster);
        long v = (b[0] & 0xffL) | (b[1] & 0xffL) << 8 | (b[2] & 0xffL) << 16 | (b[3] & 0xffL) << 24;
        if (v == 0xFFFFFFFFL) {
            return END;
        }
        if (!boot.validCluster(v)) {
            throw new CorruptFileSystemException(String.format(
                    "exFAT: FAT entry of cluster %d holds 0x%08x, not a cluster of the heap (2-%d) or the end mark",
                    cluster, v, boot.clusterCount + 1), at);
        }
        return v;
    }
}
