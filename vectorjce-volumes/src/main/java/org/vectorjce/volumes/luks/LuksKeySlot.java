package org.vectorjce.volumes.luks;

import java.util.OptionalInt;

/**
 * One key slot as the header describes it, without secrets (no salt, no key material).
 *
 * @param id           the slot number (LUKS1 0..7; LUKS2 the JSON id)
 * @param active       LUKS1 ENABLED / LUKS2 present
 * @param kdf          {@code pbkdf2}, {@code argon2i} or {@code argon2id}
 * @param hash         PBKDF2's hash (null for Argon2)
 * @param iterations   PBKDF2's iterations (0 for Argon2)
 * @param time         Argon2's time cost (0 for PBKDF2)
 * @param memoryKib    Argon2's memory in KiB (0 for PBKDF2)
 * @param cpus         Argon2's lanes (0 for PBKDF2)
 * @param stripes      AF stripes
 * @param afHash       AF hash
 * @param areaOffset   where the key material lies, in bytes from the header's start
 * @param areaSize     bytes of the key material area (LUKS1: the material rounded to sectors)
 * @param encryption   the cipher of the key material (LUKS1: the volume's)
 * @param areaKeyBits  the key size of that cipher, in bits
 * @param keyBits      the size of the volume key the slot holds, in bits
 * @param priority     LUKS2 priority: 0 ignore, 1 normal, 2 high (LUKS1: 1)
 * @param digest       the LUKS2 digest the slot is assigned to (empty when unbound; LUKS1 0)
 */
public record LuksKeySlot(int id, boolean active, String kdf, String hash, long iterations, long time,
        long memoryKib, long cpus, int stripes, String afHash, long areaOffset, long areaSize, String encryption,
        int areaKeyBits, int keyBits, int priority, OptionalInt digest) {
}
