package org.vectorjce.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link VolumeMount#problem} over folders made here (no FUSE needed): each missing piece named in
 * one line with the package that brings it, in the order they are checked; nothing when all are
 * there. And the mount table's escapes.
 */
class VolumeMountProblemTest {
    @TempDir
    Path tmp;

    @Test
    void eachMissingPieceIsNamedWithItsPackage() throws Exception {
        Path lib = tmp.resolve("lib/libfuse3.so.3");
        Path dev = tmp.resolve("dev/fuse");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        List<Path> libs = List.of(lib, tmp.resolve("lib/libfuse3.so"));

        String p = VolumeMount.problem(libs, dev, List.of(bin));
        assertTrue(p.startsWith("libfuse3 was not found (libfuse3.so.3 or libfuse3.so in " + lib.getParent() + ")"), p);
        assertTrue(p.contains("apt-get install fuse3"), p);
        assertEquals(-1, p.indexOf('\n'), "one line");

        Files.createDirectories(lib.getParent());
        Files.createFile(lib);
        p = VolumeMount.problem(libs, dev, List.of(bin));
        assertTrue(p.startsWith(dev + " is missing"), p);

        Files.createDirectories(dev.getParent());
        Files.createFile(dev);
        p = VolumeMount.problem(libs, dev, List.of(bin));
        assertTrue(p.startsWith("fusermount3 was not found on the PATH"), p);
        assertTrue(p.contains("apt-get install fuse3"), p);

        Path fm = Files.createFile(bin.resolve("fusermount3"));
        assertTrue(fm.toFile().setExecutable(true));
        assertNull(VolumeMount.problem(libs, dev, List.of(tmp.resolve("nothing"), bin)));

        // the property's file alone is looked for, and named when absent
        String old = System.getProperty(VolumeMount.LIBRARY_PROPERTY);
        System.setProperty(VolumeMount.LIBRARY_PROPERTY, tmp.resolve("no/libfuse3.so.3").toString());
        try {
            p = VolumeMount.problem(VolumeMount.libraryCandidates(), dev, List.of(bin));
            assertTrue(p.startsWith("libfuse3 was not found (no file " + tmp.resolve("no/libfuse3.so.3") + ")"), p);
        } finally {
            if (old == null) {
                System.clearProperty(VolumeMount.LIBRARY_PROPERTY);
            } else {
                System.setProperty(VolumeMount.LIBRARY_PROPERTY, old);
            }
        }
    }

    @Test
    void mountTableEscapesAreDecoded() {
        assertEquals("/tmp/a b\tc\\d", VolumeMount.unescape("/tmp/a\\040b\\011c\\134d"));
        assertEquals("/x\\9", VolumeMount.unescape("/x\\9"));
    }
}
