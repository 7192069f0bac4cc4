package org.vectorjce.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.Arrays;
import java.util.Random;

/**
 * Where a {@link CipherProgram} gets its choices from: Jazzer's {@link FuzzedDataProvider} (the
 * coverage-guided fuzz test and its committed corpus) or a seeded {@link Random} (the seeded sweep,
 * which needs no Jazzer at all). Both decode through the same code, so a program is a program.
 */
interface FuzzInput {
    /** A value in {@code [lo, hi]}. */
    int intIn(int lo, int hi);

    boolean bool();

    long longValue();

    /** Exactly {@code n} bytes (zeros where the input has run out). */
    byte[] bytes(int n);

    static FuzzInput of(FuzzedDataProvider d) {
        return new FuzzInput() {
            @Override
            public int intIn(int lo, int hi) {
                return d.consumeInt(lo, hi);
            }

            @Override
            public boolean bool() {
                return d.consumeBoolean();
            }

            @Override
            public long longValue() {
                return d.consumeLong();
            }

            @Override
            public byte[] bytes(int n) {
                byte[] b = d.consumeBytes(n);
                return b.length == n ? b : Arrays.copyOf(b, n);
            }
        };
    }

    static FuzzInput of(Random r) {
        return new FuzzInput() {
            @Override
            public int intIn(int lo, int hi) {
                return (int) (lo + Math.floorMod(r.nextLong(), (long) hi - lo + 1));
            }

            @Override
            public boolean bool() {
                return r.nextBoolean();
            }

            @Override
            public long longValue() {
                return r.nextLong();
            }

            @Override
            public byte[] bytes(int n) {
                byte[] b = new byte[n];
                r.nextBytes(b);
                return b;
            }
        };
    }
}
