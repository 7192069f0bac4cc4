package org.vectorjce.internal.kernel;

/**
 * The one class that reads the provider's system properties ({@code vectorjce.*}), each once: the
 * provider's {@code Settings} take their defaults through {@link #get} when they are initialised,
 * and {@link Platform} its CPU-facts switch from {@link #IGNORE_CPU_FEATURES}, read when this class
 * is initialised; changing a property later changes nothing.
 */
public final class SystemProperties {
    /** The system property {@code ignore} makes {@code Platform} read no CPU facts from the OS. */
    public static final String CPU_FEATURES_PROPERTY = "vectorjce.cpuFeatures";

    /** Whether {@value #CPU_FEATURES_PROPERTY} is {@code ignore} (read once, with the defaults). */
    public static final boolean IGNORE_CPU_FEATURES = "ignore".equals(get(CPU_FEATURES_PROPERTY));

    private SystemProperties() {
    }

    /** The system property {@code name} (a {@code vectorjce.*} name), or null. */
    public static String get(String name) {
        return System.getProperty(name);
    }
}
