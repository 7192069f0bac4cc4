package org.vectorjce;

import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * A RAW secret key that can be wiped: {@link #destroy()} overwrites its bytes with zeros, which a
 * {@code SecretKeySpec} does not allow (on Java 17 its {@code destroy()} throws). For keys that
 * must not outlive their use, e.g. a disk volume's key handed to a {@code Cipher}:
 * <pre>{@code
 * RawKey key = new RawKey("AES", bytes);   // a copy: wipe your own array
 * Arrays.fill(bytes, (byte) 0);
 * try {
 *     cipher.init(Cipher.DECRYPT_MODE, key, spec);
 * } finally {
 *     key.destroy();
 * }
 * }</pre>
 * It holds its own copy of the bytes; {@link #getEncoded()} returns another copy, zeros once
 * destroyed. {@link #toString()} names the algorithm and size only, never the bytes. Thread-safe
 * for {@link #isDestroyed()}; {@link #replace} and {@link #destroy()} are for the key's one owner.
 */
public final class RawKey implements SecretKey {
    private static final long serialVersionUID = 1L;
    /** The key's algorithm name. */
    private final String algorithm;
    /** The key's own copy of its bytes; zeros once destroyed. */
    private final byte[] bytes;
    /** Whether {@link #destroy()} has run. */
    private volatile boolean destroyed;

    /**
     * A key of {@code algorithm} holding a copy of {@code bytes}.
     *
     * @param algorithm the key's algorithm name, e.g. {@code AES}
     * @param bytes the key's bytes (copied; the caller wipes its own array)
     */
    public RawKey(String algorithm, byte[] bytes) {
        this.algorithm = algorithm;
        this.bytes = bytes.clone();
    }

    /**
     * Overwrites the key's bytes with {@code k}, of the same length, for re-keying in place.
     *
     * @param k the new bytes (copied)
     * @return false, and the key unchanged, when the lengths differ or the key is destroyed
     */
    public boolean replace(byte[] k) {
        if (destroyed || k.length != bytes.length) {
            return false;
        }
        System.arraycopy(k, 0, bytes, 0, k.length);
        return true;
    }

    /**
     * The key's length in bytes, also after {@link #destroy()} (so a cipher can be re-keyed with
     * zeros of that length).
     *
     * @return the length in bytes
     */
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

    /** A copy of the bytes (the caller wipes it); zeros once destroyed. */
    @Override
    public byte[] getEncoded() {
        return bytes.clone();
    }

    /** Overwrites the bytes with zeros. */
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
