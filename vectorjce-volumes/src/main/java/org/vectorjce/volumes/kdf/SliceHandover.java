package org.vectorjce.volumes.kdf;

/**
 * {@link org.vectorjce.volumes.Argon2Compression#AUTO}'s vector compression: the scalar one serves
 * the first slice of the first pass, the vector one every slice after. In a fresh JVM the scalar
 * code reaches C2 within the first slice, where the vector code, called as such, runs uncompiled
 * (each vector a heap object) for 0.3-0.4 s. So in the first slice every {@link #PROBE_EVERY}th
 * block also calls the vector kernel's {@link Argon2Kernel#probe} (its methods with nothing to
 * compute: HotSpot counts them and C2 compiles them while the scalar code serves), and one memory
 * block in {@link #REAL} and one address block in 64 (by a word of its input, so spread) are
 * computed by the vector compression instead, so that its methods' profiles have seen their work
 * and the branch below has been taken both ways before C2 compiles the engine's loops in the first
 * slice (a side it never saw taken would be a trap at the second slice). The tag is the same
 * whichever computes a block.
 *
 * <p>The engine makes one per derivation ({@link #forDerivation}) and sets {@link #serving} between
 * the first slice and the second, while no segment runs.
 */
final class SliceHandover implements Argon2Kernel {
    /** One block in this many of the first slice also probes the vector compression. */
    static final int PROBE_EVERY = 16;
    /** One memory block in this many of a first-slice segment is computed by the vector compression. */
    static final int REAL = 8192;

    private final Argon2Kernel vector;
    /** 1 once the vector compression serves every block (an int: the branch below takes no boolean). */
    volatile int serving;

    SliceHandover(Argon2Kernel vector) {
        this.vector = vector;
    }

    /** A new one over the same vector compression, for one derivation. */
    SliceHandover forDerivation() {
        return new SliceHandover(vector);
    }

    @Override
    public String name() {
        return vector.name();
    }

    @Override
    public void compress(long[] pm, int prev, long[] rm, int ref, long[] nm, int next, boolean xor, long[] r) {
        int block = next >>> 7;
        // 1 for the first slice's vector blocks: memory blocks at multiples of REAL; address
        // blocks (xor false, always at 0) where the low 6 bits of their input's word 6 are 0
        int real = xor ? ((block & (REAL - 1)) - 1) >>> 31 : (((int) rm[ref + 6] & 63) - 1) >>> 31;
        if ((serving | real) != 0) {
            vector.compress(pm, prev, rm, ref, nm, next, xor, r);
        } else {
            Argon2Engine.compressScalar(pm, prev, rm, ref, nm, next, xor, r);
            if ((block & (PROBE_EVERY - 1)) == 0) {
                vector.probe();
            }
        }
    }

    @Override
    public void probe() {
        vector.probe();
    }

    @Override
    public long autoMinWork() {
        return vector.autoMinWork();
    }
}
