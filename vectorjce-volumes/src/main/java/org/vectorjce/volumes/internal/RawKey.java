package org.vectorjce.volumes.internal;

import java.util.Arrays;

import javax.crypto.SecretKey;

/**
 * A RAW secret key whose bytes {@link #destroy()} wipes: {@code SecretKeySpec} cannot be
 * destroyed, and every key a volume hands to a cipher (payload, key-slot area, TrueCrypt header and
 * payload) must not outlive its use. Holds its own copy of the bytes; {@link #toString()} names
 * the algorithm and size only, never the bytes.
 */
public final class RawKey implements SecretKey {
    private static final long serialVersionUID = 1L;

    private final String algorithm;
    private final byte[] bytes;
    private boolean destroyed;

    /** A key of {@code algorithm} holding a copy of {@code bytes} (the caller wipes its own). */
    public RawKey(String algorithm, byte[] bytes) {
        this.algorithm = algorithm;
        this.bytes = bytes.clone();
    }

    @Override public String getAlgorithm() { return algorithm; }
    @Override public String getFormat() { return "RAW"; }

    /** A copy of the bytes (the caller wipes it); zeros once destroyed. */
    @Override public byte[] getEncoded() { return bytes.clone(); }

    /** The key's length in bytes (also after {@link #destroy()}: for re-keying with zeros). */
    public int length() { return bytes.length; }

    @Override public void destroy() { Arrays.fill(bytes, (byte) 0); destroyed = true; }
    @Override public boolean isDestroyed() { return destroyed; }
    @Override public String toString() { return "RawKey [" + algorithm + ", " + bytes.length * 8 + " bits]"; }
}
