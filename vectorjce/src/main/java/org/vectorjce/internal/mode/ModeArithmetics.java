package org.vectorjce.internal.mode;

import org.vectorjce.internal.kernel.Kernels;
import org.vectorjce.internal.kernel.WarmUpSwitch;
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
    /** Scalar probes timed for the reference at the start (the best counts). */
    static final int REFERENCE_CALLS = 4;
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
        while (JVM.warming() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return !JVM.warming();
    }

    /** One line for {@code info} and {@code speed}: what serves, since when, or why not yet. */
    public static String describe() {
        return JVM.describe();
    }

    /** The timed work of a warm-up: one probe's nanoseconds on either arithmetic. */
    interface Probe {
        long time(ModeArithmetic a);

        /** Whether both arithmetics give the same output on the probe's data. */
        boolean equal(ModeArithmetic scalar, ModeArithmetic vector);
    }

    /**
     * What serves, forced or switched by a {@link WarmUpSwitch} (clock, gate, timeout and thread
     * starter as parameters, so tests drive it with fake ones).
     */
    static final class Switch {
        /** What serves the modes now; the vector arithmetic once qualified (or when forced). */
        volatile ModeArithmetic serving = ModeArithmetic.SCALAR;
        /** The warm-up's probe: {@link BufferProbe} unless a test sets one first. */
        Probe probe;
        private final Supplier<ModeArithmetic> vectorLoader;
        private ModeArithmetic vector;
        private boolean loaded;
        private final int forced;
        private final WarmUpSwitch warmUp;

        /**
         * {@code vectorLoader} gives the vector arithmetic or null; it is called once, when the
         * warm-up starts, when forced, or for {@link #describe}.
         */
        Switch(Supplier<ModeArithmetic> vectorLoader, int forced, LongSupplier clock, long gateBytes, long timeoutNanos,
                Consumer<Runnable> starter) {
            this.vectorLoader = vectorLoader;
            this.forced = forced;
            this.warmUp = new WarmUpSwitch(new WarmUpSwitch.Rules(gateBytes, timeoutNanos, CONSECUTIVE, MIN_RATIO, 0,
                    BufferProbe.BYTES, REFERENCE_CALLS, PRIME_CALLS), clock, this::warmUpProbe, starter,
                    () -> serving = vector());
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

        /** The probe as the switch times it, or null when there is no vector arithmetic. */
        private WarmUpSwitch.Probe warmUpProbe() {
            ModeArithmetic v = vector();
            if (v == null) {
                return null;
            }
            Probe p = probe != null ? probe : new BufferProbe();
            return new WarmUpSwitch.Probe() {
                @Override
                public long reference() {
                    return p.time(ModeArithmetic.SCALAR);
                }

                @Override
                public long candidate() {
                    return p.time(v);
                }

                @Override
                public void prime(int calls) {
                    for (int i = 0; i < calls; i++) {
                        p.time(v);
                    }
                }

                @Override
                public boolean equal() {
                    return p.equal(ModeArithmetic.SCALAR, v);
                }
            };
        }

        void count(long n) {
            if (forced == AUTO) {
                warmUp.count(n);
            }
        }

        void start() {
            if (forced == AUTO) {
                warmUp.start();
            }
        }

        boolean step() {
            return warmUp.step();
        }

        boolean warming() {
            return warmUp.state() == WarmUpSwitch.State.WARMING;
        }

        String describe() {
            ModeArithmetic v = vector();
            if (v == null) {
                return "scalar (" + (forced == SCALAR ? "forced by -D" + PROPERTY + "=scalar"
                        : "the vector arithmetic does not run on this JVM") + ")";
            }
            if (forced == VECTOR) {
                return v.name() + ", forced by -D" + PROPERTY + "=vector";
            }
            if (serving == v) {
                return v.name() + " since " + warmUp.since();
            }
            return "scalar; " + v.name() + switch (warmUp.state()) {
                case WAITING -> " warms up after " + (warmUp.rules().gateBytes() >> 20) + " MiB through the modes ("
                        + (warmUp.countedBytes() >> 20) + " MiB so far)";
                case WARMING -> " is " + warmUp.progress();
                case DONE -> " " + warmUp.progress();
            };
        }
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
