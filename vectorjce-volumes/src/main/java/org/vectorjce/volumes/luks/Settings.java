package org.vectorjce.volumes.luks;

import java.util.concurrent.Executor;

import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.kdf.Argon2;

/**
 * What a LUKS volume's caller chose through {@link LuksVolume.Builder}: the provider of the
 * payload and key-slot ciphers, the executor of Argon2's helper lanes (null: threads started for
 * each derivation and ended before it returns) and Argon2's compression.
 */
record Settings(VectorJceProvider provider, Executor executor, Argon2Compression argon2) {
    Settings {
        java.util.Objects.requireNonNull(provider, "provider");
        java.util.Objects.requireNonNull(argon2, "argon2");
    }

    /** A provider of the caller's, or {@link Volumes#defaultProvider()} for null; the other settings as given. */
    static Settings of(VectorJceProvider provider, Executor executor, Argon2Compression argon2) {
        return new Settings(provider != null ? provider : Volumes.defaultProvider(), executor, argon2);
    }

    /** Argon2 as these settings run it. */
    byte[] argon2(String what, Argon2.Type type, byte[] password, byte[] salt, long time, long memoryKib, long lanes,
            int length) throws org.vectorjce.volumes.VolumeException {
        return Argon2.derive(what, type, password, salt, time, memoryKib, lanes, length, argon2, executor, null);
    }
}
