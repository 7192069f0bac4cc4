package org.vectorjce.fs.lvm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vectorjce.device.Device;
import org.vectorjce.fs.CorruptFileSystemException;
import org.vectorjce.fs.LogicalVolume;
import org.vectorjce.fs.UnknownFileSystemException;

/**
 * The volume groups on a set of devices and their logical volumes: the one entry point of this
 * package (behind {@link org.vectorjce.fs.Lvm}).
 *
 * <p>Each device with an LVM2 label ({@link PvLabel}) is a PV; each of its metadata areas
 * ({@link MetadataArea}, one or two) may hold a copy of its VG's metadata text ({@link VgMetadata}).
 * The copies are grouped by VG UUID and the one with the highest {@code seqno} whose checksums pass
 * and which parses is used, as lvm does (of two copies with the same {@code seqno}, the first read;
 * the "precommitted" descriptor, a write in progress, is not looked at). When copies disagree (an update interrupted between two
 * areas, a PV that was away during an update) the older ones are ignored; a copy that fails its
 * checksum or does not parse is ignored when another copy of the VG is good, and is the error
 * when a PV's areas all fail and no other PV's metadata describes it. PVs are matched to the VG's
 * {@code physical_volumes} by UUID; the first device holding a UUID is used when several do (a
 * cloned disk). A PV with no metadata area is found through another PV's copy.
 */
public final class LvmVolumes {
    private LvmVolumes() {
    }

    /**
     * One volume group found: its chosen metadata, the devices by PV UUID, and the snapshots by the
     * name of their copy-on-write LV (found once, so that describing every LV stays linear).
     */
    record Group(VgMetadata vg, Map<String, Device> devices, Map<String, String> snapshotOfCow) {
    }

    /** Whether {@code device} has an LVM2 label ({@code "LABELONE"} in one of its first four sectors). */
    public static boolean isPhysicalVolume(Device device) throws IOException {
        return PvLabel.find(device) >= 0;
    }

    /**
     * The LVs of the VGs on {@code devices} (devices without a label are passed over), VG by VG in
     * the order their PVs were given, each VG's LVs in metadata order.
     *
     * @throws CorruptFileSystemException as {@link LvmVolumes} says
     */
    public static List<LogicalVolume> list(List<Device> devices) throws IOException {
        List<LogicalVolume> out = new ArrayList<>();
        for (Group g : groups(devices)) {
            for (VgMetadata.Lv lv : g.vg().lvs()) {
                out.add(describe(g, lv));
            }
        }
        return out;
    }

    /**
     * The bytes of LV {@code lv} of VG {@code vg} on {@code devices}.
     *
     * @throws UnknownFileSystemException when there is no such LV, or it cannot be read (the
     *     message says why: its type, or the UUID of the PV not given)
     * @throws CorruptFileSystemException when its extents pass the end of a PV's device
     */
    public static Device open(List<Device> devices, String vg, String lv) throws IOException {
        for (Group g : groups(devices)) {
            if (!g.vg().name().equals(vg)) {
                continue;
            }
            for (VgMetadata.Lv l : g.vg().lvs()) {
                if (l.name().equals(lv)) {
                    LogicalVolume d = describe(g, l);
                    if (!d.readable()) {
                        throw new UnknownFileSystemException(d.refusal());
                    }
                    return map(g, l);
                }
            }
        }
        throw new UnknownFileSystemException("LVM: no logical volume " + vg + "/" + lv + " on the devices given");
    }

    private static LogicalVolume describe(Group g, VgMetadata.Lv lv) {
        VgMetadata vg = g.vg();
        Set<String> types = new LinkedHashSet<>();
        String refusal = "";
        for (VgMetadata.Segment s : lv.segments()) {
            types.add(s.type());
        }
        String snapshot = g.snapshotOfCow().get(lv.name());
        if (snapshot != null) {
            types.clear();
            types.add("snapshot");
            refusal = "LVM: " + vg.name() + "/" + lv.name() + " is a snapshot (the copy-on-write store of "
                    + snapshot + "): snapshots are not read";
        }
        String joined = String.join(",", types);
        for (VgMetadata.Segment s : lv.segments()) {
            if (!refusal.isEmpty()) {
                break;
            }
            if (!s.mapped()) {
                refusal = "LVM: " + vg.name() + "/" + lv.name() + " is of type " + joined
                        + ": only linear and striped logical volumes are read";
                break;
            }
            for (VgMetadata.Area a : s.areas()) {
                VgMetadata.Pv pv = vg.pvs().get(a.name());
                if (pv == null) {
                    refusal = "LVM: " + vg.name() + "/" + lv.name() + " maps onto "
                            + VgMetadata.printable(a.name()) + ", which is not a PV (a stacked or pvmove segment)";
                    break;
                }
                if (!g.devices().containsKey(pv.uuid())) {
                    refusal = "LVM: " + vg.name() + "/" + lv.name() + " needs PV " + VgMetadata.printable(pv.uuid())
                            + " (" + pv.key() + "), which is not among the devices given";
                    break;
                }
            }
        }
        return new LogicalVolume(vg.name(), lv.name(), lv.extents() * vg.extentBytes(), joined, lv.id(),
                lv.visible(), refusal);
    }

