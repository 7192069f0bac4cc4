package org.vectorjce.fs.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;

/** Our glob matcher against the default filesystem's for the same globs and strings (an independent oracle). */
class GlobsTest {
    private static final List<String> GLOBS = List.of("*.txt", "**/*.txt", "**.txt", "a?c", "[abc]x", "[!a]x",
            "[a-c]*", "{foo,bar}*", "*.{java,class}", "\\*", "a/*/c", "**", "[-a]", "[a-]", "*", "?", "a.b",
            "a+b(c)", "a^b$", "[^a]", "{a,b/c}", "/x/**", "[a\\]]", "x{,y}", "[[]");
    private static final List<String> STRINGS = List.of("a.txt", "dir/a.txt", "/x/y/b.txt", "abc", "a/c", "bx",
            "ax", "cx", "foo1", "bar", "x.java", "x.class", "*", "a/b/c", "a.b", "aXb", "a+b(c)", "-", "a", "/x",
            "a^b$", "^", "b/c", "x", "xy", "[", "]", "a/b/c/d.txt", "");
    private static final List<String> BAD = List.of("[abc", "{a,{b}}", "a\\", "{a", "[a/b]", "[z-a]");

    @Test
    void globsMatchAsTheDefaultFileSystemsDo() throws Exception {
        FileSystem os = FileSystems.getDefault();
        try (FileSystem fs = new DiskFileSystem(new DiskFileSystemProvider(), new FakeDiskFs(true, false), null,
                null, null)) {
            for (String g : GLOBS) {
                PathMatcher theirs = os.getPathMatcher("glob:" + g);
                PathMatcher ours = fs.getPathMatcher("glob:" + g);
                for (String s : STRINGS) {
                    assertEquals(theirs.matches(os.getPath(s)), ours.matches(fs.getPath(s)), g + " on " + s);
                }
            }
            for (String g : BAD) {
                assertThrows(PatternSyntaxException.class, () -> os.getPathMatcher("glob:" + g), g);
                assertThrows(PatternSyntaxException.class, () -> fs.getPathMatcher("glob:" + g), g);
            }
            assertTrue(fs.getPathMatcher("regex:a.*c").matches(fs.getPath("abc")));
            assertThrows(UnsupportedOperationException.class, () -> fs.getPathMatcher("shell:*"));
            assertThrows(IllegalArgumentException.class, () -> fs.getPathMatcher("*.txt"));
            assertFalse(fs.getPathMatcher("glob:*.TXT").matches(fs.getPath("a.txt")));
        }
    }

    @Test
    void caseInsensitiveFileSystemsMatchCaseInsensitively() throws Exception {
        try (FileSystem fs = new DiskFileSystem(new DiskFileSystemProvider(), new FakeDiskFs(false, false), null,
                null, null)) {
            assertTrue(fs.getPathMatcher("glob:*.txt").matches(fs.getPath("README.TXT")));
            assertTrue(fs.getPathMatcher("regex:readme\\..*").matches(fs.getPath("README.TXT")));
        }
    }
}
