package org.vectorjce.volumes.fuzz;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.LuksVolume;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the LUKS header parsers with Jazzer: every input must end in header
 * information or a {@link VolumeException} — never another exception, a hang or a huge
 * allocation. Only headers are parsed ({@code info()}): no KDF runs, whose cost a header sets.
 *
 * <p>Input layout (so that mutations reach the fields, not a checksum): byte 0 even = LUKS1, then
 * 8 bytes of image size (big-endian, taken modulo 64 GiB) and the 592-byte phdr; byte 0 odd =
 * LUKS2, then 8 bytes of image size and the JSON text, which the harness puts into both header
 * copies (16 KiB metadata) with valid SHA-256 checksums. The image reads as zeros past what the
 * input gives.
 *
 * <p>In {@code mvn test} this replays the committed corpus in
 * {@code src/test/resources/org/vectorjce/volumes/fuzz/LuksHeaderFuzzTestInputs/headers/} (real
 * headers from cryptsetup's images). A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-volumes test -Dtest=LuksHeaderFuzzTest -Djazzer.max_duration=10m
 * </pre>
 */
class LuksHeaderFuzzTest {
    private static boolean hooksTurnedOff;

    @BeforeAll
    static void noHooksInRegressionMode() {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    @FuzzTest(maxDuration = "5m")
    void headers(byte[] data) throws Exception {
        if (data.length < 9) {
            return;
        }
        long size = Math.floorMod(ByteBuffer.wrap(data, 1, 8).getLong(), 64L << 30);
        byte[] head;
        if ((data[0] & 1) == 0) {
            head = Arrays.copyOfRange(data, 9, Math.min(data.length, 9 + 4096));
        } else {
            head = luks2(Arrays.copyOfRange(data, 9, Math.min(data.length, 9 + 16384 - 4096)));
        }
        try {
            LuksVolume.of(new SparseChannel(head, Math.max(size, head.length))).info().dump();
        } catch (VolumeException expected) {
            // a refusal that names the problem: fine
        }
    }

    /** Both LUKS2 header copies (16 KiB metadata) around {@code json}, with valid checksums. */
    static byte[] luks2(byte[] json) throws Exception {
        byte[] b = new byte[2 * 16384];
        for (int at : new int[] {0, 16384}) {
            ByteBuffer h = ByteBuffer.wrap(b, at, 4096).slice();
            h.put(at == 0 ? new byte[] {'L', 'U', 'K', 'S', (byte) 0xba, (byte) 0xbe}
                    : new byte[] {'S', 'K', 'U', 'L', (byte) 0xba, (byte) 0xbe});
            h.putShort(6, (short) 2).putLong(8, 16384).putLong(16, 1).putLong(256, at);
            System.arraycopy("sha256".getBytes(StandardCharsets.US_ASCII), 0, b, at + 72, 6);
            System.arraycopy("28632274-8c8a-493f-835b-da802e1c576b".getBytes(StandardCharsets.US_ASCII), 0, b, at + 168, 36);
            System.arraycopy(json, 0, b, at + 4096, json.length);
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(b, at, 16384);
            System.arraycopy(md.digest(), 0, b, at + 448, 32);
        }
        return b;
    }

    /** A read-only image of {@code size} bytes: {@code head}, then zeros. */
    static final class SparseChannel implements SeekableByteChannel {
        private final byte[] head;
        private final long size;
        private long position;

        SparseChannel(byte[] head, long size) {
            this.head = head;
            this.size = size;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= size) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), size - position);
            for (int i = 0; i < n; i++) {
                long p = position + i;
                dst.put(p < head.length ? head[(int) p] : 0);
            }
            position += n;
            return n;
        }

        @Override public int write(ByteBuffer src) { throw new NonWritableChannelException(); }
        @Override public long position() { return position; }
        @Override public SeekableByteChannel position(long p) { position = p; return this; }
        @Override public long size() { return size; }
        @Override public SeekableByteChannel truncate(long s) { throw new NonWritableChannelException(); }
        @Override public boolean isOpen() { return true; }
        @Override public void close() throws IOException { }
    }
}
