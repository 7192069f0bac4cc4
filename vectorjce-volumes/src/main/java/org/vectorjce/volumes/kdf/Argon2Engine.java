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
    /**
     * Work (memory KiB x passes) from which {@link Argon2Compression#AUTO} takes the vector
     * compression: 8 GiB-passes. Its first calls run uncompiled (each vector a heap object, far
     * slower than the scalar code) until C2 has compiled it, and that start costs more than its
     * compiled speed wins back over a key slot of cryptsetup's default cost in a fresh JVM (see
     * docs/performance.md and bench/unlock.sh); the scalar code reaches C2 within the first slice.
     * Counting calls toward the JIT's thresholds first ({@link Argon2Kernel#countCalls}) made it
     * slower still.
     */
    static final long VECTOR_MIN_WORK = 8L << 20;

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

    /** The vector compression this JVM can run, or null (the tests compare it with the scalar one). */
    static Argon2Kernel vectorKernel() {
        return VECTOR;
    }

    /**
     * The compression a derivation of {@code work} (memory KiB x passes) runs under {@code c}: the
     * vector one (never when this JVM lacks it) or null for the scalar one.
     */
    static Argon2Kernel kernelFor(Argon2Compression c, long work) {
        return switch (c) {
            case SCALAR -> null;
            case VECTOR -> VECTOR;
            case AUTO -> work >= VECTOR_MIN_WORK ? VECTOR : null;
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
                pass != 0 && slice != SYNC_POINTS - 1 ? (long) (slice + 1) * segmentLength : 0, first ? -1 : 0,
                pass != 0, r);
        if (independent) {
            fillIndependent(g, m, start, pm, prev, start == 0 ? -1 : 0, address, input, zero);
        } else {
            fillDependent(g, m, start, pm, prev, start == 0 ? -1 : 0);
        }
    }

    /** What {@link #block} needs of its segment. {@code ownLane}: -1 when the reference lane is the lane itself. */
    private record Segment(int lane, long base, long startPosition, int ownLane, boolean xor, long[] r) {
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
     * terms by masks.
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
                i * WORDS, g.xor(), g.r());
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
        permute(r);
        for (int i = 0; i < WORDS; i++) {
            nm[next + i] ^= r[i];
        }
    }

    /**
     * P of RFC 9106 section 3.6 on R: the eight rows of 16 words, then the eight columns of 2 x 8
     * words. One method per row and column, with constant indices (one range check each) and
     * BlaMka written out, small enough that C2 compiles each one whole.
     */
    private static void permute(long[] r) {
        row0(r);
        row1(r);
        row2(r);
        row3(r);
        row4(r);
        row5(r);
        row6(r);
        row7(r);
        column0(r);
        column1(r);
        column2(r);
        column3(r);
        column4(r);
        column5(r);
        column6(r);
        column7(r);
    }

    private static void row0(long[] r) {
        long v0 = r[0];
        long v1 = r[1];
        long v2 = r[2];
        long v3 = r[3];
        long v4 = r[4];
        long v5 = r[5];
        long v6 = r[6];
        long v7 = r[7];
        long v8 = r[8];
        long v9 = r[9];
        long v10 = r[10];
        long v11 = r[11];
        long v12 = r[12];
        long v13 = r[13];
        long v14 = r[14];
        long v15 = r[15];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[0] = v0;
        r[1] = v1;
        r[2] = v2;
        r[3] = v3;
        r[4] = v4;
        r[5] = v5;
        r[6] = v6;
        r[7] = v7;
        r[8] = v8;
        r[9] = v9;
        r[10] = v10;
        r[11] = v11;
        r[12] = v12;
        r[13] = v13;
        r[14] = v14;
        r[15] = v15;
    }

    private static void row1(long[] r) {
        long v0 = r[16];
        long v1 = r[17];
        long v2 = r[18];
        long v3 = r[19];
        long v4 = r[20];
        long v5 = r[21];
        long v6 = r[22];
        long v7 = r[23];
        long v8 = r[24];
        long v9 = r[25];
        long v10 = r[26];
        long v11 = r[27];
        long v12 = r[28];
        long v13 = r[29];
        long v14 = r[30];
        long v15 = r[31];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[16] = v0;
        r[17] = v1;
        r[18] = v2;
        r[19] = v3;
        r[20] = v4;
        r[21] = v5;
        r[22] = v6;
        r[23] = v7;
        r[24] = v8;
        r[25] = v9;
        r[26] = v10;
        r[27] = v11;
        r[28] = v12;
        r[29] = v13;
        r[30] = v14;
        r[31] = v15;
    }

    private static void row2(long[] r) {
        long v0 = r[32];
        long v1 = r[33];
        long v2 = r[34];
        long v3 = r[35];
        long v4 = r[36];
        long v5 = r[37];
        long v6 = r[38];
        long v7 = r[39];
        long v8 = r[40];
        long v9 = r[41];
        long v10 = r[42];
        long v11 = r[43];
        long v12 = r[44];
        long v13 = r[45];
        long v14 = r[46];
        long v15 = r[47];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[32] = v0;
        r[33] = v1;
        r[34] = v2;
        r[35] = v3;
        r[36] = v4;
        r[37] = v5;
        r[38] = v6;
        r[39] = v7;
        r[40] = v8;
        r[41] = v9;
        r[42] = v10;
        r[43] = v11;
        r[44] = v12;
        r[45] = v13;
        r[46] = v14;
        r[47] = v15;
    }

    private static void row3(long[] r) {
        long v0 = r[48];
        long v1 = r[49];
        long v2 = r[50];
        long v3 = r[51];
        long v4 = r[52];
        long v5 = r[53];
        long v6 = r[54];
        long v7 = r[55];
        long v8 = r[56];
        long v9 = r[57];
        long v10 = r[58];
        long v11 = r[59];
        long v12 = r[60];
        long v13 = r[61];
        long v14 = r[62];
        long v15 = r[63];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[48] = v0;
        r[49] = v1;
        r[50] = v2;
        r[51] = v3;
        r[52] = v4;
        r[53] = v5;
        r[54] = v6;
        r[55] = v7;
        r[56] = v8;
        r[57] = v9;
        r[58] = v10;
        r[59] = v11;
        r[60] = v12;
        r[61] = v13;
        r[62] = v14;
        r[63] = v15;
    }

    private static void row4(long[] r) {
        long v0 = r[64];
        long v1 = r[65];
        long v2 = r[66];
        long v3 = r[67];
        long v4 = r[68];
        long v5 = r[69];
        long v6 = r[70];
        long v7 = r[71];
        long v8 = r[72];
        long v9 = r[73];
        long v10 = r[74];
        long v11 = r[75];
        long v12 = r[76];
        long v13 = r[77];
        long v14 = r[78];
        long v15 = r[79];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[64] = v0;
        r[65] = v1;
        r[66] = v2;
        r[67] = v3;
        r[68] = v4;
        r[69] = v5;
        r[70] = v6;
        r[71] = v7;
        r[72] = v8;
        r[73] = v9;
        r[74] = v10;
        r[75] = v11;
        r[76] = v12;
        r[77] = v13;
        r[78] = v14;
        r[79] = v15;
    }

    private static void row5(long[] r) {
        long v0 = r[80];
        long v1 = r[81];
        long v2 = r[82];
        long v3 = r[83];
        long v4 = r[84];
        long v5 = r[85];
        long v6 = r[86];
        long v7 = r[87];
        long v8 = r[88];
        long v9 = r[89];
        long v10 = r[90];
        long v11 = r[91];
        long v12 = r[92];
        long v13 = r[93];
        long v14 = r[94];
        long v15 = r[95];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[80] = v0;
        r[81] = v1;
        r[82] = v2;
        r[83] = v3;
        r[84] = v4;
        r[85] = v5;
        r[86] = v6;
        r[87] = v7;
        r[88] = v8;
        r[89] = v9;
        r[90] = v10;
        r[91] = v11;
        r[92] = v12;
        r[93] = v13;
        r[94] = v14;
        r[95] = v15;
    }

    private static void row6(long[] r) {
        long v0 = r[96];
        long v1 = r[97];
        long v2 = r[98];
        long v3 = r[99];
        long v4 = r[100];
        long v5 = r[101];
        long v6 = r[102];
        long v7 = r[103];
        long v8 = r[104];
        long v9 = r[105];
        long v10 = r[106];
        long v11 = r[107];
        long v12 = r[108];
        long v13 = r[109];
        long v14 = r[110];
        long v15 = r[111];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[96] = v0;
        r[97] = v1;
        r[98] = v2;
        r[99] = v3;
        r[100] = v4;
        r[101] = v5;
        r[102] = v6;
        r[103] = v7;
        r[104] = v8;
        r[105] = v9;
        r[106] = v10;
        r[107] = v11;
        r[108] = v12;
        r[109] = v13;
        r[110] = v14;
        r[111] = v15;
    }

    private static void row7(long[] r) {
        long v0 = r[112];
        long v1 = r[113];
        long v2 = r[114];
        long v3 = r[115];
        long v4 = r[116];
        long v5 = r[117];
        long v6 = r[118];
        long v7 = r[119];
        long v8 = r[120];
        long v9 = r[121];
        long v10 = r[122];
        long v11 = r[123];
        long v12 = r[124];
        long v13 = r[125];
        long v14 = r[126];
        long v15 = r[127];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[112] = v0;
        r[113] = v1;
        r[114] = v2;
        r[115] = v3;
        r[116] = v4;
        r[117] = v5;
        r[118] = v6;
        r[119] = v7;
        r[120] = v8;
        r[121] = v9;
        r[122] = v10;
        r[123] = v11;
        r[124] = v12;
        r[125] = v13;
        r[126] = v14;
        r[127] = v15;
    }

    private static void column0(long[] r) {
        long v0 = r[0];
        long v1 = r[1];
        long v2 = r[16];
        long v3 = r[17];
        long v4 = r[32];
        long v5 = r[33];
        long v6 = r[48];
        long v7 = r[49];
        long v8 = r[64];
        long v9 = r[65];
        long v10 = r[80];
        long v11 = r[81];
        long v12 = r[96];
        long v13 = r[97];
        long v14 = r[112];
        long v15 = r[113];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[0] = v0;
        r[1] = v1;
        r[16] = v2;
        r[17] = v3;
        r[32] = v4;
        r[33] = v5;
        r[48] = v6;
        r[49] = v7;
        r[64] = v8;
        r[65] = v9;
        r[80] = v10;
        r[81] = v11;
        r[96] = v12;
        r[97] = v13;
        r[112] = v14;
        r[113] = v15;
    }

    private static void column1(long[] r) {
        long v0 = r[2];
        long v1 = r[3];
        long v2 = r[18];
        long v3 = r[19];
        long v4 = r[34];
        long v5 = r[35];
        long v6 = r[50];
        long v7 = r[51];
        long v8 = r[66];
        long v9 = r[67];
        long v10 = r[82];
        long v11 = r[83];
        long v12 = r[98];
        long v13 = r[99];
        long v14 = r[114];
        long v15 = r[115];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[2] = v0;
        r[3] = v1;
        r[18] = v2;
        r[19] = v3;
        r[34] = v4;
        r[35] = v5;
        r[50] = v6;
        r[51] = v7;
        r[66] = v8;
        r[67] = v9;
        r[82] = v10;
        r[83] = v11;
        r[98] = v12;
        r[99] = v13;
        r[114] = v14;
        r[115] = v15;
    }

    private static void column2(long[] r) {
        long v0 = r[4];
        long v1 = r[5];
        long v2 = r[20];
        long v3 = r[21];
        long v4 = r[36];
        long v5 = r[37];
        long v6 = r[52];
        long v7 = r[53];
        long v8 = r[68];
        long v9 = r[69];
        long v10 = r[84];
        long v11 = r[85];
        long v12 = r[100];
        long v13 = r[101];
        long v14 = r[116];
        long v15 = r[117];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[4] = v0;
        r[5] = v1;
        r[20] = v2;
        r[21] = v3;
        r[36] = v4;
        r[37] = v5;
        r[52] = v6;
        r[53] = v7;
        r[68] = v8;
        r[69] = v9;
        r[84] = v10;
        r[85] = v11;
        r[100] = v12;
        r[101] = v13;
        r[116] = v14;
        r[117] = v15;
    }

    private static void column3(long[] r) {
        long v0 = r[6];
        long v1 = r[7];
        long v2 = r[22];
        long v3 = r[23];
        long v4 = r[38];
        long v5 = r[39];
        long v6 = r[54];
        long v7 = r[55];
        long v8 = r[70];
        long v9 = r[71];
        long v10 = r[86];
        long v11 = r[87];
        long v12 = r[102];
        long v13 = r[103];
        long v14 = r[118];
        long v15 = r[119];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[6] = v0;
        r[7] = v1;
        r[22] = v2;
        r[23] = v3;
        r[38] = v4;
        r[39] = v5;
        r[54] = v6;
        r[55] = v7;
        r[70] = v8;
        r[71] = v9;
        r[86] = v10;
        r[87] = v11;
        r[102] = v12;
        r[103] = v13;
        r[118] = v14;
        r[119] = v15;
    }

    private static void column4(long[] r) {
        long v0 = r[8];
        long v1 = r[9];
        long v2 = r[24];
        long v3 = r[25];
        long v4 = r[40];
        long v5 = r[41];
        long v6 = r[56];
        long v7 = r[57];
        long v8 = r[72];
        long v9 = r[73];
        long v10 = r[88];
        long v11 = r[89];
        long v12 = r[104];
        long v13 = r[105];
        long v14 = r[120];
        long v15 = r[121];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[8] = v0;
        r[9] = v1;
        r[24] = v2;
        r[25] = v3;
        r[40] = v4;
        r[41] = v5;
        r[56] = v6;
        r[57] = v7;
        r[72] = v8;
        r[73] = v9;
        r[88] = v10;
        r[89] = v11;
        r[104] = v12;
        r[105] = v13;
        r[120] = v14;
        r[121] = v15;
    }

    private static void column5(long[] r) {
        long v0 = r[10];
        long v1 = r[11];
        long v2 = r[26];
        long v3 = r[27];
        long v4 = r[42];
        long v5 = r[43];
        long v6 = r[58];
        long v7 = r[59];
        long v8 = r[74];
        long v9 = r[75];
        long v10 = r[90];
        long v11 = r[91];
        long v12 = r[106];
        long v13 = r[107];
        long v14 = r[122];
        long v15 = r[123];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[10] = v0;
        r[11] = v1;
        r[26] = v2;
        r[27] = v3;
        r[42] = v4;
        r[43] = v5;
        r[58] = v6;
        r[59] = v7;
        r[74] = v8;
        r[75] = v9;
        r[90] = v10;
        r[91] = v11;
        r[106] = v12;
        r[107] = v13;
        r[122] = v14;
        r[123] = v15;
    }

    private static void column6(long[] r) {
        long v0 = r[12];
        long v1 = r[13];
        long v2 = r[28];
        long v3 = r[29];
        long v4 = r[44];
        long v5 = r[45];
        long v6 = r[60];
        long v7 = r[61];
        long v8 = r[76];
        long v9 = r[77];
        long v10 = r[92];
        long v11 = r[93];
        long v12 = r[108];
        long v13 = r[109];
        long v14 = r[124];
        long v15 = r[125];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[12] = v0;
        r[13] = v1;
        r[28] = v2;
        r[29] = v3;
        r[44] = v4;
        r[45] = v5;
        r[60] = v6;
        r[61] = v7;
        r[76] = v8;
        r[77] = v9;
        r[92] = v10;
        r[93] = v11;
        r[108] = v12;
        r[109] = v13;
        r[124] = v14;
        r[125] = v15;
    }

    private static void column7(long[] r) {
        long v0 = r[14];
        long v1 = r[15];
        long v2 = r[30];
        long v3 = r[31];
        long v4 = r[46];
        long v5 = r[47];
        long v6 = r[62];
        long v7 = r[63];
        long v8 = r[78];
        long v9 = r[79];
        long v10 = r[94];
        long v11 = r[95];
        long v12 = r[110];
        long v13 = r[111];
        long v14 = r[126];
        long v15 = r[127];
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 32) | (v12 << 32);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 24) | (v4 << 40);
        v0 += v4 + 2 * (v0 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 48);
        v8 += v12 + 2 * (v8 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v4 ^= v8; v4 = (v4 >>> 63) | (v4 << 1);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 32) | (v13 << 32);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 24) | (v5 << 40);
        v1 += v5 + 2 * (v1 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 48);
        v9 += v13 + 2 * (v9 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v5 ^= v9; v5 = (v5 >>> 63) | (v5 << 1);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 32) | (v14 << 32);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 24) | (v6 << 40);
        v2 += v6 + 2 * (v2 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 48);
        v10 += v14 + 2 * (v10 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v6 ^= v10; v6 = (v6 >>> 63) | (v6 << 1);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 32) | (v15 << 32);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 24) | (v7 << 40);
        v3 += v7 + 2 * (v3 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 48);
        v11 += v15 + 2 * (v11 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v7 ^= v11; v7 = (v7 >>> 63) | (v7 << 1);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 32) | (v15 << 32);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 24) | (v5 << 40);
        v0 += v5 + 2 * (v0 & 0xFFFFFFFFL) * (v5 & 0xFFFFFFFFL); v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 48);
        v10 += v15 + 2 * (v10 & 0xFFFFFFFFL) * (v15 & 0xFFFFFFFFL); v5 ^= v10; v5 = (v5 >>> 63) | (v5 << 1);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 32) | (v12 << 32);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 24) | (v6 << 40);
        v1 += v6 + 2 * (v1 & 0xFFFFFFFFL) * (v6 & 0xFFFFFFFFL); v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 48);
        v11 += v12 + 2 * (v11 & 0xFFFFFFFFL) * (v12 & 0xFFFFFFFFL); v6 ^= v11; v6 = (v6 >>> 63) | (v6 << 1);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 32) | (v13 << 32);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 24) | (v7 << 40);
        v2 += v7 + 2 * (v2 & 0xFFFFFFFFL) * (v7 & 0xFFFFFFFFL); v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 48);
        v8 += v13 + 2 * (v8 & 0xFFFFFFFFL) * (v13 & 0xFFFFFFFFL); v7 ^= v8; v7 = (v7 >>> 63) | (v7 << 1);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 32) | (v14 << 32);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 24) | (v4 << 40);
        v3 += v4 + 2 * (v3 & 0xFFFFFFFFL) * (v4 & 0xFFFFFFFFL); v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 48);
        v9 += v14 + 2 * (v9 & 0xFFFFFFFFL) * (v14 & 0xFFFFFFFFL); v4 ^= v9; v4 = (v4 >>> 63) | (v4 << 1);
        r[14] = v0;
        r[15] = v1;
        r[30] = v2;
        r[31] = v3;
        r[46] = v4;
        r[47] = v5;
        r[62] = v6;
        r[63] = v7;
        r[78] = v8;
        r[79] = v9;
        r[94] = v10;
        r[95] = v11;
        r[110] = v12;
        r[111] = v13;
        r[126] = v14;
        r[127] = v15;
    }

    private static void le32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }
}
