package org.vectorjce.fs.nio;

import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.Set;
import org.vectorjce.fs.FsInfo;

/**
 * The one store of a {@link DiskFileSystem}: its type ({@code FAT32}, {@code NTFS}, ...), label
 * and sizes from {@link FsInfo}; read-only. Where the free bytes are not known without a full scan
 * (an {@link FsInfo#freeBytes()} of -1), the unallocated and usable spaces are 0.
 */
final class DiskFileStore extends FileStore {
    private final FsInfo info;
    private final Set<String> views;

    DiskFileStore(FsInfo info, Set<String> views) {
        this.info = info;
        this.views = views;
    }

    @Override
    public String name() {
        return info.label();
    }

    @Override
    public String type() {
        return info.type();
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public long getTotalSpace() {
        return info.totalBytes();
    }

    @Override
    public long getUsableSpace() {
        return getUnallocatedSpace();
    }

    @Override
    public long getUnallocatedSpace() {
        return Math.max(0, info.freeBytes());
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        if (type == BasicFileAttributeView.class || type == DosFileAttributeView.class) {
            return true;
        }
        if (type == PosixFileAttributeView.class) {
            return views.contains("posix");
        }
        return type == FileOwnerAttributeView.class && views.contains("owner");
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return views.contains(name);
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    @Override
    public Object getAttribute(String attribute) {
        switch (attribute) {
            case "totalSpace":
                return getTotalSpace();
            case "usableSpace":
                return getUsableSpace();
            case "unallocatedSpace":
                return getUnallocatedSpace();
            default:
                throw new UnsupportedOperationException("file store attribute " + attribute);
        }
    }

    @Override
    public String toString() {
        return info.type() + (info.label().isEmpty() ? "" : " \"" + info.label() + "\"");
    }
}
