package org.vectorjce.internal.registry;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.SystemProperties;

/**
 * One provider instance's configuration: every setting the provider has, immutable.
 *
 * <p>A provider gets its settings from {@code VectorJceProvider.configure(String)} (the argument of
 * a {@code java.security} line, {@code key=value} pairs separated by spaces or commas) on top of
 * {@link #DEFAULTS}. The defaults come from system properties, read through {@link SystemProperties}
 * once, when this class is initialised; changing a property later changes nothing. The table
 * of keys and properties is {@link #KEYS}, and {@code docs/kernels.md} prints it.
 *
 * <p>A bad system property does not fail class initialisation: {@link #problem} keeps the message,
 * and key set-up with these settings fails with it (an {@code InvalidKeyException} at
 * {@code Cipher.init}).
 */
public final class Settings {
    /** Which {@code BlockPasses} serves the modes' XOR, counter and tweak passes. */
    public enum Arithmetic {
        /** The vector arithmetic where it runs 512 bits wide (Java 25+ with the vector module), else the scalar one. */
        AUTO,
        /** The vector arithmetic; the scalar one where the vector one does not run. */
        VECTOR,
        /** Always the scalar arithmetic. */
        SCALAR
    }

    /** Which batch code {@code twofish-vec512-16way} runs (see {@code Twofish16Path}). */
    public enum TwofishBatch {
        /** The default: the split batch. */
        AUTO,
        /** Always the split batch. */
        SPLIT,
        /** Always the fused batch, even before C2 has compiled it (tests and benchmarks). */
        FUSED
    }

    /** A setting's key in {@code configure} and its system property. */
    public record Key(String key, String property, String values, String meaning) {
    }

    /** Every setting: its key, the system property that gives its default, its values, what it does. */
    public static final Key[] KEYS = {
        new Key("kernel.aes", "vectorjce.kernel.aes", "a kernel name, or empty for the best available",
                "the AES kernel every key of this provider gets"),
        new Key("kernel.twofish", "vectorjce.kernel.twofish", "a kernel name, or empty for the best available",
                "the Twofish kernel every key of this provider gets"),
        new Key("kernel.serpent", "vectorjce.kernel.serpent", "a kernel name, or empty for the best available",
                "the Serpent kernel every key of this provider gets"),
        new Key("constantTime", "vectorjce.constantTime", "true, false (default)",
                "the constant-time policy: only constant-time kernels, short calls padded"),
        new Key("arithmetic", "vectorjce.arithmetic", "auto (default), vector, scalar",
                "the modes' XOR, counter and tweak passes: auto is vector where it runs"),
        new Key("twofish16.path", "vectorjce.twofish16.path", "auto (default), split, fused",
                "twofish-vec512-16way's batch: auto is split"),
    };

    /** The built-in settings, ignoring system properties: best kernels, no policy, auto everywhere. */
    public static final Settings BUILT_IN = new Settings(null, null, null, false, Arithmetic.AUTO, TwofishBatch.AUTO,
            null);

    /** The settings from the system properties, read once; what {@code new VectorJceProvider()} has. */
    public static final Settings DEFAULTS = fromSystemProperties();

    private final String aesKernel, twofishKernel, serpentKernel;
    private final boolean constantTime;
    private final Arithmetic arithmetic;
    private final TwofishBatch twofishBatch;
    private final String problem;

    private Settings(String aesKernel, String twofishKernel, String serpentKernel, boolean constantTime,
            Arithmetic arithmetic, TwofishBatch twofishBatch, String problem) {
        this.aesKernel = aesKernel;
        this.twofishKernel = twofishKernel;
        this.serpentKernel = serpentKernel;
        this.constantTime = constantTime;
        this.arithmetic = arithmetic;
        this.twofishBatch = twofishBatch;
        this.problem = problem;
    }

    private static Settings fromSystemProperties() {
        return fromProperties(SystemProperties::get);
    }

    /** The settings from {@code properties} (a property's name to its value or null), as {@link #DEFAULTS}. */
    static Settings fromProperties(java.util.function.UnaryOperator<String> properties) {
        Settings s = BUILT_IN;
        StringBuilder problems = new StringBuilder();
        for (Key k : KEYS) {
            String v = properties.apply(k.property());
            if (v == null) {
                continue;
            }
            try {
                s = s.with(k.key(), v);
            } catch (IllegalArgumentException e) {
                problems.append(problems.length() == 0 ? "" : "; ").append("-D").append(k.property()).append(": ")
                        .append(e.getMessage());
            }
        }
        return problems.length() == 0 ? s : s.withProblem(problems.toString());
    }

