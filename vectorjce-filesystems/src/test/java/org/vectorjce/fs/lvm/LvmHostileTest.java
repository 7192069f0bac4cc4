package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.UnknownFileSystemException;

/**
 * Damaged PVs: lvm's own PV ({@link PvImage}) with a checksum broken, or with a metadata text that
 * lvm would never write (unbalanced braces, nesting 40 and 100000 deep, numbers past 64 bits, sizes
 * whose products overflow, a segment past its PV or past the device, a gap between segments, a
 * duplicate name, an unclosed string, a name with '/'), put in with correct checksums so that the
 * parser is reached. Each is a {@link CorruptFileSystemException} within a second, never a hang or
 * another exception.
 */
class LvmHostileTest {
    private static final PvImage PV = PvImage.template();

    private static Map<String, String> list(Device d) throws Exception {
        Map<String, String> m = new TreeMap<>();
        for (LogicalVolume lv : Lvm.read(List.of(d))) {
            m.put(lv.path(), lv.size() + " " + lv.segmentTypes() + " " + lv.readable());
        }
        return m;
    }

    /** What lvs showed of the template when it was made: lin 12, second 4, z 2 extents of 64 KiB. */
    private static final Map<String, String> TEMPLATE = Map.of("vgf/lin", (12 << 16) + " linear true",
            "vgf/second", (4 << 16) + " linear true", "vgf/z", (2 << 16) + " zero false");

