package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.testing.Tools;

/**
 * Linear LVs that lvm2 made on one PV, one of them in two segments (extended after another LV), read
 * back through {@link Lvm}: names and sizes as {@code lvs} reports them, and each LV's bytes as written
 * at the extents {@code lvs -o seg_pe_ranges}, {@code pvs -o pe_start} and {@code vgs -o
 * vg_extent_size} say. The PV once as a whole device and once as an MBR partition that sfdisk made,
 * listed by {@link Lvm#withLogicalVolumes}.
 */
class LvmLinearTest {

    /** Makes vg/lin (8 MiB, then 4 MiB more after vg/second) and vg/second (12 MiB) on the lab's loop {@code i}. */
    private static void makeVg(LvmLab lab, int i) throws Exception {
        lab.lvm("pvcreate", lab.loop(i));
        lab.lvm("vgcreate", lab.vg, lab.loop(i));
        lab.lvm("lvcreate", "-an", "-Zn", "-L", "8M", "-n", "lin", lab.vg);
        lab.lvm("lvcreate", "-an", "-Zn", "-L", "12M", "-n", "second", lab.vg);
        lab.lvm("lvextend", "-L", "+4M", lab.vg + "/lin");
    }

    /** Writes a pattern into each LV at lvm's extents; the patterns by LV name. */
    private static Map<String, byte[]> fill(LvmLab lab) throws Exception {
        Map<String, byte[]> patterns = new LinkedHashMap<>();
        long seed = 1;
        for (Map.Entry<String, Long> e : lab.sizes().entrySet()) {
            byte[] p = LvmLab.pattern(seed++, Math.toIntExact(e.getValue()));
            lab.writeLv(e.getKey(), p);
            patterns.put(e.getKey(), p);
        }
        return patterns;
    }

    /** Reads all of {@code lv} in pieces of {@code step} bytes, and pieces across each MiB, against {@code expected}. */
    static void compare(Device lv, byte[] expected, String what) throws Exception {
        assertEquals(expected.length, lv.size(), what + " size");
        byte[] all = new byte[expected.length];
        for (int o = 0; o < all.length; o += 1 << 20) {
            lv.readFully(o, all, o, Math.min(1 << 20, all.length - o));
        }
        assertArrayEquals(expected, all, what);
        Random r = new Random(7);
        for (int i = 0; i < 200; i++) {
            int len = 1 + r.nextInt(300_000);
            int at = r.nextInt(expected.length - len + 1);
            if (i % 2 == 0) {
                at = Math.max(0, Math.min(expected.length - len, ((at >> 20) << 20) - len / 2));
            }
            byte[] b = new byte[len];
            ByteBuffer bb = ByteBuffer.wrap(b);
            assertEquals(len, lv.read(bb, at), what + " read at " + at);
            assertArrayEquals(Arrays.copyOfRange(expected, at, at + len), b, what + " at " + at + "+" + len);
        }
        assertEquals(-1, lv.read(ByteBuffer.allocate(1), expected.length));
        ByteBuffer tail = ByteBuffer.allocate(100);
        assertEquals(10, lv.read(tail, expected.length - 10));
        // four threads at once on the one device: each read lands where it would alone
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            Random tr = new Random(t);
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        int len = 1 + tr.nextInt(100_000);
                        int at = tr.nextInt(expected.length - len + 1);
                        byte[] b = new byte[len];
                        lv.readFully(at, b, 0, len);
                        assertArrayEquals(Arrays.copyOfRange(expected, at, at + len), b, what + " at " + at);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        assertTrue(lv.readOnly());
        assertThrows(NonWritableChannelException.class, () -> lv.write(ByteBuffer.allocate(1), 0));
    }

    @Test
    void fragmentedLinearVolumesOnAWholeDevice(@TempDir Path dir) throws Exception {
        Map<String, byte[]> patterns;
        Map<String, Long> sizes;
        Path image;
        try (LvmLab lab = LvmLab.create(dir, 64 << 20)) {
            makeVg(lab, 0);
            long lin = lab.segments().stream().filter(s -> s.lv().equals("lin")).count();
            assertEquals(2, lin, "lvs shows vg/lin in two segments");
            sizes = lab.sizes();
            assertEquals(Map.of("lin", 12L << 20, "second", 12L << 20), sizes);
            patterns = fill(lab);
            image = lab.image(0);
        }
        try (Device d = Device.open(image, false)) {
            assertTrue(Lvm.isPhysicalVolume(d));
            List<LogicalVolume> lvs = Lvm.read(List.of(d));
            Map<String, Long> ours = new LinkedHashMap<>();
            for (LogicalVolume lv : lvs) {
                ours.put(lv.name(), lv.size());
                assertEquals("linear", lv.segmentTypes());
                assertTrue(lv.visible() && lv.readable(), lv.toString());
                compare(Lvm.open(List.of(d), lv), patterns.get(lv.name()), lv.path());
            }
            assertEquals(sizes, ours);

            List<Partition> parts = Lvm.withLogicalVolumes(d);
            assertEquals(3, parts.size(), parts.toString());
            assertEquals("none", parts.get(0).scheme());
            List<String> names = new ArrayList<>();
            for (Partition p : parts.subList(1, 3)) {
                assertEquals(Lvm.SCHEME, p.scheme());
                assertEquals(-1, p.offset());
                names.add(p.name());
                String lv = p.name().substring(p.name().indexOf('/') + 1);
                compare(Lvm.open(d, p), patterns.get(lv), p.name());
            }
            assertEquals(2, parts.get(1).number());
            assertEquals(3, parts.get(2).number());
            assertEquals(List.copyOf(sizes.keySet()), names.stream().map(n -> n.substring(n.indexOf('/') + 1)).toList());
        }
    }

    @Test
    void physicalVolumeInAnMbrPartition(@TempDir Path dir) throws Exception {
        Tools.assumeTool("sfdisk");
        Map<String, byte[]> patterns;
        String vg;
        Path disk = dir.resolve("disk.img");
        Tools.sparse(disk, 80 << 20);
        // sfdisk: one partition from sector 2048 (1 MiB) of 70 MiB, type 8e (Linux LVM)
        Tools.Run r = Tools.run(Map.of(), "sh", "-c", "echo 'start=2048, size=143360, type=8e' | sfdisk -q " + disk);
        assertEquals(0, r.exit(), r.stderr());
        try (LvmLab lab = LvmLab.create(dir)) {
            lab.attach(disk, 1 << 20, 70 << 20);
            makeVg(lab, 0);
            patterns = fill(lab);
            vg = lab.vg;
        }
        try (Device d = Device.open(disk, false)) {
            List<Partition> parts = Lvm.withLogicalVolumes(d);
            assertEquals(3, parts.size(), parts.toString());
            assertEquals("MBR", parts.get(0).scheme());
            assertEquals(1 << 20, parts.get(0).offset());
            assertEquals(new Partition(2, "LVM", "linear", vg + "/lin", vg + "/lin", -1, 12 << 20), parts.get(1));
            assertEquals(new Partition(3, "LVM", "linear", vg + "/second", vg + "/second", -1, 12 << 20),
                    parts.get(2));
            compare(Lvm.open(d, parts.get(1)), patterns.get("lin"), "lin");
            compare(Lvm.open(d, parts.get(2)), patterns.get("second"), "second");
            assertThrows(IllegalArgumentException.class, () -> Lvm.open(d, parts.get(0)));
        }
    }
}
