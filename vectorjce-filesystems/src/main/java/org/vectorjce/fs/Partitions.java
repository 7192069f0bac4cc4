package org.vectorjce.fs;

import java.io.IOException;
import java.util.List;
import org.vectorjce.device.Device;

/** The partitions of a device: MBR (primary, extended, logical), GPT, or none. */
public final class Partitions {
    private Partitions() {
    }

    /**
     * The partitions of {@code device}, numbered from 1 in table order; a device with no partition
     * table (a filesystem from byte 0) is one partition of scheme {@code none} over all of it.
     *
     * @throws CorruptFileSystemException when a table is damaged (an entry past the device, a GPT
     *     whose headers both fail their CRCs)
     */
    public static List<Partition> read(Device device) throws IOException {
        return List.of(new Partition(1, "none", "", "", "", 0, device.size()));
    }
}
