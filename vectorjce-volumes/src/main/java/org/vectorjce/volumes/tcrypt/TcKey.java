package org.vectorjce.volumes.tcrypt;

import java.util.Arrays;

import javax.crypto.SecretKey;

/** A RAW key whose bytes {@link #destroy()} wipes (SecretKeySpec cannot be wiped). Never printed. */
final class TcKey implements SecretKey {
    private static final long serialVersionUID = 1L;

    private final String algorithm;
    private final byte[] bytes;
    private boolean destroyed;

    TcKey(String algorithm, byte[] key) {
        this.algorithm = algorithm;
        this.bytes = key.clone();
    }

    @Override public String getAlgorithm() { return algorithm; }
    @Override public String getFormat() { return "RAW"; }
    @Override public byte[] getEncoded() { return bytes.clone(); }
    @Override public void destroy() { Arrays.fill(bytes, (byte) 0); destroyed = true; }
    @Override public boolean isDestroyed() { return destroyed; }
    @Override public String toString() { return "TcKey [" + algorithm + ", " + bytes.length * 8 + " bits]"; }
}
