package org.vectorjce.internal.vector;

/**
 * Which batch code {@code twofish-vec512-16way} runs: the split rounds of {@link TwofishVec512},
 * which C1 compiles within milliseconds and C2 soon after, or the fused batch of
 * {@link TwofishVec512Fused}, about 1.3–1.5× as fast once C2 has compiled it but a few MB/s until
 * then: C1 refuses it, so it runs interpreted until C2's thresholds are reached (about 2,600
 * batches), and C2 then takes about 0.5 s to compile it.
 *
 * <p>The provider's setting {@code twofish16.path} chooses at key set-up: {@code split} and
 * {@code fused} force that code, compiled or not. {@code auto} (the default) is a switch by count,
 * per kernel and direction, that depends on nothing but the blocks that kernel has served:
 * <ol>
 *   <li>the split batch serves the first {@link #PROBE_AT} batches (256 MiB: 1.1–1.4 s from a
 *       fresh JVM's start) while the JVM compiles it, with no compile of the fused batch in C2's
 *       queue to delay that;</li>
 *   <li>from there it still serves, and each call also probes the fused batch: calls of it with no
 *       batch to do (and one batch in 1,024), which the interpreter runs in well under a
 *       microsecond, so HotSpot's counters reach C2's threshold within a few calls without the
 *       fused batch doing interpreted work;</li>
 *   <li>from {@link #HANDOVER_AT} batches on (1 GiB later: about 1.5 s at the split batch's speed,
 *       three times the compile's 0.5 s on an idle 2-core machine; 1,280 MiB served in all) the
 *       fused batch serves.</li>
 * </ol>
 * Both batches give the same bytes, so the switch changes only the speed. If C2 has not compiled
 * the fused batch by the hand-over (a JVM whose compiler is busy for seconds with other code), it
 * runs interpreted until C2 has it.
 */
final class Twofish16Path {
    /** The ordinals of {@code Settings.TwofishBatch}. */
    static final int AUTO = 0, SPLIT = 1, FUSED = 2;

    /** Batches (of 32 blocks) a kernel serves in a direction before it probes the fused batch. */
    static final int PROBE_AT = 1 << 19;
    /** Batches a kernel serves in a direction on the split batch before the fused one takes over. */
    static final int HANDOVER_AT = PROBE_AT + (1 << 21);
    /** Probes made {@code PROBE_BURST / 32} per call, before one per call. */
    static final int PROBE_BURST = 8192;

    private Twofish16Path() {
    }

    /** Whether a kernel created with {@code path} serves all its batches from the fused code. */
    static boolean fused(int path) {
        return path == FUSED;
    }

    /** One line for {@code info} and {@code speed}: which batch code a kernel with {@code path} runs. */
    static String describe(int path) {
        return path == FUSED ? "fused (twofish16.path=fused: interpreted until C2 compiles it)"
                : path == SPLIT ? "split (twofish16.path=split)"
                : "split, then fused once a cipher has served " + (HANDOVER_AT * 512L >> 20)
                        + " MiB in a direction (twofish16.path=split or fused forces one)";
    }
}
