package org.vectorjce.fs;

import java.io.IOException;
import java.util.List;
import org.vectorjce.device.Device;
import org.vectorjce.fs.part.PartitionTables;

/**
 * The partitions of a device: MBR (primary, extended, logical), GPT, or none. The tables are read
 * by {@link org.vectorjce.fs.part.PartitionTables}, whose javadoc says how a table is told from a
 * filesystem's boot sector, how partitions are numbered against {@code mmls} and Linux, and what is
 * taken for damage.
 */
public final class Partitions {
    private Partitions() {
    }

    /**
     * The partitions of {@code device}, numbered from 1 in table order; a device with no partition
     * table (a filesystem from byte 0) is one partition of scheme {@code none} over all of it.
     *
     * <p>A GPT whose primary header is damaged is read from its backup header; this list does not say
     * so ({@link org.vectorjce.fs.part.PartitionTable#notes()} does, inside the module).
     *
     * @throws CorruptFileSystemException when a table is damaged (an entry past the device, a GPT
     *     whose headers both fail their CRCs, an EBR chain that loops, partitions that overlap)
     */
    public static List<Partition> read(Device device) throws IOException {
        return PartitionTables.read(device).partitions();
    }
}
