package org.vectorjce.tool.volume;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.KeySlotOptions;

import picocli.CommandLine.Option;

/** The KDF of a new LUKS key slot ({@code format}, {@code add-key}, {@code change-key}): a picocli mixin. */
final class KdfOptions {
    @Option(names = "--pbkdf", paramLabel = "KDF", description = "argon2id, argon2i or pbkdf2 (LUKS2 default "
            + "argon2id; LUKS1 pbkdf2 only).")
    String pbkdf;
    @Option(names = {"--hash", "-h"}, paramLabel = "HASH", description = "PBKDF2's hash and the AF hash "
            + "(default sha256; LUKS1 key slots use the header's; format --type luks1: the header's hash).")
    String hash;
    @Option(names = {"--iter-time", "-i"}, paramLabel = "MS", description = "Calibrate the KDF to this many "
            + "milliseconds (default 2000).")
    Long iterTime;
    @Option(names = "--pbkdf-memory", paramLabel = "KIB", description = "Argon2's memory ceiling in KiB "
            + "(default min(1 GiB, half the physical memory)).")
    Long memory;
    @Option(names = "--pbkdf-parallel", paramLabel = "N", description = "Argon2's lanes (default min(4, processors)).")
    Long parallel;
    @Option(names = "--pbkdf-force-iterations", paramLabel = "N", description = "No calibration: N PBKDF2 "
            + "iterations (1000 or more) or Argon2 time cost N (4 or more).")
    Long forceIterations;

    /** The ranges cryptsetup accepts, checked before anything is read. */
    void check() throws UsageException {
        Checks.range(iterTime, "--iter-time", 1, 3_600_000);
        Checks.range(forceIterations, "--pbkdf-force-iterations", 1, 0xFFFF_FFFFL);
        Checks.range(memory, "--pbkdf-memory", 8, 4L * 1024 * 1024);
        Checks.range(parallel, "--pbkdf-parallel", 1, 16);
    }

    /** Whether an Argon2 option was given (LUKS1 key slots take none). */
    boolean argon2() {
        return pbkdf != null && !pbkdf.equals("pbkdf2") || memory != null || parallel != null;
    }

    /** Whether the KDF is calibrated (no forced cost): a terminal then hears of the benchmark first. */
    boolean calibrates() {
        return forceIterations == null;
    }

    /** The library's options of the new key slot, as given. */
    KeySlotOptions options() throws VolumeException {
        KeySlotOptions o = KeySlotOptions.defaults();
        if (pbkdf != null) {
            o.pbkdf(pbkdf);
        }
        if (hash != null) {
            o.hash(hash);
        }
        if (iterTime != null) {
            o.iterTime(iterTime);
        }
        if (memory != null) {
            o.memoryKib(memory);
        }
        if (parallel != null) {
            o.parallel(parallel.intValue());
        }
        if (forceIterations != null) {
            o.forceIterations(forceIterations);
        }
        return o;
    }
}
