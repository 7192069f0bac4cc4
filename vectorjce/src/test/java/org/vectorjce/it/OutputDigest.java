package org.vectorjce.it;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/**
 * Run in child JVMs by {@link SameOutputIT}: for every transformation, every kernel this JVM has,
 * every key size and a ladder of lengths, encrypts and decrypts fixed pseudo-random inputs and
 * prints one SHA-256 over all outputs per transformation and kernel:
 * {@code transformation kernel digest}. The same jar must print the same digest for every kernel
 * and on every JDK.
 */
public final class OutputDigest {
    private OutputDigest() {
    }

    static final List<String> TRANSFORMATIONS = List.of(
            "ECB/NoPadding", "ECB/PKCS5Padding", "CBC/NoPadding", "CBC/PKCS5Padding",
            "CTR/NoPadding", "XTS/NoPadding", "LRW/NoPadding");

    public static void main(String[] args) throws Exception {
        VectorJceProvider base = new VectorJceProvider();
        HexFormat hex = HexFormat.of();
        for (String alg : new String[] {"AES", "Twofish"}) {
            for (String kernel : VectorJce.availableKernels(alg)) {
                VectorJceProvider p = (VectorJceProvider) base.configure(
                        "kernel." + alg.toLowerCase(java.util.Locale.ROOT) + "=" + kernel);
                for (String t : TRANSFORMATIONS) {
                    System.out.println(alg + "/" + t + " " + kernel + " " + hex.formatHex(digest(p, alg, t)));
                }
            }
        }
    }

    static byte[] digest(VectorJceProvider p, String alg, String t) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        Random rnd = new Random((alg + t).hashCode());
        boolean padded = t.endsWith("PKCS5Padding");
        boolean anyLength = padded || t.startsWith("CTR") || t.startsWith("XTS");
        int[] keyLens = t.startsWith("XTS") ? new int[] {32, 48, 64} : t.startsWith("LRW") ? new int[] {32, 40, 48} : new int[] {16, 24, 32};
        for (int keyLen : keyLens) {
            for (int len : new int[] {16, 17, 32, 47, 100, 512, 1000, 4096, 4111, 70_000}) {
                if (!anyLength && len % 16 != 0) {
                    continue;
                }
                byte[] key = new byte[keyLen];
                rnd.nextBytes(key);
                key[0] = 1;
                key[keyLen / 2] = 2; // XTS halves differ
                byte[] iv = new byte[16];
                rnd.nextBytes(iv);
                byte[] in = new byte[len];
                rnd.nextBytes(in);
                Cipher c = Cipher.getInstance(alg + "/" + t, p);
                SecretKeySpec k = new SecretKeySpec(key, alg);
                for (int mode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    if (t.startsWith("ECB")) {
                        c.init(mode, k);
                    } else {
                        c.init(mode, k, new IvParameterSpec(iv));
                    }
                    byte[] input = in;
                    if (padded && mode == Cipher.DECRYPT_MODE) {
                        c.init(Cipher.ENCRYPT_MODE, k, t.startsWith("ECB") ? null : new IvParameterSpec(iv));
                        input = c.doFinal(in);
                        if (t.startsWith("ECB")) {
                            c.init(mode, k);
                        } else {
                            c.init(mode, k, new IvParameterSpec(iv));
                        }
                    }
                    md.update(c.doFinal(input));
                }
            }
        }
        return md.digest();
    }
}
