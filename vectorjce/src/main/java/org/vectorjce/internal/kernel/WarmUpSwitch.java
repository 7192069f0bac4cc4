package org.vectorjce.internal.kernel;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A one-way switch from code that serves now to faster code that is slow until C2 has compiled it
 * (Vector API code: interpreted and in C1 code every vector is a heap object). Used by the mode
 * arithmetic ({@code ModeArithmetics}) and the fused Twofish batch ({@code Twofish16Path}).
 * <ol>
 *   <li>Callers {@link #count} the bytes the serving code ran; at the gate the warm-up starts,
 *       once per switch, on a thread from the starter (a daemon thread in production).</li>
 *   <li>The warm-up times the serving code ({@link Rules#referenceCalls} calls, then one per step,
 *       the best counting), and per step makes {@link Rules#primeCalls} untimed calls and one timed
 *       call of the new code on the probe's own data.</li>
 *   <li>Once {@link Rules#consecutive} timed calls in a row were at least {@link Rules#minRatio}
 *       times as fast as the reference (or above {@link Rules#floorBytesPerSecond}, when that is
 *       positive), and the outputs are equal, the owner's callback runs (it switches its
 *       own flag).</li>
 *   <li>After {@link Rules#timeoutNanos} without that, or when the probe fails, the serving code
 *       stays; {@link #outcome} says why.</li>
 * </ol>
 * The clock, the probe and the starter are parameters, so tests drive the logic with fake ones.
 */
public final class WarmUpSwitch {
    /** The warm-up's timed work on its own data. */
    public interface Probe {
        /** One call of the code serving now; its time in ns. */
        long reference();

        /** One call of the new code; its time in ns. */
        long candidate();

        /** {@code calls} untimed calls of the new code. */
        void prime(int calls);

        /** Whether the new code's output equals the serving code's on the probe's data. */
        boolean equal();
    }

    /**
     * The numbers of a switch: bytes before the warm-up, its time limit, the qualifying run, ratio
     * and floor (0: none), the bytes of one timed call, reference calls at the start, priming calls
     * per step.
     */
    public record Rules(long gateBytes, long timeoutNanos, int consecutive, double minRatio,
            double floorBytesPerSecond, int callBytes, int referenceCalls, int primeCalls) {
    }

    public enum State { WAITING, WARMING, DONE }

    private final Rules rules;
    private final LongSupplier clock;
    private final Supplier<Probe> probes;
    private final Consumer<Runnable> starter;
    private final Runnable onSwitch;

    private volatile State state = State.WAITING;
    /** Whether counts still go towards the gate (false once the warm-up started). */
    private volatile boolean counting = true;
    /** Bytes counted; racy on purpose (a lost addition only delays the gate a little). */
    private long bytes;
    private volatile long startedAfterBytes;
    private long startNanos, referenceNanos = Long.MAX_VALUE, bestNanos = Long.MAX_VALUE;
    private int consecutive;
    private Probe probe;
    private volatile String since, outcome;

    /**
     * @param probes gives the warm-up's probe when it starts; null from it means the new code does
     *     not run here (the switch ends with {@code noCandidate} as its outcome)
     * @param onSwitch runs on the warm-up thread when the new code qualifies
     */
    public WarmUpSwitch(Rules rules, LongSupplier clock, Supplier<Probe> probes, Consumer<Runnable> starter,
            Runnable onSwitch) {
        this.rules = rules;
        this.clock = clock;
        this.probes = probes;
        this.starter = starter;
        this.onSwitch = onSwitch;
    }

    /** The serving code ran {@code n} more bytes; starts the warm-up at the gate. */
    public void count(long n) {
        if (counting) {
            long b = bytes += n;
            if (b >= rules.gateBytes()) {
                start();
            }
        }
    }

    public Rules rules() {
        return rules;
    }

    /** Bytes counted so far. */
    public long countedBytes() {
        return bytes;
    }

    /** Starts the warm-up now if it has not started. */
    public synchronized void start() {
        if (state != State.WAITING) {
            return;
        }
        counting = false;
        startedAfterBytes = bytes;
        state = State.WARMING;
        startNanos = clock.getAsLong();
        try {
            starter.accept(this::run);
        } catch (RuntimeException | Error e) {
            finish("the warm-up thread could not start (" + e + ")");
        }
    }

    /** The warm-up thread's body: {@link #step} until done. */
    public void run() {
        try {
            while (step()) {
                // next step
            }
        } catch (RuntimeException | Error e) {
            finish("the warm-up failed (" + e + ")");
        }
    }

    /**
     * One step: the reference calls (first step), then one reference call, priming calls and one
     * timed call of the new code. Returns false when the warm-up is over.
     */
    public boolean step() {
        if (state != State.WARMING) {
            return false;
        }
        if (probe == null) {
            probe = probes.get();
            if (probe == null) {
                finish("the new code does not run on this JVM");
                return false;
            }
            for (int i = 0; i < rules.referenceCalls(); i++) {
                referenceNanos = Math.min(referenceNanos, Math.max(1, probe.reference()));
            }
            return true;
        }
        // The reference keeps improving while C2 still compiles serving code this JVM had not run
        // much (too low a reference would make qualifying too easy).
        referenceNanos = Math.min(referenceNanos, Math.max(1, probe.reference()));
        probe.prime(rules.primeCalls());
        long t = Math.max(1, probe.candidate());
        bestNanos = Math.min(bestNanos, t);
        boolean fast = t * rules.minRatio() <= referenceNanos
                || rules.floorBytesPerSecond() > 0 && rules.callBytes() / (t / 1e9) >= rules.floorBytesPerSecond();
        consecutive = fast ? consecutive + 1 : 0;
        if (consecutive >= rules.consecutive()) {
            if (!probe.equal()) {
                finish("its output differed from the serving code's on the warm-up's data");
                return false;
            }
            since = Instant.now().truncatedTo(ChronoUnit.MILLIS) + " (after " + (startedAfterBytes >> 20) + " MiB and "
                    + seconds(clock.getAsLong() - startNanos) + " of warm-up; " + speeds() + ")";
            onSwitch.run();
            finish(null);
            return false;
        }
        if (clock.getAsLong() - startNanos > rules.timeoutNanos()) {
            finish("it did not reach speed within " + seconds(rules.timeoutNanos()) + " of warm-up (" + speeds() + ")");
            return false;
        }
        return true;
    }

    private synchronized void finish(String why) {
        outcome = why;
        state = State.DONE;
        probe = null; // the dummy data goes with it
    }

    /** The best timed calls: {@code 8 KiB call 1700 MB/s, before 1200 MB/s}. */
    private String speeds() {
        return (rules.callBytes() >> 10) + " KiB call " + mbps(bestNanos) + ", before " + mbps(referenceNanos);
    }

    private String mbps(long nanos) {
        return nanos == Long.MAX_VALUE ? "n/a"
                : String.format(Locale.ROOT, "%.0f MB/s", rules.callBytes() / (nanos / 1e9) / 1e6);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    public State state() {
        return state;
    }

    /** After the switch: when, after how much and at what speeds. */
    public String since() {
        return since;
    }

    /** After the switch or the giving up: null, or why the serving code stays. */
    public String outcome() {
        return outcome;
    }

    /**
     * While waiting: {@code waiting (N MiB so far)}; while warming: {@code warming up (for T s,
     * after N MiB)}; once done: {@code switched}, or {@code not used: } and why.
     */
    public String progress() {
        return switch (state) {
            case WAITING -> "waiting (" + (bytes >> 20) + " MiB so far)";
            case WARMING -> "warming up (for " + seconds(clock.getAsLong() - startNanos) + ", after "
                    + (startedAfterBytes >> 20) + " MiB)";
            case DONE -> outcome == null ? "switched" : "not used: " + outcome;
        };
    }
}
