package org.vectorjce.fs.exfat;

import java.nio.file.attribute.FileTime;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * A file or folder of an exFAT volume: what its directory entry set says (specification section
 * 7.4, File entry, and 7.6, Stream Extension entry) about where its data is.
 *
 * <p>{@link #fileKey()} is the first cluster; a stream with no cluster (an empty file) has first
 * cluster 0, so its key is instead 2^32 plus the byte offset of its File entry on the device, a
 * number no cluster (below 2^32) can have.
 */
final class ExfatNode extends Node {
    /** Keys of cluster-less streams start here, above every 32-bit cluster number. */
    static final long ENTRY_KEY_BASE = 1L << 32;

    final long firstCluster;
    final boolean contiguous;
    final long dataLength;
    final long validDataLength;
    /** The device byte offset of the File entry; -1 for the root. */
    final long entryOffset;

    ExfatNode(String name, Kind kind, FileTime modified, FileTime accessed, FileTime created, int dosAttributes,
            long firstCluster, boolean contiguous, long dataLength, long validDataLength, long entryOffset) {
        super(name, kind, kind == Kind.DIRECTORY ? 0 : dataLength, modified, accessed, created, dosAttributes,
                firstCluster != 0 ? firstCluster : ENTRY_KEY_BASE + entryOffset);
        this.firstCluster = firstCluster;
        this.contiguous = contiguous;
        this.dataLength = dataLength;
        this.validDataLength = validDataLength;
        this.entryOffset = entryOffset;
    }
}
