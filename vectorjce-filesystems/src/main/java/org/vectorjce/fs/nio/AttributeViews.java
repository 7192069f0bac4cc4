package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The attribute views by name, as the JDK's providers give them: {@code basic}, {@code dos}, and
 * where the filesystem keeps owners {@code posix} and {@code owner}. Each view reads when asked;
 * every setter is a {@link ReadOnlyFileSystemException}; and by name only, as the JDK's default
 * filesystem has it on Linux, {@code unix} ({@code mode} with the file type bits, {@code ino},
 * {@code nlink}, {@code uid}, {@code gid}, {@code ctime}) where owners are kept. Also
 * {@link #read(DiskPath, String, boolean)},
 * the map form of {@code Files.readAttributes(path, "view:name,name")}.
 */
final class AttributeViews {
    private static final List<String> BASIC = List.of("lastModifiedTime", "lastAccessTime", "creationTime", "size",
            "isRegularFile", "isDirectory", "isSymbolicLink", "isOther", "fileKey");
    private static final List<String> DOS = List.of("readonly", "hidden", "system", "archive");
    private static final List<String> POSIX = List.of("permissions", "owner", "group");
    /** What the JDK's {@code unix} view has and a disk keeps: stat(2)'s fields by name. */
    private static final List<String> UNIX = List.of("mode", "ino", "nlink", "uid", "gid", "ctime");

    private AttributeViews() {
    }

    /** The attributes of {@code path}; POSIX ones only where its node carries an owner. */
    static DiskAttributes attributes(DiskPath path, boolean follow) throws IOException {
        return new DiskAttributes(path.getFileSystem().resolve(path, follow));
    }

    static DiskAttributes posixAttributes(DiskPath path, boolean follow) throws IOException {
        DiskAttributes a = attributes(path, follow);
        if (a.node().uid() < 0) {
            throw new UnsupportedOperationException(path + ": the filesystem keeps no POSIX owner or mode");
        }
        return a;
    }

    /** The view of {@code type} over {@code path}, or {@code null} when the filesystem has none such. */
    @SuppressWarnings("unchecked")
    static <V extends FileAttributeView> V view(DiskPath path, Class<V> type, boolean follow) {
        boolean posix = path.getFileSystem().supportsPosix();
        if (type == BasicFileAttributeView.class) {
            return (V) new Basic(path, follow);
        }
        if (type == DosFileAttributeView.class) {
            return (V) new Dos(path, follow);
        }
        if (type == PosixFileAttributeView.class && posix) {
            return (V) new Posix(path, follow);
        }
        if (type == FileOwnerAttributeView.class && posix) {
            return (V) new Posix(path, follow);
        }
        return null;
    }

    /**
     * {@code "view:name,name"} or {@code "view:*"} ({@code view} defaults to {@code basic}).
     *
     * @throws UnsupportedOperationException for a view this filesystem does not have
     * @throws IllegalArgumentException for a name the view does not have
     */
    static Map<String, Object> read(DiskPath path, String attributes, boolean follow) throws IOException {
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        List<String> known;
        switch (view) {
            case "basic":
                known = BASIC;
                break;
            case "dos":
                known = concat(BASIC, DOS);
                break;
            case "posix":
            case "owner":
            case "unix":
                if (!path.getFileSystem().supportsPosix()) {
                    throw new UnsupportedOperationException("view " + view + " is not available on "
                            + path.getFileSystem());
                }
                known = view.equals("owner") ? List.of("owner")
                        : view.equals("unix") ? concat(concat(BASIC, POSIX), UNIX) : concat(BASIC, POSIX);
                break;
            default:
                throw new UnsupportedOperationException("view " + view + " is not available on " + path.getFileSystem());
        }
        Set<String> wanted = new java.util.LinkedHashSet<>();
        for (String name : names.split(",", -1)) {
            if (name.equals("*")) {
                wanted.addAll(known);
            } else if (known.contains(name)) {
                wanted.add(name);
            } else {
                throw new IllegalArgumentException("'" + name + "' not recognized in view " + view);
            }
        }
        DiskAttributes a = view.equals("posix") || view.equals("owner") || view.equals("unix")
                ? posixAttributes(path, follow)
                : attributes(path, follow);
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : wanted) {
            out.put(name, value(a, name));
        }
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static Object value(DiskAttributes a, String name) {
        switch (name) {
            case "lastModifiedTime": return a.lastModifiedTime();
            case "lastAccessTime": return a.lastAccessTime();
            case "creationTime": return a.creationTime();
            case "size": return a.size();
            case "isRegularFile": return a.isRegularFile();
            case "isDirectory": return a.isDirectory();
            case "isSymbolicLink": return a.isSymbolicLink();
            case "isOther": return a.isOther();
            case "fileKey": return a.fileKey();
            case "readonly": return a.isReadOnly();
            case "hidden": return a.isHidden();
            case "system": return a.isSystem();
            case "archive": return a.isArchive();
            case "permissions": return a.permissions();
            case "owner": return a.owner();
            case "group": return a.group();
            case "mode": return a.unixMode();
            case "ino": return a.node().fileKey();
            case "nlink": return a.node().links() >= 0 ? a.node().links() : 1;
            case "uid": return a.node().uid();
            case "gid": return a.node().gid();
            case "ctime": return a.node().changed() != null ? a.node().changed() : a.lastModifiedTime();
            default: throw new IllegalArgumentException(name);
        }
    }

    private static ReadOnlyFileSystemException readOnly() {
        return new ReadOnlyFileSystemException();
    }

    /** The {@code basic} view. */
    static class Basic implements BasicFileAttributeView {
        final DiskPath path;
        final boolean follow;

        Basic(DiskPath path, boolean follow) {
            this.path = path;
            this.follow = follow;
        }

        @Override
        public String name() {
            return "basic";
        }

        @Override
        public BasicFileAttributes readAttributes() throws IOException {
            return attributes(path, follow);
        }

        @Override
        public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
            throw readOnly();
        }
    }

    /** The {@code dos} view. */
    static final class Dos extends Basic implements DosFileAttributeView {
        Dos(DiskPath path, boolean follow) {
            super(path, follow);
        }

        @Override
        public String name() {
            return "dos";
        }

        @Override
        public DosFileAttributes readAttributes() throws IOException {
            return attributes(path, follow);
        }

        @Override
        public void setReadOnly(boolean value) {
            throw readOnly();
        }

        @Override
        public void setHidden(boolean value) {
            throw readOnly();
        }

        @Override
        public void setSystem(boolean value) {
            throw readOnly();
        }

        @Override
        public void setArchive(boolean value) {
            throw readOnly();
        }
    }

    /** The {@code posix} view, which is also the {@code owner} view. */
    static final class Posix extends Basic implements PosixFileAttributeView {
        Posix(DiskPath path, boolean follow) {
            super(path, follow);
        }

        @Override
        public String name() {
            return "posix";
        }

        @Override
        public PosixFileAttributes readAttributes() throws IOException {
            return posixAttributes(path, follow);
        }

        @Override
        public UserPrincipal getOwner() throws IOException {
            return readAttributes().owner();
        }

        @Override
        public void setOwner(UserPrincipal owner) {
            throw readOnly();
        }

        @Override
        public void setPermissions(Set<PosixFilePermission> perms) {
            throw readOnly();
        }

        @Override
        public void setGroup(GroupPrincipal group) {
            throw readOnly();
        }
    }
}
