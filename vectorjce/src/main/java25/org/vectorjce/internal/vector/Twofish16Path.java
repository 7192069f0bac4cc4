package org.vectorjce.internal.vector;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.vectorjce.internal.kernel.WarmUpSwitch;

/**
 * Which batch code {@code twofish-vec512-16way} runs, per direction: the split rounds of
 * {@link TwofishVec512}, which C1 compiles within milliseconds and C2 soon after, or the fused
 * batch of {@link TwofishVec512Fused}, faster once C2 has it but a few MB/s until then (C1 refuses
 * it, so it runs interpreted for a while).
 *
 * <p>Real calls stay on the split code until the fused code has been seen compiled and fast; then
 * a volatile flag flips for every kernel instance in the JVM (compiled code is shared, so one
 * warm-up serves them all). Encryption and decryption are two methods that C2 compiles apart, so
 * each direction has its own gate, warm-up and flag ({@link #ENCRYPT}, {@link #DECRYPT}): a
 * program that only encrypts never pays for warming up decryption. A warm-up:
 * <ol>
 *   <li>starts only after {@link #GATE_BATCHES} split batches of its direction (1 GiB) have gone
 *       through the kernels of this JVM, so a short command or an image of a few hundred MB never
 *       pays a core for it. The gate is that high because the warm-up costs the caller's thread
 *       while it runs (on 2 cores the warm-up thread and C2 compete with it): measured, a
 *       1 GiB Twofish-CTR run whose warm-up started at 256 MiB took 10 % longer than on the split
 *       code alone (bench/results/2026-12-01-1010-twofish16-gate.txt);</li>
 *   <li>runs on a daemon thread with its own dummy key and buffers: the best of a few split 8 KiB
 *       calls as the reference (and of one more per step), then per step {@link #PRIME_CALLS}
 *       one-batch fused calls and one timed 8 KiB fused call;</li>
 *   <li>flips the flag once {@link #CONSECUTIVE} consecutive timed calls were at least
 *       {@link #MIN_RATIO} times as fast as the split reference (or above
 *       {@link #FLOOR_BYTES_PER_SECOND}) and the fused output equals the split one;</li>
 *   <li>gives up after {@link #TIMEOUT_NANOS}: the JIT never compiled the fused code with C2.
 *       {@code -Xint} and C1-only JVMs never get this kernel at all, but a lowered C2 size limit or
 *       another JDK's limits may leave it slow. The direction stays split, the thread ends, and
 *       {@link #describe} says why.</li>
 * </ol>
 * {@value #PROPERTY} ({@code auto}, the default, {@code fused} or {@code split}; read at each key
 * set-up) forces either path for tests and benchmarks; a forced {@code fused} serves at once, even
 * interpreted.
 *
 * <p>The switching logic is {@link WarmUpSwitch}'s; it takes its clock, its timings and its
 * thread starter as parameters, so tests drive it with fake ones.
 */
public final class Twofish16Path {
    /** The system property that forces a path. */
    public static final String PROPERTY = "vectorjce.twofish16.path";

    static final int AUTO = 0, FUSED = 1, SPLIT = 2;

    /**
     * Split batches (of 512 bytes) of one direction before its warm-up starts: 1 GiB, or
     * {@value #GATE_PROPERTY} MiB (for benchmarks of the trade-off).
     */
    static final long GATE_BATCHES = Long.getLong(Twofish16Path.GATE_PROPERTY, 1024) * (1L << 20) / 512;
    static final String GATE_PROPERTY = "vectorjce.twofish16.warmupAfterMiB";
    /** Warm-up time after which the fused path is given up. */
    static final long TIMEOUT_NANOS = 20_000_000_000L;
    /** Consecutive fast timed fused calls that qualify it. */
    static final int CONSECUTIVE = 5;
    /** A timed fused call qualifies at this multiple of the split reference's speed ... */
    static final double MIN_RATIO = 1.15;
    /** ... or above this many bytes per second (compiled fused code; interpreted it is far below). */
    static final double FLOOR_BYTES_PER_SECOND = 1.0e9;
    /** Split calls timed for the reference (the best counts). */
    static final int SPLIT_REFERENCE_CALLS = 8;
    /** Bytes per timed warm-up call. */
    static final int CALL_BYTES = 8192;
    /**
     * One-batch fused calls per step besides the timed one. HotSpot compiles a method that C1
     * refuses once its interpreter counters of invocations plus loop back-edges pass ~15,000 (with
     * at least 600 invocations), and compiles the loop alone (OSR) first at 40,000 back-edges. An
     * 8 KiB call is one invocation and 80 back-edges, so 8 KiB calls alone reach the OSR threshold
     * first and C2 compiles the method twice, after ~9,600 interpreted batches; with these short
     * calls in between it compiles once, after ~2,600 (warm-up 2.5-3.3 s down to 0.8-1.2 s here).
     */
    static final int PRIME_CALLS = 32;

    /** The timed calls of a warm-up, in one direction. */
    public interface Probe {
        /** One split 8 KiB call; its time in ns. */
        long split();

        /** One fused 8 KiB call; its time in ns. */
        long fused();

        /** {@code calls} untimed fused calls of one batch each. */
        void prime(int calls);

