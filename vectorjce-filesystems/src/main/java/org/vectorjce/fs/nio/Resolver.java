package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;

/**
 * Walks a path from the root, one {@link DiskFs#lookup} per name, as a POSIX kernel's
 * {@code namei} does: {@code "."} stays, {@code ".."} goes to the folder the walk came from (the
 * root's parent is the root, so no path leaves the filesystem), and a symbolic link met before
 * the last name, or at the last name when links are followed, is replaced by its target's names.
 *
 * <p>Link targets stay inside this filesystem: a target starting with {@code '/'} starts again at
 * this filesystem's root (an NTFS link's absolute target is relative to its volume), a Windows
 * drive or UNC target ({@code C:/...}, {@code //server/...}) names something outside it and is a
 * {@link NoSuchFileException}. At most {@value #MAX_LINKS} links are followed per walk (Linux's
 * {@code MAXSYMLINKS}); one more is a {@link FileSystemException} "Too many levels of symbolic
 * links", so a loop ends.
 *
 * <p>Each name looked up in a folder is kept in a bounded LRU cache, keyed by the folder's real
 * path (names as stored, no links in it) and the name as asked: the filesystem is read-only, so an
 * entry never goes stale. Safe for many threads.
 */
final class Resolver {
    static final int MAX_LINKS = 40;
    static final int CACHE_ENTRIES = 4096;

    private final DiskFs disk;
    private final LruCache<String, Node> children = new LruCache<>(CACHE_ENTRIES);

    Resolver(DiskFs disk) {
        this.disk = disk;
    }

    /**
     * What {@code path} names.
     *
     * @param follow whether a link at the last name is followed
     * @throws NoSuchFileException when a name is missing, a name before the last is not a folder,
     *     or a link leaves the filesystem
     */
    Resolved resolve(DiskPath path, boolean follow) throws IOException {
        String asked = path.toString();
        Deque<String> todo = new ArrayDeque<>(path.isEmpty() ? List.of() : path.names());
        List<Node> nodes = new ArrayList<>();
        List<String> reals = new ArrayList<>();
        nodes.add(disk.root());
        reals.add("");
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.pollFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                if (nodes.size() > 1) {
                    nodes.remove(nodes.size() - 1);
                    reals.remove(reals.size() - 1);
                }
                continue;
            }
            Node dir = nodes.get(nodes.size() - 1);
            String dirReal = reals.get(reals.size() - 1);
            if (!dir.isDirectory()) {
                throw new NoSuchFileException(asked, null, "not a folder: " + realOf(dirReal));
            }
            boolean last = todo.isEmpty();
            Node child = lookup(dir, dirReal, name);
            if (child == null) {
                if (last) {
                    Resolved stream = stream(dir, dirReal, name);
                    if (stream != null) {
                        return stream;
                    }
                }
                throw new NoSuchFileException(asked);
            }
            if (child.kind() == Kind.SYMLINK && (follow || !last)) {
                if (++links > MAX_LINKS) {
                    throw new FileSystemException(asked, null, "Too many levels of symbolic links");
                }
                String target = disk.readLink(child);
                if (target.isEmpty() || leavesFileSystem(target)) {
                    throw new NoSuchFileException(asked, null, "the link " + realOf(dirReal + "/" + child.name())
                            + " points outside this filesystem: " + target);
                }
                if (target.startsWith("/")) {
                    nodes.subList(1, nodes.size()).clear();
                    reals.subList(1, reals.size()).clear();
                }
                String[] parts = target.split("/");
                for (int i = parts.length - 1; i >= 0; i--) {
                    todo.addFirst(parts[i]);
                }
                continue;
            }
            nodes.add(child);
            reals.add(dirReal + "/" + child.name());
        }
        return new Resolved(nodes.get(nodes.size() - 1), null, 0, realOf(reals.get(reals.size() - 1)));
    }

    private static String realOf(String real) {
        return real.isEmpty() ? "/" : real;
    }

    /** A drive ({@code C:}, {@code C:/...}) or UNC ({@code //host/...}, {@code \\?\...} turned to '/') target. */
    private static boolean leavesFileSystem(String target) {
        if (target.length() >= 2 && target.charAt(1) == ':' && Character.isLetter(target.charAt(0))) {
            return true;
        }
        return target.startsWith("//");
    }

    /**
     * Keeps {@code child}, just listed in the folder whose real path is {@code dirReal}, so that the
     * attributes a walk asks for next are not looked up again (a linear search on FAT and exFAT).
     */
    void listed(String dirReal, Node child) {
        children.put(("/".equals(dirReal) ? "" : dirReal) + "/" + child.name(), child);
    }

    private Node lookup(Node dir, String dirReal, String name) throws IOException {
        String key = dirReal + "/" + name;
        Node child = children.get(key);
        if (child == null) {
            child = disk.lookup(dir, name);
            if (child != null) {
                children.put(key, child);
            }
        }
        return child;
    }

    /**
     * {@code "file:stream"} as file's named stream, when the entry {@code "file:stream"} itself
     * does not exist: the form Windows takes for NTFS's alternate data streams.
     */
    private Resolved stream(Node dir, String dirReal, String name) throws IOException {
        int colon = name.indexOf(':');
        if (colon <= 0 || colon == name.length() - 1) {
            return null;
        }
        Node file = lookup(dir, dirReal, name.substring(0, colon));
        if (file == null || file.kind() == Kind.SYMLINK) {
            return null;
        }
        String wanted = name.substring(colon + 1);
        for (DiskFs.StreamInfo s : disk.streams(file)) {
            boolean same = disk.caseSensitive() ? s.name().equals(wanted)
                    : s.name().toUpperCase(Locale.ROOT).equals(wanted.toUpperCase(Locale.ROOT));
            if (same) {
                return new Resolved(file, s.name(), s.size(), dirReal + "/" + file.name() + ":" + s.name());
            }
        }
        return null;
    }
}
