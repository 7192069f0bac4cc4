package org.vectorjce.fs.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.Partitions;
import org.vectorjce.fs.testing.Tools;

/**
 * MBR tables written by {@code sfdisk} (util-linux) from a script: three primaries and an extended
 * partition holding three logicals. Every partition's start, length and type is compared with what
 * {@code sfdisk --json} reads back and with The Sleuth Kit's {@code mmls}; then the same image is
 * damaged (an EBR chain made to loop, entries past a shorter device, overlapping entries).
 */
class PartMbrTest {
    /** 64 MiB; the extended partition's EBRs are at sectors 26624, 32768 and 38912 (sfdisk's 1 MiB alignment). */
    private static final String SCRIPT = """
            label: dos
            start=2048, size=8192, type=83
            size=8192, type=7
            size=8192, type=c, bootable
            size=65536, type=5
            size=4096, type=83
            size=4096, type=82
            size=4096, type=e
            """;

    @TempDir
    Path dir;
    private Path image;

    @BeforeEach
    void build() throws Exception {
        Tools.assumeTool("sfdisk");
        image = Tools.sparse(dir.resolve("mbr.img"), 64L << 20);
        Path script = dir.resolve("script");
        Files.writeString(script, SCRIPT);
        Tools.ok("sh", "-c", "sfdisk -q \"$1\" < \"$2\"", "sh", image.toString(), script.toString());
    }

    /** One partition of {@code sfdisk --json}: start and size in sectors, type in hex without 0x. */
    private record Sfdisk(long start, long size, int type) {
    }

    private static final Pattern SFDISK = Pattern.compile(
            "\"start\":\\s*(\\d+),\\s*\"size\":\\s*(\\d+),\\s*\"type\":\\s*\"([0-9a-fA-F]+)\"");

    private List<Sfdisk> sfdisk() throws Exception {
        List<Sfdisk> out = new ArrayList<>();
        Matcher m = SFDISK.matcher(Tools.ok("sfdisk", "--json", image.toString()).out());
        while (m.find()) {
            out.add(new Sfdisk(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Integer.parseInt(m.group(3), 16)));
        }
        return out;
    }

    private List<Partition> ours() throws IOException {
        try (Device d = Device.open(image, false)) {
            return Partitions.read(d);
        }
    }

    @Test
    void everyPartitionAsSfdiskReadsIt() throws Exception {
        List<Sfdisk> expected = sfdisk();
        assertEquals(7, expected.size(), "sfdisk lists 3 primaries, the extended partition and 3 logicals");
        // sfdisk lists the extended container (its 4th); ours leaves it out: it holds tables, not a filesystem
        expected.removeIf(p -> p.type() == 0x05);
        List<Partition> ours = ours();
        assertEquals(expected.size(), ours.size(), ours.toString());
        for (int i = 0; i < ours.size(); i++) {
            Partition p = ours.get(i);
            Sfdisk s = expected.get(i);
            assertEquals(i + 1, p.number());
            assertEquals("MBR", p.scheme());
            assertEquals(String.format("0x%02x", s.type()), p.type(), p.toString());
            assertEquals(s.start() * 512, p.offset(), p.toString());
            assertEquals(s.size() * 512, p.length(), p.toString());
            assertEquals("", p.name());
        }
        // the descriptions of PartitionTypes' table (the brief's names): fixed, not derived from our code
        assertEquals(List.of("Linux", "NTFS/exFAT/HPFS", "FAT32 (LBA)", "Linux", "Linux swap", "FAT16 (LBA)"),
                ours.stream().map(Partition::description).toList());
    }

    @Test
    void everyPartitionAsMmlsReadsIt() throws Exception {
        Tools.assumeTool("mmls");
        List<Mmls.Row> rows = Mmls.rows(Tools.ok("mmls", image.toString()).out());
        // mmls numbers table:entry: the primaries 000:000 to 000:002, each logical 00N:000 in EBR N
        assertEquals(List.of("000:000", "000:001", "000:002", "001:000", "002:000", "003:000"),
                rows.stream().map(Mmls.Row::slot).toList());
        List<Partition> ours = ours();
        assertEquals(rows.size(), ours.size());
        Pattern type = Pattern.compile("\\((0x[0-9a-f]{2})\\)$");
        for (int i = 0; i < rows.size(); i++) {
            Mmls.Row r = rows.get(i);
            Partition p = ours.get(i);
            assertEquals(r.start() * 512, p.offset(), r + " / " + p);
            assertEquals(r.length() * 512, p.length(), r + " / " + p);
            Matcher m = type.matcher(r.description());
            assertTrue(m.find(), r.description());
            assertEquals(m.group(1), p.type());
        }
    }

