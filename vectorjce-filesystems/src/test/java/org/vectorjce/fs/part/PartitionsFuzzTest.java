package org.vectorjce.fs.part;

import java.io.IOException;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.fs.testing.MemoryDevice;
import org.vectorjce.device.Device;
import org.vectorjce.fs.Partition;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the partition table readers (MBR, EBR chains, GPT) with Jazzer: every
 * input must end in a list of partitions that are windows of the device, numbered 1 to n, apart
 * from each other, or in an {@link IOException} — never another exception, a hang or a huge
 * allocation.
 *
 * <p>Input layout: the input (at most 64 KiB) is the first bytes of a 64 MiB device whose other
 * bytes are zeros. So that mutations reach the GPT entries rather than stop at a CRC, an input of
 * even length has the CRC32s of a GPT header found at byte 512 or 4096 (and of its entry array,
 * when it lies within the input) recomputed; an odd-length input keeps its CRCs as they are.
 *
 * <p>In {@code mvn test} this replays the committed seeds in
 * {@code src/test/resources/org/vectorjce/fs/part/PartitionsFuzzTestInputs/tables/}: the first
 * sectors of tables written by sfdisk (three primaries, three logicals; the same with its EBR chain
 * made to loop) and sgdisk (four named partitions; a 4Kn disk; a damaged primary header), and the
 * boot sectors of mkfs.fat (also with its fake MBR entry), mkntfs and mkfs.exfat. A session, from
 * the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=PartitionsFuzzTest
 * </pre>
 */
class PartitionsFuzzTest {
    private static final long SIZE = 64L << 20;
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

    @FuzzTest(maxDuration = "30s")
    void tables(byte[] data) throws Exception {
        if (data.length > 64 << 10) {
            return;
        }
        byte[] head = data.clone();
        if (head.length % 2 == 0) {
            fixGpt(head, 512, 512);
            fixGpt(head, 4096, 4096);
        }
        Device device = new MemoryDevice(head, SIZE);
        PartitionTable table;
        try {
            table = PartitionTables.read(device);
        } catch (IOException expected) {
            return; // a refusal that names the problem: fine
        }
        long end = -1;
        int number = 1;
        for (Partition p : table.partitions().stream()
                .sorted(java.util.Comparator.comparingLong(Partition::offset)).toList()) {
            if (p.offset() < end || p.length() <= 0) {
                throw new AssertionError("overlapping or empty: " + table.partitions());
            }
            end = p.offset() + p.length();
            // the window must exist (IllegalArgumentException otherwise) and read at both ends
            Device w = device.window(p.offset(), p.length());
            w.readFully(0, new byte[1], 0, 1);
            w.readFully(p.length() - 1, new byte[1], 0, 1);
        }
        for (Partition p : table.partitions()) {
            if (p.number() != number++ || !p.scheme().equals(table.scheme()) || p.name().indexOf('\0') >= 0) {
                throw new AssertionError("numbering or scheme: " + table.partitions());
            }
        }
    }

    /** Recomputes the CRC32s of a GPT header at {@code at} (and of its array, when within {@code b}). */
    private static void fixGpt(byte[] b, int at, int ss) {
        if (b.length < at + 92 || !new String(b, at, 8, java.nio.charset.StandardCharsets.ISO_8859_1).equals("EFI PART")) {
            return;
        }
        long headerSize = Sectors.u32(b, at + 12);
        if (headerSize < 92 || headerSize > ss || at + headerSize > b.length) {
            return;
        }
        long entriesLba = Sectors.u64(b, at + 72);
        long bytes = Sectors.u32(b, at + 80) * Math.min(Sectors.u32(b, at + 84), 1 << 20);
        if (entriesLba >= 0 && entriesLba < b.length / ss && bytes <= b.length - entriesLba * ss) {
            CRC32 c = new CRC32();
            c.update(b, (int) (entriesLba * ss), (int) bytes);
            put32(b, at + 88, c.getValue());
        }
        put32(b, at + 16, 0);
        CRC32 c = new CRC32();
        c.update(b, at, (int) headerSize);
        put32(b, at + 16, c.getValue());
    }

    private static void put32(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> 8 * i);
        }
    }
}
