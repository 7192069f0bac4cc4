package org.vectorjce.volumes.luks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.WrongPassphraseException;

/** One rule for secrets given as text: {@code char[]} everywhere means its UTF-8 bytes, as cryptsetup reads a passphrase. */
class CharSecretsTest {
    @Test
    void charPassphrasesAreTheirUtf8Bytes(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("c.img");
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[1]), (17L << 20) - 1);
        }
        char[] first = "pässwörd €".toCharArray();
        Luks2Format.luks2().keySize(256).keySlot(TestImages.fast("pbkdf2")).format(img, first);
        try (LuksVolume v = LuksVolume.at(img).passphrase(new String(first).getBytes(StandardCharsets.UTF_8))
                .readWrite().open()) {
            assertEquals(1, v.addKeySlot("zweites €".toCharArray(), TestImages.fast("pbkdf2")));
            assertEquals(0, v.changeKeySlot(0, "drittes ñ".toCharArray(), TestImages.fast("pbkdf2")));
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase("zweites €".getBytes(StandardCharsets.UTF_8)).open()) {
            assertEquals(1, v.keySlot().getAsInt());
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase("drittes ñ".toCharArray()).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).passphrase(first).open().close());
        Path l1 = dir.resolve("l1.img");
        try (FileChannel c = FileChannel.open(l1, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[1]), (3L << 20) - 1);
        }
        Luks1Format.luks1().keySize(256).iterations(1000).format(l1, first);
        try (LuksVolume v = LuksVolume.at(l1).passphrase(new String(first).getBytes(StandardCharsets.UTF_8)).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
    }
}
