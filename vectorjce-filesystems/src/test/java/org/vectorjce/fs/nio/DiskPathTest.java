package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The path algebra against an independent oracle: the default filesystem's UnixPath, for the same
 * strings (these tests assume a POSIX default filesystem, the build machine's).
 */
class DiskPathTest {
    private static final List<String> PATHS = List.of("", "/", "a", "a/b", "/a", "/a/b/c", "a//b/", "//a//b//",
            "./a", "../a", "a/./b/../c", "/..", "/../a", "a/..", "..", ".", "a/b/../../..", "/a/./b/", "x:y/z",
            "a/b/c/d", "/a/b/c/d", "a/b/c", "../..", "b", "/b/c", "a/b/..", "../a/b", "c/d", "Docs/ReadMe.TXT",
            "/a/../b", "a/.", "./", "/a/b/../..", "é/ü");

    private static FileSystem fs;
    private static final FileSystem OS = FileSystems.getDefault();

    @BeforeAll
    static void open() {
        fs = new DiskFileSystem(new DiskFileSystemProvider(), new FakeDiskFs(true, false), null, null, null);
    }

    @AfterAll
    static void close() throws Exception {
        fs.close();
    }

    private static String s(Path p) {
        return p == null ? null : p.toString();
    }

    /** The result's string, or the exception's class when it threw: both sides must agree on either. */
    private static String outcome(Function<Void, Object> f) {
        try {
            Object o = f.apply(null);
            return o == null ? "null" : o.toString();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Test
    void singlePathOperationsMatchTheDefaultFileSystem() {
        for (String str : PATHS) {
            Path ours = fs.getPath(str);
            Path os = OS.getPath(str);
            String what = "'" + str + "'";
            assertEquals(os.toString(), ours.toString(), what);
            assertEquals(os.isAbsolute(), ours.isAbsolute(), what);
            assertEquals(os.getNameCount(), ours.getNameCount(), what);
            assertEquals(s(os.getFileName()), s(ours.getFileName()), what);
            assertEquals(s(os.getParent()), s(ours.getParent()), what);
            assertEquals(s(os.getRoot()), s(ours.getRoot()), what);
            assertEquals(os.normalize().toString(), ours.normalize().toString(), what);
            List<String> a = new ArrayList<>();
            List<String> b = new ArrayList<>();
            os.forEach(p -> a.add(p.toString()));
            ours.forEach(p -> b.add(p.toString()));
            assertEquals(a, b, what);
            for (int i = -1; i <= os.getNameCount() + 1; i++) {
                int ii = i;
                assertEquals(outcome(v -> os.getName(ii)), outcome(v -> ours.getName(ii)), what + " name " + i);
                for (int j = -1; j <= os.getNameCount() + 1; j++) {
                    int jj = j;
                    assertEquals(outcome(v -> os.subpath(ii, jj)), outcome(v -> ours.subpath(ii, jj)),
                            what + " subpath " + i + "," + j);
                }
            }
            if (!str.startsWith("/")) {
                assertEquals("/" + os, ours.toAbsolutePath().toString(), what);
            }
        }
    }

    @Test
    void pairOperationsMatchTheDefaultFileSystem() {
        for (String x : PATHS) {
            for (String y : PATHS) {
                Path ox = OS.getPath(x);
                Path oy = OS.getPath(y);
                Path dx = fs.getPath(x);
                Path dy = fs.getPath(y);
                String what = "'" + x + "' with '" + y + "'";
                assertEquals(outcome(v -> ox.resolve(oy)), outcome(v -> dx.resolve(dy)), what + " resolve");
                assertEquals(outcome(v -> ox.resolveSibling(oy)), outcome(v -> dx.resolveSibling(dy)), what + " sibling");
                assertEquals(outcome(v -> ox.relativize(oy)), outcome(v -> dx.relativize(dy)), what + " relativize");
                assertEquals(ox.startsWith(oy), dx.startsWith(dy), what + " startsWith");
                assertEquals(ox.endsWith(oy), dx.endsWith(dy), what + " endsWith");
                assertEquals(ox.startsWith(y), dx.startsWith(y), what + " startsWith(String)");
                assertEquals(ox.endsWith(y), dx.endsWith(y), what + " endsWith(String)");
                assertEquals(Integer.signum(ox.compareTo(oy)), Integer.signum(dx.compareTo(dy)), what + " compareTo");
                assertEquals(ox.equals(oy), dx.equals(dy), what + " equals");
                if (ox.equals(oy)) {
                    assertEquals(dx.hashCode(), dy.hashCode(), what);
                }
            }
        }
    }

    @Test
    void getPathJoinsAsTheDefaultFileSystem() {
        String[][] cases = {{"a", "b", "c"}, {"", "a"}, {"/", "a", "", "b"}, {"a/", "/b"}, {"", ""}, {"/a", ""}};
        for (String[] c : cases) {
            String[] more = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(OS.getPath(c[0], more).toString(), fs.getPath(c[0], more).toString(), String.join("|", c));
        }
    }

    @Test
    void nulIsRefusedAndOtherFileSystemsPathsAreNotOurs() {
        assertThrows(InvalidPathException.class, () -> fs.getPath("a\0b"));
        Path p = fs.getPath("a");
        assertFalse(p.startsWith(OS.getPath("a")));
        assertFalse(p.equals(OS.getPath("a")));
        assertThrows(java.nio.file.ProviderMismatchException.class, () -> p.resolve(OS.getPath("b")));
    }

    @Test
    void pathsAreCaseSensitiveStringsEvenWhereLookupIsNot() {
        assertFalse(fs.getPath("/Docs").equals(fs.getPath("/docs")));
        assertTrue(fs.getPath("/Docs").compareTo(fs.getPath("/docs")) < 0);
    }

    @Test
    void uriNamesThePathAndRegisterIsUnsupported() {
        assertEquals("vectorjce:/a%20b/c", fs.getPath("a b/c").toUri().toString());
        assertThrows(UnsupportedOperationException.class, () -> fs.getPath("a").register(null));
        assertThrows(UnsupportedOperationException.class, () -> fs.getPath("a").toFile());
    }
}
