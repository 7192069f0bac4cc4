package org.vectorjce.fs.lvm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * A volume group as its metadata text describes it ({@code lib/format_text/import_vsn1.c},
 * {@code lib/format_text/export.c}): the first top-level section is the VG, named by the VG, with
 * {@code id}, {@code seqno}, {@code extent_size} (in 512-byte sectors), {@code physical_volumes}
 * ({@code pvN { id, dev_size, pe_start, pe_count }}) and {@code logical_volumes} (each LV's
 * {@code id}, {@code status} and {@code segmentN { start_extent, extent_count, type, ... }}).
 *
 * <p>Every number is checked before use: sizes are positive and their byte products fit a
 * {@code long}; an LV's segments, sorted by {@code start_extent}, run from extent 0 without gap or
 * overlap; a {@code striped} segment ({@code stripe_count} 1 is what {@code lvs} calls linear) has
 * {@code stripe_count} (PV name, first extent) pairs in {@code stripes}, an extent count divisible by
 * the stripe count, a {@code stripe_size} dividing each stripe's length (dm-stripe's rule), and
 * each stripe within its PV's {@code pe_count}. Names must be LVM names ({@code [A-Za-z0-9+_.-]},
 * not starting with {@code -}), so that {@code VG/LV} names one LV.
 */
record VgMetadata(String name, String id, long seqno, long extentBytes, Map<String, Pv> pvs, List<Lv> lvs) {
    static final long SECTOR = 512;

    /** One {@code physical_volumes} entry. */
    record Pv(String key, String uuid, long peStartBytes, long peCount) {
    }

    /** One stripe of a segment: a PV's (or, for a stacked segment, an LV's) name and its first extent. */
    record Area(String name, long startExtent) {
    }

    /**
     * One segment. {@code type} is lvm's type with {@code striped} of one stripe called
     * {@code linear}; {@code stripeBytes} is 0 for a linear one; {@code areas} are only read for
     * linear and striped segments; {@code cowStore} is a snapshot segment's COW LV, else null.
     */
    record Segment(long startExtent, long extentCount, String type, long stripeBytes, List<Area> areas,
            String cowStore) {
        boolean mapped() {
            return type.equals("linear") || type.equals("striped");
        }
    }

    /** One LV: its segments in extent order. */
    record Lv(String name, String id, boolean visible, long extents, List<Segment> segments) {
    }

    /** The VG that {@code text} (read from byte {@code offset}) describes. */
    static VgMetadata parse(byte[] text, long offset) throws CorruptFileSystemException {
        ConfigText.Section top = ConfigText.parse(text, offset);
        String vgName = null;
        ConfigText.Section vg = null;
        for (Map.Entry<String, Object> e : top.entrySet()) {
            if (e.getValue() instanceof ConfigText.Section) {
                vgName = e.getKey();
                vg = (ConfigText.Section) e.getValue();
                break;
            }
        }
        if (vg == null) {
            throw bad("no volume group section", offset);
        }
        checkName(vgName, "VG name", offset);
        String id = string(vg, "id", "VG " + vgName, offset);
        long seqno = number(vg, "seqno", 0, Long.MAX_VALUE, "VG " + vgName, offset);
        long extentSectors = number(vg, "extent_size", 1, 1L << 40, "VG " + vgName, offset);
        long extentBytes = extentSectors * SECTOR;
        Map<String, Pv> pvs = new LinkedHashMap<>();
        ConfigText.Section pvSection = section(vg, "physical_volumes", "VG " + vgName, offset);
        for (Map.Entry<String, Object> e : pvSection.entrySet()) {
            if (!(e.getValue() instanceof ConfigText.Section)) {
                continue;
            }
            ConfigText.Section s = (ConfigText.Section) e.getValue();
            String what = "VG " + vgName + " PV " + e.getKey();
            String uuid = string(s, "id", what, offset).replace("-", "");
            long peStart = number(s, "pe_start", 0, Long.MAX_VALUE / SECTOR, what, offset);
            long peCount = number(s, "pe_count", 0, Long.MAX_VALUE, what, offset);
            if (peCount > (Long.MAX_VALUE - peStart * SECTOR) / extentBytes) {
                throw bad(what + ": " + peCount + " extents overflow", offset);
            }
            pvs.put(e.getKey(), new Pv(e.getKey(), uuid, peStart * SECTOR, peCount));
        }
        List<Lv> lvs = new ArrayList<>();
        Object lvObject = vg.get("logical_volumes");
        if (lvObject != null && !(lvObject instanceof ConfigText.Section)) {
            throw bad("VG " + vgName + ": logical_volumes is not a section", offset);
        }
        if (lvObject != null) {
            for (Map.Entry<String, Object> e : ((ConfigText.Section) lvObject).entrySet()) {
                if (e.getValue() instanceof ConfigText.Section) {
                    lvs.add(lv(vgName, e.getKey(), (ConfigText.Section) e.getValue(), extentBytes, pvs, offset));
                }
            }
        }
        return new VgMetadata(vgName, id, seqno, extentBytes, pvs, List.copyOf(lvs));
    }

