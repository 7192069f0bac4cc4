package org.vectorjce.volumes.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.Arrays;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;

import org.vectorjce.RawKey;

/**
 * AES-CCM (RFC 3610; NIST SP 800-38C) over one AES-ECB {@code Cipher} of the given provider: the
 * JDK has no CCM, and BitLocker wraps every key (VMK, FVEK, the metadata's validation hash) in
 * AES-CCM with a 12-byte nonce and a 16-byte tag. Nonces of 7 to 13 bytes, tags of 4 to 16 bytes
 * (even), associated data of any length up to 2^32 - 1 bytes, messages up to what the nonce's
 * length field counts (and 2^31 - 1 bytes).
 *
 * <p>{@link #decrypt} computes the CBC-MAC over the decrypted message and compares it with the
 * received tag in constant time before it returns anything: a wrong tag is an
 * {@link AEADBadTagException} and the plaintext it computed is wiped, never handed out.
 * {@link #close} re-keys the cipher with zeros (its schedule is the key). Not thread-safe.
 */
public final class AesCcm implements AutoCloseable {
    private static final int BLOCK = 16;

    private final Cipher ecb;
    private final int keyLength;
    private boolean open = true;

    /** An AES-CCM instance for {@code key} (16, 24 or 32 bytes; copied) on {@code provider}'s AES. */
    public AesCcm(Provider provider, byte[] key) throws GeneralSecurityException {
        ecb = Cipher.getInstance("AES/ECB/NoPadding", provider);
        RawKey k = new RawKey("AES", key);
        try {
            ecb.init(Cipher.ENCRYPT_MODE, k);
        } finally {
            k.destroy();
        }
        keyLength = key.length;
    }

    /**
     * Decrypts {@code ct[off, off + len)} and checks {@code tag} (its whole length is the tag
     * length M).
     *
     * @return the plaintext, {@code len} bytes (the caller wipes it)
     * @throws AEADBadTagException when the tag does not match: nothing is returned
     */
    public byte[] decrypt(byte[] nonce, byte[] aad, byte[] ct, int off, int len, byte[] tag)
            throws GeneralSecurityException {
        check(nonce, tag.length, len);
        byte[] pt = Arrays.copyOfRange(ct, off, off + len);
        byte[] s0 = new byte[BLOCK];
        byte[] mac = null;
        boolean ok = false;
        try {
            ctr(nonce, pt, s0);
            mac = cbcMac(nonce, aad, pt, tag.length);
            for (int i = 0; i < tag.length; i++) {
                mac[i] ^= s0[i];
            }
            if (!MessageDigest.isEqual(Arrays.copyOf(mac, tag.length), tag)) {
                throw new AEADBadTagException("AES-CCM tag mismatch");
            }
            ok = true;
            return pt;
        } finally {
            Arrays.fill(s0, (byte) 0);
            if (mac != null) {
                Arrays.fill(mac, (byte) 0);
            }
            if (!ok) {
                Arrays.fill(pt, (byte) 0);
            }
        }
    }

    /** Encrypts {@code pt}: the ciphertext followed by a {@code tagLength}-byte tag (for tests and symmetry). */
    public byte[] encrypt(byte[] nonce, byte[] aad, byte[] pt, int tagLength) throws GeneralSecurityException {
        check(nonce, tagLength, pt.length);
        byte[] mac = cbcMac(nonce, aad, pt, tagLength);
        byte[] out = Arrays.copyOf(pt, pt.length + tagLength);
        byte[] s0 = new byte[BLOCK];
        byte[] body = Arrays.copyOf(pt, pt.length);
        ctr(nonce, body, s0);
        System.arraycopy(body, 0, out, 0, body.length);
        for (int i = 0; i < tagLength; i++) {
            out[pt.length + i] = (byte) (mac[i] ^ s0[i]);
        }
        Arrays.fill(body, (byte) 0);
        Arrays.fill(mac, (byte) 0);
        Arrays.fill(s0, (byte) 0);
        return out;
    }