        /** Whether the fused output of the dummy data equals the split output. */
        boolean fusedEqualsSplit();
    }

    /** The JVM's instances, used by every {@code twofish-vec512-16way} kernel. */
    static final Twofish16Path ENCRYPT = new Twofish16Path("encryption", System::nanoTime, GATE_BATCHES,
            TIMEOUT_NANOS, () -> TwofishVec512.warmUpProbe(true), Twofish16Path::daemon);
    static final Twofish16Path DECRYPT = new Twofish16Path("decryption", System::nanoTime, GATE_BATCHES,
            TIMEOUT_NANOS, () -> TwofishVec512.warmUpProbe(false), Twofish16Path::daemon);

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "vectorjce-twofish16-warmup");
        t.setDaemon(true);
        t.start();
    }

    /** Whether the fused code serves this direction's calls in auto mode. */
    volatile boolean fused;

    private final String direction;
    private final long gateBatches;
    /** Gives the warm-up's probe (read when the warm-up starts). */
    private Supplier<Probe> probes;
    private final WarmUpSwitch warmUp;

    Twofish16Path(String direction, LongSupplier clock, long gateBatches, long timeoutNanos, Supplier<Probe> probes,
            Consumer<Runnable> starter) {
        this.direction = direction;
        this.gateBatches = gateBatches;
        this.probes = probes;
        this.warmUp = new WarmUpSwitch(new WarmUpSwitch.Rules(gateBatches * 512, timeoutNanos, CONSECUTIVE, MIN_RATIO,
                FLOOR_BYTES_PER_SECOND, CALL_BYTES, SPLIT_REFERENCE_CALLS, PRIME_CALLS), clock, this::probe, starter,
                () -> fused = true);
    }

    /** The probe as the switch times it: the split code is the reference, the fused one the candidate. */
    private WarmUpSwitch.Probe probe() {
        Probe p = probes.get();
        return new WarmUpSwitch.Probe() {
            @Override
            public long reference() {
                return p.split();
            }

            @Override
            public long candidate() {
                return p.fused();
            }

            @Override
            public void prime(int calls) {
                p.prime(calls);
            }

            @Override
            public boolean equal() {
                return p.fusedEqualsSplit();
            }
        };
    }

    /** The forced path from {@value #PROPERTY}: AUTO, FUSED or SPLIT. */
    static int forcedByProperty() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            return AUTO;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "fused" -> FUSED;
            case "split" -> SPLIT;
            default -> throw new IllegalArgumentException(PROPERTY + " must be auto, fused or split, not '" + v + "'");
        };
    }

    /** Whether a kernel whose key set-up read {@code mode} serves this direction from the fused code. */
    boolean fused(int mode) {
        return mode == FUSED || (mode == AUTO && fused);
    }

    /** A kernel in auto mode ran {@code n} split batches; starts the warm-up at the gate. */
    void countSplit(long n) {
        warmUp.count(n * 512);
    }

    /** One warm-up step (see {@link WarmUpSwitch#step}); false when the warm-up is over. */
    boolean step() {
        return warmUp.step();
    }

    boolean warming() {
        return warmUp.state() == WarmUpSwitch.State.WARMING;
    }

    /** Waits up to {@code millis} for running warm-ups to end; returns whether none runs now. */
    public static boolean awaitWarmUps(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while ((ENCRYPT.warming() || DECRYPT.warming()) && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return !ENCRYPT.warming() && !DECRYPT.warming();
    }

    /** A short label of what serves now: {@code fused}, {@code split}, per direction, or forced. */
    public static String label() {
        int mode;
        try {
            mode = forcedByProperty();
        } catch (IllegalArgumentException e) {
            return "bad -D" + PROPERTY;
        }
        if (mode != AUTO) {
            return (mode == FUSED ? "fused" : "split") + ", forced";
        }
        boolean e = ENCRYPT.fused, d = DECRYPT.fused;
        return e && d ? "fused" : e ? "fused enc, split dec" : d ? "split enc, fused dec" : "split";
    }

    /** One line for {@code info} and {@code speed}: which batch code serves, since when or why not. */
    public static String describe() {
        int mode;
        try {
            mode = forcedByProperty();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (mode == FUSED) {
            return "fused, forced by -D" + PROPERTY + "=fused (served at once, interpreted until C2 compiles it)";
        }
        if (mode == SPLIT) {
            return "split, forced by -D" + PROPERTY + "=split";
        }
        return ENCRYPT.description() + "; " + DECRYPT.description();
    }

    /** This direction's part of {@link #describe}. */
    String description() {
        String d = direction + ": ";
        if (fused) {
            return d + "fused since " + warmUp.since();
        }
        return switch (warmUp.state()) {
            case WAITING -> d + "split; the fused batch's warm-up starts after " + (gateBatches * 512 >> 20)
                    + " MiB through the kernel (" + (warmUp.countedBytes() >> 20) + " MiB so far)";
            case WARMING -> d + "split; the fused batch is " + warmUp.progress();
            case DONE -> d + "split; the fused batch is " + warmUp.progress()
                    + (warmUp.outcome().startsWith("it did not reach speed")
                            ? ": C2 never compiled it here (compiler flags or limits, or this JDK)" : "");
        };
    }
}
