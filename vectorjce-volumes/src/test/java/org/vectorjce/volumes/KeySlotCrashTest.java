package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vectorjce.volumes.luks.Luks1Format;
import org.vectorjce.volumes.luks.Luks2Format;
import org.vectorjce.volumes.luks.LuksVolume;

/**
 * Crash safety of key-slot changes: each operation runs against an image channel that "dies" at its
 * k-th write (the call throws; none of that write reaches the image or, torn, the whole sectors of
 * its first half; every later write is dropped), for every k until the operation completes. The image left behind must open
 * (no corrupt header) with exactly the old set of passphrases or the new one, each giving the
 * volume key, and list no key slot that none of them opens; LUKS1's change-key, an add then a remove, may also leave both. cryptsetup's {@code open
 * --test-passphrase} must agree on every passphrase in every state.
 */
class KeySlotCrashTest {
    @TempDir
    Path dir;

    static final String A = "alpha", B = "bravo", C = "charlie";

    /** A fixed-size image in memory. */
    static class Mem implements SeekableByteChannel {
        final byte[] data;
        long pos;

        Mem(byte[] data) {
            this.data = data;
        }

        @Override public int read(ByteBuffer dst) {
            if (pos >= data.length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), data.length - pos);
            dst.put(data, (int) pos, n);
            pos += n;
            return n;
        }

        @Override public int write(ByteBuffer src) throws IOException {
            if (pos + src.remaining() > data.length) {
                throw new IOException("write beyond the image");
            }
            int n = src.remaining();
            src.get(data, (int) pos, n);
            pos += n;
            return n;
        }

