package org.vectorjce.tool;

/**
 * {@code leakcheck}'s view of the JIT and the garbage collector, reported next to each cell's
 * verdict: the JIT's total compilation time and the GC count, from java.management's MXBeans, where
 * that module is in the boot layer (it is not in a minimal jlink image); -1 otherwise. The
 * management types are touched only in {@link Mx}, loaded only when the module is present.
 */
final class JitMonitor {
    private static final boolean PRESENT = probe();

    private JitMonitor() {
    }

    private static boolean probe() {
        try {
            return ModuleLayer.boot().findModule("java.management").isPresent() && Mx.compileMillis() >= 0;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    static String description() {
        return PRESENT ? "java.lang.management CompilationMXBean.getTotalCompilationTime (ms) and GC counts"
                : "none (java.management absent or compilation time unsupported): JIT activity during sampling"
                        + " is not reported";
    }

    static long compileMillis() {
        return PRESENT ? Mx.compileMillis() : -1;
    }

    static long gcCount() {
        return PRESENT ? Mx.gcCount() : 0;
    }

    /** The java.management calls. */
    static final class Mx {
        static long compileMillis() {
            java.lang.management.CompilationMXBean c = java.lang.management.ManagementFactory.getCompilationMXBean();
            if (c == null || !c.isCompilationTimeMonitoringSupported()) {
                return -1;
            }
            return c.getTotalCompilationTime();
        }

        static long gcCount() {
            long n = 0;
            for (java.lang.management.GarbageCollectorMXBean g
                    : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                n += Math.max(0, g.getCollectionCount());
            }
            return n;
        }
    }
}
