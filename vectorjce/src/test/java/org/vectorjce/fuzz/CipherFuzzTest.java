package org.vectorjce.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of the whole JCA surface with Jazzer: each input decodes into a
 * {@link CipherProgram} (transformation, kernel, key, IV, direction, a sequence of calls), which
 * {@link Differential} runs on VectorJCE's chosen kernel, on its scalar kernel and, for ECB, CBC
 * and CTR, on Bouncy Castle, asserting the same outputs or the same exceptions.
 *
 * <p>In {@code mvn verify} this runs in Jazzer's regression mode: once on the empty input and once
 * on every file of the committed corpus in
 * {@code src/test/resources/org/vectorjce/fuzz/CipherFuzzTestInputs/differential/} (a few seconds).
 *
 * <p>A fuzzing session (coverage-guided, bounded in time; one JVM, one core), from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce test-compile surefire:test@default-test -Dtest=CipherFuzzTest -Djazzer.max_duration=10m
 * </pre>
 * {@code JAZZER_FUZZ} is Jazzer's own switch (unset in CI, so the build only replays the corpus);
 * without {@code jazzer.max_duration} a session stops after the annotation's 5 minutes. New
 * interesting inputs go to {@code vectorjce/.cifuzz-corpus/} (not committed); a finding
 * is written to the inputs directory above as {@code crash-<sha1>}, fails the session, and from
 * then on runs in every build. The committed corpus (the seeds of every session) is a
 * coverage-minimised set of about 140 inputs from some two million executions; to extend it, copy
 * a few new inputs from {@code .cifuzz-corpus/} into the inputs directory.
 */
class CipherFuzzTest {

    private static boolean hooksTurnedOff;

    /**
     * Regression mode needs none of Jazzer's bytecode hooks (sanitizers, comparison tracing);
     * without them the agent does not re-instrument the classes the rest of the suite uses, and
     * the corpus runs in a second instead of eight. Fuzzing mode keeps them.
     */
    @BeforeAll
    static void noHooksInRegressionMode() {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    @FuzzTest(maxDuration = "5m")
    void differential(FuzzedDataProvider data) {
        Differential.check(CipherProgram.decode(FuzzInput.of(data)));
    }
}
