package org.vectorjce.internal.kernel;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

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
        return CpuInfo.MODEL;
    }

    /**
     * Whether /proc/cpuinfo lists {@code flag} (e.g. {@code avx512vbmi}); false where unreadable.
     * The file is read once per JVM: kernel selection asks at every key set-up, and reading and
     * splitting it took ~35 µs a call (issue 11: Twofish-XTS per sector ran at 13 MB/s).
     */
    public static boolean cpuFlag(String flag) {
        return CpuInfo.FLAGS.contains(flag);
    }

    /** /proc/cpuinfo, read on first use (holder idiom: thread-safe, once). */
    private static final class CpuInfo {
        static final String MODEL;
        static final java.util.Set<String> FLAGS;

        static {
            String model = System.getProperty("os.arch");
            java.util.Set<String> flags = java.util.Set.of();
            try {
                boolean haveModel = false, haveFlags = false;
                for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                    if (!haveModel && l.startsWith("model name")) {
                        model = l.substring(l.indexOf(':') + 1).trim();
                        haveModel = true;
                    } else if (!haveFlags && l.startsWith("flags")) {
                        flags = new java.util.HashSet<>(java.util.Arrays.asList(l.substring(l.indexOf(':') + 1).trim().split("\\s+")));
                        haveFlags = true;
                    }
                    if (haveModel && haveFlags) {
                        break;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or unreadable
            }
            MODEL = model;
            FLAGS = flags;
        }
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
