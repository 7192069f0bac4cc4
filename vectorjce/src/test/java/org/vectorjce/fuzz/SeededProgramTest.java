package org.vectorjce.fuzz;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fuzz harness driven by a seeded {@link Random} instead of Jazzer: the same decode-and-compare
 * {@link Differential} over {@code vectorjce.fuzz.tries} random programs (default 3000, a few seconds),
 * from seed {@code vectorjce.fuzz.seed} (default fixed, so CI is repeatable). Every failure names
 * the program and the seed of its try; rerun one with {@code -Dvectorjce.fuzz.seed=<seed>
 * -Dvectorjce.fuzz.tries=1}. A longer blind session: {@code -Dvectorjce.fuzz.tries=100000}.
 */
class SeededProgramTest {

    static final long BASE_SEED = Long.getLong("vectorjce.fuzz.seed", 0x5EED_F022L);
    static final int TRIES = Integer.getInteger("vectorjce.fuzz.tries", 3000);

    @Test
    void randomProgramsAgreeAcrossKernelsAndWithBouncyCastle() {
        long t0 = System.nanoTime();
        Stats.reset();
        for (int i = 0; i < TRIES; i++) {
            long seed = BASE_SEED + i;
            CipherProgram p = CipherProgram.decode(FuzzInput.of(new Random(seed)));
            try {
                Differential.check(p);
            } catch (AssertionError e) {
                throw new AssertionError("try " + i + ", seed " + seed + " (rerun: -Dvectorjce.fuzz.seed=" + seed
                        + " -Dvectorjce.fuzz.tries=1)", e);
            }
        }
        System.out.printf("[FUZZ] %d seeded programs from seed %d in %.1f s: %s%n", TRIES, BASE_SEED,
                (System.nanoTime() - t0) / 1e9, Stats.summary());
    }
}
