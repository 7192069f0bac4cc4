package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * {@code volume ls}, {@code cat} and {@code get}: the files inside a volume or disk image, read
 * through the read-only {@link FileSystem} of vectorjce-filesystems. Folders are walked depth
 * first, one directory stream open per level, so memory stays bounded by the tree's depth, and a
 * folder that holds one of its own ancestors (a loop on a damaged disk) ends the walk with an
 * error. Entries come in the filesystem's own order (NTFS: its index's, FAT and exFAT: the
 * directory's), as The Sleuth Kit's {@code fls} prints them.
 *
 * <p>{@code get} writes only below DEST: a name that is empty, {@code .} or {@code ..}, or holds
 * {@code /}, {@code \} or NUL, is not written (a line on stderr names it, and the command exits 1
 * at the end); every file is created new without following a link in its last name, every folder
 * made or reused only where it is a real folder, so neither a link on the disk nor one already in
 * DEST leads outside it. Existing files are kept unless {@code --force}.
 */
final class FilesCommand {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);
    /** Folders deeper than this end the walk: no real tree is, a crafted one may be. */
    static final int MAX_DEPTH = 512;
    private static final int COPY_BUFFER = 1 << 20;

    private final PrintStream out;
    private final PrintStream err;
    private final BooleanSupplier terminal;
    /** The one copy buffer of {@code cat} and {@code get}, made on first use. */
    private ByteBuffer buffer;

    FilesCommand(PrintStream out, PrintStream err, BooleanSupplier terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** What {@code ls} prints of each entry. */
    record LsOptions(boolean longFormat, boolean recursive, boolean json, boolean streams) {
    }

    // ---- ls

    int ls(FileSystem fs, String path, LsOptions o) throws IOException, UsageException {
        Path p = resolve(fs, path);
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        try {
            if (!a.isDirectory()) {
                printWithStreams(p, a, o, p.toString());
            } else {
                walk(p, o.recursive(), (entry, attrs, depth) -> printWithStreams(entry, attrs, o, shown(p, entry, o)));
            }
        } finally {
            // what was listed before an error is still written, then the error's line
            flushLines();
        }
        return Exits.OK;
    }

    /** {@code ls}'s lines, written in blocks: standard output flushes at every line otherwise. */
    private final StringBuilder lines = new StringBuilder();

    private void println(CharSequence line) {
        lines.append(line).append('\n');
        if (lines.length() >= 1 << 15) {
            flushLines();
        }
    }

    private void flushLines() {
        out.print(lines);
        out.flush();
        lines.setLength(0);
    }

    /** The name {@code ls} shows: relative to the folder listed, or the whole path with --json. */
    private static String shown(Path base, Path entry, LsOptions o) {
        return o.json() ? entry.toString() : base.relativize(entry).toString();
    }

    /** The entry, then with --streams each of its named streams as {@code name:stream}. */
    private void printWithStreams(Path p, BasicFileAttributes a, LsOptions o, String name)
            throws IOException, UsageException {
        print(p, a, o, name);
        if (o.streams() && a.isRegularFile()) {
            for (var s : org.vectorjce.fs.DiskFileSystems.streams(p).entrySet()) {
                Path sp = p.resolveSibling(p.getFileName() + ":" + s.getKey());
                print(sp, Files.readAttributes(sp, BasicFileAttributes.class), o, name + ":" + s.getKey());
            }
        }
    }

    private void print(Path p, BasicFileAttributes a, LsOptions o, String name) throws IOException, UsageException {
        if (o.json()) {
            StringBuilder s = new StringBuilder(128).append("{\"path\":");
            Json.string(s, p.toString());
            s.append(",\"type\":\"").append(type(a)).append('"');
            s.append(",\"size\":").append(a.size());
            s.append(",\"mtime\":\"").append(a.lastModifiedTime().toInstant()).append('"');
            s.append(",\"ctime\":\"").append(a.creationTime().toInstant()).append('"');
            if (a instanceof DosFileAttributes d) {
                s.append(",\"attributes\":\"").append(dos(d)).append('"');
            }
            if (a.isSymbolicLink()) {
                s.append(",\"target\":");
                Json.string(s, link(p));
            }
            println(s.append('}'));
        } else if (o.longFormat()) {
            String attrs = a instanceof DosFileAttributes d ? dos(d) : "----";
            char t = a.isDirectory() ? 'd' : a.isSymbolicLink() ? 'l' : a.isRegularFile() ? '-' : '?';
            String line = String.format(Locale.ROOT, "%c %s %14d %s %s", t, attrs, a.size(),
                    TIME.format(a.lastModifiedTime().toInstant()), name + (a.isDirectory() ? "/" : ""));
            println(a.isSymbolicLink() ? line + " -> " + link(p) : line);
        } else {
            println(name + (a.isDirectory() ? "/" : ""));
        }
    }

    private static String link(Path p) {
        try {
            return Files.readSymbolicLink(p).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "?";
        }
    }

    private static String type(BasicFileAttributes a) {
        return a.isDirectory() ? "dir" : a.isSymbolicLink() ? "link" : a.isRegularFile() ? "file" : "other";
    }

    /** The DOS attributes as four letters, {@code -} for each one not set: Read-only, Hidden, System, Archive. */
    private static String dos(DosFileAttributes d) {
        return (d.isReadOnly() ? "r" : "-") + (d.isHidden() ? "h" : "-") + (d.isSystem() ? "s" : "-")
                + (d.isArchive() ? "a" : "-");
    }

    // ---- cat

    int cat(FileSystem fs, String path, OutputStream sink) throws IOException, UsageException {
        Path p = resolve(fs, path);
        if (Files.isDirectory(p)) {
            throw new UsageException(path + " is a folder: cat reads files (ls lists folders)");
        }
        try (SeekableByteChannel ch = Files.newByteChannel(p)) {
            ByteBuffer b = buffer();
            while (ch.read(b) >= 0) {
                b.flip();
                sink.write(b.array(), 0, b.limit());
                b.clear();
            }
        }
        sink.flush();
        return Exits.OK;
    }

    // ---- get

    /**
     * Copies each of {@code paths} to {@code dest}: into it when it is a folder, else to it (one
     * path only). Returns {@link Exits#FAIL} when an entry was left out (each named on stderr).
     */
    int get(FileSystem fs, List<String> paths, Path dest, boolean force) throws IOException, UsageException {
        boolean destDir = Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS);
        if (paths.size() > 1 && !destDir) {
            throw new UsageException(dest + " is not a folder: " + paths.size() + " paths are copied into one");
        }
        if (!destDir && Files.isSymbolicLink(dest)) {
            throw new UsageException(dest + " is a symbolic link: name a folder or a new file");
        }
        Progress progress = new Progress();
        int rc = Exits.OK;
        for (String path : paths) {
            Path src = resolve(fs, path);
            BasicFileAttributes a = Files.readAttributes(src, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Path target;
            if (destDir) {
                Path name = src.getFileName();
                target = name == null ? dest : child(dest, name.toString(), src);
                if (target == null) {
                    rc = Exits.FAIL;
                    continue;
                }
            } else {
                target = dest;
            }
            if (a.isDirectory()) {
                // the root copied into DEST fills DEST; DEST's own times and mode stay the user's
                rc = Math.max(rc, copyTree(src, target, force, progress, !target.equals(dest)));
            } else {
                rc = Math.max(rc, copyEntry(src, a, target, force, progress));
            }
        }
        progress.done();
        return rc;
    }

    private int copyTree(Path src, Path target, boolean force, Progress progress, boolean ownTarget)
            throws IOException, UsageException {
        int[] rc = {Exits.OK};
        mkdir(target);
        // folders' times are set once their content is written (writing into a folder changes its time)
        Deque<Object[]> times = new ArrayDeque<>();
        Deque<Path> skipped = new ArrayDeque<>();
        walk(src, true, (entry, attrs, depth) -> {
            for (Path s : skipped) {
                if (entry.startsWith(s)) {
                    return;
                }
            }
            Path rel = src.relativize(entry);
            Path out = target;
            for (Path name : rel) {
                out = child(out, name.toString(), entry);
                if (out == null) {
                    rc[0] = Exits.FAIL;
                    if (attrs.isDirectory()) {
                        skipped.push(entry);
                    }
                    return;
                }
            }
            if (attrs.isDirectory()) {
                mkdir(out);
                times.push(new Object[] {out, attrs.lastModifiedTime(), attrs.lastAccessTime(), entry});
            } else {
                rc[0] = Math.max(rc[0], copyEntry(entry, attrs, out, force, progress));
            }
        });
        while (!times.isEmpty()) {
            Object[] t = times.pop();
            setTimes((Path) t[0], (FileTime) t[1], (FileTime) t[2]);
            setMode((Path) t[3], (Path) t[0]);
        }
        if (ownTarget) {
            BasicFileAttributes top = Files.readAttributes(src, BasicFileAttributes.class);
            setTimes(target, top.lastModifiedTime(), top.lastAccessTime());
            setMode(src, target);
        }
        return rc[0];
    }

    /**
     * {@code dir/name}, or null (and a line on stderr) when {@code name} could leave {@code dir} or
     * is not a name every OS takes as one: empty, {@code .}, {@code ..}, or holding {@code /},
     * {@code \} or NUL.
     */
    private Path child(Path dir, String name, Path entry) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
            err.println("Skipped " + entry + ": its name cannot be a file name here");
            return null;
        }
        Path p = dir.resolve(name);
        if (!Objects.equals(p.getParent(), dir)) {
            err.println("Skipped " + entry + ": its name cannot be a file name here");
            return null;
        }
        return p;
    }

    /** Makes {@code dir}, or reuses it when it is a real folder (never a link to one). */
    private static void mkdir(Path dir) throws IOException, UsageException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            throw new UsageException(dir + " exists and is not a folder");
        }
    }

    private int copyEntry(Path src, BasicFileAttributes a, Path target, boolean force, Progress progress)
            throws IOException, UsageException {
        if (force && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new UsageException(target + " is a folder: not replaced by the file " + src);
            }
            Files.delete(target);
        }
        try {
            return create(src, a, target, progress);
        } catch (FileAlreadyExistsException e) {
            err.println("Kept " + target + ": it exists (--force replaces it)");
            return Exits.FAIL;
        }
    }

    /** {@code target}, new (never through a link in its last name), as {@code src} is. */
    private int create(Path src, BasicFileAttributes a, Path target, Progress progress) throws IOException {
        if (a.isSymbolicLink()) {
            Files.createSymbolicLink(target, target.getFileSystem().getPath(
                    Files.readSymbolicLink(src).toString()));
            return Exits.OK;
        }
        if (!a.isRegularFile()) {
            err.println("Skipped " + src + ": not a file, folder or link");
            return Exits.FAIL;
        }
        try (SeekableByteChannel in = Files.newByteChannel(src)) {
            // made new here (an existing file is FileAlreadyExistsException, and stays as it was);
            // removed again when the copy fails half-way, so no partial file is left
            FileChannel o = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            boolean done = false;
            try (o) {
                ByteBuffer b = buffer();
                while (in.read(b) >= 0) {
                    b.flip();
                    while (b.hasRemaining()) {
                        progress.add(o.write(b));
                    }
                    b.clear();
                }
                done = true;
            } finally {
                if (!done) {
                    Files.deleteIfExists(target);
                }
            }
        }
        progress.file();
        setTimes(target, a.lastModifiedTime(), a.lastAccessTime());
        setMode(src, target);
        return Exits.OK;
    }

    private ByteBuffer buffer() {
        if (buffer == null) {
            buffer = ByteBuffer.allocate(COPY_BUFFER);
        }
        return buffer.clear();
    }

    /**
     * The read, write and execute bits of {@code src}, where its filesystem keeps them (ext, XFS),
     * on {@code target}, where its filesystem takes them, as {@code cp -p} does; never set-user-ID,
     * set-group-ID or the owner. Folders get theirs after their content, so a read-only folder is
     * still filled.
     */
    private static void setMode(Path src, Path target) throws IOException {
        if (!src.getFileSystem().supportedFileAttributeViews().contains("posix")
                || !target.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms =
                Files.readAttributes(src, java.nio.file.attribute.PosixFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS).permissions();
        Files.getFileAttributeView(target, java.nio.file.attribute.PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS).setPermissions(perms);
    }

    private static void setTimes(Path p, FileTime modified, FileTime accessed) throws IOException {
        Files.getFileAttributeView(p, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setTimes(modified, accessed, null);
    }

    // ---- the walk

    /** What the walk calls for each entry below the folder it starts at (not for the folder itself). */
    interface Visitor {
        void visit(Path entry, BasicFileAttributes attributes, int depth) throws IOException, UsageException;
    }

    /**
     * Visits the entries of {@code dir}, and with {@code recursive} the entries of its folders,
     * depth first (a folder before its content), never following links.
     *
     * @throws FileSystemLoopException when a folder holds one of its own ancestors
     */
    static void walk(Path dir, boolean recursive, Visitor v) throws IOException, UsageException {
        List<Object> ancestors = new ArrayList<>();
        ancestors.add(Files.readAttributes(dir, BasicFileAttributes.class).fileKey());
        walk(dir, recursive, v, ancestors);
    }

    private static void walk(Path dir, boolean recursive, Visitor v, List<Object> ancestors) throws IOException, UsageException {
        if (ancestors.size() > MAX_DEPTH) {
            throw new IOException(dir + " is more than " + MAX_DEPTH + " folders deep: the walk stops");
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path e : s) {
                BasicFileAttributes a = Files.readAttributes(e, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                v.visit(e, a, ancestors.size());
                if (recursive && a.isDirectory()) {
                    Object key = a.fileKey();
                    if (key != null && ancestors.contains(key)) {
                        throw new java.nio.file.FileSystemLoopException(e + " (the folder holds one of its own"
                                + " ancestors: a damaged filesystem)");
                    }
                    ancestors.add(key);
                    walk(e, true, v, ancestors);
                    ancestors.remove(ancestors.size() - 1);
                }
            }
        }
    }

    /** {@code path} in {@code fs}: absolute (a leading {@code /} is added when missing). */
    static Path resolve(FileSystem fs, String path) throws IOException {
        Path p = fs.getPath(path.startsWith("/") ? path : "/" + path);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(path, null, "no such file or folder in the filesystem");
        }
        return p;
    }

    /** Counts and, on a terminal, shows how much {@code get} has copied. */
    private final class Progress {
        private final boolean shown = terminal.getAsBoolean();
        private long bytes;
        private long files;
        private long shownAt = -1;

        void add(long n) {
            bytes += n;
            show(false);
        }

        void file() {
            files++;
            show(false);
        }

        void show(boolean last) {
            if (!shown) {
                return;
            }
            long mib = bytes >> 20;
            if (!last && mib == shownAt) {
                return;
            }
            shownAt = mib;
            err.print("\r" + files + " files, " + mib + " MiB" + (last ? "\n" : ""));
            err.flush();
        }

        void done() {
            if (shownAt >= 0) {
                show(true);
            }
        }
    }

    /** The few JSON strings {@code ls --json} writes. */
    static final class Json {
        private Json() {
        }

        static void string(StringBuilder s, String v) {
            s.append('"');
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                switch (c) {
                    case '"' -> s.append("\\\"");
                    case '\\' -> s.append("\\\\");
                    case '\n' -> s.append("\\n");
                    case '\r' -> s.append("\\r");
                    case '\t' -> s.append("\\t");
                    default -> {
                        if (c < 0x20 || Character.isSurrogate(c) && !validPair(v, i)) {
                            s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            s.append(c);
                        }
                    }
                }
            }
            s.append('"');
        }

        private static boolean validPair(String v, int i) {
            char c = v.charAt(i);
            if (Character.isHighSurrogate(c)) {
                return i + 1 < v.length() && Character.isLowSurrogate(v.charAt(i + 1));
            }
            return i > 0 && Character.isHighSurrogate(v.charAt(i - 1));
        }
    }
}
