package org.vectorjce.bench;

import java.security.Provider;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Heap per initialised cipher (issue 11): 2,000 ciphers, each keyed with its own key and used for
 * one {@code doFinal} (64 bytes; XTS 512), heap after GC compared with before. Native memory (the
 * Twofish 16-way kernel's 5 KiB segment) is not in the figure.
 *
 * <pre>java [--add-modules jdk.incubator.vector] -cp benchmarks.jar org.vectorjce.bench.Footprint</pre>
 */
public final class Footprint {
    private Footprint() {
    }

    static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    public static void main(String[] args) throws Exception {
        String[][] cases = {
            {"VectorJCE", "AES/CBC/PKCS5Padding"}, {"SunJCE", "AES/CBC/PKCS5Padding"}, {"BC", "AES/CBC/PKCS5Padding"},
            {"VectorJCE", "AES/CTR/NoPadding"}, {"SunJCE", "AES/CTR/NoPadding"},
            {"VectorJCE", "AES/XTS/NoPadding"}, {"VectorJCE", "Twofish/CBC/PKCS5Padding"},
            {"BC", "Twofish/CBC/PKCS5Padding"}, {"VectorJCE", "Twofish/XTS/NoPadding"},
            {"VectorJCE", "Serpent/CBC/PKCS5Padding"}, {"BC", "Serpent/CBC/PKCS5Padding"},
            {"VectorJCE", "Serpent/XTS/NoPadding"},
        };
        int n = 2000;
        for (String[] c : cases) {
            Provider p = BenchBase.provider(c[0]);
            String t = c[1];
            String alg = t.substring(0, t.indexOf('/'));
            boolean xts = t.contains("/XTS/");
            Cipher[] keep = new Cipher[n];
            byte[] in = new byte[xts ? 512 : 64];
            Random rnd = new Random(1);
            long before = used();
            for (int i = 0; i < n; i++) {
                byte[] k = new byte[xts ? 64 : 32];
                rnd.nextBytes(k);
                keep[i] = Cipher.getInstance(t, p);
                keep[i].init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k, alg), new IvParameterSpec(new byte[16]));
                keep[i].doFinal(in);
            }
            long after = used();
            System.out.printf("%-10s %-26s %6.1f KiB per cipher%n", c[0], t, (after - before) / 1024.0 / n);
            if (keep[n - 1] == null) {
                throw new AssertionError();
            }
        }
    }
}
