package org.vectorjce.fs.exfat;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.BlockCache;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * One exFAT volume, read-only: the boot region, the active FAT (through a 256 KiB block cache),
 * the up-case table (128 KiB), and the root folder's critical entries ({@link RootEntries}), read
 * at open; folders and files read on demand. Immutable after open, so safe for many threads. The
 * root folder's size is its FAT chain's (it has no entry), at most 256 MiB.
 *
 * <p>Names are compared as exFAT compares them: each UTF-16 code unit up-cased through the volume's
 * own table. The Stream Extension's NameHash is not used to skip entries: a wrong hash would hide
 * from {@link #lookup} a file that {@link #list} shows.
 */
final class ExfatFs implements DiskFs {
    /** 6.2: a folder is at most 256 MiB (2^23 entries). */
    static final long MAX_DIRECTORY_BYTES = 256L << 20;

    private final Device device;
    private final ExfatBootSector boot;
    private final ExfatFat fat;
    private final ExfatNode root;
    private final UpcaseTable upcase;
    private final FsInfo info;

    private ExfatFs(Device device, ExfatBootSector boot, ExfatFat fat, ExfatNode root, UpcaseTable upcase,
            FsInfo info) {
        this.device = device;
        this.boot = boot;
        this.fat = fat;
        this.root = root;
        this.upcase = upcase;
        this.info = info;
    }

    static ExfatFs open(Device device) throws IOException {
        ExfatBootSector boot = ExfatBootSector.open(device);
        ExfatFat fat = new ExfatFat(boot, new BlockCache(device, 4096, 64));
        long maxClusters = Math.min(boot.clusterCount, Math.max(1, MAX_DIRECTORY_BYTES >> boot.clusterShift));
        long clusters = ClusterContent.chainLength(boot, fat, boot.rootCluster, maxClusters, "exFAT: root folder");
        long size = clusters << boot.clusterShift;
        ExfatNode root = new ExfatNode("", Kind.DIRECTORY, null, null, null, 0, boot.rootCluster, false, size, size,
                -1);
        RootEntries r = RootEntries.read(device, boot, fat,
                new ClusterContent(device, boot, fat, boot.rootCluster, false, size, size, "exFAT: root folder", -1));
        FsInfo info = new FsInfo("exFAT", r.label(), boot.serialText(), boot.clusterSize,
                boot.clusterCount << boot.clusterShift, r.freeBytes());
        return new ExfatFs(device, boot, fat, root, r.upcase(), info);
    }

    /** The message prefix naming a file or folder. */
    String describe(String kind, String name) {
        return "exFAT: " + kind + " '" + name + "'";
    }

    /** A stream's content, its cluster range checked. */
    ClusterContent content(long first, boolean contiguous, long size, long valid, String what, long at)
            throws CorruptFileSystemException {
        return new ClusterContent(device, boot, fat, first, contiguous, size, valid, what, at);
    }

    private ClusterContent content(ExfatNode n) throws CorruptFileSystemException {
        String what = n == root ? "exFAT: root folder" : describe(n.isDirectory() ? "folder" : "file", n.name());
        return content(n.firstCluster, n.contiguous, n.dataLength, n.validDataLength, what, n.entryOffset);
    }

    @Override
    public FsInfo info() {
        return info;
    }

    @Override
    public Node root() {
        return root;
    }

    @Override
    public boolean caseSensitive() {
        return false;
    }

    @Override
    public NodeStream list(Node dir) throws IOException {
        ExfatNode d = own(dir);
        if (!d.isDirectory()) {
            throw new NotDirectoryException(d.name());
        }
        if (d.dataLength > MAX_DIRECTORY_BYTES) {
            throw new CorruptFileSystemException(describe("folder", d.name()) + ": DataLength " + d.dataLength
                    + " passes 256 MiB", d.entryOffset);
        }
        ClusterContent c = content(d);
        return new EntrySetStream(this, c, d == root ? "exFAT: root folder" : describe("folder", d.name()));
    }

    @Override
    public Node lookup(Node dir, String name) throws IOException {
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            return null;
        }
        String key = upcase.upcase(name);
        try (NodeStream s = list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                if (n.name().length() == name.length() && upcase.upcase(n.name()).equals(key)) {
                    return n;
                }
            }
        }
        return null;
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        ExfatNode f = own(file);
        if (stream != null) {
            throw new NoSuchFileException(f.name() + ":" + stream, null, "exFAT has no named streams");
        }
        if (f.isDirectory()) {
            throw new IOException(f.name() + " is a folder");
        }
        return content(f);
    }

    private static ExfatNode own(Node n) {
        if (n instanceof ExfatNode e) {
            return e;
        }
        throw new IllegalArgumentException("not a node of an exFAT volume: " + n);
    }

    /** The device stays the caller's: nothing to close. */
    @Override
    public void close() {
    }
}
