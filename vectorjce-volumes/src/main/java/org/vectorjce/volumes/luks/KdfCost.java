package org.vectorjce.volumes.luks;

import java.lang.management.ManagementFactory;

import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.kdf.Argon2;
import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * The KDF cost of a new key slot, from {@link KeySlotOptions}: forced, or calibrated to the
 * requested time as cryptsetup 2.6 does.
 *
 * <ul>
 * <li>PBKDF2: iterations that take {@code iter-time} here, at least 1000.
 * <li>Argon2i/Argon2id: lanes {@code --pbkdf-parallel} or min(4, processors); the memory ceiling
 * {@code --pbkdf-memory} or 1 GiB, capped by half the physical memory and, so that the slot can
 * be derived in this JVM, by the heap free for it. Calibration starts at time cost 4 and 32 KiB,
 * grows the memory (×16 while a run takes under 10 ms, else in proportion) until one run takes at
 * least 250 ms, then scales memory first, up to the ceiling, and time cost second towards the
 * target, measuring again until a run lands within ±5 % of it (at most 8 rounds).
 * </ul>
 */
final class KdfCost {
    /** cryptsetup's minimum Argon2 time cost and PBKDF2 iterations. */
    static final long MIN_ARGON2_TIME = 4, MIN_PBKDF2_ITERATIONS = 1000;
    /** cryptsetup 2.6's default Argon2 memory ceiling: 1 GiB in KiB. */
    static final long DEFAULT_MAX_MEMORY_KIB = 1L << 20;
    private static final long MIN_MEMORY_KIB = 32, MIN_RUN_MS = 250, FAST_RUN_MS = 10;

    /** A concrete cost. {@code hash} is PBKDF2's (null for Argon2). */
    record Cost(String type, String hash, long iterations, long time, long memoryKib, long cpus) {
    }

    private KdfCost() {
    }

    /** The cost of a LUKS1 key slot (PBKDF2 with the volume's hash). */
    static Cost luks1(KeySlotOptions o, String hash, int keyBytes) throws VolumeException {
        if (o.pbkdf != null && !o.pbkdf.equals("pbkdf2")) {
            throw new UnsupportedVolumeException("PBKDF " + o.pbkdf + " is not available for LUKS1 (pbkdf2 only)");
        }
        return pbkdf2(o, hash, keyBytes);
    }

    /** The cost of a LUKS2 key slot. */
    static Cost luks2(KeySlotOptions o, int keyBytes, Settings settings) throws VolumeException {
        String type = o.pbkdf == null ? "argon2id" : o.pbkdf;
        if (type.equals("pbkdf2")) {
            return pbkdf2(o, o.hash, keyBytes);
        }
        int lanes = o.parallel > 0 ? o.parallel : defaultParallel();
        long ceiling = o.memoryKib > 0 ? o.memoryKib : defaultMaxMemoryKib();
        ceiling = Math.max(8L * lanes, ceiling);
        if (o.forceIterations > 0) {
            if (o.forceIterations < MIN_ARGON2_TIME) {
                throw new VolumeException("Forced iteration count " + o.forceIterations + " is too low for " + type
                        + " (minimum is " + MIN_ARGON2_TIME + ")");
            }
            Argon2.checkParameters("Argon2 cost", o.forceIterations, ceiling, lanes);
            return new Cost(type, null, 0, o.forceIterations, ceiling, lanes);
        }
        long[] tm = calibrateArgon2(type.equals("argon2i") ? Argon2.Type.ARGON2I : Argon2.Type.ARGON2ID,
                o.iterTimeMs, Math.min(ceiling, heapKib()), lanes, keyBytes, settings);
        return new Cost(type, null, 0, tm[0], tm[1], lanes);
    }

    private static Cost pbkdf2(KeySlotOptions o, String hash, int keyBytes) throws VolumeException {
        HashAlgorithm h = HashAlgorithm.forLuksName(hash);
        if (o.forceIterations > 0) {
            if (o.forceIterations < MIN_PBKDF2_ITERATIONS) {
                throw new VolumeException("Forced iteration count " + o.forceIterations
                        + " is too low for pbkdf2 (minimum is " + MIN_PBKDF2_ITERATIONS + ")");
            }
            return new Cost("pbkdf2", hash, o.forceIterations, 0, 0, 0);
        }
        return new Cost("pbkdf2", hash, Luks1Format.calibrate(h, o.iterTimeMs, keyBytes), 0, 0, 0);
    }

