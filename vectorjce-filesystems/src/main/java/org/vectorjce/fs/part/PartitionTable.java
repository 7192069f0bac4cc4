package org.vectorjce.fs.part;

import java.util.List;
import org.vectorjce.fs.Partition;

/**
 * What {@link PartitionTables#read} found: the scheme, the sector size its addresses are in, the
 * partitions, and notes on what was read in place of a damaged structure (the GPT's backup header
 * used because the primary failed its CRC), which {@code Partition} has no field for.
 *
 * @param scheme {@code MBR}, {@code GPT} or {@code none}
 * @param sectorSize bytes of the table's LBA: 512, or 4096 for a GPT found on a 4Kn disk
 * @param partitions the partitions, numbered from 1 in this order
 * @param notes sentences on structures that were damaged but not needed, empty when none were
 */
public record PartitionTable(String scheme, int sectorSize, List<Partition> partitions, List<String> notes) {
    public PartitionTable {
        partitions = List.copyOf(partitions);
        notes = List.copyOf(notes);
    }
}
