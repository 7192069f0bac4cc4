package org.vectorjce.internal.mode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.vectorjce.VectorJceProvider;

/**
 * The JVM's own switch, end to end: ciphers on the default ({@code auto}) arithmetic count their
 * bytes, cross the gate (lowered to 1 MiB by {@code vectorjce.arithmetic.warmupAfterMiB}), the
 * daemon warm-up qualifies the vector arithmetic, and the same messages then give the same
 * ciphertext as before the switch, on the scalar code. Runs in a JVM of its own (surefire
 * execution "arithmetic-switch"): elsewhere the arithmetic is forced.
 */
class ArithmeticSwitchJvmTest {
    @Test
    void ciphersCrossTheGateAndKeepTheirOutputAcrossTheSwitch() throws Exception {
        Assumptions.assumeTrue(System.getProperty(ModeArithmetics.GATE_PROPERTY) != null
                && System.getProperty(ModeArithmetics.PROPERTY) == null, "run through the pom's arithmetic-switch execution");
        ModeArithmetic vector = ModeArithmetics.selected();
        Assumptions.assumeTrue(vector != ModeArithmetic.SCALAR, "no vector arithmetic on this JVM");
        assertTrue(ModeArithmetics.describe().startsWith("scalar; "), ModeArithmetics.describe());

        Random r = new Random(11);
        byte[] msg = new byte[1 << 20];
        r.nextBytes(msg);
        byte[] iv = new byte[16];
        r.nextBytes(iv);
        String[][] cases = {{"AES/XTS/NoPadding", "64"}, {"AES/LRW/NoPadding", "32"}, {"Twofish/XTS/NoPadding", "64"}};
        byte[][] before = new byte[cases.length][];
        Cipher[] ciphers = new Cipher[cases.length];
        SecretKeySpec[] keys = new SecretKeySpec[cases.length];
        for (int c = 0; c < cases.length; c++) {
            byte[] key = new byte[Integer.parseInt(cases[c][1])];
            r.nextBytes(key);
            keys[c] = new SecretKeySpec(key, cases[c][0].substring(0, cases[c][0].indexOf('/')));
            ciphers[c] = Cipher.getInstance(cases[c][0], new VectorJceProvider());
            ciphers[c].init(Cipher.ENCRYPT_MODE, keys[c], new IvParameterSpec(iv));
            before[c] = ciphers[c].doFinal(msg);
        }
        assertTrue(ModeArithmetics.serving() == ModeArithmetic.SCALAR, "scalar before the gate");
        // A mode adds its bytes to the JVM's count every COUNT_STEP bytes: one mode past it.
        byte[] out = new byte[msg.length];
        for (long done = 0; done <= ModeArithmetics.COUNT_STEP; done += msg.length) {
            ciphers[0].init(Cipher.ENCRYPT_MODE, keys[0], new IvParameterSpec(iv));
            ciphers[0].doFinal(msg, 0, msg.length, out, 0);
        }
        assertTrue(ModeArithmetics.awaitWarmUp(25_000), "the warm-up did not end within 25 s");
        assertTrue(ModeArithmetics.serving() == vector, ModeArithmetics.describe());
        assertTrue(ModeArithmetics.describe().startsWith(vector.name() + " since "), ModeArithmetics.describe());
        for (int c = 0; c < cases.length; c++) {
            ciphers[c].init(Cipher.ENCRYPT_MODE, keys[c], new IvParameterSpec(iv));
            assertArrayEquals(before[c], ciphers[c].doFinal(msg), cases[c][0] + ": output changed across the switch");
        }
    }
}
