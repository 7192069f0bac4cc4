package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry;

/**
 * Guards the KAT suite's kernel loop: the forcing property must really be read at {@code init}
 * (an unknown name must fail), and it must be cleared again afterwards.
 */
class KatKernelForcingTest {

    @ParameterizedTest
    @ValueSource(strings = {"AES", "Twofish", "Serpent"})
    void unknownForcedKernelFailsInit(String algorithm) {
        System.out.println("[KAT] " + algorithm + " kernels: " + KernelRegistry.availableNames(algorithm)
                + " (vector module " + VectorBridge.vectorModuleStatus() + ")");
        assertFalse(KatRunner.kernels(algorithm).isEmpty());
        Cipher c = KatRunner.newCipher(algorithm + "/ECB/NoPadding");
        assertThrows(Exception.class, () -> KatRunner.withKernel(algorithm, "no-such-kernel", () -> {
            try {
                c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], algorithm));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
            return null;
        }), "init must fail when an unknown kernel is forced");
        org.junit.jupiter.api.Assertions.assertSame(org.vectorjce.TestProviders.BASE, org.vectorjce.TestProviders.current(),
                "the default provider again after the run");
    }
}
