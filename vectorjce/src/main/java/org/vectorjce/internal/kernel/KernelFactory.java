package org.vectorjce.internal.kernel;

/**
 * One registered implementation of a block cipher: a name, a priority and a way to key it. Like
 * the Linux crypto API's {@code cra_priority}, the available factory with the highest priority is
 * chosen once at key set-up; a system property can force one by name (see {@code org.vectorjce.internal.registry.Kernels}).
 */
public interface KernelFactory {
    /** Registry name, e.g. {@code aes-table}, {@code twofish-vec256-8way}. */
    String name();

    /** {@code "AES"}, {@code "Twofish"} or {@code "Serpent"}. */
    String algorithm();

    /** Higher wins; the scalar kernels are 100. */
    int priority();

    /**
     * {@code null} when this kernel can run here, else a short human-readable reason why it
     * declines (shown by {@code info} and in the error when it is forced).
     */
    String unavailableReason();

    /**
     * Builds the key schedule. {@code key} has a length the algorithm accepts (16, 24 or 32 bytes);
     * the caller owns and wipes it.
     */
    BlockKernel create(byte[] key);

    /**
     * Whether the kernel's block function makes no secret-indexed memory access and no
     * secret-dependent branch, once C2 has compiled it, when created for the constant-time policy
     * (short calls then padded into a vector batch instead of going to a table fallback). Key
     * set-up is not covered: see docs/constant-time.md.
     */
    default boolean constantTime() {
        return false;
    }

    /**
     * Whether this factory is the constant-time policy's view of a kernel: its kernels pad every
     * short call, and every key of a mode (XTS's tweak key too) gets this kernel.
     */
    default boolean underConstantTimePolicy() {
        return false;
    }

}
