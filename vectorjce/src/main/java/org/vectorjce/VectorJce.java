package org.vectorjce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.Kernels;

/**
 * Which kernel VectorJCE uses, for tools, tests and benchmarks.
 *
 * <p>Every block-cipher implementation is a named kernel with a priority; the best available one is
 * chosen at each key set-up ({@code Cipher.init}). The system properties {@code vectorjce.kernel.aes}
 * and {@code vectorjce.kernel.twofish} force one by name; they are read at every key set-up.
 */
public final class VectorJce {
    private VectorJce() {
    }

    /**
     * The system property that forces a kernel for {@code algorithm}.
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @return the property's name, {@code vectorjce.kernel.aes} or {@code vectorjce.kernel.twofish}
     */
    public static String kernelProperty(String algorithm) {
        return Kernels.propertyFor(algorithm);
    }

    /**
     * The kernel a key of {@code algorithm} gets if set up now (honouring the forcing property).
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @return the kernel's name, e.g. {@code twofish-vec512-16way}
     * @throws IllegalArgumentException if the property names an unknown or unavailable kernel
     */
    public static String kernelFor(String algorithm) {
        return Kernels.select(algorithm).name();
    }

    /**
     * The kernel a key of {@code algorithm} gets under the constant-time policy when
     * {@code constantTime} (the system property {@code vectorjce.constantTime=true} or a provider
     * configured with {@code constantTime=true}).
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @param constantTime whether the constant-time policy is on; {@code false} gives
     *     {@link #kernelFor(String)}
     * @return the kernel's name
     * @throws IllegalArgumentException if no constant-time kernel runs here (the message says why),
     *     or the forcing property names one that is not constant-time
     */
    public static String kernelFor(String algorithm, boolean constantTime) {
        return Kernels.select(algorithm, constantTime).name();
    }

    /**
     * Whether the system property {@code vectorjce.constantTime} turns the constant-time policy on.
     *
     * @return {@code true} when the property's value is {@code true}, ignoring case
     */
    public static boolean constantTimeByProperty() {
        return Kernels.constantTimeByProperty();
    }

    /**
     * Kernels of {@code algorithm} whose block function is constant-time and that run here (what
     * the constant-time policy admits), best first.
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @return the kernels' names; empty when none runs on this JVM
     */
    public static List<String> constantTimeKernels(String algorithm) {
        return Kernels.constantTimeNames(algorithm);
    }

    /**
     * Whether the kernel {@code name} of {@code algorithm} is one the constant-time policy admits,
     * whether or not it runs on this JVM.
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @param name a kernel name, e.g. {@code twofish-vec128-ct}
     * @return {@code true} for a registered constant-time kernel; {@code false} for any other name
     */
    public static boolean isConstantTime(String algorithm, String name) {
        for (KernelFactory f : Kernels.all(algorithm)) {
            if (f.name().equals(name)) {
                return f.constantTime();
            }
        }
        return false;
    }

    /**
     * Kernels of {@code algorithm} that can run on this JVM, best first.
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @return the kernels' names
     */
    public static List<String> availableKernels(String algorithm) {
        return Kernels.availableNames(algorithm);
    }

    /**
     * Every registered kernel of {@code algorithm}, best first, with {@code null} or the reason it
     * declines.
     *
     * @param algorithm {@code "AES"} or {@code "Twofish"}
     * @return kernel name to {@code null} (it runs on this JVM) or the reason it does not, in
     *     priority order
     */
    public static Map<String, String> kernelStatus(String algorithm) {
        Map<String, String> m = new LinkedHashMap<>();
        for (KernelFactory f : Kernels.all(algorithm)) {
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
        return Kernels.vectorModuleStatus();
    }
}
