package org.vectorjce.internal.vector;

import org.vectorjce.internal.kernel.BlockKernel;

/**
 * The vector kernels by name, reached through {@link VectorEntry} from the base's
 * {@code VectorBridge}, and only when {@code jdk.incubator.vector} is in the boot layer. The registry
 * there holds each kernel's name and priority; this class answers, per name, whether the kernel can
 * run here (width, compiler, CPU features) and builds it. A kernel's class is loaded only when it is
 * first asked about (verifying this class loads the kernel classes {@link #create} returns, so only
 * a kernel query reaches it).
 */
public final class VectorKernels {
    private VectorKernels() {
    }

    /** Why the kernel {@code name} cannot run here, or null when it can. */
    public static String unavailableReason(String name) {
        return switch (name) {
            case AesVec512.NAME, TwofishVec512.NAME -> VectorSupport.unavailableReason(512, true);
            case AesVec256.NAME, TwofishVec256.NAME -> VectorSupport.unavailableReason(256, false);
            // Serpent needs only lanewise int logic, shifts and rotations: any width the JVM prefers.
            case SerpentVec512.NAME -> VectorSupport.unavailableReason(512, false);
            case SerpentVec256.NAME -> VectorSupport.unavailableReason(256, false);
            case SerpentVec128.NAME -> serpent128Unavailable();
            case TwofishVec128.NAME -> VectorSupport.byteShuffle128Unavailable();
            default -> "no vector kernel is named '" + name + "'";
        };
    }

    /**
     * {@code serpent-vec128-8way} also needs AVX: without it ({@code -XX:UseAVX=0}) C2 leaves the
     * kernel's lanewise int shifts and rotations by a constant uncompiled (their intrinsic fails),
     * so it would run on boxed vectors, far slower than {@code serpent-bitslice}.
     */
    private static String serpent128Unavailable() {
        String why = VectorSupport.unavailableReason(128, false);
        if (why == null && "0".equals(org.vectorjce.internal.kernel.Platform.vmOption("UseAVX"))) {
            why = "the JVM runs without AVX (-XX:UseAVX=0), where C2 does not compile this kernel's vector"
                    + " shifts and rotations; serpent-bitslice is faster there";
        }
        return why;
    }

    /**
     * A new kernel {@code name} keyed with {@code key} (16, 24 or 32 bytes; the caller wipes it);
     * {@code padShortCalls} for the constant-time policy (the Twofish batch kernels then run every
     * short call and tail as a padded vector batch; the AES kernels always do; the Serpent kernels
     * need not, their tail code is constant-time too); {@code batch} the
     * ordinal of the provider's {@code Settings.TwofishBatch} ({@code twofish-vec512-16way} only).
     */
    public static BlockKernel create(String name, byte[] key, boolean padShortCalls, int batch) {
        return switch (name) {
            case AesVec512.NAME -> new AesVec512(key);
            case AesVec256.NAME -> new AesVec256(key);
            case TwofishVec512.NAME -> new TwofishVec512(key, padShortCalls, batch);
            case TwofishVec256.NAME -> new TwofishVec256(key);
            case TwofishVec128.NAME -> new TwofishVec128(key, padShortCalls);
            case SerpentVec512.NAME -> new SerpentVec512(key);
            case SerpentVec256.NAME -> new SerpentVec256(key);
            case SerpentVec128.NAME -> new SerpentVec128(key);
            default -> throw new IllegalArgumentException("no vector kernel is named '" + name + "'");
        };
    }

    /**
     * {@code twofish-vec512-16way} on the default path with other counts than the provider's
     * (batches per direction before it probes the fused batch, and before that batch serves), so
     * that a test can cross the hand-over in a few batches. Built whether or not the kernel runs
     * here (elsewhere its vector code runs in the Vector API's Java code).
     */
    public static BlockKernel twofish16Auto(byte[] key, int probeAt, int handoverAt) {
        return new TwofishVec512(key, false, Twofish16Path.AUTO, probeAt, handoverAt);
    }

    /** Which batch {@code twofish-vec512-16way} serves with {@code batch} (a {@code Settings.TwofishBatch} ordinal). */
    public static String twofishBatch(int batch) {
        return Twofish16Path.describe(batch);
    }
}
