package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.device.Device;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.UnknownFileSystemException;

/**
 * A VG over two PVs that lvm2 made: a striped LV ({@code lvcreate -i 2 -I 64k}), a linear one, and
 * LVs of types lvm creates without the device mapper ({@code zero}, {@code error}). The striped LV's
 * bytes are written chunk by chunk where {@code lvs -o stripes,stripe_size,seg_pe_ranges} puts them
 * and read back in LV order; the other types are listed with the type {@code lvs -o segtype} shows
 * and refused by name; with one PV away, its LVs are listed and refused naming its UUID as
 * {@code pvs -o pv_uuid} shows it. raid1 and thin-pool LVs cannot be made here (lvm: "Can't create
 * ... without using device-mapper kernel driver"): that attempt is made and skipped with its message.
 */
class LvmStripedTest {

    @Test
    void stripedOverTwoPvsAndOtherTypes(@TempDir Path dir) throws Exception {
        Map<String, byte[]> patterns = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, Long> sizes;
        String uuid1;
        String loop1;
        Path img0;
        Path img1;
        try (LvmLab lab = LvmLab.create(dir, 40 << 20, 40 << 20)) {
            lab.lvm("pvcreate", lab.loop(0), lab.loop(1));
            lab.lvm("vgcreate", lab.vg, lab.loop(0), lab.loop(1));
            lab.lvm("lvcreate", "-an", "-Zn", "-i", "2", "-I", "64k", "-L", "16M", "-n", "st", lab.vg);
            lab.lvm("lvcreate", "-an", "-Zn", "-L", "8M", "-n", "on0", lab.vg, lab.loop(0));
            lab.lvm("lvcreate", "-an", "-Zn", "--type", "zero", "-L", "4M", "-n", "z", lab.vg);
            lab.lvm("lvcreate", "-an", "-Zn", "--type", "error", "-L", "4M", "-n", "e", lab.vg);
            for (String t : new String[] {"raid1", "thin-pool"}) {
                var r = lab.tryLvm("lvcreate", "-an", "-Zn", "--type", t, "-L", "4M", "-n", "x" + t.replace("-", ""),
                        lab.vg);
                if (r.exit() != 0) {
                    System.out.println("LvmStripedTest: lvm cannot make a " + t + " LV here, not tested: "
                            + r.stderr().lines().filter(l -> !l.contains("WARNING")).toList());
                }
            }
            List<LvmLab.Seg> st = lab.segments().stream().filter(s -> s.lv().equals("st")).toList();
            assertEquals(1, st.size());
            assertEquals(2, st.get(0).stripes());
            assertEquals(64 << 10, st.get(0).stripeBytes());
            assertEquals(List.of(lab.loop(0), lab.loop(1)), st.get(0).devs());
            sizes = lab.sizes();
            for (String[] r : lab.report("lvs", "lv_name,segtype", lab.vg)) {
                types.put(r[0], r[1]);
            }
            for (String lv : List.of("st", "on0")) {
                byte[] p = LvmLab.pattern(lv.hashCode(), Math.toIntExact(sizes.get(lv)));
                lab.writeLv(lv, p);
                patterns.put(lv, p);
            }
            loop1 = lab.loop(1);
            uuid1 = lab.report("pvs", "pv_name,pv_uuid").stream().filter(r -> r[0].equals(loop1)).findFirst()
                    .orElseThrow()[1].replace("-", "");
            img0 = lab.image(0);
            img1 = lab.image(1);
        }
        try (Device d0 = Device.open(img0, false); Device d1 = Device.open(img1, false)) {
            List<Device> both = List.of(d1, d0);
            List<LogicalVolume> lvs = Lvm.read(both);
            Map<String, Long> ourSizes = new LinkedHashMap<>();
            Map<String, String> ourTypes = new LinkedHashMap<>();
            for (LogicalVolume lv : lvs) {
                ourSizes.put(lv.name(), lv.size());
                ourTypes.put(lv.name(), lv.segmentTypes());
            }
            assertEquals(sizes, ourSizes);
            assertEquals(types, ourTypes);
            for (LogicalVolume lv : lvs) {
                if (patterns.containsKey(lv.name())) {
                    assertTrue(lv.readable(), lv.toString());
                    LvmLinearTest.compare(Lvm.open(both, lv), patterns.get(lv.name()), lv.path());
                } else {
                    assertFalse(lv.readable());
                    var ex = assertThrows(UnknownFileSystemException.class, () -> Lvm.open(both, lv));
                    assertTrue(ex.getMessage().contains("type " + types.get(lv.name())), ex.getMessage());
                }
            }

            // one PV away: listed, refused naming the missing PV's UUID; the linear LV on the other still read
            List<LogicalVolume> half = Lvm.read(List.of(d0));
            assertEquals(lvs.stream().map(LogicalVolume::name).toList(), half.stream().map(LogicalVolume::name).toList());
            for (LogicalVolume lv : half) {
                if (lv.name().equals("on0")) {
                    assertTrue(lv.readable(), lv.toString());
                    LvmLinearTest.compare(Lvm.open(List.of(d0), lv), patterns.get("on0"), lv.path());
                } else if (lv.name().equals("st")) {
                    assertFalse(lv.readable());
                    assertTrue(lv.refusal().contains(uuid1), lv.refusal());
                    var ex = assertThrows(UnknownFileSystemException.class, () -> Lvm.open(List.of(d0), lv));
                    assertTrue(ex.getMessage().contains(uuid1), ex.getMessage());
                }
            }
        }
    }
}
