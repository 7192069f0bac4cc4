package org.vectorjce.bench;

import java.security.Provider;
import java.security.Security;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The first operation of a fresh JVM (issue 11): provider construction (or lookup), then
 * {@code getInstance}, {@code init} and {@code doFinal} of 1 KiB of AES/CBC/PKCS5Padding, timed from
 * the first line of {@code main}. One measurement per JVM: {@code bench/run.sh --cold N} starts
 * N JVMs for each provider, alternating, and prints the medians.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp benchmarks.jar org.vectorjce.bench.ColdStart VectorJCE|SunJCE</pre>
 */
public final class ColdStart {
    private ColdStart() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        Provider p = args[0].equals("VectorJCE") ? new org.vectorjce.VectorJceProvider() : Security.getProvider(args[0]);
        Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"), new IvParameterSpec(new byte[16]));
        byte[] ct = c.doFinal(new byte[1024]);
        long t1 = System.nanoTime();
        System.out.printf("%s %.1f ms (%d bytes)%n", args[0], (t1 - t0) / 1e6, ct.length);
    }
}
