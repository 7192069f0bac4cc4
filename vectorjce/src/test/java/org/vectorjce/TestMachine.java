package org.vectorjce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a landscape's tests expect of the kernel choice, from the surefire execution's
 * {@code vectorjce.test.expect.NAME} properties. The default landscape's expectations are for a
 * machine with AVX-512 VBMI; on one without it (read here from {@code /proc/cpuinfo}, not from the
 * provider's own CPU probe), that landscape shows the 256-bit kernels, and its
 * {@code vectorjce.test.expect.without512.NAME} properties hold what to expect there instead.
 */
public final class TestMachine {
    private TestMachine() {
    }

    /** Whether the CPU reports AVX-512F and AVX-512 VBMI (true where it cannot be read: the POM's primary case). */
    public static boolean hasAvx512Vbmi() {
        return Avx512.PRESENT;
    }

    private static final class Avx512 {
        static final boolean PRESENT = read();

        private static boolean read() {
            Path p = Path.of("/proc/cpuinfo");
            if (!Files.isReadable(p)) {
                return true;
            }
            try {
                for (String line : Files.readAllLines(p)) {
                    if (line.startsWith("flags")) {
                        String flags = " " + line.substring(line.indexOf(':') + 1) + " ";
                        return flags.contains(" avx512f ") && flags.contains(" avx512vbmi ");
                    }
                }
            } catch (IOException e) {
                return true;
            }
            return true;
        }
    }

    /** The expectation {@code name} of this JVM's landscape, or null when the execution sets none. */
    public static String expect(String name) {
        String alt = System.getProperty("vectorjce.test.expect.without512." + name);
        if (alt != null && !hasAvx512Vbmi()) {
            return alt;
        }
        return System.getProperty("vectorjce.test.expect." + name);
    }
}
