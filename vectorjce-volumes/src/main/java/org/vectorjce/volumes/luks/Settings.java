package org.vectorjce.volumes.luks;

import java.security.Provider;
import java.util.concurrent.Executor;

import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.kdf.Argon2;

/**
 * What a LUKS volume's caller chose through {@link LuksVolume.Builder}: the provider of the
 * payload and key-slot ciphers, the executor of Argon2's helper lanes (null: threads started for
 * each derivation and ended before it returns) and Argon2's compression.
 */
record Settings(Provider provider, Executor executor, Argon2Compression argon2) {
    static final Settings DEFAULT = new Settings(VolumeCipher.DEFAULT_PROVIDER, null, Argon2Compression.DEFAULT);

    /** Argon2 as these settings run it. */
    byte[] argon2(String what, Argon2.Type type, byte[] password, byte[] salt, long time, long memoryKib, long lanes,
            int length) throws org.vectorjce.volumes.VolumeException {
        return Argon2.derive(what, type, password, salt, time, memoryKib, lanes, length, argon2, executor, null);
    }
}
