package org.vectorjce.fs.ntfs;

import java.nio.file.attribute.FileTime;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * A file, folder or link of an NTFS volume: its name in the folder it was listed from, and the MFT
 * record number (its file key, shared by hard links) that the driver reads it by.
 */
final class NtfsNode extends Node {
    /** How a link's target is stored. */
    enum LinkForm {
        NONE, REPARSE, INTERIX
    }

    final long record;
    final LinkForm linkForm;

    NtfsNode(String name, Kind kind, long size, FileTime modified, FileTime accessed, FileTime created, int dos,
            long record, LinkForm linkForm) {
        super(name, kind, size, modified, accessed, created, dos, record);
        this.record = record;
        this.linkForm = linkForm;
    }
}
