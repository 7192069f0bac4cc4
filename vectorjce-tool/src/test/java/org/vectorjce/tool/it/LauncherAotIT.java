package org.vectorjce.tool.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/volume} and the AOT cache next to the volume jar, on a copy of the launcher and the
 * jar in a temporary checkout, on this JDK 25 ({@code JAVA_HOME}): a cache the JVM cannot use
 * leaves stdout as without one; one that {@code bin/lib/aot-train.bash} made is opened;
 * {@code JAVA_OPTS=-XX:AOTMode=off} and a jar newer than the cache start without it.
 */
class LauncherAotIT {
    private static final String VERSION_LINE = "volume (VectorJCE volumes) ";

    @Test
    void theCacheIsUsedWhenItCanBeAndStdoutStaysCleanWhenItCannot(@TempDir Path root) throws Exception {
        Assumptions.assumeTrue(Jvms.thisFeature() >= 25, "the AOT cache is a JDK 25 feature (this JVM: "
                + Jvms.thisFeature() + ")");
        Path allJar = Jvms.jar();
        Path volumeJar = allJar.resolveSibling(allJar.getFileName().toString().replace("-all.jar", "-volume.jar"));
        Assumptions.assumeTrue(Files.isRegularFile(volumeJar), volumeJar + " not built");
        Path checkout = allJar.getParent().getParent().getParent();
        Files.createDirectories(root.resolve("bin/lib"));
        for (String f : new String[] {"bin/volume", "bin/lib/launch.bash", "bin/lib/aot-train.bash"}) {
            Files.copy(checkout.resolve(f), root.resolve(f));
            Files.setPosixFilePermissions(root.resolve(f), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path target = Files.createDirectories(root.resolve("vectorjce-tool/target"));
        Path jar = Files.copy(volumeJar, target.resolve(volumeJar.getFileName()));
        Path cache = target.resolve(jar.getFileName().toString().replace(".jar", ".aot"));
        long jarTime = Files.getLastModifiedTime(jar).toMillis();

        Result plain = volume(root, null, "--version");
        assertEquals(0, plain.exit, plain.err);
        assertTrue(plain.out.startsWith(VERSION_LINE), plain.out);

        // not a cache at all, newer than the jar: the JVM refuses it, silently
        Files.write(cache, new byte[4096]);
        Files.setLastModifiedTime(cache, FileTime.fromMillis(jarTime + 10_000));
        Result garbage = volume(root, null, "--version");
        assertEquals(0, garbage.exit, garbage.err);
        assertEquals(plain.out, garbage.out);
        assertFalse(garbage.err.contains("[aot]") || garbage.err.contains("[cds]"), garbage.err);

        // a cache the training made: opened (the user's -Xlog comes after the launcher's and wins)
        Process train = new ProcessBuilder("bash", root.resolve("bin/lib/aot-train.bash").toString(), jar.toString())
                .redirectErrorStream(true).start();
        String trainOut = new String(train.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(train.waitFor(180, TimeUnit.SECONDS), "aot-train.bash timed out");
        assertTrue(Files.size(cache) > 1 << 20, "no cache made: " + trainOut);
        assertEquals(plain.out, volume(root, null, "--version").out);
        assertTrue(volume(root, "-Xlog:aot=info", "--version").out.contains("Opened AOT cache"));
        assertFalse(volume(root, "-XX:AOTMode=off -Xlog:aot=info", "--version").out.contains("Opened AOT cache"));

        // a jar rebuilt after the cache: not used
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(cache).toMillis() + 10_000));
        Result stale = volume(root, "-Xlog:aot=info", "--version");
        assertEquals(0, stale.exit, stale.err);
        assertFalse(stale.out.contains("Opened AOT cache"), stale.out);
    }

    /**
     * Where Linux gives transparent huge pages on request (THP mode {@code madvise}), the launcher
     * asks for them for the Java heap; JAVA_OPTS naming huge pages decides instead.
     */
    @Test
    void transparentHugePagesWhereTheKernelGivesThemOnRequest(@TempDir Path root) throws Exception {
        Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        Assumptions.assumeTrue(Files.isReadable(thp) && Files.readString(thp).contains("[madvise]"),
                "needs Linux with THP mode madvise (" + thp + ")");
        Path allJar = Jvms.jar();
        Path volumeJar = allJar.resolveSibling(allJar.getFileName().toString().replace("-all.jar", "-volume.jar"));
        Assumptions.assumeTrue(Files.isRegularFile(volumeJar), volumeJar + " not built");
        Path checkout = allJar.getParent().getParent().getParent();
        Files.createDirectories(root.resolve("bin/lib"));
        for (String f : new String[] {"bin/volume", "bin/lib/launch.bash"}) {
            Files.copy(checkout.resolve(f), root.resolve(f));
        }
        Path target = Files.createDirectories(root.resolve("vectorjce-tool/target"));
        Files.copy(volumeJar, target.resolve(volumeJar.getFileName()));
        String flag = "bool UseTransparentHugePages";
        Result on = volume(root, "-XX:+PrintFlagsFinal", "--version");
        assertEquals(0, on.exit, on.err);
        assertTrue(on.out.lines().anyMatch(l -> l.contains(flag) && l.contains("= true")), "flag set");
        Result off = volume(root, "-XX:-UseTransparentHugePages -XX:+PrintFlagsFinal", "--version");
        assertEquals(0, off.exit, off.err);
        assertTrue(off.out.lines().anyMatch(l -> l.contains(flag) && l.contains("= false")), "JAVA_OPTS decides");
    }

    private record Result(int exit, String out, String err) {
    }

    /** {@code ROOT/bin/volume ARGS} with this JVM's home as JAVA_HOME and {@code javaOpts} (may be null). */
    private static Result volume(Path root, String javaOpts, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("bin/volume").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.remove("JAVA_OPTS");
        if (javaOpts != null) {
            env.put("JAVA_OPTS", javaOpts);
        }
        Path err = Files.createTempFile(root, "err", ".txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/volume timed out");
        return new Result(p.exitValue(), out, Files.readString(err));
    }
}
