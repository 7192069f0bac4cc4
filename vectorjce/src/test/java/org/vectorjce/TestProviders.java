package org.vectorjce;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The provider instances the tests make their ciphers from: one per forced kernel, configured
 * with {@code kernel.aes=NAME} or {@code kernel.twofish=NAME} on top of the landscape's defaults
 * (the surefire execution's {@code -Dvectorjce.*} properties), so no test changes a system
 * property. {@link #current} is what a test that forces a kernel for a while uses; it is one
 * value for the whole JVM (the suite runs its tests one at a time), so threads a test starts see
 * it too.
 */
public final class TestProviders {
    /** The provider with this JVM's defaults. */
    public static final VectorJceProvider BASE = new VectorJceProvider();

    private static final Map<String, VectorJceProvider> BY_KERNEL = new ConcurrentHashMap<>();
    private static volatile VectorJceProvider current = BASE;

    /**
     * {@code -Dvectorjce.test.kernels=vector}: the tests that run every kernel run only the Vector
     * API ones. The pom's AVX2 execution sets it: there only those kernels' machine code differs
     * from default-test's (C2 compiles their vector operations for the narrower ISA); the scalar
     * kernels' bytecode and results are the same, and they run forced in default-test, in the
     * no-vector-module execution and on JDK 17 (it-jdk17).
     */
    private static final boolean VECTOR_KERNELS_ONLY = "vector".equals(System.getProperty("vectorjce.test.kernels"));

    private TestProviders() {
    }

    /**
     * The kernels of {@code algorithm} that the tests which run every kernel force in this JVM:
     * every kernel that can run here ({@code KernelRegistry.availableNames}, best first), or only
     * the vector ones under {@code -Dvectorjce.test.kernels=vector}. Fails when none is left.
     */
    public static List<String> kernelsToTest(String algorithm) {
        List<String> all = org.vectorjce.internal.registry.KernelRegistry.availableNames(algorithm);
        List<String> k = VECTOR_KERNELS_ONLY ? all.stream().filter(n -> n.contains("-vec")).toList() : all;
        if (k.isEmpty()) {
            throw new AssertionError("no " + (VECTOR_KERNELS_ONLY ? "vector " : "") + algorithm
                    + " kernel available here (all: " + all + ")");
        }
        return k;
    }

    /** The one-block scalar reference kernel of {@code algorithm}, which runs on every JVM. */
    public static String scalarKernel(String algorithm) {
        return switch (algorithm) {
            case "AES" -> "aes-table";
            case "Twofish" -> "twofish-table";
            case "Serpent" -> "serpent-bitslice";
            default -> throw new IllegalArgumentException(algorithm);
        };
    }

    /** The provider a test's ciphers come from now: {@link #BASE}, or one with a forced kernel. */
    public static VectorJceProvider current() {
        return current;
    }

    /** The provider (made once) whose {@code algorithm} keys get {@code kernel}, on top of {@link #BASE}. */
    public static VectorJceProvider withKernel(String algorithm, String kernel) {
        return BY_KERNEL.computeIfAbsent(algorithm + "=" + kernel,
                k -> (VectorJceProvider) BASE.configure("kernel." + algorithm.toLowerCase(Locale.ROOT) + "=" + kernel));
    }

    /** Makes {@link #current} the provider of {@code kernel} until {@link #reset}. */
    public static void force(String algorithm, String kernel) {
        current = withKernel(algorithm, kernel);
    }

    /** Makes {@link #current} {@link #BASE} again. */
    public static void reset() {
        current = BASE;
    }

    /** Runs {@code body} with {@link #current} forced to {@code kernel}, then restores it. */
    public static <T> T withKernel(String algorithm, String kernel, Supplier<T> body) {
        VectorJceProvider previous = current;
        current = withKernel(algorithm, kernel);
        try {
            return body.get();
        } finally {
            current = previous;
        }
    }

    /** The internal settings of {@code p}, rebuilt from its public {@code settings()}. */
    public static org.vectorjce.internal.registry.Settings settingsOf(VectorJceProvider p) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : p.settings().entrySet()) {
            b.append(e.getKey()).append('=').append(e.getValue()).append(' ');
        }
        return org.vectorjce.internal.registry.Settings.BUILT_IN.apply(b.toString());
    }

    /** A {@link Runnable} that may throw. */
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** {@link #withKernel(String, String, Supplier)} for a body that may throw. */
    public static void run(String algorithm, String kernel, ThrowingRunnable body) throws Exception {
        VectorJceProvider previous = current;
        current = withKernel(algorithm, kernel);
        try {
            body.run();
        } finally {
            current = previous;
        }
    }
}
