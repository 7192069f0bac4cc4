package org.vectorjce.volumes.kdf;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.vectorjce.volumes.Argon2Compression;

/**
 * Argon2i and Argon2id, version 0x13, as RFC 9106 defines them, with the lanes of each slice run in
 * parallel (section 3.4: the lanes of one slice are independent; all meet at the slice's end) on
 * the caller's thread and helpers started for the call or taken from the caller's
 * {@link Executor} ({@link Workers}); none outlives the call, and with one lane or one thread
 * everything runs on the caller's thread.
 *
 * <p>Why not Bouncy Castle's generator: it runs the lanes one after another, so a LUKS2 key slot
 * that cryptsetup derives on two cores in two seconds takes twice as long. The compression function
 * G has two implementations: {@code Argon2Vector256} (the jar's Java 25 part, on
 * {@code jdk.incubator.vector}, 4 x 64-bit lanes), available when the JVM runs with
 * {@code --add-modules jdk.incubator.vector} and its vectors for longs are at least 256 bits wide
 * (AVX2, AVX-512); and the scalar one here, written out on local variables (section 3.5, BlaMka with
 * its 32x32-bit products), which C2 keeps in registers. Which one a derivation runs is chosen once,
 * before its first block ({@link #kernelFor}: the caller's {@link Argon2Compression} and whether
 * this JVM has the vector one), and never changes during it. BLAKE2b for H0 and H' is
 * {@link Blake2b}.
 *
 * <p>Memory is one {@code long[]} (128 words per 1 KiB block) for each segment of each lane,
 * allocated (and so zeroed and first touched) by the thread that fills the segment in the first
 * pass, so that both the page faults and the JVM's zeroing are spread over the threads; it is
 * zeroed after use, in parallel too, and the per-segment work blocks are zeroed as well. The caller
 * bounds the parameters (see {@link Argon2#checkParameters}); this class only checks the RFC's own
 * limits.
 */
final class Argon2Engine {
    static final int ARGON2_D = 0;
    static final int ARGON2_I = 1;
    static final int ARGON2_ID = 2;
    private static final int VERSION = 0x13;
    private static final int SYNC_POINTS = 4;
    private static final int WORDS = 128;
    private static final int ADDRESSES_IN_BLOCK = 128;
    /** The vector compression, or null when this JVM cannot run it (a fact of the JVM and CPU). */
    private static final Argon2Kernel VECTOR = loadVector();

    private final int type;
    private final int passes;
    private final int lanes;
    private final int laneLength;
    private final int segmentLength;
    /** The compression this derivation runs: the vector one, or null for the scalar one here. */
    private final Argon2Kernel kernel;
    /**
     * One array per segment of each lane ({@code memory[lane][slice]}), allocated (and so zeroed
     * and first touched) by the thread that fills that segment in the first pass.
     */
    private final long[][][] memory;

    private Argon2Engine(int type, int passes, int memoryKib, int lanes, Argon2Kernel kernel) {
        this.type = type;
        this.kernel = kernel;
        this.passes = passes;
        this.lanes = lanes;
        int blocks = Math.max(memoryKib, 2 * SYNC_POINTS * lanes);
        this.segmentLength = blocks / (lanes * SYNC_POINTS);
        this.laneLength = segmentLength * SYNC_POINTS;
        Math.multiplyExact(laneLength, WORDS);
        this.memory = new long[lanes][SYNC_POINTS][];
    }

