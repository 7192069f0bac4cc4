package org.vectorjce.internal.key;

import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * A RAW secret key whose bytes the provider's own code can overwrite and wipe, which a
 * {@code SecretKeySpec} does not allow (it keeps a private copy, and on Java 17 its
 * {@code destroy()} throws). It holds the array it is given, not a copy; {@link #toString} names
 * the algorithm and size only.
 */
public final class RawKey implements SecretKey {
    private static final long serialVersionUID = 1L;
    private final String algorithm;
    private final byte[] bytes;
    private volatile boolean destroyed;

    /** A key over {@code bytes} itself (the caller hands it over). */
    public RawKey(String algorithm, byte[] bytes) {
        this.algorithm = algorithm;
        this.bytes = bytes;
    }

    /** Overwrites the bytes with {@code k} of the same length; false (unchanged) otherwise. */
    public boolean replace(byte[] k) {
        if (destroyed || k.length != bytes.length) {
            return false;
        }
        System.arraycopy(k, 0, bytes, 0, k.length);
        return true;
    }

    /** The key's length in bytes (0 once destroyed). */
    public int length() {
        return bytes.length;
    }

    @Override
    public String getAlgorithm() {
        return algorithm;
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public byte[] getEncoded() {
        return bytes.clone();
    }

    @Override
    public void destroy() {
        Arrays.fill(bytes, (byte) 0);
        destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return "RawKey[" + algorithm + ", " + bytes.length * 8 + " bits]";
    }
}
