package org.vectorjce.internal.aes;

/** The AES key schedule and S-boxes of {@link AesTable}, for the other AES kernels. */
public final class AesKeys {
    private AesKeys() {
    }

    /** FIPS 197 §5.2 KeyExpansion: 4·(rounds+1) big-endian words; the caller wipes them. */
    public static int[] expand(byte[] key) {
        return AesTable.expandKey(key);
    }

    /** A copy of the S-box (FIPS 197 Figure 7). */
    public static byte[] sbox() {
        return AesTable.SBOX.clone();
    }

    /** A copy of the inverse S-box (FIPS 197 Figure 14). */
    public static byte[] invSbox() {
        return AesTable.INV_SBOX.clone();
    }
}
