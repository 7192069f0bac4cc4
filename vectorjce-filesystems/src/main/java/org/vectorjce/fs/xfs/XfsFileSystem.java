package org.vectorjce.fs.xfs;

import java.io.IOException;
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
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * An XFS filesystem (v5, or v4 with v2 directories), read-only. Open reads the primary superblock
 * and the root inode; inodes are then found by their numbers (no inode B+tree walk is needed),
 * their data through the data fork's extents ({@link ExtentMap}), folders through
 * {@link DirReader}. Inodes and metadata blocks go through a 4 MiB {@link BlockCache}; file data is
 * read straight from the device. The log is not replayed: a filesystem not cleanly unmounted is
 * read as it is on disk.
 *
 * <p>Lookup goes through the directory's hash index ({@link DirHash}); short-form folders, ascii-ci
 * filesystems and names holding '_' (which may stand for a sanitized '/') are scanned instead, names
 * of another length skipped undecoded.
 */
final class XfsFileSystem implements DiskFs {
    final Device device;
    final Superblock sb;
    final BlockCache cache;
    private final BmbtBlocks bmbt;
    private final XfsNode root;

    XfsFileSystem(Device device, Superblock sb) throws IOException {
        this.device = device;
        this.sb = sb;
        this.cache = new BlockCache(device, sb.blockSize, Math.max(16, (4 << 20) / sb.blockSize));
        this.bmbt = new BmbtBlocks(sb, cache);
        XfsNode r = node(sb.rootIno, "");
        if (r.kind() != Kind.DIRECTORY) {
            throw new CorruptFileSystemException("XFS: the root inode " + sb.rootIno + " is not a folder", -1);
        }
        this.root = r;
    }

    BmbtBlocks bmbt() {
        return bmbt;
    }

    /** Inode {@code ino}, read and checked. */
    Inode inode(long ino) throws IOException {
        long at = sb.inodeOffset(ino, "an inode");
        Inode in = Inode.parse(sb, ino, at, cache.read(at, sb.inodeSize, "XFS: inode " + ino));
        in.checkFormat();
        return in;
    }

    XfsNode node(long ino, String name) throws IOException {
        Inode in = inode(ino);
        return new XfsNode(name, in, in.kind() == Kind.DIRECTORY ? 0 : in.size);
    }

    @Override
    public FsInfo info() {
        return new FsInfo("XFS", sb.label, sb.uuidText(), sb.blockSize, sb.dblocks * sb.blockSize,
                Math.min(sb.fdblocks, sb.dblocks) * sb.blockSize);
    }

    @Override
    public Node root() {
        return root;
    }

    /** True, but for the ascii-ci feature (names compared with ASCII letters folded), where false. */
    @Override
    public boolean caseSensitive() {
        return !sb.asciiCi;
    }

    private Inode folder(Node dir) throws IOException {
        if (!(dir instanceof XfsNode n) || !dir.isDirectory()) {
            throw new NotDirectoryException(dir.name());
        }
        Inode in = inode(n.ino);
        if (in.kind() != Kind.DIRECTORY) {
            throw new NotDirectoryException(dir.name());
        }
        return in;
    }

    @Override
    public NodeStream list(Node dir) throws IOException {
        DirReader r = new DirReader(this, folder(dir));
        return () -> {
            DirReader.Entry e = r.next();
            return e == null ? null : node(e.ino(), e.name());
        };
    }

    @Override
    public Node lookup(Node dir, String name) throws IOException {
        Inode in = folder(dir);
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            return null;
        }
        boolean faithful = name.indexOf('_') < 0 && name.indexOf('\uFFFD') < 0;
        if (faithful && !sb.asciiCi && in.format != Inode.FMT_LOCAL) {
            DirReader.Entry e = DirHash.lookup(this, in, name, name.getBytes(StandardCharsets.UTF_8));
            return e == null ? null : node(e.ino(), e.name());
        }
        // short form, ascii-ci (another hash), or a name a sanitized one may stand for: a scan
        DirReader r = new DirReader(this, in);
        if (faithful) {
            // only names of the same UTF-8 length can match
            r.onlyLength(name.getBytes(StandardCharsets.UTF_8).length);
        }
        for (DirReader.Entry e = r.next(); e != null; e = r.next()) {
            if (sb.asciiCi ? asciiEqualsIgnoreCase(e.name(), name) : e.name().equals(name)) {
                return node(e.ino(), e.name());
            }
        }
        return null;
    }

    private static boolean asciiEqualsIgnoreCase(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && (x >= 'A' && x <= 'Z' ? x + 32 : x) != (y >= 'A' && y <= 'Z' ? y + 32 : y)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Content open(Node file, String stream) throws IOException {
        if (!(file instanceof XfsNode n)) {
            throw new NoSuchFileException(file.name());
        }
        if (stream != null) {
            throw new NoSuchFileException(file.name() + ":" + stream);
        }
        if (n.isDirectory()) {
            throw new IOException(file.name() + " is a folder");
        }
        Inode in = inode(n.ino);
        if (in.kind() != Kind.FILE) {
            throw new IOException(file.name() + " is not a regular file");
        }
        return new FileContent(this, in, new ExtentMap(this, in));
    }

    @Override
    public String readLink(Node link) throws IOException {
        if (!(link instanceof XfsNode n) || n.kind() != Kind.SYMLINK) {
            throw new NotLinkException(link.name());
        }
        Inode in = inode(n.ino);
        if (in.kind() != Kind.SYMLINK) {
            throw new NotLinkException(link.name());
        }
        return Symlinks.target(this, in);
    }

    @Override
    public void close() {
        // the device stays the caller's; nothing else is held
    }
}
