package org.vectorjce.fs.nio;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;

/**
 * One FAT, exFAT, NTFS, ext or XFS filesystem read from a device, as a read-only {@link FileSystem}: the
 * {@code java.nio.file} face of a {@link DiskFs}, as the JDK's {@code ZipFileSystem} is of a zip.
 * Paths are {@link DiskPath}s; every operation goes through {@link DiskFileSystemProvider}. Safe
 * for many threads; once closed, every access is a {@link ClosedFileSystemException}.
 */
public final class DiskFileSystem extends FileSystem {
    private final DiskFileSystemProvider provider;
    private final DiskFs disk;
    private final Partition partition;
    private final URI image;
    private final Closeable owned;
    private final Resolver resolver;
    private final DiskFileStore store;
    private final Set<String> views;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The channels open, closed with the filesystem (weakly held: a channel never closed is not kept). */
    private final Set<DiskChannel> channels = Collections.newSetFromMap(new WeakHashMap<>());
    private final DiskPath root;
    private final DiskPath empty;

    /**
     * @param partition where on the device the filesystem is, or {@code null} when not known
     * @param image the image file's URI (for {@link Path#toUri}), or {@code null}
     * @param owned what closing this filesystem closes besides {@code disk} (the device opened for
     *     it), or {@code null}
     */
    DiskFileSystem(DiskFileSystemProvider provider, DiskFs disk, Partition partition, URI image, Closeable owned) {
        this.provider = provider;
        this.disk = disk;
        this.partition = partition;
        this.image = image;
        this.owned = owned;
        this.resolver = new Resolver(disk);
        Set<String> v = new LinkedHashSet<>(List.of("basic", "dos"));
        if (disk.root().uid() >= 0) {
            v.add("posix");
            v.add("owner");
            v.add("unix");
        }
        this.views = Set.copyOf(v);
        this.store = new DiskFileStore(disk.info(), views);
        this.root = DiskPath.of(this, "/");
        this.empty = DiskPath.of(this, "");
    }

    DiskFs disk() {
        return disk;
    }

    /** The filesystem's facts. */
    public FsInfo info() {
        return disk.info();
    }

    /** Where it is on its device, or {@code null}. */
    public Partition partition() {
        return partition;
    }

    DiskPath rootPath() {
        return root;
    }

    DiskPath emptyPath() {
        return empty;
    }

    DiskFileStore store() {
        return store;
    }

    Resolver resolver() {
        return resolver;
    }

    /** What {@code path} names, after {@link #checkOpen}. */
    Resolved resolve(DiskPath path, boolean follow) throws IOException {
        checkOpen();
        return resolver.resolve(path, follow);
    }

    /** The named streams of the file {@code path} names (links followed): NTFS's alternate data streams. */
    public java.util.List<org.vectorjce.fs.spi.DiskFs.StreamInfo> streams(Path path) throws IOException {
        if (!(path instanceof DiskPath p) || p.getFileSystem() != this) {
            throw new java.nio.file.ProviderMismatchException("not a path of " + this + ": " + path);
        }
        Resolved r = resolve(p, true);
        if (r.stream() != null) {
            return java.util.List.of();
        }
        return disk.streams(r.node());
    }

    /** A channel over {@code content}, closed with this filesystem. */
    DiskChannel channel(Content content, String name) {
        DiskChannel ch = new DiskChannel(this, content, name);
        synchronized (channels) {
            checkOpen();
            channels.add(ch);
        }
        return ch;
    }

    void forget(DiskChannel ch) {
        synchronized (channels) {
            channels.remove(ch);
        }
    }

    void checkOpen() {
        if (closed.get()) {
            throw new ClosedFileSystemException();
        }
    }

    URI uri(DiskPath absolute) {
        try {
            String encoded = new URI(null, null, absolute.toString(), null).getRawPath();
            String ssp = image != null ? image.toASCIIString() + "!" + encoded : encoded;
            return new URI(DiskFileSystemProvider.SCHEME + ":" + ssp);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("path " + absolute + " as a URI", e);
        }
    }

    @Override
    public DiskFileSystemProvider provider() {
        return provider;
    }

    /** Closes the filesystem, then the device it opened (none when it was given one). Closing twice does nothing. */
    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            List<DiskChannel> open;
            synchronized (channels) {
                open = new ArrayList<>(channels);
            }
            for (DiskChannel ch : open) {
                ch.close();
            }
            try {
                disk.close();
            } finally {
                if (owned != null) {
                    owned.close();
                }
            }
        }
    }

    @Override
    public boolean isOpen() {
        return !closed.get();
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        checkOpen();
        return List.of(root);
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        checkOpen();
        return List.of(store);
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return views;
    }

    boolean supportsPosix() {
        return views.contains("posix");
    }

    /** As the default filesystem's: {@code more}'s non-empty strings joined to {@code first} with {@code '/'}. */
    @Override
    public Path getPath(String first, String... more) {
        StringBuilder sb = new StringBuilder(first);
        for (String s : more) {
            if (!s.isEmpty()) {
                if (sb.length() > 0) {
                    sb.append('/');
                }
                sb.append(s);
            }
        }
        return DiskPath.of(this, sb.toString());
    }

    /**
     * {@code glob:} (the syntax of {@link FileSystem#getPathMatcher}'s javadoc, by {@link Globs}) or
     * {@code regex:} ({@link Pattern}), matched against the whole path string; case-insensitively
     * where the filesystem compares names so (FAT, exFAT, NTFS: as Windows matches).
     */
    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        int colon = syntaxAndPattern.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("syntax:pattern expected, not " + syntaxAndPattern);
        }
        String syntax = syntaxAndPattern.substring(0, colon);
        String pattern = syntaxAndPattern.substring(colon + 1);
        String regex;
        if (syntax.equalsIgnoreCase("glob")) {
            regex = Globs.toRegex(pattern);
        } else if (syntax.equalsIgnoreCase("regex")) {
            regex = pattern;
        } else {
            throw new UnsupportedOperationException("syntax " + syntax + " (glob and regex are)");
        }
        int flags = disk.caseSensitive() ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        Pattern p = Pattern.compile(regex, flags);
        return path -> p.matcher(path.toString()).matches();
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("a disk image's filesystem has no user lookup");
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("a disk image's filesystem is read-only and not watched");
    }

    @Override
    public String toString() {
        FsInfo i = disk.info();
        return i.type() + (i.label().isEmpty() ? "" : " \"" + i.label() + "\"")
                + (image != null ? " in " + image : "") + (partition != null ? " partition " + partition.number() : "");
    }
}
