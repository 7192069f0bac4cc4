package org.vectorjce.volumes.bitlk;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * BitLocker's key stretch (cryptsetup {@code lib/bitlk/bitlk.c}, {@code bitlk_kdf}; libbde's
 * "Stretch key" and dislocker's {@code stretch_key}): an 88-byte record {@code last_sha256[32] ‖
 * initial_sha256[32] ‖ salt[16] ‖ count[8, little-endian]}, hashed with SHA-256 2^20 times, each
 * hash becoming the next {@code last_sha256} and {@code count} going up by one; the last hash is
 * the key that opens the VMK.
 *
 * <p>Why the JDK's {@code MessageDigest}, and no SHA-256 of our own: HotSpot compiles SHA-256's
 * compression to the CPU's SHA extensions (or its AVX2 code), which a scalar Java compression on
 * the record's words cannot use; that saves the digest's buffering and padding but was several
 * times slower (the figures are in {@code vectorjce-volumes/README.md}, BitLocker). One record
 * buffer, hashed in place ({@code digest(buf, 0, 32)}), so a round allocates nothing.
 */
final class Stretch {
    /** Rounds of a BitLocker stretch ({@code BITLK_KDF_ITERATION_COUNT}). */
    static final int ROUNDS = 1 << 20;

    private Stretch() {
    }

    /**
     * The stretched key of {@code initial} (the 32-byte SHA-256 the protector starts from) and the
     * VMK entry's 16-byte {@code salt}, after {@code rounds} rounds (the format has {@link #ROUNDS};
     * tests take fewer).
     */
    static byte[] derive(byte[] initial, byte[] salt, int rounds) {
        if (initial.length != 32 || salt.length != 16) {
            throw new IllegalArgumentException("stretch input of " + initial.length + " and salt of " + salt.length
                    + " bytes: 32 and 16");
        }
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
        byte[] rec = new byte[88];
        System.arraycopy(initial, 0, rec, 32, 32);
        System.arraycopy(salt, 0, rec, 64, 16);
        try {
            for (long count = 0; count < rounds; count++) {
                for (int b = 0; b < 8; b++) {
                    rec[80 + b] = (byte) (count >>> (8 * b));
                }
                d.update(rec, 0, 88);
                d.digest(rec, 0, 32);   // the hash is the next round's last_sha256
            }
            return Arrays.copyOf(rec, 32);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 digest into its record failed", e);
        } finally {
            Arrays.fill(rec, (byte) 0);
        }
    }
}
