package org.vectorjce.internal.vector;

import jdk.incubator.vector.IntVector;
import org.vectorjce.internal.kernel.Platform;

/**
 * Facts about the Vector API on this JVM, for kernel availability and {@code info}. This package is
 * the only one that imports {@code jdk.incubator.vector}; the rest of the provider reaches it by
 * class name, and only when the module is in the boot layer.
 */
public final class VectorSupport {
    private VectorSupport() {
    }

    /** {@code IntVector.SPECIES_PREFERRED} in bits: 512 here, 256 under {@code -XX:UseAVX=2}. */
    public static int preferredBits() {
        return IntVector.SPECIES_PREFERRED.vectorBitSize();
    }

    /**
     * Why a kernel needing {@code bits}-bit vectors (and, if {@code needsBytePermute}, single-
     * instruction two-table byte permutes, AVX-512 VBMI) cannot run here, or null when it can.
     * {@code SPECIES_PREFERRED} still reports 512 under {@code -Xint} or C1-only, where nothing is
     * accelerated, so the compiler is checked too.
     */
    public static String unavailableReason(int bits, boolean needsBytePermute) {
        String c2 = Platform.c2Unavailable();
        if (c2 != null) {
            return c2 + "; the Vector API is only fast under C2";
        }
        int preferred = preferredBits();
        if (preferred < bits) {
            return "preferred vector width is " + preferred + " bits, the kernel needs " + bits;
        }
        if (needsBytePermute && !Platform.cpuFlag("avx512vbmi")) {
            return "CPU lacks AVX-512 VBMI (single-instruction byte permutes)";
        }
        return null;
    }
}
