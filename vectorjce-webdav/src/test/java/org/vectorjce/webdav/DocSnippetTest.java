package org.vectorjce.webdav;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java example of docs/browse.md compiles against this module and the filesystems module. */
class DocSnippetTest {
    @Test
    void browseMdExampleCompiles(@TempDir Path dir) throws Exception {
        Path doc = Path.of(System.getProperty("user.dir")).resolveSibling("docs").resolve("browse.md");
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(doc));
        assertTrue(m.find(), "no Java example in " + doc);
        Path src = Files.writeString(dir.resolve("Browse.java"), m.group(1));
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        Process p = new ProcessBuilder(javac.toString(), "-d", dir.toString(), "-cp", System.getProperty("java.class.path"),
                src.toString()).redirectErrorStream(true).start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        p.getInputStream().transferTo(err);
        assertEquals(0, p.waitFor(), err.toString(StandardCharsets.UTF_8));
    }
}