    private static Lv lv(String vg, String name, ConfigText.Section s, long extentBytes, Map<String, Pv> pvs,
            long offset) throws CorruptFileSystemException {
        String what = "LV " + vg + "/" + name;
        checkName(name, what + " name", offset);
        String id = string(s, "id", what, offset);
        Object status = s.get("status");
        boolean visible = status instanceof List && ((List<?>) status).contains("VISIBLE");
        List<Segment> segs = new ArrayList<>();
        for (Map.Entry<String, Object> e : s.entrySet()) {
            if (e.getValue() instanceof ConfigText.Section) {
                segs.add(segment(what + " " + e.getKey(), (ConfigText.Section) e.getValue(), pvs, extentBytes, offset));
            }
        }
        segs.sort(Comparator.comparingLong(Segment::startExtent));
        long next = 0;
        for (Segment g : segs) {
            if (g.startExtent() != next) {
                throw bad(what + ": segment at extent " + g.startExtent() + " where extent " + next
                        + " was expected (a gap or an overlap)", offset);
            }
            next += g.extentCount();
            if (next > Long.MAX_VALUE / extentBytes) {
                throw bad(what + ": " + next + " extents overflow", offset);
            }
        }
        return new Lv(name, id, visible, next, List.copyOf(segs));
    }

    private static Segment segment(String what, ConfigText.Section s, Map<String, Pv> pvs, long extentBytes,
            long offset)
            throws CorruptFileSystemException {
        long start = number(s, "start_extent", 0, Long.MAX_VALUE / 2, what, offset);
        long count = number(s, "extent_count", 1, Long.MAX_VALUE / 2, what, offset);
        String type = printable(string(s, "type", what, offset));
        if (!type.equals("striped")) {
            return new Segment(start, count, type, 0, List.of(), ConfigText.get(s, "cow_store", String.class));
        }
        long stripes = number(s, "stripe_count", 1, 1 << 16, what, offset);
        long stripeBytes = 0;
        if (stripes > 1) {
            stripeBytes = number(s, "stripe_size", 1, 1L << 32, what, offset) * SECTOR;
        }
        if (count % stripes != 0) {
            throw bad(what + ": " + count + " extents do not divide into " + stripes + " stripes", offset);
        }
        List<?> list = ConfigText.get(s, "stripes", List.class);
        if (list == null || list.size() != 2 * stripes) {
            throw bad(what + ": stripes is not " + stripes + " (name, extent) pairs", offset);
        }
        long areaExtents = count / stripes;
        List<Area> areas = new ArrayList<>();
        for (int i = 0; i < list.size(); i += 2) {
            if (!(list.get(i) instanceof String) || !(list.get(i + 1) instanceof Long)) {
                throw bad(what + ": stripe " + i / 2 + " is not a (name, extent) pair", offset);
            }
            String pv = (String) list.get(i);
            long first = (Long) list.get(i + 1);
            Pv p = pvs.get(pv);
            if (p != null && (first < 0 || first > p.peCount() || areaExtents > p.peCount() - first)) {
                throw bad(what + ": stripe " + i / 2 + " (extents " + first + " to " + (first + areaExtents)
                        + ") passes the end of PV " + pv + " (" + p.peCount() + " extents)", offset);
            }
            areas.add(new Area(pv, first));
        }
        // dm-stripe's rule: each stripe's length is a whole number of chunks
        if (stripeBytes > 0 && (areaExtents > Long.MAX_VALUE / extentBytes
                || areaExtents * extentBytes % stripeBytes != 0)) {
            throw bad(what + ": stripe size " + stripeBytes + " does not divide each stripe's " + areaExtents
                    + " extents", offset);
        }
        return new Segment(start, count, stripes == 1 ? "linear" : "striped", stripeBytes, List.copyOf(areas),
                null);
    }

    private static void checkName(String name, String what, long offset) throws CorruptFileSystemException {
        boolean ok = !name.isEmpty() && name.length() <= 127 && name.charAt(0) != '-' && !name.equals(".")
                && !name.equals("..");
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '_'
                    || c == '.' || c == '-';
        }
        if (!ok) {
            throw bad(what + " \"" + printable(name) + "\" is not an LVM name", offset);
        }
    }

    /** {@code s} with anything but letters, digits and {@code +_.-} replaced by '_', at most 64 characters. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+'
                    || c == '_' || c == '.' || c == '-';
            b.append(ok ? c : '_');
        }
        return b.toString();
    }

    private static ConfigText.Section section(Map<String, Object> s, String name, String what, long offset)
            throws CorruptFileSystemException {
        ConfigText.Section v = ConfigText.get(s, name, ConfigText.Section.class);
        if (v == null) {
            throw bad(what + ": section " + name + " is missing", offset);
        }
        return v;
    }

    private static String string(Map<String, Object> s, String name, String what, long offset)
            throws CorruptFileSystemException {
        String v = ConfigText.get(s, name, String.class);
        if (v == null) {
            throw bad(what + ": string " + name + " is missing", offset);
        }
        return v;
    }

    private static long number(Map<String, Object> s, String name, long min, long max, String what, long offset)
            throws CorruptFileSystemException {
        Long v = ConfigText.get(s, name, Long.class);
        if (v == null) {
            throw bad(what + ": number " + name + " is missing", offset);
        }
        if (v < min || v > max) {
            throw bad(what + ": " + name + " = " + v + " is out of range (" + min + " to " + max + ")", offset);
        }
        return v;
    }

    private static CorruptFileSystemException bad(String what, long offset) {
        return new CorruptFileSystemException("LVM metadata: " + what, offset);
    }
}
