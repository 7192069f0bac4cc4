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
                who = Cipher.getInstance(t).getProvider().getName();
            } catch (Exception e) {
                who = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            System.out.println(t + " -> " + who);
        }
    }
}
