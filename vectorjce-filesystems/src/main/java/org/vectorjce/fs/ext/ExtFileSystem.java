package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.spi.BlockCache;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * An ext2, ext3 or ext4 filesystem, read-only: the {@link DiskFs} of {@link ExtDriver}.
 *
 * <p>Metadata (group descriptors, inodes, extent and block-map blocks) comes through one
 * {@link BlockCache} of about 1 MiB; directory blocks and file data are read from the device
 * directly, a block or a contiguous run at a time. Immutable but for the cache and each map's
 * last leaf: safe for many threads.
 *
 * <p>{@link #lookup} in a hashed (htree) folder reads the index blocks and the one leaf the name's
 * hash leads to ({@link Htree}); a miss there, and any other folder, is a linear scan of the folder.
 *
 * <p>Names are compared case-sensitively (byte-exact after UTF-8 decoding), but in a folder with
 * the {@code casefold} flag, where {@link #lookup} compares them ignoring case (Java's
 * {@code equalsIgnoreCase}, an approximation of the kernel's UTF-8 casefolding).
 *
 * <p>{@link FsInfo}: type by blkid's rule ({@link Superblock#typeName()}), label
 * {@code s_volume_name}, serial the UUID as blkid prints it, cluster size the block size, total
 * {@code s_blocks_count × block size}, free {@code s_free_blocks_count × block size} (the
 * superblock's count, which the kernel updates lazily; -1 when it exceeds the block count).
 *
 * <p>Journal: a filesystem whose {@code needs_recovery} flag is set (not cleanly unmounted, the
 * journal not replayed) is read as it is on the disk, as {@code debugfs} reads it: changes still
 * only in the journal are not seen. {@link #needsRecovery()} says so; {@link FsInfo} has no field for it.
 *
 * <p>Checksums (metadata_csum): the superblock, each group descriptor, inode, extent block,
 * directory leaf block and htree node read is verified, and a mismatch is a
 * {@link CorruptFileSystemException} naming the structure and its byte offset, rather than
 * skipped or repaired: what fails a checksum cannot be trusted to point anywhere sane. Without
 * metadata_csum, group descriptors with {@code gdt_csum} (uninit_bg) are verified by their crc16.
 *
 * <p>Not read: extended attributes but inline data's {@code system.data} (the interface has no
 * place for them); fscrypt-encrypted files and folders (each is an
 * {@link java.nio.file.AccessDeniedException}, the rest of the filesystem reads); deleted and
 * orphan inodes. Device nodes, FIFOs and sockets are {@link org.vectorjce.fs.spi.Kind#OTHER} with
 * no bytes. A folder entry naming one of the folder's own ancestors is refused (a loop a walk would
 * never leave), as is nesting deeper than {@link ExtNode#MAX_DEPTH}.
 */
final class ExtFileSystem implements DiskFs {
    private static final int CACHE_BYTES = 1 << 20;
    static final long ROOT_INODE = 2;

    private final Device device;
    private final Superblock sb;
    private final BlockCache cache;
    private final GroupDescriptors groups;
    private final ExtNode root;
    private final FsInfo info;

    private ExtFileSystem(Device device, Superblock sb) throws IOException {
        this.device = device;
        this.sb = sb;
        this.cache = new BlockCache(device, sb.blockSize, Math.max(16, CACHE_BYTES / sb.blockSize));
        this.groups = new GroupDescriptors(sb, cache, device.size());
        Inode r = inode(ROOT_INODE);
        if (r.type() != Inode.S_IFDIR) {
            throw new CorruptFileSystemException(String.format("ext: the root inode 2 is not a folder (mode 0%o)",
                    r.mode), r.offset);
        }
        this.root = new ExtNode("", r, null);
        long free = sb.freeBlocks <= sb.blocksCount ? sb.freeBlocks * sb.blockSize : -1;
        this.info = new FsInfo(sb.typeName(), sb.label, sb.uuidString(), sb.blockSize,
                sb.blocksCount * sb.blockSize, free);
    }

    static ExtFileSystem open(Device device) throws IOException {
        Superblock sb = ExtDriver.readSuperblock(device);
        sb.checkFeatures();
        return new ExtFileSystem(device, sb);
    }

    Superblock superblock() {
        return sb;
    }

    Device device() {
        return device;
    }

    /** Whether the journal holds changes not yet written in place (the needs_recovery flag). */
    boolean needsRecovery() {
        return sb.has(Superblock.INCOMPAT_RECOVER);
    }

    /** The first block of group {@code g}'s inode table, from its checked descriptor (for tests and tools). */
    long inodeTable(long g) throws IOException {
        return groups.inodeTable(g);
    }

    /** Inode {@code n}, read and checked (inodes.rst, "Finding an Inode"). */
    Inode inode(long n) throws IOException {
        if (n < 1 || n > sb.inodesCount) {
            throw new CorruptFileSystemException("ext: inode " + n + " is out of range (1 to " + sb.inodesCount
                    + ")", -1);
        }
        long g = (n - 1) / sb.inodesPerGroup;
        long index = (n - 1) % sb.inodesPerGroup;
        long at = groups.inodeTable(g) * sb.blockSize + index * sb.inodeSize;
        return Inode.parse(sb, n, cache.read(at, sb.inodeSize, "ext: inode " + n), at);
    }

    /** The block mapper of a file that is not inline: its extent tree or its block map. */
    BlockMapper mapper(Inode in) {
        return in.has(Inode.EXTENTS_FL) ? new ExtentMap(sb, cache, in, device.size())
                : new BlockMap(sb, cache, in, device.size());
    }

    /** The node of directory entry {@code e} of {@code dir}; a folder that is its own ancestor is refused. */
    ExtNode child(ExtNode dir, DirReader.Entry e) throws IOException {
        Inode in = inode(e.inode());
        if (in.type() == Inode.S_IFDIR) {
            if (dir.depth >= ExtNode.MAX_DEPTH) {
                throw new CorruptFileSystemException("ext: folders nest deeper than " + ExtNode.MAX_DEPTH + " at \""
                        + e.name() + "\"", in.offset);
            }
            for (ExtNode a = dir; a != null; a = a.parent) {
                if (a.inode.number == in.number) {
                    throw new CorruptFileSystemException("ext: directory inode " + dir.inode.number + ": entry \""
                            + e.name() + "\" names folder inode " + in.number + ", one of its own ancestors (a loop)",
                            in.offset);
                }
            }
        }
        return new ExtNode(e.name(), in, dir);
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
        return true;
    }

    @Override
    public NodeStream list(Node dir) throws IOException {
        ExtNode d = own(dir);
        if (!d.isDirectory()) {
            throw new NotDirectoryException(d.name());
        }
        refuseEncrypted(d);
        return new DirReader(this, d);
    }

    @Override
    public Node lookup(Node dir, String name) throws IOException {
        ExtNode d = own(dir);
        if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".") || name.equals("..")) {
            return null;
        }
        if (!d.isDirectory()) {
            throw new NotDirectoryException(d.name());
        }
        refuseEncrypted(d);
        DirReader.Entry hashed = Htree.lookup(this, d, name);
        if (hashed != null) {
            return child(d, hashed);
        }
        boolean fold = d.inode.has(Inode.CASEFOLD_FL) && sb.has(Superblock.INCOMPAT_CASEFOLD);
        try (DirReader r = new DirReader(this, d)) {
            for (DirReader.Entry e = r.nextEntry(); e != null; e = r.nextEntry()) {
                if (fold ? e.name().equalsIgnoreCase(name) : e.name().equals(name)) {
                    return child(d, e);
                }
            }
        }
        return null;
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        ExtNode f = own(file);
        if (stream != null) {
            throw new NoSuchFileException(f.name() + ":" + stream, null, "ext has no named streams");
        }
        if (f.isDirectory()) {
            throw new IOException(f.name() + " is a folder");
        }
        refuseEncrypted(f);
        Inode in = f.inode;
        int type = in.type();
        if (type != Inode.S_IFREG && type != Inode.S_IFLNK) {
            return ExtContent.inline(new byte[0], 0);
        }
        if (type == Inode.S_IFLNK && fastSymlink(in)) {
            return ExtContent.inline(in.iBlock, in.size);
        }
        return content(in);
    }

    private Content content(Inode in) throws IOException {
        if (in.has(Inode.INLINE_DATA_FL)) {
            byte[] more = in.systemData();
            int n = more == null ? 0 : more.length;
            if (in.size > 60 + n) {
                throw new CorruptFileSystemException("ext: inode " + in.number + ": inline data of " + in.size
                        + " bytes, but the inode holds " + (60 + n), in.offset);
            }
            byte[] all = new byte[60 + n];
            System.arraycopy(in.iBlock, 0, all, 0, 60);
            if (n > 0) {
                System.arraycopy(more, 0, all, 60, n);
            }
            return ExtContent.inline(all, in.size);
        }
        return ExtContent.mapped(device, sb.blockSize, in.size, mapper(in));
    }

    /**
     * A fast symlink keeps its target in {@code i_block} (symlink.rst): the kernel's rule, a link of
     * fewer than 60 bytes with no data blocks (an extended-attribute block aside) and no inline data.
     */
    private boolean fastSymlink(Inode in) {
        if (in.has(Inode.INLINE_DATA_FL) || in.size >= 60) {
            return false;
        }
        long eaBlocks = in.fileAcl != 0 ? sb.blockSize >> 9 : 0;
        return in.blocks512 - eaBlocks == 0;
    }

    @Override
    public String readLink(Node link) throws IOException {
        ExtNode l = own(link);
        if (l.kind() != org.vectorjce.fs.spi.Kind.SYMLINK) {
            throw new NotLinkException(l.name());
        }
        Inode in = l.inode;
        int n = org.vectorjce.fs.spi.Checks.arraySize(in.size, Math.max(4096, sb.blockSize),
                "ext: inode " + in.number + ": symbolic link target", in.offset);
        byte[] b = new byte[n];
        Content c = open(l, null);
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining() && c.read(bb, bb.position()) > 0) {
            // read on
        }
        return new String(b, 0, bb.position(), StandardCharsets.UTF_8);
    }

    /** An fscrypt-encrypted file or folder: its names and bytes are ciphertext, which this reader does not decrypt. */
    private static void refuseEncrypted(ExtNode n) throws IOException {
        if (n.inode.has(Inode.ENCRYPT_FL)) {
            throw new java.nio.file.AccessDeniedException(n.name(), null, "ext: inode " + n.inode.number
                    + " is encrypted (fscrypt), which this reader does not decrypt");
        }
    }

    private static ExtNode own(Node n) {
        if (n instanceof ExtNode e) {
            return e;
        }
        throw new IllegalArgumentException("not a node of an ext filesystem: " + n);
    }

    /** Leaves the device open: it is the caller's. */
    @Override
    public void close() {
    }
}