        @Override public long position() { return pos; }
        @Override public SeekableByteChannel position(long p) { pos = p; return this; }
        @Override public long size() { return data.length; }
        @Override public SeekableByteChannel truncate(long size) { throw new UnsupportedOperationException(); }
        @Override public boolean isOpen() { return true; }
        @Override public void close() { }
    }

    /**
     * Dies at write number {@code crashAt} (1-based): none of it lands or, {@code torn}, the whole
     * 512-byte sectors of its first half (disks write a sector all or nothing); then nothing more.
     */
    static final class Dying extends Mem {
        final int crashAt;
        final boolean torn;
        int writes;
        boolean dead;

        Dying(byte[] data, int crashAt, boolean torn) {
            super(data);
            this.crashAt = crashAt;
            this.torn = torn;
        }

        @Override public int write(ByteBuffer src) throws IOException {
            if (dead) {
                throw new IOException("dead");
            }
            if (++writes == crashAt) {
                dead = true;
                if (torn) {
                    long cut = (pos + src.remaining() / 2) / 512 * 512 - pos;
                    if (cut > 0) {
                        ByteBuffer half = src.duplicate();
                        half.limit(half.position() + (int) cut);
                        super.write(half);
                    }
                }
                throw new IOException("simulated crash at write " + crashAt);
            }
            return super.write(src);
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A volume with A in slot 0 and B in slot 1, as bytes. */
    private byte[] base(int version) throws Exception {
        Path img = dir.resolve("base" + version + ".img");
        if (version == 1) {
            Files.write(img, new byte[3 << 20]);
            Luks1Format.luks1().keySize(256).iterations(1000).format(img, b(A));
        } else {
            Files.write(img, new byte[(16 << 20) + 4096]);
            Luks2Format.luks2().keySize(256).keySlot(TestImages.fast("pbkdf2")).format(img, b(A));
        }
        try (LuksVolume v = LuksVolume.at(img).passphrase(b(A)).readWrite().open()) {
            assertEquals(1, v.addKeySlot(b(B), TestImages.fast("pbkdf2")));
        }
        return Files.readAllBytes(img);
    }

    private interface Op {
        void run(LuksVolume v) throws Exception;
    }

    @ParameterizedTest
    @CsvSource({"1,add", "1,remove", "1,change", "2,add", "2,remove", "2,change"})
    void everyCrashLeavesTheOldOrTheNewKeySlots(int version, String op) throws Exception {
        byte[] base = base(version);
        byte[] vk = key(base, A);
        Set<String> old = Set.of(A, B);
        Set<String> after = switch (op) {
            case "add" -> Set.of(A, B, C);
            case "remove" -> Set.of(A);
            default -> Set.of(A, C);
        };
        List<Set<String>> allowed = new ArrayList<>(List.of(old, after));
        if (version == 1 && op.equals("change")) {
            allowed.add(Set.of(A, B, C)); // LUKS1: the new slot is added before the old one goes
        }
        String opener = op.equals("add") ? A : B;
        Op action = switch (op) {
            case "add" -> v -> v.addKeySlot(b(C), TestImages.fast("pbkdf2"));
            case "remove" -> v -> v.removeKeySlot(v.keySlot().getAsInt());
            default -> v -> v.changeKeySlot(v.keySlot().getAsInt(), b(C), TestImages.fast("pbkdf2"));
        };
        Set<Set<String>> seen = new LinkedHashSet<>();
        int k = 1;
        boolean done = false;
        for (; !done; k++) {
          for (boolean torn : new boolean[] {false, true}) {
            assertTrue(k < 50, "the operation never completed");
            byte[] img = base.clone();
            Dying ch = new Dying(img, k, torn);
            boolean crashed = false;
            try (LuksVolume v = LuksVolume.of(ch).passphrase(b(opener)).readWrite().open()) {
                action.run(v);
            } catch (IOException e) {
                assertTrue(ch.dead, "an I/O error other than the crash: " + e);
                crashed = true;
            }
            Set<String> opens = opening(img, vk);
            // every key slot the header lists opens with one of them: none names missing key material
            assertEquals(opens.size(), LuksVolume.of(new Mem(img.clone())).info().keySlots().size(),
                    "listed key slots after a crash at write " + k);
            assertTrue(allowed.contains(opens), "crash at write " + k + (torn ? " (torn)" : "") + " of " + op
                    + ": opens with " + opens);
            seen.add(opens);
            if (TestImages.have("cryptsetup")) {
                Path f = dir.resolve("state.img");
                Files.write(f, img);
                for (String p : List.of(A, B, C)) {
                    int rc = TestImages.cryptsetupTest(f, b(p), null);
                    assertEquals(opens.contains(p) ? 0 : 2, rc, "cryptsetup on " + p + " after a crash at write " + k);
                }
            }
            recovers(img, k, torn);
            if (!crashed) {
                assertEquals(after, opens, "completed");
                done = true;
                break;
            }
          }
        }
        assertTrue(k >= 4, "an operation of " + (k - 2) + " writes");
        assertTrue(seen.contains(old) && seen.contains(after), String.valueOf(seen));
    }

    /**
     * The next change after a crash works from whatever copy won (a stale or torn one included):
     * a key added with A opens, and both header copies are then valid and equal.
     */
    private static void recovers(byte[] crashed, int k, boolean torn) throws Exception {
        byte[] img = crashed.clone();
        int slot;
        try (LuksVolume v = LuksVolume.of(new Mem(img)).passphrase(b(A)).readWrite().open()) {
            slot = v.addKeySlot(b("delta"), TestImages.fast("pbkdf2"));
        }
        String what = "after a crash at write " + k + (torn ? " (torn)" : "");
        try (LuksVolume v = LuksVolume.of(new Mem(img.clone())).passphrase(b("delta")).open()) {
            assertEquals(slot, v.keySlot().getAsInt(), what);
            assertEquals(List.of(), v.info().warnings(), what);
        }
    }

    /** The passphrases among A, B, C that open {@code img} (each giving {@code vk}); any other error fails. */
    private static Set<String> opening(byte[] img, byte[] vk) throws Exception {
        Set<String> s = new TreeSet<>();
        for (String p : List.of(A, B, C)) {
            try (LuksVolume v = LuksVolume.of(new Mem(img.clone())).passphrase(b(p)).open()) {
                assertArrayEquals(vk, v.volumeKey());
                s.add(p);
            } catch (WrongPassphraseException e) {
                // not in the set
            } catch (VolumeException e) {
                fail("the volume no longer opens: " + e.getMessage());
            }
        }
        return s;
    }

    private static byte[] key(byte[] img, String p) throws Exception {
        try (LuksVolume v = LuksVolume.of(new Mem(img.clone())).passphrase(b(p)).open()) {
            return v.volumeKey();
        }
    }
}
