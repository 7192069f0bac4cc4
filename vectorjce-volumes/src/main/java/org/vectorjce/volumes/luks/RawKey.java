package org.vectorjce.volumes.luks;

import java.util.Arrays;

import javax.crypto.SecretKey;

/** A RAW secret key whose bytes can be wiped ({@code SecretKeySpec} cannot be destroyed). */
final class RawKey implements SecretKey {
    private static final long serialVersionUID = 1L;
    private final String algorithm;
    private final byte[] bytes;
    private boolean destroyed;

    RawKey(String algorithm, byte[] bytes) {
        this.algorithm = algorithm;
        this.bytes = bytes.clone();
    }

    @Override public String getAlgorithm() { return algorithm; }
    @Override public String getFormat() { return "RAW"; }
    @Override public byte[] getEncoded() { return bytes.clone(); }
    @Override public void destroy() { Arrays.fill(bytes, (byte) 0); destroyed = true; }
    @Override public boolean isDestroyed() { return destroyed; }
    int length() { return bytes.length; }
    @Override public String toString() { return "key [" + algorithm + ", " + bytes.length * 8 + " bits]"; }
}
