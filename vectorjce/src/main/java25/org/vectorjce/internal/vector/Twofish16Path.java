package org.vectorjce.internal.vector;

/**
 * Which batch code {@code twofish-vec512-16way} runs: the split rounds of {@link TwofishVec512},
 * which C1 compiles within milliseconds and C2 soon after, or the fused batch of
 * {@link TwofishVec512Fused}, about 1.3–1.5× as fast once C2 has compiled it but a few MB/s until
 * then: C1 refuses it, so it runs interpreted until C2's thresholds are reached (about 2,600
 * batches), and in a JVM whose compiler is busy with much other vector code C2 may take seconds
 * to compile it.
 *
 * <p>The provider's setting {@code twofish16.path} chooses at key set-up, and nothing else does:
 * {@code auto} (the default) and {@code split} run the split batch, {@code fused} the fused one,
 * compiled or not. A kernel's path is fixed when it is made; no call of any provider changes it.
 */
final class Twofish16Path {
    /** The ordinals of {@code Settings.TwofishBatch}. */
    static final int AUTO = 0, SPLIT = 1, FUSED = 2;

    private Twofish16Path() {
    }

    /** Whether a kernel created with {@code path} serves its batches from the fused code. */
    static boolean fused(int path) {
        return path == FUSED;
    }

    /** One line for {@code info} and {@code speed}: which batch code a kernel with {@code path} runs. */
    static String describe(int path) {
        return path == FUSED ? "fused (twofish16.path=fused: interpreted until C2 compiles it)"
                : path == SPLIT ? "split (twofish16.path=split)"
                : "split (twofish16.path=fused for the fused batch)";
    }
}
