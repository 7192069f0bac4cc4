package org.vectorjce.fs.nio;

import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A path of a {@link DiskFileSystem}: names only, as the JDK's {@code ZipPath} and {@code UnixPath}
 * are, with {@code '/'} between them. Nothing here reads the disk except {@link #toRealPath}; the
 * algebra (normalize, resolve, relativize, startsWith, ...) behaves as the default filesystem's
 * on Linux does for the same strings, and equality is case-sensitive string equality even where
 * the filesystem looks names up case-insensitively (as zipfs does).
 *
 * <p>A last name {@code "file:stream"} names NTFS's alternate data stream {@code stream} of
 * {@code file} when no entry is called {@code "file:stream"} itself (see {@link Resolver}).
 */
final class DiskPath implements Path {
    private final DiskFileSystem fs;
    /** No repeated {@code '/'}, no trailing {@code '/'} except the root's. */
    private final String path;
    /** Where each name starts; computed once, on demand. */
    private volatile int[] offsets;

    private DiskPath(DiskFileSystem fs, String normalized) {
        this.fs = fs;
        this.path = normalized;
    }

    /** A path from user input: repeated and trailing separators removed; NUL refused. */
    static DiskPath of(DiskFileSystem fs, String input) {
        return new DiskPath(fs, clean(input));
    }

    private static String clean(String input) {
        StringBuilder sb = new StringBuilder(input.length());
        char prev = 0;
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            if (c == '\0') {
                throw new InvalidPathException(input, "Nul character not allowed", i);
            }
            if (c == '/' && prev == '/') {
                continue;
            }
            sb.append(c);
            prev = c;
        }
        if (sb.length() > 1 && sb.charAt(sb.length() - 1) == '/') {
            sb.setLength(sb.length() - 1);
        }
        return sb.toString();
    }

    String string() {
        return path;
    }

    boolean isEmpty() {
        return path.isEmpty();
    }

    private int[] offsets() {
        int[] o = offsets;
        if (o == null) {
            List<Integer> starts = new ArrayList<>();
            if (path.isEmpty()) {
                starts.add(0); // the empty path has one name, "" (as UnixPath)
            } else {
                for (int i = 0; i < path.length(); i++) {
                    if (path.charAt(i) != '/' && (i == 0 || path.charAt(i - 1) == '/')) {
                        starts.add(i);
                    }
                }
            }
            o = starts.stream().mapToInt(Integer::intValue).toArray();
            offsets = o;
        }
        return o;
    }

    /** The names, in order. */
    List<String> names() {
        int[] o = offsets();
        List<String> names = new ArrayList<>(o.length);
        for (int i = 0; i < o.length; i++) {
            names.add(name(i));
        }
        return names;
    }

    private String name(int i) {
        int[] o = offsets();
        int end = i + 1 < o.length ? o[i + 1] - 1 : path.length();
        return path.substring(o[i], end);
    }

    private static String join(boolean absolute, List<String> names) {
        return (absolute ? "/" : "") + String.join("/", names);
    }

    private DiskPath check(Path other) {
        if (other == null) {
            throw new NullPointerException();
        }
        if (!(other instanceof DiskPath) || ((DiskPath) other).fs != fs) {
            throw new ProviderMismatchException("not a path of " + fs);
        }
        return (DiskPath) other;
    }

    @Override
    public DiskFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return path.startsWith("/");
    }

    @Override
    public Path getRoot() {
        return isAbsolute() ? fs.rootPath() : null;
    }

    @Override
    public Path getFileName() {
        int n = getNameCount();
        if (n == 0) {
            return null;
        }
        if (n == 1 && !isAbsolute()) {
            return this;
        }
        return new DiskPath(fs, name(n - 1));
    }

    @Override
    public Path getParent() {
        int n = getNameCount();
        if (n == 0) {
            return null;
        }
        int end = offsets()[n - 1] - 1;
        if (end <= 0) {
            return getRoot();
        }
        return new DiskPath(fs, path.substring(0, end));
    }

    @Override
    public int getNameCount() {
        return offsets().length;
    }

    @Override
    public Path getName(int index) {
        if (index < 0 || index >= getNameCount()) {
            throw new IllegalArgumentException("name " + index + " of " + getNameCount());
        }
        return new DiskPath(fs, name(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        int n = getNameCount();
        if (beginIndex < 0 || beginIndex >= n || endIndex > n || beginIndex >= endIndex) {
            throw new IllegalArgumentException("subpath(" + beginIndex + ", " + endIndex + ") of " + n + " names");
        }
        return new DiskPath(fs, join(false, names().subList(beginIndex, endIndex)));
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(other instanceof DiskPath) || ((DiskPath) other).fs != fs) {
            return false;
        }
        DiskPath that = (DiskPath) other;
        if (that.isAbsolute() != isAbsolute()) {
            return false;
        }
        if (that.isEmpty()) {
            return isEmpty();
        }
        List<String> mine = names();
        List<String> theirs = that.names();
        return theirs.size() <= mine.size() && mine.subList(0, theirs.size()).equals(theirs);
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(other instanceof DiskPath) || ((DiskPath) other).fs != fs) {
            return false;
        }
        DiskPath that = (DiskPath) other;
        if (that.isAbsolute()) {
            return equals(that);
        }
        if (that.isEmpty()) {
            return isEmpty();
        }
        List<String> mine = names();
        List<String> theirs = that.names();
        return theirs.size() <= mine.size() && mine.subList(mine.size() - theirs.size(), mine.size()).equals(theirs);
    }

    @Override
    public Path normalize() {
        List<String> out = new ArrayList<>();
        boolean absolute = isAbsolute();
        for (String name : names()) {
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                } else if (!absolute) {
                    out.add(name); // a relative path keeps its leading ".."; the root's parent is the root
                }
                continue;
            }
            out.add(name);
        }
        String s = join(absolute, out);
        return s.equals(path) ? this : new DiskPath(fs, s);
    }

    private boolean hasDots() {
        for (String name : names()) {
            if (name.equals(".") || name.equals("..")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Path resolve(Path other) {
        DiskPath that = check(other);
        if (that.isAbsolute()) {
            return that;
        }
        if (that.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return that;
        }
        return new DiskPath(fs, path.equals("/") ? "/" + that.path : path + "/" + that.path);
    }

    @Override
    public Path relativize(Path other) {
        DiskPath that = check(other);
        if (that.equals(this)) {
            return fs.emptyPath();
        }
        if (isAbsolute() != that.isAbsolute()) {
            throw new IllegalArgumentException("'other' is different type of Path");
        }
        if (isEmpty()) {
            return that;
        }
        DiskPath base = this;
        DiskPath child = that;
        if (base.hasDots() || child.hasDots()) {
            base = (DiskPath) base.normalize();
            child = (DiskPath) child.normalize();
        }
        List<String> b = base.isEmpty() ? List.of() : base.names();
        List<String> c = child.isEmpty() ? List.of() : child.names();
        int common = 0;
        while (common < b.size() && common < c.size() && b.get(common).equals(c.get(common))) {
            common++;
        }
        List<String> rest = b.subList(common, b.size());
        if (rest.contains("..")) {
            throw new IllegalArgumentException("Unable to compute relative path from " + this + " to " + that);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rest.size(); i++) {
            out.add("..");
        }
        out.addAll(c.subList(common, c.size()));
        return new DiskPath(fs, join(false, out));
    }

    @Override
    public URI toUri() {
        return fs.uri((DiskPath) toAbsolutePath());
    }

    @Override
    public Path toAbsolutePath() {
        return isAbsolute() ? this : new DiskPath(fs, "/" + path);
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return new DiskPath(fs, fs.resolve(this, Links.follow(options)).realPath());
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("a disk image's filesystem is not watched");
    }

    @Override
    public Iterator<Path> iterator() {
        return new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < getNameCount();
            }

            @Override
            public Path next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return getName(i++);
            }
        };
    }

    @Override
    public int compareTo(Path other) {
        return path.compareTo(((DiskPath) other).path);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DiskPath && ((DiskPath) o).fs == fs && ((DiskPath) o).path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return path;
    }
}
