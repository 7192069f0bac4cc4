package org.vectorjce.fs.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.Partitions;
import org.vectorjce.fs.testing.Tools;

/**
 * GPTs written by {@code sgdisk} (gdisk): four partitions with types and names (accented Latin,
 * CJK, a character outside the BMP, a full 36-character name). Each partition is compared with
 * {@code sgdisk -i N} (type GUID and its name, first and last sector, name) and with The Sleuth
 * Kit's {@code mmls} (start, length, name). Damaged headers and arrays are compared with what
 * {@code sgdisk} recovers from the backup; a 4Kn disk is written by sgdisk through a loop device
 * of 4096-byte sectors.
 */
class PartGptTest {
    /** sgdisk prints a name outside the BMP wrongly (it writes it right): such names are checked with mmls only. */
    private static final String[] NAMES = {"EFI system", "Données été", "根 linux 😀", "abcdefghijklmnopqrstuvwxyz0123456789"};
    private static final String[] CODES = {"ef00", "0700", "8300", "8200"};

    /** What sgdisk writes is in the first and the last MiB: each test's image is a copy of those. */
    private static final int ENDS = 1 << 20;
    private static byte[] head;
    private static byte[] tail;

    @TempDir
    Path dir;
    private Path image;

    /** sgdisk once for the class: each write of it sleeps a second after syncing. */
    @BeforeAll
    static void sgdiskOnce(@TempDir Path once) throws Exception {
        Tools.assumeTool("sgdisk");
        Path made = Tools.sparse(once.resolve("gpt.img"), 64L << 20);
        sgdisk(made.toString());
        try (FileChannel ch = FileChannel.open(made, StandardOpenOption.READ)) {
            head = readFully(ch, 0);
            tail = readFully(ch, (64L << 20) - ENDS);
        }
    }

