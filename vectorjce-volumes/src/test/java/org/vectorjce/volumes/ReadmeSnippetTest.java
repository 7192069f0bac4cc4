package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java programs this module's README prints ({@code OpenAny}, {@code FormatAndKeys},
 * {@code ServeOne}: each {@code java} block that is a whole class) run as printed, from the shell
 * lines after them, and print what the README shows there. The shell lines that make
 * {@code OpenAny}'s image (cryptsetup) run here too, with 1000 PBKDF2 iterations added: what the
 * programs print does not depend on the count, and cryptsetup's calibrated two seconds, derived
 * again by each program, made this the slowest class of the module. The programs' JVMs compile
 * with C1 alone and one GC thread: the source launcher's compilation is most of their work.
 */
class ReadmeSnippetTest {
    @TempDir
    Path dir;

    private static String readme() throws Exception {
        return Files.readString(Path.of("README.md"));
    }

    /** The whole class {@code name} as the README prints it. */
    private static String program(String readme, String name) {
        Matcher m = Pattern.compile("```java\n(import [^`]*?public class " + name + " [^`]*?)```").matcher(readme);
        assertTrue(m.find(), "README.md prints the " + name + " program");
        return m.group(1);
    }

    /** The README's program {@code name} started as its shell line starts it (java's source launcher), in {@link #dir}. */
    private Process start(String name, String source, String... args) throws Exception {
        Files.writeString(dir.resolve(name + ".java"), source);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                name + ".java"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile()).start();
    }

    /** What a finished program printed on stdout, without the JVM's incubator warning; fails unless it exited 0. */
    private static String finish(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the program did not finish");
        assertEquals(0, p.exitValue(), out + err);
        return out.lines().filter(l -> !l.startsWith("WARNING:")).reduce("", (x, y) -> x + y + "\n");
    }

    /** The README's shell lines that make OpenAny's LUKS2 image, run here: disk.img and key in {@link #dir}. */
    private String makeImage(String readme) throws Exception {
        Matcher sh = Pattern.compile("```sh\n(truncate [^`]*?OpenAny\\.java disk\\.img key\n)# ([^\n]*)\n```").matcher(readme);
        assertTrue(sh.find(), "README.md prints how to run OpenAny and what it prints");
        Files.writeString(dir.resolve("key"), "my passphrase");
        try (var f = java.nio.channels.FileChannel.open(dir.resolve("disk.img"),
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            f.truncate(0).position((32 << 20) - 1).write(java.nio.ByteBuffer.allocate(1));
        }
        assertTrue(sh.group(1).contains("truncate -s 32M disk.img && printf 'my passphrase' > key\n"), sh.group(1));
        String format = "cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 --key-file key disk.img";
        assertTrue(sh.group(1).contains(format + "\n"), sh.group(1));
        List<String> cmd = new ArrayList<>(List.of(format.split(" ")));
        cmd.addAll(cmd.size() - 1, TestImages.fastKdfOptions("pbkdf2"));
        cmd.replaceAll(a -> a.equals("key") || a.equals("disk.img") ? dir.resolve(a).toString() : a);
        TestImages.Run r = TestImages.run(null, cmd.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return sh.group(2);
    }

    @Test
    void openAnyRunsAsPrinted() throws Exception {
        TestImages.assumeTool("cryptsetup");
        String readme = readme();
        String expected = makeImage(readme);
        Process p = start("OpenAny", program(readme, "OpenAny"), "disk.img", "key");
        p.getOutputStream().close();
        assertEquals(expected + "\n", finish(p));
    }

    @Test
    void formatAndKeysRunsAsPrinted() throws Exception {
        String readme = readme();
        Matcher sh = Pattern.compile("```sh\njava -cp \\S+ FormatAndKeys\\.java new\\.img\n((?:# [^\n]*\n)+)```").matcher(readme);
        assertTrue(sh.find(), "README.md prints how to run FormatAndKeys and what it prints");
        Process p = start("FormatAndKeys", program(readme, "FormatAndKeys"), "new.img");
        p.getOutputStream().close();
        assertEquals(sh.group(1).replaceAll("(?m)^# ", ""), finish(p));
        assertTrue(Files.size(dir.resolve("new.img")) == 32 << 20);
    }

    @Test
    void serveOneRunsAsPrinted() throws Exception {
        TestImages.assumeTool("cryptsetup");
        TestImages.assumeTool("nbdinfo");
        String readme = readme();
        makeImage(readme);
        Matcher sh = Pattern.compile("```sh\nmkdir -m 700 /tmp/vc-api\njava -cp \\S+ ServeOne\\.java disk\\.img key "
                + "/tmp/vc-api/disk\\.sock\n# ([^\n]*)\n```").matcher(readme);
        assertTrue(sh.find(), "README.md prints how to run ServeOne and what it prints");
        Matcher size = Pattern.compile("`nbdinfo --size 'nbd\\+unix:///\\?socket=/tmp/vc-api/disk\\.sock'`\\s+prints `(\\d+)`")
                .matcher(readme);
        assertTrue(size.find(), "README.md says what nbdinfo --size prints");
        Path folder = Files.createDirectory(dir.resolve("vc-api"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path socket = folder.resolve("disk.sock");
        Process p = start("ServeOne", program(readme, "ServeOne"), "disk.img", "key", socket.toString());
        try (OutputStream stdin = p.getOutputStream()) {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String uri = out.readLine();
            assertEquals(sh.group(1).replace("/tmp/vc-api", folder.toString()), uri);
            TestImages.Run r = TestImages.run(null, "nbdinfo", "--size", uri);
            assertEquals(0, r.rc(), r.err());
            assertEquals(size.group(1), r.out().strip());
            stdin.write('\n');                                  // Enter stops it
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ServeOne did not stop on Enter");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertFalse(Files.exists(socket), "the socket is removed");
    }
}
