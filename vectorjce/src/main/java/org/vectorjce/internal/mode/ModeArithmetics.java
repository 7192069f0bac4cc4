package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.Kernels;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Chooses the {@link ModeArithmetic} once: the Vector API one when the module is present and it
 * accepts this JVM, else the scalar one. {@code -Dvectorjce.arithmetic=scalar} forces the scalar
 * code (for tests and benchmarks).
 */
public final class ModeArithmetics {
    private ModeArithmetics() {
    }

    private static final ModeArithmetic SELECTED = choose();

    private static ModeArithmetic choose() {
        if ("scalar".equals(System.getProperty("vectorjce.arithmetic")) || Kernels.vectorCodeUnavailable() != null) {
            return ModeArithmetic.SCALAR;
        }
        try {
            Object v = Class.forName("org.vectorjce.internal.vector.VectorArithmetic").getMethod("create").invoke(null);
            if (v != null) {
                return (ModeArithmetic) v;
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            Logger.getLogger("org.vectorjce").log(Level.CONFIG, "VectorJCE: vector mode arithmetic not loaded", e);
        }
        return ModeArithmetic.SCALAR;
    }

    /** The implementation every mode uses. */
    public static ModeArithmetic selected() {
        return SELECTED;
    }
}