    private static CorruptFileSystemException corrupt(Device d, String expect) {
        CorruptFileSystemException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(CorruptFileSystemException.class, () -> {
                    for (LogicalVolume lv : Lvm.read(List.of(d))) {
                        if (lv.readable()) {
                            Lvm.open(List.of(d), lv).read(ByteBuffer.allocate(4096), 0);
                        }
                    }
                }));
        assertTrue(e.getMessage().contains(expect), e.getMessage());
        return e;
    }

    private static void text(String from, String to, String expect) {
        String t = PV.text();
        assertTrue(t.contains(from), from);
        corrupt(PV.withText(t.replace(from, to)), expect);
    }

    @Test
    void theTemplateAndItsTextWrapped() throws Exception {
        assertTrue(Lvm.isPhysicalVolume(PV));
        assertEquals(TEMPLATE, list(PV));
        // the same text placed so that it wraps past the area's end to just after the header
        PvImage wrapped = PV.withText(PV.text().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                PvImage.MDA_SIZE - 700);
        assertEquals(TEMPLATE, list(wrapped));
        LogicalVolume z = Lvm.read(List.of(PV)).stream().filter(l -> l.name().equals("z")).findFirst().orElseThrow();
        var e = assertThrows(UnknownFileSystemException.class, () -> Lvm.open(List.of(PV), z));
        assertTrue(e.getMessage().contains("vgf/z is of type zero"), e.getMessage());
        assertFalse(Lvm.isPhysicalVolume(PV.flip(512, 1)));
    }

    @Test
    void checksums() {
        CorruptFileSystemException e = corrupt(PV.flip(512 + 100, 1), "label checksum");
        assertEquals(512, e.offset());
        corrupt(PV.flip(PvImage.MDA + 100, 1), "metadata area header checksum");
        corrupt(PV.flip(PvImage.MDA + PvImage.TEXT_OFFSET + 10, 1), "metadata text checksum");
        corrupt(PV.withLocn(PvImage.MDA_SIZE + 512, 100), "does not fit");
        corrupt(PV.withLocn(512, PvImage.MDA_SIZE), "does not fit");
        corrupt(PV.withLocn(100, 100), "does not fit");
    }

    @Test
    void textsLvmWouldNotWrite() {
        text("}\n# Generated", "\n# Generated", "not closed");
        text("# Generated", "}\n# Generated", "'}' without a section");
        text("logical_volumes {", "logical_volumes {" + "a {".repeat(40) + "}".repeat(40), "nest more than 32");
        text("logical_volumes {", "logical_volumes {" + "a {".repeat(100_000), "nest more than 32");
        text("extent_size = 128", "extent_size = 99999999999999999999999", "not a 64-bit integer");
        text("extent_size = 128", "extent_size = 9223372036854775807", "extent_size");
        text("extent_size = 128", "extent_size = 0", "extent_size");
        text("pe_count = 127", "pe_count = 9223372036854775807", "overflow");
        text("\"pv0\", 12", "\"pv0\", 200", "passes the end of PV pv0");
        text("\"pv0\", 12", "\"pv0\", -1", "passes the end of PV pv0");
        text("start_extent = 8", "start_extent = 9", "gap");
        text("extent_count = 8", "extent_count = 9223372036854775807", "extent_count");
        text("seqno = 5", "seqno = 5\nseqno = 6", "twice");
        corrupt(PV.withText(PV.text() + "\nx = \"abc\\\""), "string is not closed");
        corrupt(PV.withText(PV.text() + "\nx = [ 1, 2"), "array is not closed");
        corrupt(PV.withText(PV.text() + "\nx = "), "value expected");
        text("vgf {", "vg/f {", "not an LVM name");
        text("lin {", "../x {", "not an LVM name");
        text("stripe_count = 1\n\nstripes = [\n\"pv0\", 12", "stripe_count = 0\n\nstripes = [\n\"pv0\", 12",
                "stripe_count");
        text("stripe_count = 1\n\nstripes = [\n\"pv0\", 12", "stripe_count = 2\nstripe_size = 128\nstripes = [\n\"pv0\", 12",
                "pairs");
        text("extent_count = 4\n\ntype = \"striped\"\nstripe_count = 1\n\nstripes = [\n\"pv0\", 12\n]",
                "extent_count = 4\n\ntype = \"striped\"\nstripe_count = 2\nstripe_size = 96\n\nstripes = [\n\"pv0\", 12, \"pv0\", 40\n]",
                "does not divide");
        text("physical_volumes", "physical_volumez", "physical_volumes is missing");
        text("id = \"iZmtAp", "id = 5\nx = \"iZmtAp", "string id is missing");
    }

    /** A snapshot as lvm2 writes one (lib/snapshot/snapshot.c): its COW LV is refused, not read as linear. */
    @Test
    void aSnapshotAndItsCopyOnWriteStore() throws Exception {
        String snap = "snapshot0 {\nid = \"aaaaaa-0000-0000-0000-0000-0000-000000\"\nstatus = [\"READ\"]\nflags = []\n"
                + "segment_count = 1\nsegment1 {\nstart_extent = 0\nextent_count = 4\ntype = \"snapshot\"\n"
                + "chunk_size = 8\norigin = \"lin\"\ncow_store = \"second\"\n}\n}\n";
        PvImage pv = PV.withText(PV.text().replace("z {", snap + "z {"));
        Map<String, String> m = new TreeMap<>();
        for (LogicalVolume lv : Lvm.read(List.of(pv))) {
            m.put(lv.path(), lv.segmentTypes() + " " + lv.visible() + " " + lv.readable());
        }
        assertEquals(Map.of("vgf/lin", "linear true true", "vgf/second", "snapshot true false",
                "vgf/snapshot0", "snapshot false false", "vgf/z", "zero true false"), m);
        LogicalVolume second = Lvm.read(List.of(pv)).get(1);
        var e = assertThrows(UnknownFileSystemException.class, () -> Lvm.open(List.of(pv), second));
        assertTrue(e.getMessage().contains("copy-on-write store of snapshot0"), e.getMessage());
        // withLogicalVolumes lists the visible ones, as lvs without -a
        assertEquals(List.of("none", "vgf/lin", "vgf/second", "vgf/z"), Lvm.withLogicalVolumes(pv).stream()
                .map(p -> p.scheme().equals("none") ? "none" : p.name()).toList());
    }

    /** A text of many small items (more than the template's metadata area holds) ends at the item bound, quickly. */
    @Test
    void manyItems() {
        StringBuilder b = new StringBuilder("vgf {\n");
        while (b.length() < 3_000_000) {
            b.append("a").append(b.length()).append("=[1,2,3,4,5,6,7,8,9]\n");
        }
        byte[] text = b.append("}\n").toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        var e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(CorruptFileSystemException.class, () -> VgMetadata.parse(text, 4096)));
        assertTrue(e.getMessage().contains("more than 262144 items"), e.getMessage());
    }

    @Test
    void extentsPastTheDevice() throws Exception {
        // metadata that fits its own numbers but not the 8 MiB device: listed, refused when opened
        String t = PV.text().replace("pe_count = 127", "pe_count = 100000").replace("\"pv0\", 12", "\"pv0\", 5000");
        PvImage pv = PV.withText(t);
        assertEquals(Map.of("vgf/lin", (12 << 16) + " linear true", "vgf/second", (4 << 16) + " linear true",
                "vgf/z", (2 << 16) + " zero false"), list(pv));
        corrupt(pv, "pass the end of its 8388608-byte device");
    }
}
