package org.vectorjce.internal.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * The one class that reads the provider's system properties ({@code vectorjce.*}): all of them
 * once, when it is initialised; changing a property later changes nothing. The provider's
 * {@code Settings} take their defaults from here, and {@link Platform} its CPU-facts switch.
 */
public final class SystemProperties {
    /** The system property {@code ignore} makes {@code Platform} read no CPU facts from the OS. */
    public static final String CPU_FEATURES_PROPERTY = "vectorjce.cpuFeatures";

    /** Every {@code vectorjce.*} system property and its value, as they were at initialisation. */
    private static final Map<String, String> VALUES = read();

    /** Whether {@value #CPU_FEATURES_PROPERTY} is {@code ignore} (read once, with the defaults). */
    public static final boolean IGNORE_CPU_FEATURES = "ignore".equals(get(CPU_FEATURES_PROPERTY));

    private SystemProperties() {
    }

    private static Map<String, String> read() {
        Map<String, String> m = new HashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("vectorjce.")) {
                m.put(name, System.getProperty(name));
            }
        }
        return m;
    }

    /** The value the system property {@code name} (a {@code vectorjce.*} name) had, or null. */
    public static String get(String name) {
        return VALUES.get(name);
    }
}
