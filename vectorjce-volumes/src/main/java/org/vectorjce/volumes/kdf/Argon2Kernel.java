package org.vectorjce.volumes.kdf;

/**
 * Argon2's compression function G (RFC 9106 section 3.5) as an alternative implementation provides
 * it to {@link Argon2Engine}: the Java 25 part of the jar holds one on {@code jdk.incubator.vector}
 * ({@code Argon2Vector256}), loaded by name when that module is present.
 */
interface Argon2Kernel {
    /** The kernel's name, as {@link Argon2Engine#kernel()} reports it. */
    String name();

    /**
     * Writes {@code P(prev ^ ref) ^ (prev ^ ref)} to the 128 words of {@code nm} at {@code next},
     * xored into what is there when {@code xor} (version 0x13's passes after the first; the engine
     * xors every memory block, the first pass's into zeroes, and writes only its address blocks).
     * The next block may be {@code ref} itself; {@code r} is a 128-word work block the caller wipes.
     */
    void compress(long[] pm, int prev, long[] rm, int ref, long[] nm, int next, boolean xor, long[] r);

    /**
     * The work (memory KiB x passes) from which {@link org.vectorjce.volumes.Argon2Compression#AUTO}
     * takes this kernel: where its compiled speed has won back its start in a fresh JVM.
     */
    long autoMinWork();
}
