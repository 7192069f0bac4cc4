package org.vectorjce.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.vectorjce.device.Device;
import org.vectorjce.fs.lvm.LvmVolumes;

/**
 * LVM2 logical volumes, read-only: the volume groups whose physical volumes are among some devices,
 * and each linear or striped LV as a {@link Device} that maps its bytes onto the PVs, so that a
 * filesystem inside an LV opens as inside a partition ({@link DiskFileSystems#open(Device, java.util.Map)}).
 * How the label, the metadata copies and the text are read and checked, and which copy wins when
 * they disagree, is in {@link org.vectorjce.fs.lvm.LvmVolumes}'s javadoc.
 *
 * <p>Two ways in:
 * <ul>
 * <li>PVs given by the caller (several disks of one VG): {@link #read(List)} lists the LVs,
 *     {@link #open(List, LogicalVolume)} opens one.
 * <li>One disk, whose partitions (or whole device) may be PVs: {@link #withLogicalVolumes(Device)}
 *     is {@link Partitions#read} followed by one entry per visible LV of the VGs on those PVs, numbered
 *     on after the partitions, so that {@code --partition N} and {@code --partition VG/LV} can take
 *     them; {@link #open(Device, Partition)} gives an entry's device. An LV entry has scheme
 *     {@value #SCHEME}, type its segment types ({@code linear}, {@code striped}, {@code raid1}, ...),
 *     description and name {@code VG/LV}, offset -1 (an LV is not one range of the disk) and length
 *     its size.
 * </ul>
 * Only {@code linear} and {@code striped} LVs are read; any other type (raid, mirror, thin, cache,
 * snapshot, vdo, ...) is listed with its type and refused by name when opened, as is an LV that
 * needs a PV not given (naming the PV's UUID). An LV's device is read-only and leaves the PV
 * devices open when closed: they stay the caller's and must stay open while it is used.
 */
public final class Lvm {
    /** The {@link Partition#scheme()} of an LV entry. */
    public static final String SCHEME = "LVM";

    private Lvm() {
    }

    /** Whether {@code device} is an LVM2 physical volume (has an LVM2 label in its first four sectors). */
    public static boolean isPhysicalVolume(Device device) throws IOException {
        return LvmVolumes.isPhysicalVolume(device);
    }

    /**
     * The LVs ({@code lvs -a}: hidden ones too, see {@link LogicalVolume#visible()}) of the VGs whose
     * PVs are among {@code pvs}; devices that are not PVs are passed over.
     *
     * @throws CorruptFileSystemException when a label, a metadata area or its text is damaged and no
     *     other copy describes the PV, or the metadata is out of range
     */
    public static List<LogicalVolume> read(List<Device> pvs) throws IOException {
        return LvmVolumes.list(pvs);
    }

    /**
     * The bytes of {@code lv} (from {@link #read}) on the same {@code pvs}.
     *
     * @throws UnknownFileSystemException when it is not there or cannot be read ({@link LogicalVolume#refusal()})
     * @throws CorruptFileSystemException when its extents pass the end of a PV
     */
    public static Device open(List<Device> pvs, LogicalVolume lv) throws IOException {
        return LvmVolumes.open(pvs, lv.vg(), lv.name());
    }

    /**
     * {@link Partitions#read}{@code (device)} followed by one {@link Partition} per visible LV of the
     * VGs whose PVs are its partitions (or the whole device), numbered on after the partitions.
     */
    public static List<Partition> withLogicalVolumes(Device device) throws IOException {
        List<Partition> parts = Partitions.read(device);
        List<Partition> out = new ArrayList<>(parts);
        int number = 0;
        for (Partition p : parts) {
            number = Math.max(number, p.number());
        }
        for (LogicalVolume lv : read(physicalVolumes(device, parts))) {
            if (lv.visible()) {
                out.add(new Partition(++number, SCHEME, lv.segmentTypes(), lv.path(), lv.path(), -1, lv.size()));
            }
        }
        return out;
    }

    /**
     * The device of {@code entry}, an LV entry of {@link #withLogicalVolumes}{@code (device)}.
     *
     * @throws IllegalArgumentException when {@code entry} is not an LV entry
     * @throws UnknownFileSystemException when the LV is not there or cannot be read
     */
    public static Device open(Device device, Partition entry) throws IOException {
        if (!SCHEME.equals(entry.scheme()) || entry.name().indexOf('/') < 0) {
            throw new IllegalArgumentException("not a logical volume entry: " + entry);
        }
        String name = entry.name();
        int slash = name.indexOf('/');
        return LvmVolumes.open(physicalVolumes(device, Partitions.read(device)), name.substring(0, slash),
                name.substring(slash + 1));
    }

    private static List<Device> physicalVolumes(Device device, List<Partition> parts) throws IOException {
        List<Device> pvs = new ArrayList<>();
        for (Partition p : parts) {
            if (p.offset() >= 0 && p.length() > 0) {
                Device w = device.window(p.offset(), p.length());
                if (isPhysicalVolume(w)) {
                    pvs.add(w);
                }
            }
        }
        return pvs;
    }
}
