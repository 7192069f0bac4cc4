package org.vectorjce.volumes.tcrypt;

import java.util.List;

import org.vectorjce.volumes.kdf.HashAlgorithm;

/**
 * One way TrueCrypt or VeraCrypt derives a header key from the password (or keyfile pool) and the
 * header's 64-byte salt: a row of cryptsetup's {@code tcrypt_kdf[]} table ({@code lib/tcrypt/tcrypt.c}),
 * in its order, which is also the order in which rows are tried. PBKDF2 rows name their hash and
 * iteration count; with a VeraCrypt PIM the count is {@code pimConst + pimMult × PIM} instead.
 * VeraCrypt's Argon2id (1.26.27) has its own PIM formula (see {@link #argon2Cost}).
 *
 * @param hash       the PBKDF2 hash, or null for Argon2id
 * @param iterations PBKDF2 iterations (Argon2id: time cost) without a PIM
 * @param memoryKib  Argon2id memory cost without a PIM, in KiB; 0 for PBKDF2
 * @param legacy     a pre-4.0 TrueCrypt row (SHA-1)
 * @param veracrypt  a VeraCrypt row (magic {@code VERA}); the others are TrueCrypt's
 * @param boot       VeraCrypt's iteration count for system encryption only (its boot loader's);
 *                   tried only with {@code --tcrypt-system} (see {@link #select})
 */
record Kdf(String name, HashAlgorithm hash, long iterations, long memoryKib, long pimConst, long pimMult,
        boolean legacy, boolean veracrypt, boolean boot) {

    /** Bytes every row derives: the most a three-cipher XTS chain uses (cryptsetup's TCRYPT_HDR_KEY_LEN). */
    static final int KEY_LENGTH = 192;

    static final List<Kdf> ROWS = List.of(
            pbkdf2(HashAlgorithm.RIPEMD160, 2000, 0, 0, false, false, false),
            pbkdf2(HashAlgorithm.RIPEMD160, 1000, 0, 0, false, false, false), // TrueCrypt system encryption
            pbkdf2(HashAlgorithm.SHA512, 1000, 0, 0, false, false, false),
            pbkdf2(HashAlgorithm.WHIRLPOOL, 1000, 0, 0, false, false, false),
            pbkdf2(HashAlgorithm.SHA1, 2000, 0, 0, true, false, false),
            pbkdf2(HashAlgorithm.SHA512, 500_000, 15000, 1000, false, true, false),
            pbkdf2(HashAlgorithm.WHIRLPOOL, 500_000, 15000, 1000, false, true, false),
            pbkdf2(HashAlgorithm.SHA256, 500_000, 15000, 1000, false, true, false), // VeraCrypt 1.0f
            pbkdf2(HashAlgorithm.SHA256, 200_000, 0, 2048, false, true, true),
            new Kdf("argon2id", null, 6, 425_984, 0, 0, false, true, false),          // VeraCrypt 1.26.27
            pbkdf2(HashAlgorithm.BLAKE2S_256, 500_000, 15000, 1000, false, true, false), // VeraCrypt 1.26.2
            pbkdf2(HashAlgorithm.BLAKE2S_256, 200_000, 0, 2048, false, true, true),
            pbkdf2(HashAlgorithm.RIPEMD160, 655_331, 15000, 1000, false, true, false),
            pbkdf2(HashAlgorithm.RIPEMD160, 327_661, 0, 2048, false, true, true),
            pbkdf2(HashAlgorithm.STREEBOG512, 500_000, 15000, 1000, false, true, false));

    /**
     * The rows tried for these options, in the table's order: those whose hash name contains
     * {@code hash} (null: all), VeraCrypt's only if {@code veracrypt}, only VeraCrypt's with a PIM
     * ({@code pim} > 0), and the rows cryptsetup's table marks "boot only" (VeraCrypt's
     * system-encryption counts: SHA-256 200,000, BLAKE2s-256 200,000, RIPEMD-160 327,661) only for
     * a system header ({@code system}), which tries the other rows too (VeraCrypt's SHA-512 system
     * encryption uses the normal 500,000). cryptsetup tries the boot rows for every volume;
     * VeraCrypt uses them for system encryption only, so a normal volume never needs them.
     */
    static List<Kdf> select(String hash, boolean veracrypt, int pim, boolean system) {
        return ROWS.stream()
                .filter(k -> k.matches(hash))
                .filter(k -> veracrypt || !k.veracrypt())
                .filter(k -> pim == 0 || k.veracrypt())
                .filter(k -> system || !k.boot())
                .toList();
    }

    private static Kdf pbkdf2(HashAlgorithm h, long iterations, long pimConst, long pimMult, boolean legacy,
            boolean veracrypt, boolean boot) {
        return new Kdf("pbkdf2", h, iterations, 0, pimConst, pimMult, legacy, veracrypt, boot);
    }

    boolean argon2() {
        return hash == null;
    }

    /** cryptsetup's name for the hash (its {@code -h} and {@code tcryptDump}'s "PBKDF2 hash"), or argon2id. */
    String hashName() {
        return hash != null ? hash.luksName() : name;
    }

    /** Whether cryptsetup's {@code -h hint} selects this row: a substring of the hash's name (of argon2id). */
    boolean matches(String hint) {
        return hint == null || hashName().contains(hint);
    }

    /** PBKDF2 iterations with {@code pim} (0: no PIM). */
    long iterations(int pim) {
        return pim > 0 ? pimConst + pimMult * pim : iterations;
    }

    /**
     * Argon2id's {time, memory KiB} with {@code pim} (0: none): VeraCrypt 1.26.27, as cryptsetup
     * reproduces it — PIM 1..31: time (PIM - 1) / 3 + 3, memory 64 + (PIM - 1) × 32 MiB; above 31:
     * time PIM - 18, memory 1 GiB.
     */
    long[] argon2Cost(int pim) {
        if (pim <= 0) {
            return new long[] {iterations, memoryKib};
        }
        if (pim <= 31) {
            return new long[] {(pim - 1) / 3 + 3, 1024L * (64 + (pim - 1) * 32L)};
        }
        return new long[] {pim - 18L, 1024L * 1024};
    }

    @Override
    public String toString() {
        return argon2() ? name : name + "-" + hash.luksName() + "-" + iterations + (boot ? " (boot)" : "");
    }
}