    private static byte[] readFully(FileChannel ch, long at) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(ENDS);
        while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {
            // until full
        }
        return b.array();
    }

    @BeforeEach
    void build() throws Exception {
        image = Tools.sparse(dir.resolve("gpt.img"), 64L << 20);
        patch(0, head);
        patch((64L << 20) - ENDS, tail);
    }

    private static void sgdisk(String target) throws Exception {
        String[] sizes = {"+8M", "+8M", "+8M", "0"};
        List<String> cmd = new java.util.ArrayList<>(List.of("sgdisk"));
        for (int i = 0; i < 4; i++) {
            int n = i + 1;
            cmd.addAll(List.of("-n", n + ":0:" + sizes[i], "-t", n + ":" + CODES[i], "-c", n + ":" + NAMES[i]));
        }
        cmd.add(target);
        Tools.ok(cmd.toArray(String[]::new));
    }

    private PartitionTable ours() throws IOException {
        try (Device d = Device.open(image, false)) {
            return PartitionTables.read(d);
        }
    }

    private static final Pattern CODE = Pattern.compile("Partition GUID code: (\\S+) \\((.*)\\)");
    private static final Pattern FIRST = Pattern.compile("First sector: (\\d+)");
    private static final Pattern LAST = Pattern.compile("Last sector: (\\d+)");
    private static final Pattern NAME = Pattern.compile("Partition name: '(.*)'");

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        assertTrue(m.find(), p + " in " + text);
        return m.group(1);
    }

    /** Every partition of {@code table} against {@code sgdisk -i N target}, sectors of {@code ss} bytes. */
    private static void assertAsSgdisk(List<Partition> parts, String target, int ss) throws Exception {
        assertEquals(4, parts.size(), parts.toString());
        for (Partition p : parts) {
            String out = Tools.ok("sgdisk", "-i", Integer.toString(p.number()), target).out();
            Matcher code = CODE.matcher(out);
            assertTrue(code.find(), out);
            assertEquals("GPT", p.scheme());
            assertEquals(code.group(1).toLowerCase(java.util.Locale.ROOT), p.type());
            assertEquals(code.group(2), p.description());
            long first = Long.parseLong(group(FIRST, out));
            long last = Long.parseLong(group(LAST, out));
            assertEquals(first * ss, p.offset(), p.toString());
            assertEquals((last - first + 1) * ss, p.length(), p.toString());
            if (NAMES[p.number() - 1].codePoints().allMatch(Character::isBmpCodePoint)) {
                assertEquals(group(NAME, out), p.name());
            }
        }
    }

    private static void assertAsMmls(List<Partition> parts, String... mmls) throws Exception {
        List<Mmls.Row> rows = Mmls.rows(Tools.ok(mmls).out());
        assertEquals(List.of("000", "001", "002", "003"), rows.stream().map(Mmls.Row::slot).toList());
        int ss = mmls.length > 2 ? Integer.parseInt(mmls[2]) : 512;
        for (int i = 0; i < rows.size(); i++) {
            Mmls.Row r = rows.get(i);
            Partition p = parts.get(i);
            assertEquals(r.start() * ss, p.offset(), r + " / " + p);
            assertEquals(r.length() * ss, p.length(), r + " / " + p);
            assertEquals(r.description(), p.name()); // mmls shows a GPT entry's name, and outside the BMP right
        }
    }

    @Test
    void everyPartitionAsSgdiskReadsIt() throws Exception {
        PartitionTable t = ours();
        assertEquals("GPT", t.scheme());
        assertEquals(512, t.sectorSize());
        assertEquals(List.of(), t.notes());
        assertAsSgdisk(t.partitions(), image.toString(), 512);
        // and the descriptions sgdisk printed are the ones the brief asked for
        assertEquals(List.of("EFI system partition", "Microsoft basic data", "Linux filesystem", "Linux swap"),
                t.partitions().stream().map(Partition::description).toList());
    }

    @Test
    void everyPartitionAsMmlsReadsIt() throws Exception {
        Tools.assumeTool("mmls");
        assertAsMmls(ours().partitions(), "mmls", image.toString());
    }

    @Test
    void aDamagedPrimaryHeaderIsReadFromTheBackup() throws Exception {
        List<Partition> whole = ours().partitions();
        flip(512 + 48); // the primary header's LastUsableLBA: its CRC32 no longer matches
        Tools.Run v = Tools.run("sgdisk", "-v", image.toString());
        assertTrue((v.out() + v.stderr()).contains("Main header: ERROR"), v.out() + v.stderr());
        PartitionTable t = ours();
        assertEquals(whole, t.partitions());
        assertEquals(1, t.notes().size());
        assertTrue(t.notes().get(0).contains("header CRC32 does not match"), t.notes().toString());
        assertTrue(t.notes().get(0).contains("backup header at LBA 131071 is used"), t.notes().toString());
        assertAsSgdisk(t.partitions(), image.toString(), 512);
    }

    @Test
    void aDamagedPrimaryArrayIsReadFromTheBackup() throws Exception {
        List<Partition> whole = ours().partitions();
        flip(1024 + 128 + 56); // the primary array's second name: its CRC32 no longer matches
        Tools.Run v = Tools.run("sgdisk", "-v", image.toString());
        assertTrue((v.out() + v.stderr()).contains("Main partition table: ERROR"), v.out() + v.stderr());
        PartitionTable t = ours();
        assertEquals(whole, t.partitions());
        assertTrue(t.notes().get(0).contains("partition entry array's CRC32 does not match"), t.notes().toString());
        assertAsSgdisk(t.partitions(), image.toString(), 512);
    }

    @Test
    void bothHeadersDamagedIsAnError() throws Exception {
        flip(512 + 48);
        flip((64L << 20) - 512 + 48);
        Tools.Run v = Tools.run("sgdisk", "-v", image.toString());
        // sgdisk finds no GPT it can use either: it starts an empty one in memory
        assertTrue((v.out() + v.stderr()).contains("Creating new GPT entries"), v.out() + v.stderr());
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().contains("neither header is valid"), x.getMessage());
        assertEquals(512, x.offset());
    }

    @Test
    void aDeviceShorterThanTheTableIsAnError() throws Exception {
        try (Device d = Device.open(image, false)) {
            // the primary's usable LBAs pass the end; the backup is not at the shorter device's last LBA
            CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class,
                    () -> Partitions.read(d.window(0, 32L << 20)));
            assertTrue(x.getMessage().contains("usable LBAs 34 to 131038 are not within the 65536-sector device"),
                    x.getMessage());
        }
    }

    @Test
    void anEntryPastTheUsableLbasFailsItsHeader() throws Exception {
        // entry 4's last LBA one past LastUsableLBA (131038), in the primary array, both CRC32s redone:
        // sgdisk takes the main header for valid; ours takes it for damaged and reads the backup
        List<Partition> whole = ours().partitions();
        pastUsable(512);
        Tools.Run v = Tools.run("sgdisk", "-v", image.toString());
        assertTrue((v.out() + v.stderr()).contains("Main header: OK"), v.out() + v.stderr());
        PartitionTable t = ours();
        assertEquals(whole, t.partitions());
        assertTrue(t.notes().get(0).contains("entry 4 (LBAs 51200 to 131039) is not within the usable LBAs 34 to 131038"),
                t.notes().toString());
        // the same in the backup array too: an error naming both
        pastUsable((64L << 20) - 512);
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().matches("(?s).*primary: .*entry 4 \\(LBAs 51200 to 131039\\).*backup: .*entry 4 .*"),
                x.getMessage());
    }

    /** Entry 4's last LBA set to 131039 in the array of the header at {@code header}, its CRC32s redone. */
    private void pastUsable(long header) throws IOException {
        patchEntry(header, 3, 40, 131039);
    }

    /** The 8-byte field at {@code field} of entry {@code index} in the array of the header at {@code header}, CRC32s redone. */
    private void patchEntry(long header, int index, int field, long value) throws IOException {
        long array = ByteBuffer.wrap(read(header + 72, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong() * 512;
        ByteBuffer v = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
        patch(array + index * 128L + field, v.array());
        CRC32 c = new CRC32();
        c.update(read(array, 128 * 128));
        patch(header + 88, le32(c.getValue()));
        byte[] h = read(header, 92);
        java.util.Arrays.fill(h, 16, 20, (byte) 0);
        c.reset();
        c.update(h);
        patch(header + 16, le32(c.getValue()));
    }

    @Test
    void overlappingEntriesFailTheirHeader() throws Exception {
        // entry 3 from entry 2's last LBA (34815), in both arrays: sgdisk -v reports the overlap too
        patchEntry(512, 2, 32, 34815);
        patchEntry((64L << 20) - 512, 2, 32, 34815);
        Tools.Run v = Tools.run("sgdisk", "-v", image.toString());
        assertTrue((v.out() + v.stderr()).contains("overlap"), v.out() + v.stderr());
        CorruptFileSystemException x = assertThrows(CorruptFileSystemException.class, this::ours);
        assertTrue(x.getMessage().contains("GPT at LBA 1: partitions 2 and 3 overlap"), x.getMessage());
    }

    @Test
    void a4knDiskHas4096ByteSectors() throws Exception {
        Tools.assumeTool("losetup", "mmls");
        Path k = Tools.sparse(dir.resolve("4kn.img"), 64L << 20);
        Tools.Run attach = Tools.run("losetup", "-b", "4096", "-f", "--show", k.toString());
        assumeTrue(attach.exit() == 0, "no loop device: " + attach.stderr());
        String loop = attach.out().trim();
        try {
            sgdisk(loop);
            assertTrue(Tools.ok("sgdisk", "-p", loop).out().contains("Sector size (logical/physical): 4096/4096"));
            PartitionTable t;
            try (Device d = Device.open(k, false)) {
                t = PartitionTables.read(d);
            }
            assertEquals(4096, t.sectorSize());
            assertAsSgdisk(t.partitions(), loop, 4096);
            assertAsMmls(t.partitions(), "mmls", "-b", "4096", k.toString());
        } finally {
            Tools.ok("losetup", "-d", loop);
        }
    }

    private void flip(long offset) throws IOException {
        byte[] b = read(offset, 1);
        b[0] ^= 0x5a;
        patch(offset, b);
    }

    private byte[] read(long offset, int n) throws IOException {
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(n);
            ch.read(b, offset);
            return b.array();
        }
    }

    private void patch(long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static byte[] le32(long v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) v).array();
    }

    @Test
    void unusedEntriesAreSkipped() throws Exception {
        // sgdisk deletes partition 2: its entry becomes zeros; ours are then sgdisk's 1, 3, 4 as 1, 2, 3
        Tools.ok("sgdisk", "-d", "2", image.toString());
        List<Partition> p = ours().partitions();
        assertEquals(List.of(NAMES[0], NAMES[2], NAMES[3]), p.stream().map(Partition::name).toList());
        assertEquals(List.of(1, 2, 3), p.stream().map(Partition::number).toList());
        assertFalse(p.stream().anyMatch(x -> x.name().equals(NAMES[1])));
    }
}
