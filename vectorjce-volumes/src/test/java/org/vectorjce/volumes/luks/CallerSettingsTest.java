package org.vectorjce.volumes.luks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.VolumeException;

/**
 * What the caller hands a formatter or a builder is what runs: its executor gets Argon2's helper
 * lanes during the calibration and for key slot 0, and its provider runs the key slot's and the
 * payload's ciphers (a provider whose settings refuse every AES kernel refuses the volume).
 */
class CallerSettingsTest {
    private static Path image(Path dir, String name, long mib) throws Exception {
        Path img = dir.resolve(name);
        try (FileChannel c = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[1]), (mib << 20) - 1);
        }
        return img;
    }

    /** An executor that counts the tasks it is given and runs each on a thread of its own. */
    private static final class Counting implements Executor {
        final AtomicInteger tasks = new AtomicInteger();

        @Override
        public void execute(Runnable r) {
            tasks.incrementAndGet();
            Thread t = new Thread(r);
            t.setDaemon(true);
            t.start();
        }
    }

    @Test
    void luks2FormatRunsArgon2OnTheCallersExecutor(@TempDir Path dir) throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "Argon2 runs its lanes on one thread here");
        Path img = image(dir, "f.img", 17);
        Counting ex = new Counting();
        Luks2Format.luks2().keySize(256).executor(ex)
                .keySlot(KeySlotOptions.defaults().pbkdf("argon2id").iterTime(100).memoryKib(8192).parallel(2))
                .format(img, "pw".getBytes());
        assertTrue(ex.tasks.get() > 0, "the calibration and key slot 0 ran their second lane on the executor");
        try (LuksVolume v = LuksVolume.at(img).passphrase("pw".getBytes()).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
    }

    @Test
    void theCallersProviderRunsTheCiphers(@TempDir Path dir) throws Exception {
        // Every AES kernel refused: the table kernel named, under the constant-time policy.
        VectorJceProvider refusing = new VectorJceProvider().configure("kernel.aes=aes-table constantTime=true");
        Path l2 = image(dir, "l2.img", 17);
        VolumeException f = assertThrows(VolumeException.class, () -> Luks2Format.luks2().keySize(256)
                .provider(refusing).keySlot(org.vectorjce.volumes.TestImages.fast("pbkdf2")).format(l2, "pw".getBytes()));
        assertTrue(f instanceof UnsupportedVolumeException, f.toString());
        Path l1 = image(dir, "l1.img", 3);
        assertThrows(UnsupportedVolumeException.class, () -> Luks1Format.luks1().keySize(256).iterations(1000)
                .provider(refusing).format(l1, "pw".getBytes()));

        Luks2Format.luks2().keySize(256).keySlot(org.vectorjce.volumes.TestImages.fast("pbkdf2")).format(l2, "pw".getBytes());
        assertThrows(UnsupportedVolumeException.class,
                () -> LuksVolume.at(l2).passphrase("pw".getBytes()).provider(refusing).open().close());
        try (LuksVolume v = LuksVolume.at(l2).passphrase("pw".getBytes()).provider(new VectorJceProvider()).open()) {
            assertEquals(0, v.keySlot().getAsInt());
        }
    }

    @Test
    void theKeySizeDefaultsAsCryptsetupChoosesIt(@TempDir Path dir) throws Exception {
        Path l2 = image(dir, "k2.img", 17), l1 = image(dir, "k1.img", 3);
        assertEquals(256, Luks2Format.luks2().cipher("serpent-cbc-essiv:sha256")
                .keySlot(org.vectorjce.volumes.TestImages.fast("pbkdf2")).format(l2, "pw".getBytes()).keyBits());
        assertEquals(512, Luks2Format.luks2().keySlot(org.vectorjce.volumes.TestImages.fast("pbkdf2"))
                .format(l2, "pw".getBytes()).keyBits());
        assertEquals(256, Luks1Format.luks1().cipher("twofish-cbc-plain64").iterations(1000)
                .format(l1, "pw".getBytes()).keyBits());
        assertEquals(512, Luks1Format.luks1().iterations(1000).format(l1, "pw".getBytes()).keyBits());
    }
}
