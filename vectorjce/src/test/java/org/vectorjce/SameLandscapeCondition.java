package org.vectorjce;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a surefire execution whose landscape this machine already showed in the default one: the
 * {@code avx2} execution ({@code -XX:UseAVX=2}) on a CPU without AVX-512 VBMI, where the default
 * JVM already chose the 256-bit kernels and ran every test on them. The execution names itself
 * with {@code vectorjce.test.sameAsDefaultWithout512=true}. Registered through the JUnit
 * extension auto-detection ({@code junit-platform.properties}).
 */
public final class SameLandscapeCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Boolean.getBoolean("vectorjce.test.sameAsDefaultWithout512") && !TestMachine.hasAvx512Vbmi()) {
            return ConditionEvaluationResult.disabled("this CPU has no AVX-512 VBMI: the default execution already"
                    + " ran every test on the 256-bit kernels this execution would choose");
        }
        return ConditionEvaluationResult.enabled("a landscape of its own");
    }
}
