package org.vectorjce.fs.ext;

import java.io.IOException;

/**
 * Where a file's logical blocks are: an extent tree ({@link ExtentMap}) or an ext2/3 block map
 * ({@link BlockMap}). Safe for many threads.
 */
interface BlockMapper {
    /**
     * The run of blocks that starts at logical block {@code logical}: {@code length} blocks (at least
     * one) that are either contiguous on the device from {@code physical}, or read as zeros
     * ({@code physical} -1: a hole, or an uninitialised extent).
     */
    Run map(long logical) throws IOException;

    /** A run of logical blocks. */
    record Run(long logical, long length, long physical) {
        boolean zeros() {
            return physical < 0;
        }
    }
}
