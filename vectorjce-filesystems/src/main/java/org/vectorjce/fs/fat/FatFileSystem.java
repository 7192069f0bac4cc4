package org.vectorjce.fs.fat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.BlockCache;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * A FAT12, FAT16 or FAT32 volume, read-only: the {@link DiskFs} of {@link FatDriver}.
 *
 * <p>The FAT is read entry by entry through a small {@link BlockCache} (256 KiB); directories are
 * read a piece at a time ({@link DirReader}); a file's clusters are walked lazily
 * ({@link ClusterChain}). Immutable but for the cache, which locks: safe for many threads.
 *
 * <p>{@link FsInfo}: the label is the root directory's volume-label entry, else the boot sector's
 * ({@code "NO NAME"} read as none), as blkid reads it; the serial is {@code BS_VolID} as
 * {@code XXXX-XXXX} in upper-case hex, or {@code ""} when the boot sector has no extended boot
 * signature (0x28 or 0x29); the total is the data clusters' bytes.
 *
 * <p>Times are FAT's local times read as UTC (see {@link FatTimes}). {@link FsInfo#freeBytes()}:
 * FAT12 and FAT16 count their free FAT entries at open (at most 128 KiB of FAT); FAT32 gives its
 * FSInfo sector's free-cluster count, which fatgen103 calls a hint that may be stale, when the
 * sector's signatures are right and the count is within the cluster count, else -1.
 */
final class FatFileSystem implements DiskFs {
    private static final int CACHE_BLOCK = 4096;
    private static final int CACHE_BLOCKS = 64;

    private final Device device;
    private final BootSector boot;
    private final FatTable fat;
    private final Charset codePage;
    private final FatNode root;
    private final FsInfo info;

    private FatFileSystem(Device device, BootSector boot, Charset codePage) throws IOException {
        this.device = device;
        this.boot = boot;
        this.codePage = codePage;
        this.fat = new FatTable(boot, new BlockCache(device, CACHE_BLOCK, CACHE_BLOCKS));
        this.root = new FatNode("", "", Kind.DIRECTORY, 0, null, null, null, 0, boot.rootCluster(), -1, true);
        this.info = readInfo();
    }

    static FatFileSystem open(Device device, FsOptions options) throws IOException {
        BootSector boot = FatDriver.readBoot(device);
        checkMediaEntry(boot, new FatTable(boot, new BlockCache(device, 4096, 1)));
        return new FatFileSystem(device, boot, options.codePage());
    }

    /**
     * FAT[0] holds the BPB's media byte in its low 8 bits and ones in every other bit (fatgen103,
     * "FAT Data Structure"); every formatter writes it so. A FAT whose first entry is anything else is
     * not this boot sector's FAT (a trimmed or wiped image, a wrong partition offset): refused here,
     * as mtools reports "Fat error detected", rather than listing what random bytes decode to.
     */
    private static void checkMediaEntry(BootSector boot, FatTable fat) throws IOException {
        long want = switch (boot.type()) {
            case 12 -> 0xF00L | boot.media();
            case 16 -> 0xFF00L | boot.media();
            default -> 0x0FFFFF00L | boot.media();
        };
        long got = fat.read(0);
        if (got != want) {
            throw new CorruptFileSystemException(String.format("FAT%d: the first FAT entry is 0x%X, not 0x%X for media"
                    + " byte 0x%02X: the FAT is damaged or not this boot sector's", boot.type(), got, want,
                    boot.media()), fat.entryOffset(0));
        }
    }

