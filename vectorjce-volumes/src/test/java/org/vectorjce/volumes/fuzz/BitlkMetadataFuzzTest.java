package org.vectorjce.volumes.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.ZoneOffset;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.bitlk.BitlkVolume;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the BitLocker FVE metadata parser with Jazzer: every input must end
 * in the metadata's information (and its bitlkDump text) or a {@link VolumeException} — never
 * another exception, a hang or a huge allocation. Only the metadata is parsed: no stretch runs.
 *
 * <p>Input layout (so that mutations reach the entries, not the checksum): the input is FVE
 * metadata copy 0's block (at most 64 KiB). The harness puts it at 64 KiB of a 100 MiB image whose
 * other bytes are zeros but for a BitLocker volume header naming three copies (64, 256 and 512
 * KiB; the last two read as zeros, so they are reported bad), writes those offsets into the
 * block's own copy of them, and follows the block with a validation record whose CRC-32 is right
 * for the block size the input states.
 *
 * <p>In {@code mvn test} this replays the committed corpus in
 * {@code src/test/resources/org/vectorjce/volumes/fuzz/BitlkMetadataFuzzTestInputs/metadata/}: copy
 * 0's block of eight of cryptsetup's BitLocker images. A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-volumes test -Dtest=BitlkMetadataFuzzTest -Djazzer.max_duration=10m
 * </pre>
 */
class BitlkMetadataFuzzTest {
    private static final int AT = 64 << 10;
    private static final long[] COPIES = {AT, 256 << 10, 512 << 10};
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
    void metadata(byte[] data) throws Exception {
        if (data.length < 64 || data.length > 64 << 10) {
            return;
        }
        byte[] block = data.clone();
        ByteBuffer bb = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 3; i++) {
            bb.putLong(32 + 8 * i, COPIES[i]);
        }
        int real = Math.min((bb.getShort(8) & 0xffff) << 4, block.length);
        byte[] head = new byte[AT + block.length + 88];
        ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        h.put(0, new byte[] {(byte) 0xeb, 0x58, (byte) 0x90});
        h.put(3, "-FVE-FS-".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        h.putShort(11, (short) 512);
        h.put(160, new byte[] {0x3b, (byte) 0xd6, 0x67, 0x49, 0x29, 0x2e, (byte) 0xd8, 0x4a, (byte) 0x83, (byte) 0x99,
            (byte) 0xf6, (byte) 0xa3, 0x39, (byte) 0xe3, (byte) 0xd0, 0x01});
        for (int i = 0; i < 3; i++) {
            h.putLong(176 + 8 * i, COPIES[i]);
        }
        System.arraycopy(block, 0, head, AT, block.length);
        CRC32 crc = new CRC32();
        crc.update(block, 0, real);
        int v = AT + real;
        h.putShort(v, (short) 88).putShort(v + 2, (short) 1).putInt(v + 4, (int) crc.getValue());
        h.putShort(v + 8, (short) 80).putShort(v + 10, (short) 0).putShort(v + 12, (short) 5);
        try {
            org.vectorjce.volumes.bitlk.BitlkInfo info = BitlkVolume.info(
                    new LuksHeaderFuzzTest.SparseChannel(head, 100L << 20), "fuzz");
            info.dump("fuzz", ZoneOffset.UTC);
            info.conversionDump();   // the states and encrypted size, whatever they hold, give a text or a refusal
        } catch (VolumeException expected) {
            // a refusal that names the problem: fine
        }
    }
}
