package org.vectorjce.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/**
 * The provider starts no thread of its own: every transformation on every kernel, the sector API,
 * the constant-time policy and a new provider leave the same set of
 * live threads behind as before (by name and id, JVM-internal threads aside).
 */
class NoThreadTest {
    private static Set<String> threads() {
        Set<String> s = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && !t.getName().startsWith("Common-Cleaner") && !t.getName().startsWith("Attach Listener")) {
                s.add(t.getName() + "#" + t.getId());
            }
        }
        return s;
    }

    @Test
    void noThreadIsLeftBehind() throws Exception {
        Set<String> before = threads();
        for (String alg : ContractSupport.ALGORITHMS) {
            for (String kernel : VectorJce.availableKernels(alg)) {
                VectorJceProvider p = (VectorJceProvider) new VectorJceProvider()
                        .configure("kernel." + alg.toLowerCase() + "=" + kernel);
                for (String mode : new String[] {"ECB", "CBC", "CTR", "LRW", "XTS"}) {
                    Cipher c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", p);
                    byte[] key = new byte[mode.equals("XTS") ? 64 : mode.equals("LRW") ? 48 : 32];
                    key[0] = 1;
                    SecretKeySpec k = new SecretKeySpec(key, alg);
                    for (int i = 0; i < 3; i++) {
                        if (mode.equals("ECB")) {
                            c.init(Cipher.ENCRYPT_MODE, k);
                        } else {
                            c.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[16]));
                        }
                        c.doFinal(new byte[1 << 16]);
                    }
                    if (!mode.equals("ECB") && !mode.equals("CTR")) {
                        c.init(Cipher.DECRYPT_MODE, k, new SectorParameterSpec(mode.equals("LRW") ? "benbi" : "plain64", 9, 512));
                        c.doFinal(new byte[8192]);
                    }
                }
                byte[] xk = new byte[64];
                xk[1] = 2;
                try (SectorCipher s = SectorCipher.of(alg.toLowerCase() + "-xts-plain64", xk, 4096, false, p)) {
                    s.encrypt(1, ByteBuffer.allocateDirect(8192));
                }
            }
        }
        new VectorJceProvider().configure("constantTime=true").getInfo();
        assertEquals(before, threads(), "threads after every cipher");
    }
}
