package org.vectorjce.internal.vector;

/**
 * Which batch code {@code twofish-vec512-16way} runs, per direction: the split rounds of
 * {@link TwofishVec512}, which C1 compiles within milliseconds and C2 soon after, or the fused
 * batch of {@link TwofishVec512Fused}, about 1.5× as fast once C2 has compiled it but a few MB/s
 * until then: C1 refuses it, so it runs interpreted until C2's thresholds are reached.
 *
 * <p>The provider's setting {@code twofish16.path} chooses at key set-up:
 * <ul>
 *   <li>{@code split} always runs the split batch;</li>
 *   <li>{@code fused} always runs the fused batch, compiled or not (tests and benchmarks);</li>
 *   <li>{@code auto}, the default, runs the split batch, and the fused one in a direction once
 *       {@link #warmUp} has run it often enough in this JVM for C2 to compile it. Nothing starts a
 *       warm-up but an explicit call of {@code VectorJce.warmUp()}, on the caller's thread: a
 *       program that encrypts for a long time may make it, the project's commands do.</li>
 * </ul>
 * The warm-up's only state is whether it has run, per direction; compiled code is shared by the
 * JVM, so one warm-up serves every kernel instance. It decides by counts, never by timing.
 */
final class Twofish16Path {
    /** The ordinals of {@code Settings.TwofishBatch}. */
    static final int AUTO = 0, SPLIT = 1, FUSED = 2;

    /**
     * One-batch fused calls per direction in a warm-up. HotSpot compiles a method that C1 refuses
     * once its interpreter counters of invocations plus loop back-edges pass about 15,000 (with at
     * least 600 invocations), and compiles a hot loop alone (OSR) first at about 40,000
     * back-edges. Short calls reach the first threshold long before the second, so C2 compiles
     * the method once, whole, after about 2,600 batches; twice that leaves a margin.
     */
    static final int WARM_UP_BATCHES = 6000;

    /** Whether {@link #warmUp} has run the fused batch of that direction. */
    private static volatile boolean encryptWarm, decryptWarm;

    private Twofish16Path() {
    }

    /** Whether a kernel created with {@code path} serves this direction from the fused batch now. */
    static boolean fused(int path, boolean encrypt) {
        return path == FUSED || (path == AUTO && (encrypt ? encryptWarm : decryptWarm));
    }

    /**
     * Runs the fused batch of both directions on a dummy key, {@link #WARM_UP_BATCHES} one-batch
     * calls each, checks its output against the split batch's, and then lets {@code auto} kernels
     * serve it. Returns what it did, for {@code info} and {@code speed}.
     */
    static synchronized String warmUp() {
        if (!encryptWarm) {
            encryptWarm = TwofishVec512.warmUpFused(true, WARM_UP_BATCHES);
        }
        if (!decryptWarm) {
            decryptWarm = TwofishVec512.warmUpFused(false, WARM_UP_BATCHES);
        }
        return describe(AUTO);
    }

    /** One line for {@code info} and {@code speed}: which batch code a kernel with {@code path} runs. */
    static String describe(int path) {
        if (path == FUSED) {
            return "fused (twofish16.path=fused: served at once, interpreted until C2 compiles it)";
        }
        if (path == SPLIT) {
            return "split (twofish16.path=split)";
        }
        boolean e = encryptWarm, d = decryptWarm;
        return e && d ? "fused (after VectorJce.warmUp())"
                : e ? "fused encryption, split decryption"
                : d ? "split encryption, fused decryption"
                : "split (the fused batch serves after VectorJce.warmUp())";
    }
}
