package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.Kernels;
import org.vectorjce.internal.kernel.Settings;

/**
 * Which {@link ModeArithmetic} serves a provider's modes, from its {@code arithmetic} setting and
 * this JVM's facts: the Vector API one where it runs (Java 25+ with {@code jdk.incubator.vector},
 * C2, vectors of 256 or 512 bits), else the scalar one. The choice is made when a mode is created
 * and never changes under it.
 *
 * <p>The vector arithmetic's class is loaded on the first mode that needs it, not before: an ECB
 * program or a command that never reaches a mode does not pay its class initialisation.
 */
public final class ModeArithmetics {
    private ModeArithmetics() {
    }

    /** The vector arithmetic, loaded on first need, or null where it does not run. */
    private static final class Loaded {
        static final ModeArithmetic VECTOR = load();
        static final String FAILURE = failure;
    }

    private static String failure;

    private static ModeArithmetic load() {
        String why = Kernels.vectorCodeUnavailable();
        if (why != null) {
            failure = why;
            return null;
        }
        try {
            Object v = Class.forName("org.vectorjce.internal.vector.VectorArithmetic").getMethod("create").invoke(null);
            if (v == null) {
                failure = "vectors of 256 to 512 bits with C2 are needed";
            }
            return (ModeArithmetic) v;
        } catch (ReflectiveOperationException | LinkageError e) {
            failure = "the vector arithmetic failed to load: " + e;
            return null;
        }
    }

    /** The arithmetic a mode gets under {@code setting}. */
    public static ModeArithmetic forSetting(Settings.Arithmetic setting) {
        if (setting == Settings.Arithmetic.SCALAR) {
            return ModeArithmetic.SCALAR;
        }
        ModeArithmetic v = Loaded.VECTOR;
        return v != null ? v : ModeArithmetic.SCALAR;
    }

    /** The arithmetic of the default setting, {@code auto} (what the tests compare with the scalar code). */
    public static ModeArithmetic selected() {
        return forSetting(Settings.Arithmetic.AUTO);
    }

    /** One line for {@code info} and {@code speed}: what serves under {@code setting}, and why. */
    public static String describe(Settings.Arithmetic setting) {
        if (setting == Settings.Arithmetic.SCALAR) {
            return "scalar (arithmetic=scalar)";
        }
        ModeArithmetic v = Loaded.VECTOR;
        return v != null ? v.name() : "scalar (" + Loaded.FAILURE + ")";
    }
}
