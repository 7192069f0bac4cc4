package org.vectorjce.fs.fat;

import java.nio.file.attribute.FileTime;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * One FAT directory entry as a {@link Node}: its first cluster and where its short (8.3) entry is.
 *
 * <p>{@link #fileKey()}: the first cluster when there is one (cluster numbers are below 2^28);
 * a file with no cluster (an empty file) has {@code 2^32 +} the byte offset of its short directory
 * entry instead, which is unique on the volume and never a cluster number. The FAT12/16 root
 * directory, which has no cluster, is key 0.
 */
final class FatNode extends Node {
    /** Keys of clusterless entries start here, above every cluster number. */
    static final long ENTRY_KEY_BASE = 1L << 32;

    private final long firstCluster;
    private final long entryOffset;
    private final String shortName;
    private final boolean root;

    FatNode(String name, String shortName, Kind kind, long size, FileTime modified, FileTime accessed,
            FileTime created, int dosAttributes, long firstCluster, long entryOffset, boolean root) {
        super(name, kind, size, modified, accessed, created, dosAttributes,
                root ? firstCluster : firstCluster != 0 ? firstCluster : ENTRY_KEY_BASE + entryOffset);
        this.firstCluster = firstCluster;
        this.entryOffset = entryOffset;
        this.shortName = shortName;
        this.root = root;
    }

    /** The first cluster, 0 when there is none (an empty file, the FAT12/16 root). */
    long firstCluster() {
        return firstCluster;
    }

    /** The byte offset of the short directory entry on the device; -1 for the root. */
    long entryOffset() {
        return entryOffset;
    }

    /** The 8.3 name as decoded (with the NT lower-case flags applied), for lookups. */
    String shortName() {
        return shortName;
    }

    boolean isRoot() {
        return root;
    }
}
