package org.vectorjce.internal.vector;

import org.vectorjce.internal.kernel.BlockKernel;

/**
 * The vector package's one entry class: the base's {@code VectorBridge} finds it by name, once,
 * and only when {@code jdk.incubator.vector} is in the boot layer, and calls the vector code
 * through these methods alone. Each only forwards, with the callee's own types, so that loading and
 * verifying this class loads no other class: the kernels' classes ({@link VectorKernels}), the
 * species facts ({@link VectorSupport}) and the mode arithmetic ({@link VectorBlockPasses}) load
 * when first called, as before.
 */
public final class VectorEntry {
    private VectorEntry() {
    }

    /** {@link VectorKernels#unavailableReason}. */
    public static String unavailableReason(String name) {
        return VectorKernels.unavailableReason(name);
    }

    /** {@link VectorKernels#create}. */
    public static BlockKernel create(String name, byte[] key, boolean padShortCalls, int batch) {
        return VectorKernels.create(name, key, padShortCalls, batch);
    }

    /** {@link VectorKernels#twofishBatch}. */
    public static String twofishBatch(int batch) {
        return VectorKernels.twofishBatch(batch);
    }

    /** {@link VectorSupport#preferredBits}. */
    public static int preferredBits() {
        return VectorSupport.preferredBits();
    }

    /** {@link VectorSupport#bytePermuteSource}. */
    public static String bytePermuteSource() {
        return VectorSupport.bytePermuteSource();
    }

    /**
     * {@link VectorBlockPasses#create}: the vector mode arithmetic, or null where it does not run;
     * typed {@code Object} because the bridge sits below the modes' package.
     */
    public static Object blockPasses() {
        return VectorBlockPasses.create();
    }
}
