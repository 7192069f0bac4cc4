package org.vectorjce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.Platform;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;
import org.vectorjce.internal.registry.Kernels;

/**
 * What VectorJCE can run on this JVM, for tools, tests and benchmarks.
 *
 * <p>Every block-cipher implementation is a named kernel with a priority; which kernels run here
 * is a fact of the JVM and the CPU, decided once. Which one a key gets is its provider's setting
 * ({@link VectorJceProvider#configure}, {@link VectorJceProvider#kernelFor}).
 */
public final class VectorJce {
    private VectorJce() {
    }

    /**
     * Kernels of {@code algorithm} whose block function is constant-time and that run here (what
     * the constant-time policy admits), best first.
     *
     * @param algorithm {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}
     * @return the kernels' names; empty when none runs on this JVM
     */
    public static List<String> constantTimeKernels(String algorithm) {
        return Kernels.constantTimeNames(algorithm);
    }

    /**
     * Whether the kernel {@code name} of {@code algorithm} is one the constant-time policy admits,
     * whether or not it runs on this JVM.
     *
     * @param algorithm {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}
     * @param name a kernel name, e.g. {@code twofish-vec128-ct}
     * @return {@code true} for a registered constant-time kernel; {@code false} for any other name
     */
    public static boolean isConstantTime(String algorithm, String name) {
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            if (f.name().equals(name)) {
                return f.constantTime();
            }
        }
        return false;
    }

    /**
     * Kernels of {@code algorithm} that can run on this JVM, best first.
     *
     * @param algorithm {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}
     * @return the kernels' names
     */
    public static List<String> availableKernels(String algorithm) {
        return KernelRegistry.availableNames(algorithm);
    }

    /**
     * Every registered kernel of {@code algorithm}, best first, with {@code null} or the reason it
     * declines.
     *
     * @param algorithm {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}
     * @return kernel name to {@code null} (it runs on this JVM) or the reason it does not, in
     *     priority order
     */
    public static Map<String, String> kernelStatus(String algorithm) {
        Map<String, String> m = new LinkedHashMap<>();
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            m.put(f.name(), f.unavailableReason());
        }
        return m;
    }

    /**
     * Whether {@code jdk.incubator.vector} is in this JVM's boot layer, and if its kernels loaded.
     *
     * @return {@code "present"} when the vector kernels can be used, else {@code "absent: "},
     *     {@code "present, not used: "} or {@code "present, but its kernels failed to load: "}
     *     followed by the reason
     */
    public static String vectorModuleStatus() {
        return VectorBridge.vectorModuleStatus();
    }

    /**
     * The facts of this JVM and CPU that decide which kernels run, one line each, as
     * {@code vectorjce info} and {@code speed} print them: {@code cpu} (the model),
     * {@code vector width} (the preferred species, or why there is none), {@code cpu features}
     * (where they were read, and how byte permutes were judged) and {@code jit} (C2 in use, or why
     * not).
     *
     * @return those four keys to their descriptions, in that order
     */
    public static Map<String, String> platformFacts() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", Platform.cpuModel());
        m.put("vector width", Platform.vectorWidthDescription());
        m.put("cpu features", Platform.cpuFactsDescription());
        m.put("jit", Platform.compilerDescription());
        return m;
    }
}