    /**
     * These settings with {@code arg} applied: {@code key=value} pairs separated by spaces, commas or
     * semicolons; keys as in {@link #KEYS}, ignoring case. An empty value resets a kernel to the best
     * available. {@code null} or blank changes nothing.
     *
     * @throws IllegalArgumentException for an unknown key, a pair without {@code =}, or a bad value
     *     (the message names it and lists what is allowed)
     */
    public Settings apply(String arg) {
        if (arg == null || arg.isBlank()) {
            return this;
        }
        Settings s = this;
        for (String pair : arg.trim().split("[\\s,;]+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + pair + "' is not key=value; keys: " + keyNames());
            }
            s = s.with(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return s;
    }

    private Settings with(String key, String value) {
        String v = value.trim();
        switch (key.trim().toLowerCase(Locale.ROOT)) {
            case "kernel.aes":
                return new Settings(kernelName("AES", v), twofishKernel, serpentKernel, constantTime, arithmetic,
                        twofishBatch, problem);
            case "kernel.twofish":
                return new Settings(aesKernel, kernelName("Twofish", v), serpentKernel, constantTime, arithmetic,
                        twofishBatch, problem);
            case "kernel.serpent":
                return new Settings(aesKernel, twofishKernel, kernelName("Serpent", v), constantTime, arithmetic,
                        twofishBatch, problem);
            case "constanttime":
                return new Settings(aesKernel, twofishKernel, serpentKernel, bool("constantTime", v), arithmetic,
                        twofishBatch, problem);
            case "arithmetic":
                return new Settings(aesKernel, twofishKernel, serpentKernel, constantTime,
                        choice(Arithmetic.class, "arithmetic", v), twofishBatch, problem);
            case "twofish16.path":
                return new Settings(aesKernel, twofishKernel, serpentKernel, constantTime, arithmetic,
                        choice(TwofishBatch.class, "twofish16.path", v), problem);
            default:
                throw new IllegalArgumentException("unknown setting '" + key + "'; settings: " + keyNames());
        }
    }

    private Settings withProblem(String p) {
        return new Settings(aesKernel, twofishKernel, serpentKernel, constantTime, arithmetic, twofishBatch, p);
    }

    /** A kernel name as given, checked against the registry (unknown names fail here). */
    private static String kernelName(String algorithm, String v) {
        if (v.isEmpty() || v.equalsIgnoreCase("auto")) {
            return null;
        }
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            if (f.name().equals(v)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown " + algorithm + " kernel '" + v + "'; kernels: "
                + KernelRegistry.allNames(algorithm));
    }

    private static boolean bool(String key, String v) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false, not '" + v + "'");
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String key, String v) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(v)) {
                return e;
            }
        }
        StringBuilder b = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            b.append(b.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException(key + " must be one of " + b + ", not '" + v + "'");
    }

    private static String keyNames() {
        StringBuilder b = new StringBuilder();
        for (Key k : KEYS) {
            b.append(b.length() == 0 ? "" : ", ").append(k.key());
        }
        return b.toString();
    }

    /** The forced kernel name of {@code algorithm}, or null for the best available. */
    public String kernel(String algorithm) {
        return switch (algorithm) {
            case "AES" -> aesKernel;
            case "Twofish" -> twofishKernel;
            case "Serpent" -> serpentKernel;
            default -> null;
        };
    }

    public boolean constantTime() {
        return constantTime;
    }

    public Arithmetic arithmetic() {
        return arithmetic;
    }

    public TwofishBatch twofishBatch() {
        return twofishBatch;
    }

    /** Why these settings cannot key anything (a bad system property), or null. */
    public String problem() {
        return problem;
    }

    /** The settings as {@code key=value} pairs, in {@link #KEYS}' order (no secrets here). */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel.aes", aesKernel == null ? "" : aesKernel);
        m.put("kernel.twofish", twofishKernel == null ? "" : twofishKernel);
        m.put("kernel.serpent", serpentKernel == null ? "" : serpentKernel);
        m.put("constantTime", Boolean.toString(constantTime));
        m.put("arithmetic", arithmetic.name().toLowerCase(Locale.ROOT));
        m.put("twofish16.path", twofishBatch.name().toLowerCase(Locale.ROOT));
        return m;
    }

    /** The pairs that differ from {@link #BUILT_IN}, as {@code configure} takes them ("" for none). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        Map<String, String> base = BUILT_IN.asMap();
        for (Map.Entry<String, String> e : asMap().entrySet()) {
            if (!e.getValue().equals(base.get(e.getKey()))) {
                b.append(b.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(e.getValue());
            }
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Settings s && asMap().equals(s.asMap()) && java.util.Objects.equals(problem, s.problem);
    }

    @Override
    public int hashCode() {
        return asMap().hashCode();
    }
}