    private void check(byte[] nonce, int tagLength, int len) {
        if (!open) {
            throw new IllegalStateException("AES-CCM instance closed");
        }
        if (nonce.length < 7 || nonce.length > 13) {
            throw new IllegalArgumentException("CCM nonce of " + nonce.length + " bytes: 7 to 13");
        }
        if (tagLength < 4 || tagLength > 16 || tagLength % 2 != 0) {
            throw new IllegalArgumentException("CCM tag of " + tagLength + " bytes: 4, 6, ..., 16");
        }
        int l = 15 - nonce.length;
        if (l < 4 && len >= 1L << (8 * l)) {
            throw new IllegalArgumentException("A " + len + "-byte message is too long for a " + nonce.length
                    + "-byte CCM nonce");
        }
    }

    /** The counter blocks A_i = flags(L - 1) ‖ N ‖ i (RFC 3610 §2.3): S_0 into {@code s0}, S_1.. xored into {@code data}. */
    private void ctr(byte[] nonce, byte[] data, byte[] s0) throws GeneralSecurityException {
        int l = 15 - nonce.length;
        byte[] a = new byte[BLOCK];
        byte[] s = new byte[BLOCK];
        a[0] = (byte) (l - 1);
        System.arraycopy(nonce, 0, a, 1, nonce.length);
        ecb.doFinal(a, 0, BLOCK, s0, 0);
        for (int i = 0, counter = 1; i < data.length; i += BLOCK, counter++) {
            for (int b = 0; b < l && b < 4; b++) {
                a[15 - b] = (byte) (counter >>> (8 * b));
            }
            ecb.doFinal(a, 0, BLOCK, s, 0);
            for (int j = 0; j < BLOCK && i + j < data.length; j++) {
                data[i + j] ^= s[j];
            }
        }
        Arrays.fill(s, (byte) 0);
    }

    /**
     * The CBC-MAC T of RFC 3610 §2.2: B_0 = flags ‖ N ‖ l(m), then the associated data with its
     * length prefix (2 bytes, or 0xfffe and 4 bytes from 2^16 - 2^8 on), zero-padded to a block,
     * then the message, zero-padded. Returns the whole last block (its first M bytes are T).
     */
    private byte[] cbcMac(byte[] nonce, byte[] aad, byte[] msg, int tagLength) throws GeneralSecurityException {
        int l = 15 - nonce.length;
        byte[] x = new byte[BLOCK];
        x[0] = (byte) ((aad.length > 0 ? 0x40 : 0) | ((tagLength - 2) / 2) << 3 | (l - 1));
        System.arraycopy(nonce, 0, x, 1, nonce.length);
        long m = msg.length;
        for (int b = 0; b < l; b++) {
            x[15 - b] = b < 8 ? (byte) (m >>> (8 * b)) : 0;
        }
        ecb.doFinal(x, 0, BLOCK, x, 0);
        if (aad.length > 0) {
            byte[] prefix = aad.length < 0xff00 ? new byte[] {(byte) (aad.length >>> 8), (byte) aad.length}
                    : new byte[] {(byte) 0xff, (byte) 0xfe, (byte) (aad.length >>> 24), (byte) (aad.length >>> 16),
                        (byte) (aad.length >>> 8), (byte) aad.length};
            byte[] a = new byte[(prefix.length + aad.length + BLOCK - 1) / BLOCK * BLOCK];
            System.arraycopy(prefix, 0, a, 0, prefix.length);
            System.arraycopy(aad, 0, a, prefix.length, aad.length);
            absorb(x, a, a.length);
        }
        absorb(x, msg, msg.length);
        return x;
    }

    /** X_{i+1} = E(X_i xor B_i) over {@code b[0, len)}, the last block zero-padded. */
    private void absorb(byte[] x, byte[] b, int len) throws GeneralSecurityException {
        for (int i = 0; i < len; i += BLOCK) {
            for (int j = 0; j < BLOCK && i + j < len; j++) {
                x[j] ^= b[i + j];
            }
            ecb.doFinal(x, 0, BLOCK, x, 0);
        }
    }

    /** Re-keys the cipher with zeros, which overwrites the key schedule. Idempotent. */
    @Override
    public void close() {
        if (open) {
            open = false;
            RawKey zero = new RawKey("AES", new byte[keyLength]);
            try {
                ecb.init(Cipher.ENCRYPT_MODE, zero);
            } catch (GeneralSecurityException e) {
                // the schedule goes with the cipher
            }
        }
    }

    @Override
    public String toString() {
        return "AesCcm[AES-" + keyLength * 8 + "]";
    }
}
