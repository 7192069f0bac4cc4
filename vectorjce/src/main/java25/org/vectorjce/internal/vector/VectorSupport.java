package org.vectorjce.internal.vector;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.vectorjce.internal.kernel.Platform;

/**
 * Facts about the Vector API on this JVM, for kernel availability and {@code info}. This package is
 * the only one that imports {@code jdk.incubator.vector}; the rest of the provider reaches it by
 * class name, and only when the module is in the boot layer.
 */
public final class VectorSupport {
    private VectorSupport() {
    }

    /** {@code IntVector.SPECIES_PREFERRED} in bits: on x86 512 with {@code UseAVX=3}, 256 with 2. */
    public static int preferredBits() {
        return IntVector.SPECIES_PREFERRED.vectorBitSize();
    }

    /**
     * Why a kernel needing {@code bits}-bit vectors (and, if {@code needsBytePermute}, single-
     * instruction two-table byte permutes, AVX-512 VBMI) cannot run here, or null when it can.
     * {@code SPECIES_PREFERRED} still reports 512 under {@code -Xint} or C1-only, where nothing is
     * accelerated, so the compiler is checked too.
     */
    public static String unavailableReason(int bits, boolean needsBytePermute) {
        String c2 = Platform.c2Unavailable();
        if (c2 != null) {
            return c2 + "; the Vector API is only fast under C2";
        }
        int preferred = preferredBits();
        if (preferred < bits) {
            return "preferred vector width is " + preferred + " bits, the kernel needs " + bits;
        }
        return needsBytePermute ? BytePermute.UNAVAILABLE : null;
    }

    /**
     * Why a kernel built on 16-entry byte shuffles of 128-bit vectors ({@code pshufb}, NEON
     * {@code tbl}) cannot run here, or null when it can: C2, and on x86 SSE4.1 in use.
     */
    public static String byteShuffle128Unavailable() {
        String why = unavailableReason(128, false);
        return why != null ? why : Platform.byteShuffleUnavailable();
    }

    /**
     * Whether two-vector byte permutes ({@code selectFrom(v1, v2)} on 512-bit bytes) are one
     * instruction (AVX-512 VBMI's {@code vpermi2b}), decided once: from the CPU features the OS
     * reports (/proc/cpuinfo, macOS sysctl), else measured — a one-time timing of the permute
     * against a lanewise XOR, up to ~1 s of the first Twofish or AES key set-up that asks, on a
     * system that reports no features. {@code info} shows which.
     */
    private static final class BytePermute {
        static final String UNAVAILABLE = decide();
        static String how;

        private static String decide() {
            Platform.Feature f = Platform.cpuFeature("avx512vbmi");
            if (f.known()) {
                how = "avx512vbmi " + (f.present() ? "present" : "absent") + " (from " + f.source() + ")";
                return f.present() ? null : "CPU lacks AVX-512 VBMI (single-instruction byte permutes), from " + f.source();
            }
            double ratio = measure();
            boolean native_ = Platform.permuteLooksNative(ratio);
            how = String.format("two-vector byte permute measured at %.2fx a lanewise XOR (%s; the OS reports no CPU features)",
                    ratio, native_ ? "one instruction" : "emulated");
            return native_ ? null : "two-vector byte permutes are emulated here: " + how;
        }

        /** Time per permute over time per XOR, compiled (slices until two agree within 20 %, ≤ ~1 s). */
        private static double measure() {
            VectorSpecies<Byte> b = ByteVector.SPECIES_512;
            byte[] buf = new byte[256];
            for (int i = 0; i < buf.length; i++) {
                buf[i] = (byte) (i * 37);
            }
            double last = 0;
            long end = System.nanoTime() + 1_000_000_000L;
            while (true) {
                long t0 = System.nanoTime();
                permutes(b, buf, 20_000);
                long t1 = System.nanoTime();
                xors(b, buf, 20_000);
                long t2 = System.nanoTime();
                double ratio = (t1 - t0) / (double) Math.max(1, t2 - t1);
                if ((last > 0 && Math.abs(ratio - last) <= 0.2 * last) || System.nanoTime() > end) {
                    return ratio;
                }
                last = ratio;
            }
        }

        private static void permutes(VectorSpecies<Byte> b, byte[] buf, int n) {
            ByteVector x = ByteVector.fromArray(b, buf, 0), t1 = ByteVector.fromArray(b, buf, 64);
            ByteVector t2 = ByteVector.fromArray(b, buf, 128);
            for (int i = 0; i < n; i++) {
                x = x.selectFrom(t1, t2);
            }
            x.intoArray(buf, 192);
        }

        private static void xors(VectorSpecies<Byte> b, byte[] buf, int n) {
            ByteVector x = ByteVector.fromArray(b, buf, 0), t1 = ByteVector.fromArray(b, buf, 64);
            for (int i = 0; i < n; i++) {
                x = x.lanewise(VectorOperators.XOR, t1).lanewise(VectorOperators.ADD, t1);
            }
            x.intoArray(buf, 192);
        }
    }

    /** How the byte-permute fact was obtained, for {@code info}. */
    public static String bytePermuteSource() {
        String unused = BytePermute.UNAVAILABLE;
        return BytePermute.how;
    }
}
