package org.vectorjce.internal.vector;

import java.util.ArrayList;
import java.util.List;
import org.vectorjce.internal.KernelFactory;

/**
 * Entry point loaded by name from {@code Kernels} when {@code jdk.incubator.vector} is present:
 * the Vector API kernel factories. Each factory's {@code unavailableReason()} decides whether it
 * runs here (width, compiler, CPU features).
 */
public final class VectorKernels {
    private VectorKernels() {
    }

    public static List<KernelFactory> factories() {
        List<KernelFactory> l = new ArrayList<>();
        l.add(AesVec512.FACTORY);
        l.add(AesVec256.FACTORY);
        // Twofish vector kernels:
        l.add(TwofishVec512.FACTORY);
        l.add(TwofishVec256.FACTORY);
        return l;
    }
}
