package org.vectorjce.volumes.kdf;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.VolumeException;

/**
 * Argon2i and Argon2id (RFC 9106, version 0x13, as LUKS2 key slots use them: {@code time},
 * {@code memory} in KiB, {@code cpus} lanes, no secret or associated data), on {@link Argon2Engine},
 * which runs the lanes of each slice on up to as many threads as there are processors: the
 * caller's and helpers started for the call (or tasks on the caller's {@link Executor}), all done
 * before {@code derive} returns. Which compression runs is a {@link Argon2Compression} the caller passes.
 *
 * <p>Bounds, checked before any memory is taken: memory at most 4 GiB (cryptsetup's limit) and at
 * least 8 KiB per lane (RFC 9106 section 3.1); lanes 1..2^24-1; time ≥ 1; and the work, time ×
 * memory, at most {@link #MAX_WORK_KIB_PASSES} (16 passes over 4 GiB), so a forged header cannot keep
 * the caller busy for hours. When the JVM's heap cannot hold the memory the slot needs, the error
 * says how much {@code -Xmx} it takes instead of an {@code OutOfMemoryError}.
 */
public final class Argon2 {
    /** cryptsetup's largest Argon2 memory: 4 GiB, in KiB. */
    public static final long MAX_MEMORY_KIB = 4L * 1024 * 1024;
    /** time × memory (KiB) above which a key slot is refused: 16 passes over 4 GiB. */
    public static final long MAX_WORK_KIB_PASSES = 16 * MAX_MEMORY_KIB;
    /** RFC 9106: lanes below 2^24. */
    public static final long MAX_LANES = (1 << 24) - 1;

    public enum Type { ARGON2I, ARGON2ID }

    private Argon2() {
    }

    /** Checks the cost parameters against the bounds above; {@code what} names the key slot. */
    public static void checkParameters(String what, long time, long memoryKib, long lanes) throws CorruptHeaderException {
        if (lanes < 1 || lanes > MAX_LANES) {
            throw new CorruptHeaderException(what + ": Argon2 cpus " + lanes + " outside 1.." + MAX_LANES);
        }
        if (memoryKib < 8 * lanes || memoryKib > MAX_MEMORY_KIB) {
            throw new CorruptHeaderException(what + ": Argon2 memory " + memoryKib + " KiB outside " + (8 * lanes)
                    + ".." + MAX_MEMORY_KIB + " KiB (8 KiB per lane up to 4 GiB)");
        }
        if (time < 1 || time > Integer.MAX_VALUE) {
            throw new CorruptHeaderException(what + ": Argon2 time " + time + " outside 1.." + Integer.MAX_VALUE);
        }
        if (time > MAX_WORK_KIB_PASSES / memoryKib) {
            throw new CorruptHeaderException(what + ": Argon2 time " + time + " with " + memoryKib
                    + " KiB is more work than this library accepts (time x memory up to " + MAX_WORK_KIB_PASSES
                    + " KiB)");
        }
    }

    /**
     * {@code length} bytes of Argon2 over {@code password} and {@code salt}, on the default
     * compression ({@link Argon2Compression#DEFAULT}) and helper threads started for this call.
     */
    public static byte[] derive(String what, Type type, byte[] password, byte[] salt, long time, long memoryKib,
            long lanes, int length) throws VolumeException {
        return derive(what, type, password, salt, time, memoryKib, lanes, length, Argon2Compression.DEFAULT, null, null);
    }

    /**
     * {@code length} bytes of Argon2 over {@code password} and {@code salt} on {@code compression},
     * the lanes' helpers on {@code executor} (null: threads started for this call and ended before
     * it returns). Stops with {@link java.util.concurrent.CancellationException} at the next slice
     * once {@code stop} (may be null) says so or the calling thread is interrupted.
     */
    public static byte[] derive(String what, Type type, byte[] password, byte[] salt, long time, long memoryKib,
            long lanes, int length, Argon2Compression compression, Executor executor, BooleanSupplier stop)
            throws VolumeException {
        checkParameters(what, time, memoryKib, lanes);
        // The engine holds memory KiB of 1 KiB blocks in one long[] per lane, and little else.
        long need = memoryKib * 1024L + (1 << 20);
        Runtime rt = Runtime.getRuntime();
        long available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (need > available) {
            System.gc();
            available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        }
        if (need > available) {
            long xmxMiB = (rt.maxMemory() - available + need) / (1024 * 1024) + 64;
            throw new VolumeException(what + " needs " + (memoryKib / 1024) + " MiB for Argon2 but the Java heap has "
                    + (available / (1024 * 1024)) + " MiB free: run java with -Xmx" + xmxMiB + "m or more");
        }
        byte[] out = new byte[length];
        int threads = (int) Math.min(lanes, Runtime.getRuntime().availableProcessors());
        try {
            Argon2Engine.derive(type == Type.ARGON2I ? Argon2Engine.ARGON2_I : Argon2Engine.ARGON2_ID, password, salt,
                    new byte[0], new byte[0], (int) time, (int) memoryKib, (int) lanes, out, threads,
                    Argon2Engine.kernelFor(compression, time * memoryKib), executor, stop);
        } catch (IllegalArgumentException e) {
            throw new VolumeException(what + ": Argon2 parameters outside RFC 9106's ranges");
        } catch (OutOfMemoryError e) {
            throw new VolumeException(what + " needs " + (memoryKib / 1024) + " MiB for Argon2: the Java heap ran out;"
                    + " run java with a larger -Xmx");
        }
        return out;
    }
}