    /** min(4, processors), as cryptsetup 2.6. */
    static int defaultParallel() {
        return Math.min(4, Runtime.getRuntime().availableProcessors());
    }

    /** min(1 GiB, half the physical memory), in KiB. */
    static long defaultMaxMemoryKib() {
        long phys = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            phys = os.getTotalMemorySize();
        }
        return phys > 0 ? Math.min(DEFAULT_MAX_MEMORY_KIB, phys / 2 / 1024) : DEFAULT_MAX_MEMORY_KIB;
    }

    /** What the heap can give Argon2 now, less 64 MiB, in KiB (at least the minimum). */
    private static long heapKib() {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - (64L << 20);
        return Math.max(MIN_MEMORY_KIB, free / 1024);
    }

    /**
     * {time, memoryKib} for about {@code targetMs}, memory at most {@code ceiling}, measured on
     * Argon2 as {@code settings} run it (their executor and compression).
     */
    static long[] calibrateArgon2(Argon2.Type type, long targetMs, long ceiling, int lanes, int keyBytes,
            Settings settings) throws VolumeException {
        long minMemory = Math.max(MIN_MEMORY_KIB, 8L * lanes);
        ceiling = Math.max(ceiling, minMemory);
        long t = MIN_ARGON2_TIME, m = minMemory;
        long ms = run(type, t, m, lanes, keyBytes, settings);
        // 1. a first run long enough to measure
        while (ms < MIN_RUN_MS) {
            long before = m == ceiling ? t : m;
            if (m < ceiling) {
                m = Math.min(ceiling, ms < FAST_RUN_MS ? m * 16 : m * MIN_RUN_MS / Math.max(1, ms));
            } else {
                t = ms < FAST_RUN_MS ? t * 16 : t * MIN_RUN_MS / Math.max(1, ms);
            }
            if ((m == ceiling ? t : m) == before || t > Integer.MAX_VALUE / 16) {
                break;
            }
            ms = run(type, t, m, lanes, keyBytes, settings);
        }
        // 2. scale towards the target, memory first, then time; measure until within ±5 %
        for (int round = 0; round < 8 && (ms < targetMs * 95 / 100 || ms > targetMs * 105 / 100); round++) {
            long work = t * m; // KiB-passes, proportional to the time taken
            long wanted = (long) ((double) work * targetMs / Math.max(1, ms));
            long nt, nm;
            if (wanted / t <= ceiling && wanted / t >= minMemory && ms < targetMs) {
                nt = t;
                nm = wanted / t;
            } else if (ms < targetMs) {
                nm = ceiling;
                nt = Math.max(MIN_ARGON2_TIME, wanted / ceiling);
            } else {
                nt = Math.max(MIN_ARGON2_TIME, t * targetMs / Math.max(1, ms));
                nm = nt > MIN_ARGON2_TIME ? m : Math.max(minMemory, Math.min(m, wanted / MIN_ARGON2_TIME));
            }
            if (nt == t && nm == m) {
                break;
            }
            t = nt;
            m = nm;
            if (t * m > Argon2.MAX_WORK_KIB_PASSES) {
                t = Math.max(MIN_ARGON2_TIME, Argon2.MAX_WORK_KIB_PASSES / m);
                break;
            }
            ms = run(type, t, m, lanes, keyBytes, settings);
        }
        return new long[] {t, m};
    }

    private static long run(Argon2.Type type, long t, long m, int lanes, int keyBytes, Settings settings)
            throws VolumeException {
        byte[] pw = new byte[8], salt = new byte[32];
        long start = System.nanoTime();
        byte[] out = settings.argon2("Argon2 calibration", type, pw, salt, t, m, lanes, keyBytes);
        long ms = (System.nanoTime() - start) / 1_000_000;
        java.util.Arrays.fill(out, (byte) 0);
        return ms;
    }
}
