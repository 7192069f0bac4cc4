package org.vectorjce.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.contract.ContractSupport.Spec;

/**
 * One long-lived cipher through the call patterns of disks and record stores: {@code init} per
 * message with the same key object, with an equal key in a new object, with a new key of the same
 * size (re-keyed in place), of another size (a new schedule), with the same IV or a new one, in
 * either direction, in place or not, whole or in split updates. Every message must equal the one a
 * freshly made cipher gives (fresh ciphers are checked against Bouncy Castle, the XTS/LRW oracle
 * and the known-answer files elsewhere), on every transformation and kernel.
 */
class ReinitRekeyTest {

    @TestFactory
    Stream<DynamicTest> everyReinitAndRekeyPatternMatchesAFreshCipher() {
        return ContractSupport.specsAndKernels().map(a -> {
            Spec s = (Spec) a.get()[0];
            String kernel = (String) a.get()[1];
            return DynamicTest.dynamicTest(s + " " + kernel, () -> ContractSupport.withKernel(s.alg(), kernel, () -> {
                Random rnd = ContractSupport.random("reinit", s.transformation(), kernel);
                Cipher c = ContractSupport.cipher(s);
                int[] lens = s.keyLengths();
                byte[] key = ContractSupport.key(rnd, lens[0]);
                SecretKeySpec keyObj = new SecretKeySpec(key, s.alg());
                byte[] iv = ContractSupport.ivFor(s, rnd);
                for (int step = 0; step < 60; step++) {
                    int what = rnd.nextInt(10);
                    if (what < 3) {
                        iv = ContractSupport.ivFor(s, rnd);                 // same key object, new IV
                    } else if (what < 5) {
                        keyObj = new SecretKeySpec(key, s.alg());           // equal key, new object
                    } else if (what < 8) {
                        key = ContractSupport.key(rnd, key.length);         // new key, same size: in place
                        keyObj = new SecretKeySpec(key, s.alg());
                        iv = ContractSupport.ivFor(s, rnd);
                    } else if (what < 9) {
                        key = ContractSupport.key(rnd, lens[rnd.nextInt(lens.length)]); // maybe another size
                        keyObj = new SecretKeySpec(key, s.alg());
                    }                                                        // else: same key, same IV
                    boolean enc = rnd.nextBoolean();
                    int len = length(s, rnd);
                    byte[] plain = ContractSupport.bytes(rnd, len);
                    byte[] input = enc ? plain : ContractSupport.oneShot(s, true, key, iv, plain);
                    byte[] expected = ContractSupport.oneShot(s, enc, key, iv, input);

                    int opmode = enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
                    if (iv == null) {
                        c.init(opmode, keyObj);
                    } else {
                        c.init(opmode, keyObj, new IvParameterSpec(iv));
                    }
                    String where = s + " " + kernel + " step " + step + " (" + (enc ? "enc" : "dec") + ", " + len + " B)";
                    byte[] got;
                    switch (rnd.nextInt(3)) {
                        case 0 -> got = c.doFinal(input);
                        case 1 -> {
                            // In place, in one array.
                            byte[] buf = java.util.Arrays.copyOf(input, Math.max(input.length, c.getOutputSize(input.length)));
                            int n = c.doFinal(buf, 0, input.length, buf, 0);
                            got = java.util.Arrays.copyOf(buf, n);
                        }
                        default -> {
                            int cut = input.length == 0 ? 0 : rnd.nextInt(input.length + 1);
                            got = ContractSupport.concat(ContractSupport.nz(c.update(input, 0, cut)),
                                    c.doFinal(input, cut, input.length - cut));
                        }
                    }
                    assertArrayEquals(expected, got, where);
                    // The restart after doFinal: the same message again, with no init.
                    assertArrayEquals(expected, c.doFinal(input), where + ", repeated after doFinal");
                }
            }));
        });
    }

    /** A message length the transformation accepts, mostly short (the per-message pattern). */
    private static int length(Spec s, Random rnd) {
        int blocks = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(300) : 1 + rnd.nextInt(6);
        if (s.ctr() || s.padded()) {
            return 16 * blocks - rnd.nextInt(16);
        }
        if (s.xts()) {
            return 16 * blocks + (blocks > 1 ? rnd.nextInt(16) : 0);
        }
        return 16 * blocks;
    }
}
