package org.vectorjce.volumes;

import java.util.Locale;

/**
 * Which implementation of Argon2's compression function a derivation runs, chosen once before
 * its first block; a volume's builder takes it ({@code argon2Compression(...)}). {@link #AUTO}: the
 * vector one ({@code jdk.incubator.vector}) when this JVM has it and the work (memory x passes) is
 * large enough for it to pay for its compilation, else the scalar one; {@link #VECTOR}: the vector
 * one whenever this JVM has it; {@link #SCALAR}: always the scalar one. The tag is the same
 * whichever runs.
 */
public enum Argon2Compression {
    AUTO, VECTOR, SCALAR;

    /**
     * The default: the system property {@code vectorjce.argon2} ({@code auto}, {@code vector} or
     * {@code scalar}), read once, here and nowhere else; {@link #AUTO} when it is not set or names
     * none of them.
     */
    public static final Argon2Compression DEFAULT = fromProperty(System.getProperty("vectorjce.argon2"));

    private static Argon2Compression fromProperty(String v) {
        if (v == null) {
            return AUTO;
        }
        try {
            return valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return AUTO;
        }
    }
}
