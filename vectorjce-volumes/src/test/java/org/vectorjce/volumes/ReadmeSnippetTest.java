package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java program this module's README prints ({@code OpenAny}, the first {@code java} block that
 * is a whole class) runs as printed: its shell lines (the image made by cryptsetup) run here too,
 * and its output is the line the README shows after them.
 */
class ReadmeSnippetTest {
    @TempDir
    Path dir;

    @Test
    void openAnyRunsAsPrinted() throws Exception {
        TestImages.assumeTool("cryptsetup");
        String readme = Files.readString(Path.of("README.md"));
        Matcher program = Pattern.compile("```java\n(import [^`]*?public class OpenAny [^`]*?)```").matcher(readme);
        assertTrue(program.find(), "README.md prints the OpenAny program");
        Matcher sh = Pattern.compile("```sh\n(truncate [^`]*?OpenAny\\.java disk\\.img key\n)# ([^\n]*)\n```").matcher(readme);
        assertTrue(sh.find(), "README.md prints how to run it and what it prints");
        String expected = sh.group(2);

        // the shell lines, one by one, in the folder they would run in
        Files.writeString(dir.resolve("key"), "my passphrase");
        try (var f = java.nio.channels.FileChannel.open(dir.resolve("disk.img"),
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            f.truncate(0).position((32 << 20) - 1).write(java.nio.ByteBuffer.allocate(1));
        }
        assertTrue(sh.group(1).contains("truncate -s 32M disk.img && printf 'my passphrase' > key\n"), sh.group(1));
        String format = "cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 --key-file key disk.img";
        assertTrue(sh.group(1).contains(format + "\n"), sh.group(1));
        List<String> cmd = new ArrayList<>(List.of(format.split(" ")));
        cmd.replaceAll(a -> a.equals("key") || a.equals("disk.img") ? dir.resolve(a).toString() : a);
        TestImages.Run r = TestImages.run(null, cmd.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());

        // the program, run as the README runs it (java's source launcher), on this module's class path
        Files.writeString(dir.resolve("OpenAny.java"), program.group(1));
        String javaCmd = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(javaCmd, "-cp", System.getProperty("java.class.path"), "OpenAny.java",
                "disk.img", "key").directory(dir.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "OpenAny did not finish");
        assertEquals(0, p.exitValue(), printed);
        assertEquals(expected, printed.lines().filter(l -> !l.startsWith("WARNING:")).reduce("", (x, y) -> y).strip());
    }
}
