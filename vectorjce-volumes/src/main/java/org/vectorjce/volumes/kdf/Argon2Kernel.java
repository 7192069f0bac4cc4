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
     * xored into what is there when {@code xor} (passes after the first, version 0x13). The next
     * block may be {@code ref} itself; {@code r} is a 128-word work block the caller wipes.
     */
    void compress(long[] pm, int prev, long[] rm, int ref, long[] nm, int next, boolean xor, long[] r);

    /**
     * Calls each of the methods {@link #compress} is made of {@code n} times with arguments that make
     * them return at once: the JIT compiles a method after some thousands of calls, which the caller
     * reaches this way before the first real call instead of through as many runs of the uncompiled
     * code.
     */
    void countCalls(int n);
}
