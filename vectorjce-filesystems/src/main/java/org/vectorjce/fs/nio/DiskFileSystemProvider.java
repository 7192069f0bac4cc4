package org.vectorjce.fs.nio;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.Set;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * The {@code vectorjce} filesystem provider: what {@code FileSystems.newFileSystem(image, env)}
 * finds (registered in module-info and in {@code META-INF/services}), giving a FAT, exFAT, NTFS, ext or XFS
 * filesystem inside a disk image (or an encrypted volume a {@code DeviceOpener} opens) as a
 * read-only {@link DiskFileSystem}.
 *
 * <p>The JDK offers every image to every installed provider in turn, so this one claims an image
 * only when a device opener reads it or a partition of it holds a filesystem a driver recognises
 * (then its errors are thrown: several partitions with filesystems and no {@code "partition"} in
 * env, or the partition env names holding none), and otherwise throws
 * {@link UnsupportedOperationException}, the JDK's "not mine" (a zip goes on
 * to zipfs). The env key {@code "vectorjce"} set to {@code true} claims the image whatever it
 * holds, so that the real error (no filesystem, a damaged table) is thrown rather than
 * {@code ProviderNotFoundException}. The other keys are {@link org.vectorjce.fs.DiskFileSystems}'.
 *
 * <p>The provider keeps no registry of open filesystems: each {@code newFileSystem} opens a new
 * one, so {@link #getFileSystem(URI)} and {@link #getPath(URI)} find none.
 *
 * <p>Every change is a {@link ReadOnlyFileSystemException}; {@link #checkAccess} answers
 * {@code WRITE} with {@link AccessDeniedException} (a checked exception, as zipfs does on a
 * read-only zip, so that {@code Files.isWritable} says false rather than throwing), and
 * {@code EXECUTE} on a file likewise unless its POSIX mode has an execute bit.
 */
public final class DiskFileSystemProvider extends FileSystemProvider {
    /** The URI scheme: {@code vectorjce:file:///images/disk.img!/dir/file}. */
    public static final String SCHEME = "vectorjce";
    /** The env key that claims an image whatever it holds. */
    public static final String CLAIM = "vectorjce";

    /** For {@link java.util.ServiceLoader}. */
    public DiskFileSystemProvider() {
    }

    /** The installed provider, or a new one where it is not installed (the provider is stateless). */
    public static DiskFileSystemProvider instance() {
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p instanceof DiskFileSystemProvider) {
                return (DiskFileSystemProvider) p;
            }
        }
        return new DiskFileSystemProvider();
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    /**
     * The filesystem in {@code image}: {@link UnsupportedOperationException} when the image holds
     * none we read (unless env claims it), so that the JDK tries the next provider.
     */
    @Override
    public FileSystem newFileSystem(Path image, Map<String, ?> env) throws IOException {
        return open(image, env, Boolean.TRUE.equals(env.get(CLAIM)) || "true".equals(env.get(CLAIM)));
    }

    /**
     * The filesystem in {@code image}, which it owns (closing the filesystem closes the device).
     *
     * @param claim whether errors are thrown as they are; else an image holding nothing we read
     *     (or unreadable) is an {@link UnsupportedOperationException}
     */
    public DiskFileSystem open(Path image, Map<String, ?> env, boolean claim) throws IOException {
        if (!claim && (Files.isDirectory(image) || !Files.exists(image))) {
            // not asked of the openers either: zipfs creates a missing zip when asked after us
            throw new UnsupportedOperationException(image + " is not a disk image file");
        }
        ClassLoader mine = DiskFileSystemProvider.class.getClassLoader();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        Device device = Mounter.openWithOpeners(image, env, mine, context == mine ? null : context);
        boolean recognised = device != null;
        if (device == null) {
            try {
                device = Device.open(image, false);
            } catch (IOException | RuntimeException e) {
                if (claim) {
                    throw e;
                }
                throw new UnsupportedOperationException(image + " cannot be read as a disk image", e);
            }
        }
        URI uri = image.toUri();
        try {
            FsOptions options = Mounter.options(env);
            Mounter.Found found;
            try {
                found = Mounter.find(device, env);
            } catch (IOException e) {
                if (claim || recognised || Mounter.holdsAnyFileSystem(device)) {
                    throw e;
                }
                throw new UnsupportedOperationException(image + " holds no filesystem this provider reads", e);
            }
            DiskFileSystem fs = Mounter.mount(this, device, found, options, uri, device);
            device = null;
            return fs;
        } finally {
            if (device != null) {
                device.close();
            }
        }
    }

    /** {@code vectorjce:<image file URI>}: the image opened as {@link #newFileSystem(Path, Map)} with the claim. */
    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("not a " + SCHEME + ": URI: " + uri);
        }
        String ssp = uri.getRawSchemeSpecificPart();
        int bang = ssp.indexOf('!');
        return open(Path.of(URI.create(bang < 0 ? ssp : ssp.substring(0, bang))), env, true);
    }

    /** Always {@link FileSystemNotFoundException}: open filesystems are not registered. */
    @Override
    public FileSystem getFileSystem(URI uri) {
        throw new FileSystemNotFoundException("open the image with FileSystems.newFileSystem: " + uri);
    }

    /** Always {@link FileSystemNotFoundException}: open filesystems are not registered. */
    @Override
    public Path getPath(URI uri) {
        throw new FileSystemNotFoundException("open the image with FileSystems.newFileSystem: " + uri);
    }

    static DiskPath check(Path path) {
        if (path == null) {
            throw new NullPointerException();
        }
        if (!(path instanceof DiskPath)) {
            throw new ProviderMismatchException("not a " + SCHEME + " path: " + path.getClass().getName());
        }
        return (DiskPath) path;
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
        return newFileChannel(path, options, attrs);
    }

    /** A read-only {@link FileChannel} ({@link DiskChannel}); write options are a {@link ReadOnlyFileSystemException}. */
    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        DiskPath p = check(path);
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND
                    || o == StandardOpenOption.DELETE_ON_CLOSE || o == StandardOpenOption.CREATE_NEW) {
                throw new ReadOnlyFileSystemException();
            }
        }
        if (attrs.length > 0) {
            throw new ReadOnlyFileSystemException();
        }
        DiskFileSystem fs = p.getFileSystem();
        Resolved r = fs.resolve(p, Links.follow(options));
        if (r.stream() == null && r.node().kind() != Kind.FILE) {
            throw new IOException(p + (r.node().isDirectory() ? ": is a directory" : ": not a regular file"));
        }
        return fs.channel(fs.disk().open(r.node(), r.stream()), p.toString());
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.APPEND || o == StandardOpenOption.WRITE) {
                throw new UnsupportedOperationException("'" + o + "' not allowed");
            }
        }
        return Channels.newInputStream(newByteChannel(path, new java.util.HashSet<>(java.util.Arrays.asList(options))));
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) {
        check(path);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DiskPath p = check(dir);
        DiskFileSystem fs = p.getFileSystem();
        Resolved r = fs.resolve(p, true);
        Node node = r.node();
        if (!node.isDirectory() || r.stream() != null) {
            throw new NotDirectoryException(p.toString());
        }
        return new DiskDirectoryStream(p, fs.disk().list(node), filter, fs.resolver(), r.realPath());
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        check(dir);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) {
        check(link);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void createLink(Path link, Path existing) {
        check(link);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void delete(Path path) {
        check(path);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public boolean deleteIfExists(Path path) {
        check(path);
        throw new ReadOnlyFileSystemException();
    }

    /** Within one image, or into it: the target is read-only. (Out of it, {@code Files.copy} reads a stream.) */
    @Override
    public void copy(Path source, Path target, CopyOption... options) {
        check(target);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) {
        check(source);
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        DiskPath p = check(link);
        DiskFileSystem fs = p.getFileSystem();
        Resolved r = fs.resolve(p, false);
        if (r.stream() != null || r.node().kind() != Kind.SYMLINK) {
            throw new NotLinkException(p.toString());
        }
        String target = fs.disk().readLink(r.node());
        try {
            return fs.getPath(target);
        } catch (java.nio.file.InvalidPathException e) {
            throw new java.nio.file.FileSystemException(p.toString(), null, "the link's target is no path: " + e.getReason());
        }
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        DiskPath p = check(path);
        if (p.equals(path2)) {
            return true;
        }
        if (!(path2 instanceof DiskPath) || ((DiskPath) path2).getFileSystem() != p.getFileSystem()) {
            return false;
        }
        Resolved a = p.getFileSystem().resolve(p, true);
        Resolved b = p.getFileSystem().resolve((DiskPath) path2, true);
        return a.node().fileKey() == b.node().fileKey() && java.util.Objects.equals(a.stream(), b.stream());
    }

    /** The DOS hidden bit. */
    @Override
    public boolean isHidden(Path path) throws IOException {
        DiskPath p = check(path);
        return (p.getFileSystem().resolve(p, true).node().dosAttributes() & Node.HIDDEN) != 0;
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        DiskPath p = check(path);
        p.getFileSystem().resolve(p, true);
        return p.getFileSystem().store();
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        DiskPath p = check(path);
        Resolved r = p.getFileSystem().resolve(p, true);
        for (AccessMode m : modes) {
            switch (m) {
                case READ:
                    break;
                case WRITE:
                    throw new AccessDeniedException(p.toString(), null, "read-only filesystem");
                case EXECUTE:
                    Node n = r.node();
                    boolean searchable = r.stream() == null && n.isDirectory();
                    boolean executable = n.mode() >= 0 && (n.mode() & 0111) != 0;
                    if (!searchable && !executable) {
                        throw new AccessDeniedException(p.toString(), null, "not executable");
                    }
                    break;
                default:
                    throw new UnsupportedOperationException(m.toString());
            }
        }
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return AttributeViews.view(check(path), type, Links.follow(options));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        DiskPath p = check(path);
        boolean follow = Links.follow(options);
        if (type == BasicFileAttributes.class || type == DosFileAttributes.class) {
            return (A) AttributeViews.attributes(p, follow);
        }
        if (type == PosixFileAttributes.class) {
            return (A) AttributeViews.posixAttributes(p, follow);
        }
        throw new UnsupportedOperationException("attributes " + type.getName());
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
            throws IOException {
        return AttributeViews.read(check(path), attributes, Links.follow(options));
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        check(path);
        throw new ReadOnlyFileSystemException();
    }
}
