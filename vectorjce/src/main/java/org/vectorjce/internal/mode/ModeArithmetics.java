package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.Kernels;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Which {@link ModeArithmetic} serves the modes: the scalar one, or the Vector API one when the
 * module is present and it accepts this JVM.
 *
 * <p>Vector code runs slowly until C2 has compiled it: interpreted and in C1 code every vector is a
 * heap object. In a fresh JVM the vector arithmetic costs more than it saves for the first GiBs
 * (AES-XTS encryption, one thread, 1 MiB calls: the first 256 MiB in 0.41-0.44 s on the vector
 * arithmetic against 0.18-0.25 s on the scalar one, then 0.025-0.027 s against 0.035 s per 256 MiB;
 * bench/results/2026-12-01-1407-arithmetic.txt, {@code bench/arithmetic.sh}). So in {@code auto}
 * mode, the default, the modes start on the scalar arithmetic, and
 * <ol>
 *   <li>after {@link #GATE_BYTES} (4 GiB) through the modes of this JVM, a daemon thread warms the
 *       vector arithmetic up on its own buffers: per step, a few untimed calls and one timed
 *       probe (an 8 KiB XTS XOR-save, XOR and LRW XOR pass) against the scalar reference;</li>
 *   <li>once {@link #CONSECUTIVE} consecutive probes were at least {@link #MIN_RATIO} times as
 *       fast as the scalar ones and the outputs are equal, the vector arithmetic serves every mode
 *       of the JVM from its next call;</li>
 *   <li>after {@link #TIMEOUT_NANOS} without that (C2 absent or limited, or vectors no faster
 *       here) the scalar arithmetic stays, and {@link #describe} says why.</li>
 * </ol>
 * {@value #PROPERTY} ({@code auto}, {@code vector} or {@code scalar}, read once) forces either
 * arithmetic from the first call (tests and benchmarks); {@link #warmUpNow} starts the warm-up
 * before the gate (the {@code speed} command, which times the steady state).
 */
public final class ModeArithmetics {
    /** The system property that forces an arithmetic. */
    public static final String PROPERTY = "vectorjce.arithmetic";

    static final int AUTO = 0, VECTOR = 1, SCALAR = 2;

    /** Bytes through the modes before the warm-up starts: 4 GiB, or {@value #GATE_PROPERTY} MiB. */
    static final long GATE_BYTES = Long.getLong(ModeArithmetics.GATE_PROPERTY, 4096) << 20;
    static final String GATE_PROPERTY = "vectorjce.arithmetic.warmupAfterMiB";
    /** Warm-up time after which the vector arithmetic is given up. */
    static final long TIMEOUT_NANOS = 20_000_000_000L;
    /** Consecutive fast probes that qualify the vector arithmetic. */
    static final int CONSECUTIVE = 5;
    /** A probe qualifies at this multiple of the scalar reference's speed. */
    static final double MIN_RATIO = 1.1;
    /** Untimed vector probes per step besides the timed one. */
    static final int PRIME_CALLS = 16;
    /** Bytes a mode counts locally before it adds them to the JVM's count (see {@link Mode#ops}). */
    static final int COUNT_STEP = 64 << 20;

    private ModeArithmetics() {
    }

    private static final int FORCED = forcedByProperty(System.getProperty(PROPERTY));

    /** The forced mode from the property's value: AUTO, VECTOR or SCALAR. */
    static int forcedByProperty(String v) {
        if (v == null || v.isBlank()) {
            return AUTO;
        }
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "vector":
                return VECTOR;
            case "scalar":
                return SCALAR;
            default:
                Logger.getLogger("org.vectorjce").warning("VectorJCE: -D" + PROPERTY + " must be auto, vector or scalar,"
                        + " not '" + v + "'; using auto");
                return AUTO;
        }
    }

    /**
     * The vector arithmetic, loaded on first need (its class initialisation costs tens of
     * milliseconds of a short command that never reaches the gate), or null.
     */
    private static final class Loaded {
        static final ModeArithmetic VECTOR = load();
    }

    /** Whether the vector arithmetic may load here (without loading it). */
    private static boolean vectorPossible() {
        return FORCED != SCALAR && Kernels.vectorCodeUnavailable() == null;
    }

    private static ModeArithmetic load() {
        if (!vectorPossible()) {
            return null;
        }
        try {
            Object v = Class.forName("org.vectorjce.internal.vector.VectorArithmetic").getMethod("create").invoke(null);
            return v == null ? null : (ModeArithmetic) v;
        } catch (ReflectiveOperationException | LinkageError e) {
            Logger.getLogger("org.vectorjce").log(Level.CONFIG, "VectorJCE: vector mode arithmetic not loaded", e);
            return null;
        }
    }

    /** The JVM's switch. */
    static final Switch JVM = new Switch(vectorPossible() ? () -> Loaded.VECTOR : () -> null, FORCED, System::nanoTime,
            GATE_BYTES, TIMEOUT_NANOS, ModeArithmetics::daemon);

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "vectorjce-arithmetic-warmup");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The arithmetic this JVM uses once warm: the vector one when it loads here, else the scalar
     * one (what the tests compare with the scalar code).
     */
    public static ModeArithmetic selected() {
        ModeArithmetic v = Loaded.VECTOR;
        return v != null ? v : ModeArithmetic.SCALAR;
    }

    /** The arithmetic serving the modes' calls now. */
    static ModeArithmetic serving() {
        return JVM.serving;
    }

    /** A mode ran {@code bytes} more through the arithmetic; starts the warm-up at the gate. */
    static void count(long bytes) {
        JVM.count(bytes);
    }

    /** Starts the vector arithmetic's warm-up now, if it has one that has not started. */
    public static void warmUpNow() {
        JVM.start();
    }

    /** Waits up to {@code millis} for a running warm-up to end; returns whether none runs now. */
    public static boolean awaitWarmUp(long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (JVM.state == State.WARMING && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return JVM.state != State.WARMING;
    }

    /** One line for {@code info} and {@code speed}: what serves, since when, or why not yet. */
    public static String describe() {
        return JVM.describe();
    }

    enum State { WAITING, WARMING, DONE }

    /** The timed work of a warm-up: one probe's nanoseconds on either arithmetic. */
    interface Probe {
        long time(ModeArithmetic a);

        /** Whether both arithmetics give the same output on the probe's data. */
        boolean equal(ModeArithmetic scalar, ModeArithmetic vector);
    }

    /**
     * The switching logic, with its clock, gate, timeout, probe and thread starter as parameters
     * so tests drive it with fake ones.
     */
    static final class Switch {
        /** What serves the modes now; the vector arithmetic once qualified (or when forced). */
        volatile ModeArithmetic serving;
        volatile State state;
        /** The vector arithmetic once loaded (null before, or when it does not run here). */
        private volatile ModeArithmetic vector;
        private final Supplier<ModeArithmetic> vectorLoader;
        private volatile boolean loaded;
        private final int forced;
        private final LongSupplier clock;
        private final long gateBytes, timeoutNanos;
        private final Consumer<Runnable> starter;
        /** Bytes counted so far; racy on purpose (a lost addition only delays the gate a little). */
        private long bytes;
        private volatile boolean counting;
        private long startNanos, scalarRef = Long.MAX_VALUE, bestVector = Long.MAX_VALUE;
        private int consecutive;
        private volatile String since, outcome;
        private volatile long startedAfterBytes;
        Probe probe;

        /**
         * {@code vectorLoader} gives the vector arithmetic or null; it is called once, when the
         * warm-up starts, when forced, or for {@link #describe}.
         */
        Switch(Supplier<ModeArithmetic> vectorLoader, int forced, LongSupplier clock, long gateBytes, long timeoutNanos,
                Consumer<Runnable> starter) {
            this.vectorLoader = vectorLoader;
            this.forced = forced;
            this.clock = clock;
            this.gateBytes = gateBytes;
            this.timeoutNanos = timeoutNanos;
            this.starter = starter;
            this.serving = ModeArithmetic.SCALAR;
            this.counting = forced == AUTO;
            this.state = counting ? State.WAITING : State.DONE;
            if (forced == VECTOR && vector() != null) {
                serving = vector;
            }
        }

        private synchronized ModeArithmetic vector() {
            if (!loaded) {
                vector = vectorLoader.get();
                loaded = true;
            }
            return vector;
        }

        void count(long n) {
            if (counting) {
                long b = bytes += n;
                if (b >= gateBytes) {
                    start();
                }
            }
        }

        synchronized void start() {
            if (state != State.WAITING) {
                return;
            }
            counting = false;
            startedAfterBytes = bytes;
            if (vector() == null) {
                finish("the vector arithmetic does not run on this JVM");
                return;
            }
            state = State.WARMING;
            startNanos = clock.getAsLong();
            try {
                starter.accept(this::run);
            } catch (RuntimeException | Error e) {
                finish("the warm-up thread could not start (" + e + ")");
            }
        }

        void run() {
            try {
                while (step()) {
                    // next step
                }
            } catch (RuntimeException | Error e) {
                finish("the warm-up failed (" + e + ")");
            }
        }

        /** One step: the scalar reference (first), then untimed and one timed vector probe. */
        boolean step() {
            if (state != State.WARMING) {
                return false;
            }
            if (probe == null) {
                probe = new BufferProbe();
            }
            scalarRef = Math.min(scalarRef, Math.max(1, probe.time(ModeArithmetic.SCALAR)));
            for (int i = 0; i < PRIME_CALLS; i++) {
                probe.time(vector);
            }
            long t = Math.max(1, probe.time(vector));
            bestVector = Math.min(bestVector, t);
            consecutive = t * MIN_RATIO <= scalarRef ? consecutive + 1 : 0;
            if (consecutive >= CONSECUTIVE) {
                if (!probe.equal(ModeArithmetic.SCALAR, vector)) {
                    finish("its output differed from the scalar arithmetic's on the warm-up's data");
                    return false;
                }
                since = Instant.now().truncatedTo(ChronoUnit.MILLIS) + " (after " + (startedAfterBytes >> 20)
                        + " MiB on the scalar arithmetic and " + seconds(clock.getAsLong() - startNanos)
                        + " of warm-up; probe " + ratio() + " the scalar one's speed)";
                serving = vector;
                finish(null);
                return false;
            }
            if (clock.getAsLong() - startNanos > timeoutNanos) {
                finish("the vector arithmetic did not reach " + MIN_RATIO + "x the scalar one's speed within "
                        + seconds(timeoutNanos) + " of warm-up (best probe " + ratio() + ")");
                return false;
            }
            return true;
        }

        private String ratio() {
            return bestVector == Long.MAX_VALUE ? "n/a"
                    : String.format(Locale.ROOT, "%.2fx", (double) scalarRef / bestVector);
        }

        private synchronized void finish(String why) {
            outcome = why;
            state = State.DONE;
            probe = null;
        }

        String describe() {
            ModeArithmetic vector = vector();
            if (vector == null) {
                return "scalar (" + (forced == SCALAR ? "forced by -D" + PROPERTY + "=scalar"
                        : "the vector arithmetic does not run on this JVM") + ")";
            }
            if (forced == VECTOR) {
                return vector.name() + ", forced by -D" + PROPERTY + "=vector";
            }
            if (serving == vector) {
                return vector.name() + " since " + since;
            }
            switch (state) {
                case WAITING:
                    return "scalar; " + vector.name() + " warms up after " + (gateBytes >> 20)
                            + " MiB through the modes (" + (bytes >> 20) + " MiB so far)";
                case WARMING:
                    return "scalar; " + vector.name() + " is warming up (for " + seconds(clock.getAsLong() - startNanos)
                            + ", after " + (startedAfterBytes >> 20) + " MiB)";
                default:
                    return "scalar; " + vector.name() + " not used: " + outcome;
            }
        }
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    /** The warm-up's work: 8 KiB through the XTS XOR-save and XOR passes and the LRW pass. */
    static final class BufferProbe implements Probe {
        private static final int BYTES = 8192;
        private final byte[] in = new byte[BYTES], out = new byte[BYTES], tw = new byte[BYTES];
        private final long[] lrwTable;
        private final long[] t = new long[2], state = new long[4];

        BufferProbe() {
            Random r = new Random(1619);
            r.nextBytes(in);
            lrwTable = ModeArithmetic.lrwTable(r.nextLong(), r.nextLong());
        }

        private void run(ModeArithmetic a) {
            t[0] = 0x0123456789abcdefL;
            t[1] = 0x8000000000000001L; // a carry on the first step
            a.xtsXorSave(t, in, 0, out, 0, BYTES / 16, tw, 0);
            a.xor(out, 0, tw, 0, out, 0, BYTES);
            state[0] = 1;
            state[1] = 2;
            state[2] = 0;
            state[3] = -3L;
            a.lrwXor(state, lrwTable, out, 0, out, 0, BYTES / 16);
        }

        @Override
        public long time(ModeArithmetic a) {
            long t0 = System.nanoTime();
            run(a);
            return System.nanoTime() - t0;
        }

        @Override
        public boolean equal(ModeArithmetic scalar, ModeArithmetic vector) {
            run(scalar);
            byte[] s = out.clone(), st = tw.clone();
            long[] ss = state.clone(), sts = t.clone();
            run(vector);
            return Arrays.equals(s, out) && Arrays.equals(st, tw) && Arrays.equals(ss, state) && Arrays.equals(sts, t);
        }
    }
}
