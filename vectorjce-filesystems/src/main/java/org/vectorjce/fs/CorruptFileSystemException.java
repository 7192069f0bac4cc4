package org.vectorjce.fs;

import java.io.IOException;

/**
 * A structure on the disk is not what its specification allows: a field out of range, a chain or
 * run list that loops or leaves the device, a checksum that does not match. The message names the
 * structure and its byte offset on the device the filesystem was read from, as
 * {@code "NTFS: MFT record 37 at byte 3223552: update sequence 0x0003 does not match"}.
 */
public class CorruptFileSystemException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long offset;

    /**
     * @param what the filesystem and structure and what is wrong with it, without the offset
     * @param offset the structure's byte offset on the device, or -1 when it has none
     */
    public CorruptFileSystemException(String what, long offset) {
        super(offset >= 0 ? what + " (at byte " + offset + ")" : what);
        this.offset = offset;
    }

    /** The structure's byte offset on the device, or -1. */
    public long offset() {
        return offset;
    }
}
