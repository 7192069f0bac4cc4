package org.vectorjce.volumes.luks;

import java.security.SecureRandom;

import org.vectorjce.volumes.VolumeException;

/**
 * How a new key slot is made, as cryptsetup's options: {@code --pbkdf}, {@code --hash},
 * {@code --iter-time}, {@code --pbkdf-memory}, {@code --pbkdf-parallel},
 * {@code --pbkdf-force-iterations}, {@code --key-slot}. Unset values take cryptsetup 2.6's
 * defaults: LUKS2 argon2id, LUKS1 pbkdf2 (the only KDF LUKS1 has); sha256; 2000 ms; Argon2 memory
 * 1 GiB at most, capped by half the physical memory; Argon2 lanes min(4, processors); the first
 * free key slot.
 *
 * <p>Without {@link #forceIterations}, the cost is calibrated to take about {@link #iterTime}
 * here ({@link KdfCost}). With it, PBKDF2 uses that many iterations, Argon2 that time cost with
 * {@link #memoryKib} and {@link #parallel} as given (or their defaults), and no calibration runs.
 */
public final class KeySlotOptions {
    String pbkdf;
    String hash = "sha256";
    long iterTimeMs = 2000;
    long memoryKib;
    int parallel;
    long forceIterations;
    int keySlot = -1;
    SecureRandom random;

    /** Defaults for everything. */
    public static KeySlotOptions defaults() {
        return new KeySlotOptions();
    }

    /** {@code pbkdf2}, {@code argon2i} or {@code argon2id} (LUKS1: {@code pbkdf2} only). */
    public KeySlotOptions pbkdf(String type) throws VolumeException {
        if (!type.equals("pbkdf2") && !type.equals("argon2i") && !type.equals("argon2id")) {
            throw new VolumeException("PBKDF " + type + " is not supported (pbkdf2, argon2i, argon2id)");
        }
        this.pbkdf = type;
        return this;
    }

    /** PBKDF2's hash and the AF hash (cryptsetup's {@code --hash}). */
    public KeySlotOptions hash(String name) throws VolumeException {
        org.vectorjce.volumes.kdf.HashAlgorithm.forLuksName(name);
        this.hash = name;
        return this;
    }

    /** The time the KDF should take here, for calibration. */
    public KeySlotOptions iterTime(long ms) throws VolumeException {
        if (ms < 1 || ms > 3_600_000) {
            throw new VolumeException("iter-time " + ms + " ms outside 1..3600000");
        }
        this.iterTimeMs = ms;
        return this;
    }

    /** Argon2 memory in KiB (at most 4 GiB; at least 8 KiB per lane). */
    public KeySlotOptions memoryKib(long kib) throws VolumeException {
        if (kib < 8 || kib > org.vectorjce.volumes.kdf.Argon2.MAX_MEMORY_KIB) {
            throw new VolumeException("pbkdf-memory " + kib + " KiB outside 8.." + org.vectorjce.volumes.kdf.Argon2.MAX_MEMORY_KIB);
        }
        this.memoryKib = kib;
        return this;
    }

    /** Argon2 lanes (1..16, cryptsetup's bound on {@code --pbkdf-parallel}). */
    public KeySlotOptions parallel(int lanes) throws VolumeException {
        if (lanes < 1 || lanes > 16) {
            throw new VolumeException("pbkdf-parallel " + lanes + " outside 1..16");
        }
        this.parallel = lanes;
        return this;
    }

    /**
     * A fixed cost, no calibration: PBKDF2 iterations (at least 1000) or the Argon2 time cost (at
     * least 4), as cryptsetup's {@code --pbkdf-force-iterations}.
     */
    public KeySlotOptions forceIterations(long n) throws VolumeException {
        if (n < 1 || n > 0xFFFF_FFFFL) {
            throw new VolumeException("pbkdf-force-iterations " + n + " outside 1..4294967295");
        }
        this.forceIterations = n;
        return this;
    }

    /** The key slot to use for the new key (LUKS1 0..7, LUKS2 0..31). */
    public KeySlotOptions keySlot(int slot) {
        if (slot < 0) {
            throw new IllegalArgumentException("Key slot " + slot + " is negative");
        }
        this.keySlot = slot;
        return this;
    }

    /** The random source for salts, AF stripes and wiping (default: a new {@code SecureRandom}). */
    public KeySlotOptions random(SecureRandom random) {
        this.random = random;
        return this;
    }

    SecureRandom rng() {
        if (random == null) {
            random = new SecureRandom();
        }
        return random;
    }

    @Override
    public String toString() {
        return "KeySlotOptions[pbkdf=" + pbkdf + ", hash=" + hash + ", iterTime=" + iterTimeMs + ", memory="
                + memoryKib + ", parallel=" + parallel + ", forceIterations=" + forceIterations + ", keySlot="
                + keySlot + "]";
    }
}
