package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AOT caches' training runs (bin/lib/aot-train.bash) succeed with this build's verbs and
 * options: every command they run, the BitLocker decrypt included, and what it decrypts is what it
 * encrypted.
 */
class AotTrainingTest {
    @Test
    void everyTrainingCommandSucceeds(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectory(dir.resolve("run"));
        assertNull(AotTraining.train(run));
        byte[] plain = Files.readAllBytes(run.resolve("plain"));
        for (String kdf : new String[] {"pbkdf2", "argon2id"}) {
            byte[] out = Files.readAllBytes(run.resolve(kdf + ".out"));
            assertTrue(out.length >= plain.length, kdf + ": " + out.length + " bytes");
            assertEquals(java.nio.ByteBuffer.wrap(plain), java.nio.ByteBuffer.wrap(out, 0, plain.length), kdf);
        }
    }

    @Test
    void theBaseCacheTrainingSucceeds(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectory(dir.resolve("run"));
        assertNull(AotTraining.trainBase(run, BitlkFiles.write("bitlk-aes-xts-128", dir)));
        assertEquals(104857600, Files.size(run.resolve("bitlk.out")), "the BitLocker device decrypted");
    }
}
