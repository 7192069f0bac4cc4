package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Path decoding and encoding against java.net.URI's (an implementation no one here wrote). */
class DavPathTest {
    @Test
    void decodesWhatUriEncodes() throws Exception {
        for (String name : new String[] {"a b.txt", "100% sure", "#hash", "what?", "Ünïcödé ファイル", "+&=;,@:", "~._-",
            "emoji \ud83d\ude00"}) {
            String raw = new URI(null, null, "/" + name, null).toASCIIString();
            assertEquals(List.of(name), DavPath.parse(raw).segments, raw);
            String ours = DavPath.encode(name);
            assertEquals(name, new URI("/" + ours).getPath().substring(1), ours);
        }
    }

    @Test
    void refusesDotsSeparatorsNulAndBadUtf8() {
        for (String t : new String[] {"/..", "/a/../b", "/%2e%2e", "/%2E%2e/", "/.", "/%2e/x", "/a%2fb", "/a%2Fb", "/a%5cb",
            "/a\\b", "/a%00", "/%c0%ae%c0%ae/", "/%e0%80%ae", "/%ed%a0%80", "/%ff", "/%", "/%4", "/%g1", "/a//b", "x",
            "/a#b"}) {
            HttpError e = assertThrows(HttpError.class, () -> DavPath.parse(t), t);
            assertEquals(400, e.status, t);
        }
    }

    @Test
    void absoluteFormAndQuery() throws Exception {
        DavPath p = DavPath.parse("http://host:1/tok/sub/?sort=size&order=desc");
        assertEquals(List.of("tok", "sub"), p.segments);
        assertTrue(p.slash);
        assertEquals("size", p.param("sort"));
        assertEquals("desc", p.param("order"));
        assertEquals(List.of(), DavPath.parse("/").segments);
    }

    @Test
    void resolvesOnlyChildren(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("root");
        assertEquals(root.resolve("a").resolve("b c"), DavPath.parse("/a/b%20c").resolve(root, 0));
        // a name that another filesystem would read as a separator or an absolute path never leaves the root
        try (FileSystem zip = java.nio.file.FileSystems.newFileSystem(dir.resolve("t.zip"), Map.of("create", "true"))) {
            Path zroot = zip.getPath("/");
            assertEquals(zroot.resolve("x"), DavPath.parse("/x").resolve(zroot, 0));
        }
    }
}
