package org.vectorjce.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kernel registry: every block-cipher implementation with its name and priority.
 *
 * <p>Selection happens once per key set-up: the available kernel of highest priority wins, unless
 * the system property {@code vectorjce.kernel.aes} / {@code vectorjce.kernel.twofish} names one;
 * an unknown or unavailable forced name fails key set-up with a message listing what is available.
 * The property is read at every key set-up, so tests and benchmarks can switch kernels at run time.
 *
 * <p>Vector API kernels live in {@code org.vectorjce.internal.vector}, the only package that imports
 * {@code jdk.incubator.vector}. Their factories are loaded by class name, and only when that module
 * is in the boot layer, so the provider never meets a {@code NoClassDefFoundError} without it.
 */
public final class Kernels {
    private static final Logger LOG = Logger.getLogger("org.vectorjce");

    /** System property prefix; the algorithm's lower-case name follows. */
    public static final String PROPERTY_PREFIX = "vectorjce.kernel.";

    /** Factories loaded reflectively when the vector module is present. */
    private static final String[] VECTOR_FACTORIES = {
        "org.vectorjce.internal.vector.VectorKernels",
    };

    private static final Map<String, List<KernelFactory>> BY_ALGORITHM;
    private static final String VECTOR_MODULE_STATUS;

    static {
        List<KernelFactory> all = new ArrayList<>();
        all.add(AesTable.FACTORY);
        all.add(TwofishTable.FACTORY);
        all.add(TwofishTable.FACTORY_2WAY);
        all.addAll(JdkAesKernel.factories());
        String status;
        if (vectorModulePresent()) {
            status = "present";
            for (String cn : VECTOR_FACTORIES) {
                try {
                    Class<?> c = Class.forName(cn);
                    @SuppressWarnings("unchecked")
                    List<KernelFactory> fs = (List<KernelFactory>) c.getMethod("factories").invoke(null);
                    all.addAll(fs);
                } catch (ReflectiveOperationException | LinkageError e) {
                    status = "present, but its kernels failed to load: " + e;
                    LOG.log(Level.CONFIG, "VectorJCE: vector kernels not loaded", e);
                }
            }
        } else {
            status = "absent (run with --add-modules jdk.incubator.vector)";
        }
        VECTOR_MODULE_STATUS = status;
        Map<String, List<KernelFactory>> m = new LinkedHashMap<>();
        for (KernelFactory f : all) {
            m.computeIfAbsent(f.algorithm(), k -> new ArrayList<>()).add(f);
        }
        for (List<KernelFactory> l : m.values()) {
            l.sort(Comparator.comparingInt(KernelFactory::priority).reversed());
        }
        m.replaceAll((k, v) -> Collections.unmodifiableList(v));
        BY_ALGORITHM = Collections.unmodifiableMap(m);
        if (LOG.isLoggable(Level.CONFIG)) {
            // One line for the whole choice, with the reason of every kernel that declined.
            StringBuilder b = new StringBuilder("VectorJCE kernels (vector module ").append(status).append(')');
            for (Map.Entry<String, List<KernelFactory>> e : m.entrySet()) {
                b.append("; ").append(e.getKey()).append(':');
                for (KernelFactory f : e.getValue()) {
                    String why = f.unavailableReason();
                    b.append(' ').append(f.name()).append(why == null ? " [available]" : " [declined: " + why + "]");
                }
            }
            LOG.config(b.toString());
        }
    }

    private Kernels() {
    }

    /** Whether {@code jdk.incubator.vector} is in the boot layer (without touching its classes). */
    public static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** A line for {@code info}: whether the vector module is present and its kernels loaded. */
    public static String vectorModuleStatus() {
        return VECTOR_MODULE_STATUS;
    }

    /** All registered factories of an algorithm, highest priority first (available or not). */
    public static List<KernelFactory> all(String algorithm) {
        return BY_ALGORITHM.getOrDefault(algorithm, List.of());
    }

    /** Names of the kernels of an algorithm that can run here, highest priority first. */
    public static List<String> availableNames(String algorithm) {
        List<String> names = new ArrayList<>();
        for (KernelFactory f : all(algorithm)) {
            if (f.unavailableReason() == null) {
                names.add(f.name());
            }
        }
        return names;
    }

    /** The property that forces a kernel for {@code algorithm}, e.g. {@code vectorjce.kernel.aes}. */
    public static String propertyFor(String algorithm) {
        // Read at every init: constant strings for ours, so no name is built and hashed per call
        // (that and the key comparison were a third of a 270 ns XTS re-init).
        return switch (algorithm) {
            case "AES" -> AES_PROPERTY;
            case "Twofish" -> TWOFISH_PROPERTY;
            default -> PROPERTY_PREFIX + algorithm.toLowerCase(Locale.ROOT);
        };
    }

    private static final String AES_PROPERTY = PROPERTY_PREFIX + "aes";
    private static final String TWOFISH_PROPERTY = PROPERTY_PREFIX + "twofish";

    /**
     * The factory key set-up uses now for {@code algorithm}: the forced one, or the available one of
     * highest priority.
     *
     * @throws IllegalArgumentException when a forced name is unknown or unavailable (the message
     *     lists the available names)
     */
    public static KernelFactory select(String algorithm) {
        String forced = System.getProperty(propertyFor(algorithm));
        if (forced != null && !forced.isBlank()) {
            return byName(algorithm, forced.trim());
        }
        for (KernelFactory f : all(algorithm)) {
            if (f.unavailableReason() == null) {
                return f;
            }
        }
        throw new IllegalStateException("no " + algorithm + " kernel available");
    }

    /**
     * The factory named {@code name}, if it is registered for {@code algorithm} and can run here.
     *
     * @throws IllegalArgumentException otherwise, listing the available names
     */
    public static KernelFactory byName(String algorithm, String name) {
        for (KernelFactory f : all(algorithm)) {
            if (f.name().equals(name)) {
                String why = f.unavailableReason();
                if (why != null) {
                    throw new IllegalArgumentException(algorithm + " kernel '" + name
                            + "' is not available here (" + why + "); available: "
                            + availableNames(algorithm));
                }
                return f;
            }
        }
        throw new IllegalArgumentException("unknown " + algorithm + " kernel '" + name
                + "'; available: " + availableNames(algorithm));
    }
}
