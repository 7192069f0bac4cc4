package org.vectorjce.tool;

import java.lang.reflect.Method;
import org.vectorjce.internal.kernel.Kernels;

/**
 * {@code twofish-vec512-16way}'s batch path (split or fused, see the vector package's
 * {@code Twofish16Path}) for {@code info} and {@code speed}. That class is compiled for Java 25
 * and loads only with {@code jdk.incubator.vector}, so it is reached by name, and only then.
 */
final class TwofishPath {
    static final String KERNEL = "twofish-vec512-16way";
    private static final String CLASS = "org.vectorjce.internal.vector.Twofish16Path";

    private TwofishPath() {
    }

    /** Whether the 16-way kernel runs on this JVM (so its path means something). */
    static boolean applies() {
        if (Kernels.vectorCodeUnavailable() != null) {
            return false;
        }
        try {
            return Kernels.byName("Twofish", KERNEL) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** One line: which batch code serves, since when or why not; null where the kernel does not run. */
    static String describe() {
        return applies() ? (String) call("describe") : null;
    }

    /** {@code fused}, {@code split}, per direction, or forced; null where the kernel does not run. */
    static String label() {
        return applies() ? (String) call("label") : null;
    }

    /** Waits up to {@code millis} for a running warm-up; returns whether none runs now. */
    static boolean awaitWarmUps(long millis) {
        if (!applies()) {
            return true;
        }
        return (Boolean) call("awaitWarmUps", millis);
    }

    private static Object call(String name, Object... args) {
        try {
            Class<?> c = Class.forName(CLASS);
            for (Method m : c.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                    return m.invoke(null, args);
                }
            }
            throw new NoSuchMethodException(name);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot reach " + CLASS + "." + name + ": " + e, e);
        }
    }
}
