package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.luks.LuksInfo;
import org.vectorjce.volumes.luks.LuksVolume;

/** The API's contract: channels, detached headers, closing, header fuzzing. */
class VolumeApiTest {
    @TempDir
    Path dir;

    @Test
    void openFromAChannelLeavesItOpenAndThePayloadIsReadOnly() throws Exception {
        Path img = TestImages.unxz("compatimage2.img.xz", dir);
        try (FileChannel ch = FileChannel.open(img, StandardOpenOption.READ)) {
            SeekableByteChannel p;
            try (LuksVolume v = LuksVolume.of(ch).passphrase("compatkey".toCharArray()).keySlot(0).open()) {
                p = v.payload();
                assertEquals(512, p.size());
                assertThrows(NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(16)));
                assertThrows(NonWritableChannelException.class, () -> p.truncate(0));
                assertFalse(v.toString().contains("compatkey"));
                ByteBuffer b = ByteBuffer.allocate(600);
                assertEquals(512, p.read(b));
                assertEquals(-1, p.read(b.clear()));
            }
            assertFalse(p.isOpen(), "the volume's close closes its payload channels");
            assertThrows(ClosedChannelException.class, () -> p.read(ByteBuffer.allocate(1)));
            assertTrue(ch.isOpen(), "the caller's channel stays open");
        }
    }

    @Test
    void volumeKeyIsWipedOnClose() throws Exception {
        Path img = TestImages.unxz("compatimage2.img.xz", dir);
        LuksVolume v = LuksVolume.at(img).passphrase("compatkey".toCharArray()).keySlot(0).open();
        v.close();
        assertThrows(IllegalStateException.class, v::volumeKey);
        LuksInfo i = v.info();
        assertFalse(i.toString().contains("salt"));
    }

    @Test
    void detachedHeaders() throws Exception {
        TestImages.assumeTool("cryptsetup");
        for (String type : new String[] {"luks1", "luks2"}) {
            Path data = dir.resolve(type + "-data.img"), hdr = dir.resolve(type + "-hdr.img"), key = dir.resolve("k");
            Files.write(key, "detached".getBytes(StandardCharsets.UTF_8));
            try (FileChannel f = FileChannel.open(data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                byte[] r = new byte[1 << 20];
                new Random(3).nextBytes(r);
                f.write(ByteBuffer.wrap(r));
            }
            try (FileChannel f = FileChannel.open(hdr, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                f.write(ByteBuffer.allocate(1), (16 << 20) - 1);
            }
            TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", type, "--pbkdf-force-iterations", "1000",
                    "--pbkdf", "pbkdf2", "--header", hdr.toString(), data.toString(), key.toString());
            byte[] want = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump",
                    "--dump-volume-key", "--batch-mode", "--key-file", key.toString(), hdr.toString()).out());
            try (LuksVolume v = LuksVolume.at(data).header(hdr).keyFile(key).open()) {
                assertArrayEquals(want, v.volumeKey(), type);
                assertEquals(0, v.info().payloadOffset(), type);
                assertEquals(1 << 20, v.payloadSize(), type);
            }
            // the data image alone is not a LUKS volume
            assertThrows(CorruptHeaderException.class, () -> LuksVolume.at(data).keyFile(key).open());
        }
    }

    /** LUKS2 key slot priorities and unbound key slots, as cryptsetup makes them. */
    @Test
    void ignoredAndUnboundKeySlots() throws Exception {
        TestImages.assumeTool("cryptsetup");
        Path img = dir.resolve("u.img"), key = dir.resolve("k"), unbound = dir.resolve("ku"), ignored = dir.resolve("ki");
        Files.writeString(key, "zero");
        Files.writeString(unbound, "unbound");
        Files.writeString(ignored, "ignored");
        try (FileChannel f = FileChannel.open(img, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), (20 << 20) - 1);
        }
        String[] fast = {"--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000"};
        TestImages.ok(null, concat(new String[] {"cryptsetup", "luksFormat", "-q", "--type", "luks2"}, fast,
                new String[] {img.toString(), key.toString()}));
        TestImages.ok(null, concat(new String[] {"cryptsetup", "luksAddKey", "-q", "--unbound", "--key-size", "256"}, fast,
                new String[] {img.toString(), unbound.toString()}));
        TestImages.ok(null, concat(new String[] {"cryptsetup", "luksAddKey", "-q", "--key-file", key.toString()}, fast,
                new String[] {img.toString(), ignored.toString()}));
        TestImages.ok(null, "cryptsetup", "config", "--priority", "ignore", "--key-slot", "2", img.toString());

        LuksInfo i = LuksVolume.at(img).info();
        assertEquals(0, i.keySlot(2).orElseThrow().priority());
        assertEquals(1, i.keySlot(1).orElseThrow().digest().getAsInt());
        assertEquals(0, i.keySlot(0).orElseThrow().digest().getAsInt());
        assertEquals(256, i.keySlot(1).orElseThrow().keyBits());
        // an ignored slot is tried only when asked for
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).keyFile(ignored).open());
        try (LuksVolume v = LuksVolume.at(img).keyFile(ignored).keySlot(2).open()) {
            assertEquals(2, v.keySlot().getAsInt());
        }
        // an unbound slot holds no key of this volume
        assertThrows(WrongPassphraseException.class, () -> LuksVolume.at(img).keyFile(unbound).open());
        VolumeException e = assertThrows(VolumeException.class, () -> LuksVolume.at(img).keyFile(unbound).keySlot(1).open());
        assertTrue(e.getMessage().contains("unbound"), e.getMessage());
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    /**
     * Random damage to real headers (a LUKS1 one, a LUKS2 one's binary header and JSON): info and
     * opening with the volume key end in a VolumeException or succeed, never another exception.
     */
    @Test
    void headerMutationsNeverEscapeAsOtherExceptions() throws Exception {
        Path l1 = TestImages.unxz("compatimage.img.xz", dir);
        Path l2 = TestImages.unxz("compatimage2.img.xz", dir);
        byte[] key1, key2;
        try (LuksVolume v = LuksVolume.at(l1).passphrase("compatkey".toCharArray()).open()) {
            key1 = v.volumeKey();
        }
        try (LuksVolume v = LuksVolume.at(l2).passphrase("compatkey".toCharArray()).keySlot(0).open()) {
            key2 = v.volumeKey();
        }
        byte[] img1 = Arrays2.head(Files.readAllBytes(l1), 1 << 20);
        byte[] img2 = Files.readAllBytes(l2);
        String json = TestImages.luks2Json(l2);
        Random r = new Random(20);
        // each image is written whole once; a mutation touches only its headers, so each round
        // rewrites those (LUKS1: the 592-byte header; LUKS2: both 16 KiB copies) from a fresh copy
        // and the file is byte for byte the mutated image
        Path m1 = dir.resolve("m1.img"), m2 = dir.resolve("m2.img");
        Files.write(m1, img1);
        Files.write(m2, img2);
        int head1 = 4096, head2 = 2 * (int) ByteBuffer.wrap(img2).getLong(8);
        for (int i = 0; i < 600; i++) {
            byte[] b;
            byte[] key;
            Path m;
            if (i % 3 == 0) {
                b = Arrays2.head(img1, head1);
                for (int k = 0; k < 1 + r.nextInt(4); k++) {
                    b[r.nextInt(592)] = (byte) r.nextInt(256);
                }
                key = key1;
                m = m1;
            } else if (i % 3 == 1) {
                b = Arrays2.head(img2, head2);
                for (int k = 0; k < 1 + r.nextInt(3); k++) {
                    b[r.nextInt(512)] = (byte) r.nextInt(256);
                }
                TestImages.resum(b, 0, 16384);
                key = key2;
                m = m2;
            } else {
                StringBuilder j = new StringBuilder(json);
                for (int k = 0; k < 1 + r.nextInt(3); k++) {
                    int at = r.nextInt(j.length());
                    switch (r.nextInt(3)) {
                        case 0 -> j.setCharAt(at, "{}[]\":,0123456789-ab\\".charAt(r.nextInt(21)));
                        case 1 -> j.deleteCharAt(at);
                        default -> j.insert(at, "{}[]\":,09".charAt(r.nextInt(9)));
                    }
                }
                b = Arrays2.head(img2, head2);
                TestImages.rewriteLuks2Json(b, j.toString());
                key = key2;
                m = m2;
            }
            try (FileChannel f = FileChannel.open(m, StandardOpenOption.WRITE)) {
                for (ByteBuffer w = ByteBuffer.wrap(b); w.hasRemaining(); ) {
                    f.write(w, w.position());
                }
            }
            try {
                LuksVolume.at(m).info();
                try (LuksVolume v = LuksVolume.at(m).volumeKey(key).open()) {
                    SeekableByteChannel p = v.payload();
                    p.read(ByteBuffer.allocate(4096));
                }
            } catch (VolumeException | IOException expected) {
                // fine
            } catch (RuntimeException e) {
                throw new AssertionError("mutation " + i + ": " + e, e);
            }
        }
    }

    private static final class Arrays2 {
        static byte[] head(byte[] b, int n) {
            return java.util.Arrays.copyOf(b, Math.min(n, b.length));
        }
    }
}