    /**
     * Slots 1, 2 (extended, two logicals) and 4, slot 3 empty: ours are Linux's nodes in order without
     * the gap and the extended one (sda1, sda4, sda5, sda6 as 1 to 4), as {@code sfdisk -d} names
     * them; {@code mmls} sorts by start and names 000:000, 000:003, 001:000, 002:000.
     */
    @Test
    void numberingAgainstLinuxNodesAndMmlsSlots() throws Exception {
        Path img = Tools.sparse(dir.resolve("s.img"), 64L << 20);
        Path script = dir.resolve("s.script");
        Files.writeString(script, """
                label: dos
                s.img1 : start=2048, size=8192, type=83
                s.img2 : start=10240, size=32768, type=5
                s.img4 : start=43008, size=8192, type=7
                s.img5 : start=12288, size=4096, type=83
                s.img6 : start=18432, size=4096, type=82
                """);
        Tools.ok("sh", "-c", "cd \"$1\" && sfdisk -q s.img < \"$2\"", "sh", dir.toString(), script.toString());
        List<Partition> ours;
        try (Device d = Device.open(img, false)) {
            ours = Partitions.read(d);
        }
        // sfdisk -d: "s.imgN : start= S, size= L, type=T", by node number N
        Pattern line = Pattern.compile("s\\.img(\\d+) : start=\\s*(\\d+), size=\\s*(\\d+), type=(\\w+)");
        Matcher m = line.matcher(Tools.ok("sfdisk", "-d", img.toString()).out());
        java.util.TreeMap<Integer, long[]> nodes = new java.util.TreeMap<>();
        while (m.find()) {
            nodes.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Integer.parseInt(m.group(4), 16)});
        }
        nodes.values().removeIf(n -> n[2] == 0x05);
        assertEquals(List.of(1, 4, 5, 6), List.copyOf(nodes.keySet()));
        List<long[]> expected = List.copyOf(nodes.values());
        assertEquals(expected.size(), ours.size());
        for (int i = 0; i < ours.size(); i++) {
            assertEquals(expected.get(i)[0] * 512, ours.get(i).offset());
            assertEquals(expected.get(i)[1] * 512, ours.get(i).length());
            assertEquals(String.format("0x%02x", expected.get(i)[2]), ours.get(i).type());
        }
        if (Tools.have("mmls")) {
            // mmls slot 000:00k is primary slot k+1, 00N:000 is the logical in EBR N: ours by that order
            List<Mmls.Row> rows = new ArrayList<>(Mmls.rows(Tools.ok("mmls", img.toString()).out()));
            assertEquals(List.of("000:000", "001:000", "002:000", "000:003"), rows.stream().map(Mmls.Row::slot).toList());
            rows.sort(java.util.Comparator.comparing((Mmls.Row r) -> !r.slot().startsWith("000:"))
                    .thenComparing(Mmls.Row::slot));
            for (int i = 0; i < rows.size(); i++) {
                assertEquals(rows.get(i).start() * 512, ours.get(i).offset(), rows.get(i) + " / " + ours.get(i));
            }
        }
    }

    @Test
    void eachPartitionIsAWindowOfItsBytes() throws Exception {
        // a marker written at each partition's first byte by dd (through sfdisk's numbers) is at
        // byte 0 of our window
        List<Sfdisk> parts = sfdisk();
        parts.removeIf(p -> p.type() == 0x05);
        for (int i = 0; i < parts.size(); i++) {
            Tools.ok("sh", "-c", "printf 'PART%02d' " + (i + 1) + " | dd of=\"$1\" bs=512 seek=" + parts.get(i).start()
                    + " conv=notrunc status=none", "sh", image.toString());
        }
        try (Device d = Device.open(image, false)) {
            for (Partition p : Partitions.read(d)) {
                byte[] b = new byte[6];
                d.window(p.offset(), p.length()).readFully(0, b, 0, 6);
                assertEquals(String.format("PART%02d", p.number()), new String(b, java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void anEbrChainThatLoopsIsAnErrorNotAHang() throws Exception {
        // the third EBR (sector 38912) links back to the second (26624 + 6144), as entry 2 of its table
        ByteBuffer e = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        e.put(4, (byte) 0x05).putInt(8, 6144).putInt(12, 6144);
        patch(38912L * 512 + 446 + 16, e.array());
        CorruptFileSystemException x = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(CorruptFileSystemException.class, this::ours));
        assertTrue(x.getMessage().contains("loops back to sector 32768"), x.getMessage());
        assertEquals(32768L * 512, x.offset());
    }

    @Test
    void anExtendedPartitionAtSectorZeroLoops() throws Exception {
        patch(446, new byte[48]); // entries 1 to 3 empty
        patch(446 + 3 * 16 + 8, new byte[4]); // entry 4's LBA start: 0, the MBR itself
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().contains("loops"), x.getMessage());
    }

    @Test
    void anEntryPastTheDeviceIsAnError() throws Exception {
        try (Device d = Device.open(image, false)) {
            // the extended partition (entry 4) ends at sector 92160, 45 MiB: a 40 MiB device is too short
            CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class,
                    () -> Partitions.read(d.window(0, 40L << 20)));
            assertTrue(x.getMessage().contains("partition entry 4 (sectors 26624 to 92159) passes the end"),
                    x.getMessage());
            assertEquals(446 + 3 * 16, x.offset());
            // and entry 1 (sectors 2048 to 10239) does not fit 4 MiB
            x = assertThrows(CorruptFileSystemException.class, () -> Partitions.read(d.window(0, 4L << 20)));
            assertTrue(x.getMessage().contains("partition entry 1 "), x.getMessage());
            assertEquals(446, x.offset());
        }
    }

    @Test
    void overlappingEntriesAreAnError() throws Exception {
        ByteBuffer start = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 4096);
        patch(446 + 16 + 8, start.array()); // entry 2 from sector 4096, inside entry 1
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().contains("entries 1 and 2 overlap"), x.getMessage());
    }

    @Test
    void aLogicalOutsideItsExtendedPartitionIsAnError() throws Exception {
        ByteBuffer count = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1 << 20);
        patch(38912L * 512 + 446 + 12, count.array()); // the third logical's size: past the extended partition
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().contains("EBR at sector 38912"), x.getMessage());
    }

    /**
     * Our documented choice, the Linux kernel's (block/partitions/msdos.c rejects a sector whose boot
     * indicators are not 0 or 0x80); sfdisk and mmls still read such a table, so they are no oracle here.
     */
    @Test
    void statusBytesOtherThan0Or80AreNotAnMbr() throws Exception {
        patch(446, new byte[] {0x12});
        assertEquals(List.of(new Partition(1, "none", "", "", "", 0, 64L << 20)), ours());
    }

    private void patch(long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }
}
