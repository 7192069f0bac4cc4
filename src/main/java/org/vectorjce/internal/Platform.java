package org.vectorjce.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Facts about the running JVM and CPU that kernel selection and {@code info} need, read without
 * touching {@code jdk.incubator.vector} classes.
 */
public final class Platform {
    private Platform() {
    }

    private static final String C2_STATUS = readC2Status();

    /**
     * {@code null} when C2 (the optimising JIT) compiles hot code, else why not. Without C2 the
     * Vector API is interpreted or C1-compiled and far slower than scalar code, so vector kernels
     * decline. Read from {@code java.vm.info} and the HotSpot flags where {@code jdk.management} is
     * present.
     */
    public static String c2Unavailable() {
        return C2_STATUS;
    }

    private static String readC2Status() {
        String info = System.getProperty("java.vm.info", "");
        if (info.contains("interpreted mode")) {
            return "the JVM runs interpreted (-Xint)";
        }
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs =
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (hs != null) {
                boolean tiered = Boolean.parseBoolean(hs.getVMOption("TieredCompilation").getValue());
                int stop = Integer.parseInt(hs.getVMOption("TieredStopAtLevel").getValue());
                if (tiered && stop < 4) {
                    return "C2 is off (-XX:TieredStopAtLevel=" + stop + ")";
                }
            }
        } catch (LinkageError | RuntimeException e) {
            // jdk.management absent or flags unreadable: trust java.vm.info alone.
        }
        if (info.contains("emulated-client")) {
            return "C2 is off (emulated client VM)";
        }
        return null;
    }

    /** A one-line description of the JIT for {@code info}. */
    public static String compilerDescription() {
        String why = c2Unavailable();
        return why == null ? "C2 in use" : why;
    }

    /** Value of a HotSpot flag, or null where it cannot be read. */
    public static String vmOption(String name) {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs =
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return hs == null ? null : hs.getVMOption(name).getValue();
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** The CPU model from {@code /proc/cpuinfo}, or {@code os.arch}. */
    public static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String l : lines) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    /** Whether /proc/cpuinfo lists {@code flag} (e.g. {@code avx512vbmi}); false where unreadable. */
    public static boolean cpuFlag(String flag) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (l.startsWith("flags")) {
                    for (String f : l.substring(l.indexOf(':') + 1).trim().split("\\s+")) {
                        if (f.equals(flag)) {
                            return true;
                        }
                    }
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable
        }
        return false;
    }

    /** Preferred vector width in bits, or 0 when the vector module is absent. */
    public static int preferredVectorBits() {
        if (!Kernels.vectorModulePresent()) {
            return 0;
        }
        try {
            Class<?> c = Class.forName("org.vectorjce.internal.vector.VectorSupport");
            return (int) c.getMethod("preferredBits").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            return 0;
        }
    }

    /** For {@code info}. */
    public static String vectorWidthDescription() {
        int bits = preferredVectorBits();
        return bits == 0 ? "n/a (vector module absent)" : bits + "-bit preferred species";
    }
}
