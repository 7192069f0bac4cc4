package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.testing.Tools;

/**
 * A PV with two metadata areas ({@code pvcreate --pvmetadatacopies 2}, 60 KiB each) updated by
 * lvcreate and lvremove until the circular buffer has wrapped: after every update the VG read
 * here has {@code vgs -o vg_seqno}'s seqno and {@code lvs}' names and sizes, and the label's fields
 * are {@code pvck --dump headers}'. Then the copies are made to disagree: the first area put back
 * as it was one update earlier (the newer second copy wins), the second's text damaged (the older
 * first copy is used), the first's header damaged too (no good copy: CorruptFileSystemException).
 */
class LvmMetadataCopiesTest {
    private static final String LONG = "a_long_name_so_that_the_metadata_text_grows_fast_".repeat(2);

    /** {@code lvs}' names and sizes, and the seqno (every row repeats it). */
    private static long state(LvmLab lab, Map<String, Long> sizes) throws Exception {
        sizes.clear();
        long seqno = -1;
        for (String[] r : lab.report("lvs", "lv_name,lv_size,vg_seqno", lab.vg)) {
            sizes.put(r[0], Long.parseLong(r[1]));
            seqno = Long.parseLong(r[2]);
        }
        return seqno;
    }

    private static long ours(Path image, Map<String, Long> sizes) throws Exception {
        try (Device d = Device.open(image, false)) {
            sizes.clear();
            for (LogicalVolume lv : Lvm.read(List.of(d))) {
                sizes.put(lv.name(), lv.size());
            }
            return LvmVolumes.groups(List.of(d)).get(0).vg().seqno();
        }
    }

    private static Map<String, Long> pvck(LvmLab lab) throws Exception {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String line : lab.lvm("pvck", "--dump", "headers", lab.loop(0)).out().split("\n")) {
            String[] f = line.strip().split(" ");
            if (f.length >= 2 && f[1].matches("[0-9]+")) {
                m.put(f[0], Long.parseLong(f[1]));
            } else if (f.length == 2 && f[0].equals("pv_header.pv_uuid")) {
                m.put("uuid:" + f[1], 0L);
            }
        }
        return m;
    }

    /** The committed text's (offset, size) in the metadata area at {@code start} (raw_locn 0). */
    private static long[] rawLocn(FileChannel ch, long start) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(b, start + 40);
        return new long[] {b.getLong(0), b.getLong(8)};
    }

    @Test
    void newestCopyAcrossWrapsAndWhenCopiesDisagree(@TempDir Path dir) throws Exception {
        Tools.assumeTool("pvck");
        try (LvmLab lab = LvmLab.create(dir, 32 << 20)) {
            Path image = lab.image(0);
            lab.lvm("pvcreate", "--pvmetadatacopies", "2", "--metadatasize", "4k", "--dataalignment", "64k",
                    lab.loop(0));
            lab.lvm("vgcreate", "-s", "64k", lab.vg, lab.loop(0));
            Map<String, Long> h = pvck(lab);
            long start1 = h.get("mda_header_1.start");
            long size1 = h.get("mda_header_1.size");
            long start2 = h.get("mda_header_2.start");
            try (Device d = Device.open(image, false)) {
                PvLabel label = PvLabel.read(d);
                assertEquals(h.get("label_header.sector"), (long) label.sector());
                assertTrue(h.containsKey("uuid:" + label.uuid()), label.uuid());
                assertEquals(h.get("pv_header.device_size"), label.deviceSize());
                assertEquals(h.get("pv_header.disk_locn[0].offset"), label.dataStart());
                assertEquals(List.of(start1, size1, start2, h.get("mda_header_2.size")), List.of(
                        label.metadataAreas().get(0).offset(), label.metadataAreas().get(0).size(),
                        label.metadataAreas().get(1).offset(), label.metadataAreas().get(1).size()));
            }
            for (int i = 0; i < 5; i++) {
                lab.lvm("lvcreate", "-an", "-Zn", "-l", "1", "-n", "keep" + i + LONG, lab.vg);
            }
            Map<String, Long> want = new LinkedHashMap<>();
            Map<String, Long> got = new LinkedHashMap<>();
            int wraps = 0;
            long before = -1;
            for (int i = 0; i < 24; i++) {
                if (i % 2 == 0) {
                    lab.lvm("lvcreate", "-an", "-Zn", "-l", "1", "-n", "t" + i + LONG, lab.vg);
                } else {
                    lab.lvm("lvremove", "-f", lab.vg + "/t" + (i - 1) + LONG);
                }
                long seqno = state(lab, want);
                assertTrue(seqno > before);
                before = seqno;
                assertEquals(seqno, ours(image, got), "seqno after update " + i);
                assertEquals(want, got, "LVs after update " + i);
                try (FileChannel ch = FileChannel.open(image, StandardOpenOption.READ)) {
                    long[] at = rawLocn(ch, start1);
                    wraps += at[0] + at[1] > size1 ? 1 : 0;
                }
            }
            assertTrue(wraps > 0, "the metadata text never wrapped around the area's end");

            // the copies disagree: area 1 put back as it was before one more update
            ByteBuffer old1 = ByteBuffer.allocate((int) size1);
            Map<String, Long> oldLvs = new LinkedHashMap<>();
            long oldSeqno = state(lab, oldLvs);
            try (FileChannel ch = FileChannel.open(image, StandardOpenOption.READ)) {
                ch.read(old1, start1);
            }
            lab.lvm("lvcreate", "-an", "-Zn", "-l", "1", "-n", "late", lab.vg);
            Map<String, Long> newLvs = new LinkedHashMap<>();
            long newSeqno = state(lab, newLvs);
            lab.detach();
            try (FileChannel ch = FileChannel.open(image, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ch.write(old1.flip(), start1);
                assertEquals(newSeqno, ours(image, got), "copy 2 is newer");
                assertEquals(newLvs, got);

                long[] at2 = rawLocn(ch, start2);
                ch.write(ByteBuffer.wrap(new byte[] {'#'}), start2 + at2[0] + 5);
                assertEquals(oldSeqno, ours(image, got), "copy 2 is damaged: copy 1 is used");
                assertEquals(oldLvs, got);

                ch.write(ByteBuffer.wrap(new byte[] {'#'}), start1 + 100);
                var e = assertThrows(CorruptFileSystemException.class, () -> ours(image, new LinkedHashMap<>()));
                assertTrue(e.getMessage().contains("checksum"), e.getMessage());
            }
        }
    }
}
