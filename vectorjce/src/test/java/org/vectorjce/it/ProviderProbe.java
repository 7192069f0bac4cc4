package org.vectorjce.it;

import javax.crypto.Cipher;

/**
 * Run in a child JVM by {@link JavaSecurityIT}: prints, for each transformation given, which
 * provider {@code Cipher.getInstance(transformation)} (no provider named) returns, or the
 * exception. The provider is never registered in code: only {@code java.security} brings it.
 */
public final class ProviderProbe {
    private ProviderProbe() {
    }

    public static void main(String[] args) {
        for (String t : args) {
            String who;
            try {
                Cipher c = Cipher.getInstance(t);
                who = c.getProvider().getName();
                if (t.startsWith("init:")) {
                    continue;
                }
            } catch (Exception e) {
                who = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            System.out.println(t + " -> " + who);
        }
        // "init" probe: a Twofish/CBC key set-up through java.security's VectorJCE, which the
        // constant-time policy refuses where no constant-time Twofish kernel runs.
        try {
            Cipher c = Cipher.getInstance("Twofish/CBC/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(new byte[16], "Twofish"),
                    new javax.crypto.spec.IvParameterSpec(new byte[16]));
            System.out.println("twofish init -> ok");
        } catch (Exception e) {
            System.out.println("twofish init -> " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