    private static Argon2Kernel loadVector() {
        if (!ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            return null;
        }
        try {
            // only in the jar's META-INF/versions/25: absent (ClassNotFoundException) before Java 25
            Class<?> c = Class.forName("org.vectorjce.volumes.kdf.Argon2Vector256");
            return (Argon2Kernel) c.getDeclaredMethod("create").invoke(null);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /**
     * The compression a derivation of {@code work} (memory KiB x passes) runs under {@code c}: the
     * vector one (never when this JVM lacks it) or null for the scalar one. {@link Argon2Compression#AUTO}
     * takes the vector one from {@link Argon2Kernel#autoMinWork()}: its first calls run uncompiled
     * (each vector a heap object, far slower than the scalar code) until C2 has compiled it, which
     * costs its first slice 0.3-0.4 s in a fresh JVM, whereas the scalar code reaches C2 within the
     * first slice.
     */
    static Argon2Kernel kernelFor(Argon2Compression c, long work) {
        return switch (c) {
            case SCALAR -> null;
            case VECTOR -> VECTOR;
            case AUTO -> VECTOR != null && work >= VECTOR.autoMinWork() ? VECTOR : null;
        };
    }

    /** The name of the compression {@code c} takes for large work: {@code argon2-vec256} or {@code scalar}. */
    static String kernel(Argon2Compression c) {
        Argon2Kernel k = kernelFor(c, Long.MAX_VALUE);
        return k == null ? "scalar" : k.name();
    }

    /** {@link #kernel(Argon2Compression)} under the default setting ({@link Argon2Compression#DEFAULT}). */
    static String kernel() {
        return kernel(Argon2Compression.DEFAULT);
    }

    /**
     * Fills {@code out} with the Argon2 tag of {@code password} and {@code salt} ({@code secret} and
     * {@code associated} may be empty), running at most {@code threads} lanes at once, on the
     * compression {@link Argon2Compression#DEFAULT} chooses and helper threads of this call.
     */
    static void derive(int type, byte[] password, byte[] salt, byte[] secret, byte[] associated, int passes,
            int memoryKib, int lanes, byte[] out, int threads) {
        derive(type, password, salt, secret, associated, passes, memoryKib, lanes, out, threads,
                kernelFor(Argon2Compression.DEFAULT, (long) memoryKib * passes), null, null);
    }

    /**
     * {@link #derive(int, byte[], byte[], byte[], byte[], int, int, int, byte[], int)} on the given
     * compression ({@code null}: the scalar one), its helpers on {@code executor} (null: threads
     * started for this call). Stops with {@link CancellationException} at the next slice once
     * {@code stop} (may be null) says so or the calling thread is interrupted.
     */
    static void derive(int type, byte[] password, byte[] salt, byte[] secret, byte[] associated, int passes,
            int memoryKib, int lanes, byte[] out, int threads, Argon2Kernel kernel, Executor executor,
            BooleanSupplier stop) {
        if (type < ARGON2_D || type > ARGON2_ID || passes < 1 || lanes < 1 || lanes > 0xFFFFFF
                || memoryKib < 8 * lanes || out.length < 4 || salt.length < 8) {
            throw new IllegalArgumentException("Argon2 parameters outside RFC 9106's ranges");
        }
        Argon2Engine e = new Argon2Engine(type, passes, memoryKib, lanes, kernel);
        int parallel = Math.max(1, Math.min(threads, lanes));
        byte[] h0 = new byte[64 + 8];
        byte[] block = new byte[1024];
        try {
            initialHash(h0, type, password, salt, secret, associated, passes, memoryKib, lanes, out.length);
            e.fill(parallel, executor, stop, h0);
            long[] last = new long[WORDS];
            for (int l = 0; l < lanes; l++) {
                long[] m = e.memory[l][SYNC_POINTS - 1];
                int off = (e.segmentLength - 1) * WORDS;
                for (int i = 0; i < WORDS; i++) {
                    last[i] ^= m[off + i];
                }
            }
            for (int i = 0; i < WORDS; i++) {
                long w = last[i];
                for (int b = 0; b < 8; b++) {
                    block[8 * i + b] = (byte) (w >>> (8 * b));
                }
            }
            Arrays.fill(last, 0);
            hashPrime(block, out);
        } finally {
            e.wipe(parallel, executor);
            Arrays.fill(h0, (byte) 0);
            Arrays.fill(block, (byte) 0);
        }
    }

    private static void initialHash(byte[] h0, int type, byte[] password, byte[] salt, byte[] secret,
            byte[] associated, int passes, int memoryKib, int lanes, int tagLength) {
        Blake2b d = new Blake2b(64);
        byte[] w = new byte[4];
        for (int v : new int[] {lanes, tagLength, memoryKib, passes, VERSION, type}) {
            le32(w, 0, v);
            d.update(w, 0, 4);
        }
        for (byte[] field : new byte[][] {password, salt, secret, associated}) {
            le32(w, 0, field.length);
            d.update(w, 0, 4);
            d.update(field, 0, field.length);
        }
        d.doFinal(h0, 0);
        d.reset();
    }

    /** H' of RFC 9106 section 3.3: {@code out.length} bytes of BLAKE2b over LE32(length) || in. */
    private static void hashPrime(byte[] in, byte[] out) {
        byte[] len = new byte[4];
        le32(len, 0, out.length);
        if (out.length <= 64) {
            Blake2b d = new Blake2b(out.length);
            d.update(len, 0, 4);
            d.update(in, 0, in.length);
            d.doFinal(out, 0);
            return;
        }
        byte[] v = new byte[64];
        Blake2b d = new Blake2b(64);
        d.update(len, 0, 4);
        d.update(in, 0, in.length);
        d.doFinal(v, 0);
        int r = (out.length + 31) / 32 - 2;
        int pos = 0;
        System.arraycopy(v, 0, out, pos, 32);
        pos += 32;
        for (int i = 2; i <= r; i++) {
            d.reset();
            d.update(v, 0, 64);
            d.doFinal(v, 0);
            System.arraycopy(v, 0, out, pos, 32);
            pos += 32;
        }
        Blake2b tail = new Blake2b(out.length - 32 * r);
        tail.update(v, 0, 64);
        byte[] t = new byte[out.length - 32 * r];
        tail.doFinal(t, 0);
        System.arraycopy(t, 0, out, pos, t.length);
        Arrays.fill(v, (byte) 0);
        Arrays.fill(t, (byte) 0);
    }

    /** Allocates the first segment of lane {@code lane} and writes its first two blocks from H0 (section 3.4). */
    private void startLane(int lane, byte[] h0) {
        long[] m = new long[segmentLength * WORDS];
        byte[] seed = Arrays.copyOf(h0, 72);
        byte[] block = new byte[1024];
        for (int j = 0; j < 2; j++) {
            le32(seed, 64, j);
            le32(seed, 68, lane);
            hashPrime(seed, block);
            for (int i = 0; i < WORDS; i++) {
                long w = 0;
                for (int b = 7; b >= 0; b--) {
                    w = (w << 8) | (block[8 * i + b] & 0xFF);
                }
                m[j * WORDS + i] = w;
            }
        }
        Arrays.fill(seed, (byte) 0);
        Arrays.fill(block, (byte) 0);
        memory[lane][0] = m;
    }

    /** Zeroes every lane (in parallel, as they were filled). */
    private void wipe(int threads, Executor executor) {
        Runnable[] tasks = new Runnable[lanes];
        for (int lane = 0; lane < lanes; lane++) {
            final long[][] m = memory[lane];
            tasks[lane] = () -> {
                for (long[] segment : m) {
                    if (segment != null) {
                        Arrays.fill(segment, 0);
                    }
                }
            };
        }
        Workers.runAll(tasks, threads, executor, "vectorjce-argon2");
        for (long[][] m : memory) {
            Arrays.fill(m, null);
        }
    }

    /**
     * Runs the passes, slice by slice, the lanes of each slice in parallel; checks {@code stop}
     * and the caller's interrupt before each slice.
     */
    private void fill(int threads, Executor executor, BooleanSupplier stop, byte[] h0) {
        Runnable[] segments = new Runnable[lanes];
        for (int pass = 0; pass < passes; pass++) {
            for (int slice = 0; slice < SYNC_POINTS; slice++) {
                if (Thread.currentThread().isInterrupted() || stop != null && stop.getAsBoolean()) {
                    throw new CancellationException("Argon2 stopped");
                }
                for (int lane = 0; lane < lanes; lane++) {
                    final int p = pass, l = lane, sl = slice;
                    segments[lane] = p == 0 && sl == 0 ? () -> {
                        startLane(l, h0);
                        segment(0, l, 0);
                    } : () -> segment(p, l, sl);
                }
                Workers.runAll(segments, threads, executor, "vectorjce-argon2");
            }
        }
    }

    /** One segment, its work blocks zeroed after. */
    private void segment(int pass, int lane, int slice) {
        long[][] s = scratch();
        try {
            fillSegment(pass, lane, slice, s);
        } finally {
            for (long[] b : s) {
                Arrays.fill(b, 0);
            }
        }
    }

    /** Work blocks of one segment: R, and for Argon2i/id the address, input and zero blocks. */
    private static long[][] scratch() {
        return new long[][] {new long[WORDS], new long[WORDS], new long[WORDS], new long[WORDS]};
    }

    /**
     * RFC 9106 section 3.4, one segment of one lane: what depends on the pass and slice is worked
     * out here, once a segment, and the blocks are filled by {@link #fillIndependent} or
     * {@link #fillDependent}, whose loops branch on nothing that changes from one segment to the
     * next. C2 compiles those loops while the first slice runs and drops the compiled code at the
     * first branch it never saw taken; with the pass and slice out of them, that no longer happens
     * at each new kind of segment (the second slice, the first data-dependent one, the second pass).
     */
    private void fillSegment(int pass, int lane, int slice, long[][] s) {
        long[] r = s[0];
        long[] address = s[1];
        long[] input = s[2];
        long[] zero = s[3];
        boolean independent = type == ARGON2_I || (type == ARGON2_ID && pass == 0 && slice < SYNC_POINTS / 2);
        if (independent) {
            Arrays.fill(input, 0);
            Arrays.fill(zero, 0);
            input[0] = pass;
            input[1] = lane;
            input[2] = slice;
            input[3] = (long) laneLength * lanes;
            input[4] = passes;
            input[5] = type;
        }
        boolean first = pass == 0 && slice == 0;
        int start = first ? 2 : 0;
        if (first && independent) {
            nextAddresses(kernel, address, input, zero, r);
        }
        long[][] lm = memory[lane];
        if (lm[slice] == null) {
            lm[slice] = new long[segmentLength * WORDS]; // the first pass, on the thread that fills it
        }
        long[] m = lm[slice];
        // the previous block: the segment's own, or at block 0 the last of the one before (of the lane's end)
        long[] pm = start == 0 ? lm[(slice + SYNC_POINTS - 1) % SYNC_POINTS] : m;
        int prev = start == 0 ? (segmentLength - 1) * WORDS : (start - 1) * WORDS;
        // section 3.4.1.2: the reference area starts at base (minus one block at index 0 for another
        // lane) and the reference index is counted from startPosition; in the first slice of the
        // first pass the reference lane is the lane itself
        Segment g = new Segment(lane, pass == 0 ? (long) slice * segmentLength : laneLength - segmentLength,
                pass != 0 && slice != SYNC_POINTS - 1 ? (long) (slice + 1) * segmentLength : 0, first ? -1 : 0, r);
        if (independent) {
            fillIndependent(g, m, start, pm, prev, start == 0 ? -1 : 0, address, input, zero);
        } else {
            fillDependent(g, m, start, pm, prev, start == 0 ? -1 : 0);
        }
    }

    /** What {@link #block} needs of its segment. {@code ownLane}: -1 when the reference lane is the lane itself. */
    private record Segment(int lane, long base, long startPosition, int ownLane, long[] r) {
    }

    /**
     * Blocks {@code start..} of a data-independent segment (Argon2i; Argon2id's first half pass):
     * J1 and J2 from the address blocks. {@code adjust} is -1 while the block is the segment's first
     * (index 0), else 0.
     */
    private void fillIndependent(Segment g, long[] m, int start, long[] pm, int prev, int adjust, long[] address,
            long[] input, long[] zero) {
        Argon2Kernel k = kernel;
        for (int i = start; i < segmentLength; i++) {
            if (i % ADDRESSES_IN_BLOCK == 0) {
                nextAddresses(k, address, input, zero, g.r());
            }
            block(k, g, m, i, pm, prev, address[i % ADDRESSES_IN_BLOCK], adjust);
            pm = m;
            prev = i * WORDS;
            adjust = 0;
        }
    }

    /** As {@link #fillIndependent}, data-dependent: J1 and J2 from the previous block's first word. */
    private void fillDependent(Segment g, long[] m, int start, long[] pm, int prev, int adjust) {
        Argon2Kernel k = kernel;
        for (int i = start; i < segmentLength; i++) {
            block(k, g, m, i, pm, prev, pm[prev], adjust);
            pm = m;
            prev = i * WORDS;
            adjust = 0;
        }
    }

    /**
     * Block {@code i} of the segment {@code m} from the previous block and the reference block that
     * {@code pseudo} (J1 low, J2 high) picks (section 3.4.1.2), without branches: the lane-dependent
     * terms by masks. The new block is xored into the old one in every pass: in the first pass the old
     * one is still the zeroes of its new array, so that is the same as writing it (version 0x13), and
     * the compression then takes the same path from the first pass on. (A branch on the pass would
     * stay untaken until the second pass, where C2 would drop its compiled compression at it and
     * run 130-180 ms of that pass's first slice uncompiled.)
     */
    private void block(Argon2Kernel k, Segment g, long[] m, int i, long[] pm, int prev, long pseudo, int adjust) {
        int lane = g.lane();
        int refLane = (int) ((pseudo >>> 32) % lanes);
        refLane += (lane - refLane) & g.ownLane();
        int same = ((refLane ^ lane) - 1) >> 31; // -1 when refLane == lane (lanes < 2^24), else 0
        long area = g.base() + (((i - 1) & same) | (adjust & ~same));
        long j1 = pseudo & 0xFFFFFFFFL;
        long x = (j1 * j1) >>> 32;
        long relative = area - 1 - ((area * x) >>> 32);
        int refIndex = (int) ((g.startPosition() + relative) % laneLength);
        int refSegment = refIndex / segmentLength;
        compress(k, pm, prev, memory[refLane][refSegment], (refIndex - refSegment * segmentLength) * WORDS, m,
                i * WORDS, true, g.r());
    }

    private static void nextAddresses(Argon2Kernel k, long[] address, long[] input, long[] zero, long[] r) {
        input[6]++;
        compress(k, zero, 0, input, 0, address, 0, false, r);
        compress(k, zero, 0, address, 0, address, 0, false, r);
    }

    /**
     * G of RFC 9106 section 3.5: {@code next = P(prev ^ ref) ^ (prev ^ ref)}, xored into the old
     * {@code next} when {@code xor} (passes after the first, version 0x13). {@code prev ^ ref} goes
     * to {@code next} first (the old value is read before), then {@code P} of it is xored in; the
     * next block may be {@code ref} itself (the address generator's second call).
     */
    private static void compress(Argon2Kernel k, long[] pm, int prev, long[] rm, int ref, long[] nm, int next,
            boolean xor, long[] r) {
        if (k != null) {
            k.compress(pm, prev, rm, ref, nm, next, xor, r);
            return;
        }
        compressScalar(pm, prev, rm, ref, nm, next, xor, r);
    }

    /** {@link #compress} without the vector kernel (the tests compare the two). */
    static void compressScalar(long[] pm, int prev, long[] rm, int ref, long[] nm, int next, boolean xor,
            long[] r) {
        if (xor) {
            for (int i = 0; i < WORDS; i++) {
                long v = pm[prev + i] ^ rm[ref + i];
                r[i] = v;
                nm[next + i] ^= v;
            }
        } else {
            for (int i = 0; i < WORDS; i++) {
                long v = pm[prev + i] ^ rm[ref + i];
                r[i] = v;
                nm[next + i] = v;
            }
        }
        Argon2Rounds.permute(r);
        for (int i = 0; i < WORDS; i++) {
            nm[next + i] ^= r[i];
        }
    }

    private static void le32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }
}