    private FsInfo readInfo() throws IOException {
        // blkid's order: the root directory's volume-label entry, else the boot sector's label. A root
        // that cannot be read to its end leaves the label found so far; listing it reports the damage.
        String label;
        DirReader r = (DirReader) list(root);
        try {
            while (r.next() != null) {
                // walk to the end: the label entry may be anywhere in the root
            }
        } catch (CorruptFileSystemException e) {
            // the label found before the damage, if any
        }
        label = r.volumeLabel();
        if (label == null && boot.label() != null) {
            label = FatNames.label(boot.label(), 0, codePage);
            if (label.equals("NO NAME")) {
                label = "";
            }
        }
        if (label == null) {
            label = "";
        }
        String serial = boot.serial() < 0 ? ""
                : String.format("%04X-%04X", boot.serial() >>> 16, boot.serial() & 0xffff);
        long free = boot.type() == 32 ? fsInfoFree() : countFree();
        long cs = boot.clusterSize();
        return new FsInfo("FAT" + boot.type(), label, serial, boot.clusterSize(), boot.clusterCount() * cs,
                free < 0 ? -1 : free * cs);
    }

    /** FAT12/16: the free entries, at most 65524 of them. */
    private long countFree() throws IOException {
        long free = 0;
        for (long c = 2; c <= boot.maxCluster(); c++) {
            if (fat.get(c) == 0) {
                free++;
            }
        }
        return free;
    }

    /** FAT32: FSI_Free_Count of the FSInfo sector (fatgen103 "FAT32 FSInfo Sector Structure"), or -1. */
    private long fsInfoFree() throws IOException {
        if (boot.fsInfoOffset() < 0 || boot.fsInfoOffset() > device.size() - 512) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
        device.readFully(b, boot.fsInfoOffset());
        if (b.getInt(0) != 0x41615252 || b.getInt(484) != 0x61417272 || b.getInt(508) != 0xAA550000) {
            return -1;
        }
        long free = b.getInt(488) & 0xffffffffL;
        return free <= boot.clusterCount() ? free : -1;
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
        FatNode d = own(dir);
        if (!d.isDirectory()) {
            throw new NotDirectoryException(d.name());
        }
        if (d.isRoot() && boot.type() != 32) {
            return DirReader.fixedRoot(device, boot, fat, codePage);
        }
        if (!fat.isCluster(d.firstCluster())) {
            throw new CorruptFileSystemException("FAT: directory \"" + d.name() + "\" starts at cluster "
                    + d.firstCluster() + ", not a data cluster (2 to " + boot.maxCluster() + ")", d.entryOffset());
        }
        return DirReader.chain(device, boot, fat, codePage, d.name(), d.firstCluster());
    }

    @Override
    public Node lookup(Node dir, String name) throws IOException {
        if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".") || name.equals("..")) {
            return null;
        }
        Node byShortName = null;
        try (NodeStream s = list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                if (n.name().equalsIgnoreCase(name)) {
                    return n;
                }
                if (byShortName == null && ((FatNode) n).shortName().equalsIgnoreCase(name)) {
                    byShortName = n;
                }
            }
        }
        return byShortName;
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        FatNode f = own(file);
        if (stream != null) {
            throw new NoSuchFileException(f.name() + ":" + stream, null, "FAT has no named streams");
        }
        if (f.isDirectory()) {
            throw new IOException(f.name() + " is a folder");
        }
        String name = f.name();
        long size = f.size();
        if (size == 0) {
            return new FatContent(device, boot, 0, null, name);
        }
        long clusters = (size + boot.clusterSize() - 1) / boot.clusterSize();
        if (clusters > boot.clusterCount()) {
            throw new CorruptFileSystemException("FAT: file \"" + name + "\" of " + size + " bytes needs " + clusters
                    + " clusters, more than the volume's " + boot.clusterCount(), f.entryOffset());
        }
        if (!fat.isCluster(f.firstCluster())) {
            throw new CorruptFileSystemException("FAT: file \"" + name + "\" of " + size + " bytes starts at cluster "
                    + f.firstCluster() + ", not a data cluster (2 to " + boot.maxCluster() + ")", f.entryOffset());
        }
        return new FatContent(device, boot, size, new ClusterChain(fat, f.firstCluster(), clusters, name), name);
    }

    private static FatNode own(Node n) {
        if (n instanceof FatNode f) {
            return f;
        }
        throw new IllegalArgumentException("not a node of a FAT volume: " + n);
    }

    /** Leaves the device open: it is the caller's. */
    @Override
    public void close() {
    }
}