    private static Device map(Group g, VgMetadata.Lv lv) throws CorruptFileSystemException {
        VgMetadata vg = g.vg();
        long e = vg.extentBytes();
        List<LvDevice.Piece> pieces = new ArrayList<>();
        for (VgMetadata.Segment s : lv.segments()) {
            long areaBytes = s.extentCount() / s.areas().size() * e;
            List<LvDevice.Stripe> stripes = new ArrayList<>();
            for (VgMetadata.Area a : s.areas()) {
                VgMetadata.Pv pv = vg.pvs().get(a.name());
                Device d = g.devices().get(pv.uuid());
                long base = pv.peStartBytes() + a.startExtent() * e;
                if (base > d.size() || areaBytes > d.size() - base) {
                    throw new CorruptFileSystemException("LVM: " + vg.name() + "/" + lv.name() + " extents "
                            + a.startExtent() + " to " + (a.startExtent() + areaBytes / e) + " of PV " + pv.key()
                            + " pass the end of its " + d.size() + "-byte device", base);
                }
                stripes.add(new LvDevice.Stripe(d, base));
            }
            pieces.add(new LvDevice.Piece(s.startExtent() * e, s.extentCount() * e, s.stripeBytes(), stripes));
        }
        return new LvDevice(pieces, lv.extents() * e);
    }

    /** Reads every PV's label and metadata and groups them into VGs. */
    static List<Group> groups(List<Device> devices) throws IOException {
        Map<String, Device> byUuid = new LinkedHashMap<>();
        Map<String, CorruptFileSystemException> failed = new LinkedHashMap<>();
        Map<String, VgMetadata> newest = new LinkedHashMap<>();
        for (Device d : devices) {
            PvLabel label = PvLabel.read(d);
            if (label == null || byUuid.containsKey(label.uuid())) {
                continue;
            }
            byUuid.put(label.uuid(), d);
            for (PvLabel.Area area : label.metadataAreas()) {
                try {
                    MetadataArea m = MetadataArea.read(d, area.offset(), area.size());
                    if (m == null) {
                        continue;
                    }
                    VgMetadata vg = VgMetadata.parse(m.text(), m.offset());
                    VgMetadata had = newest.get(vg.id());
                    if (had == null || vg.seqno() > had.seqno()) {
                        newest.put(vg.id(), vg);
                    }
                } catch (CorruptFileSystemException ex) {
                    failed.putIfAbsent(label.uuid(), ex);
                }
            }
        }
        List<Group> out = new ArrayList<>();
        Set<String> described = new LinkedHashSet<>();
        for (VgMetadata vg : newest.values()) {
            Map<String, Device> mine = new LinkedHashMap<>();
            for (VgMetadata.Pv pv : vg.pvs().values()) {
                described.add(pv.uuid());
                Device d = byUuid.get(pv.uuid());
                if (d != null) {
                    mine.put(pv.uuid(), d);
                }
            }
            Map<String, String> cows = new LinkedHashMap<>();
            for (VgMetadata.Lv lv : vg.lvs()) {
                for (VgMetadata.Segment s : lv.segments()) {
                    if (s.cowStore() != null) {
                        cows.putIfAbsent(s.cowStore(), lv.name());
                    }
                }
            }
            out.add(new Group(vg, mine, cows));
        }
        for (Map.Entry<String, CorruptFileSystemException> f : failed.entrySet()) {
            if (!described.contains(f.getKey())) {
                throw f.getValue();
            }
        }
        return out;
    }
}
