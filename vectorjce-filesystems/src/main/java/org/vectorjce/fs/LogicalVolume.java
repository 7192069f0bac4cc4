package org.vectorjce.fs;

/**
 * One LVM2 logical volume, as {@code lvs -a} lists it: what {@link Lvm#read} found in a volume
 * group's metadata. {@link Lvm#open(java.util.List, LogicalVolume)} gives its bytes as a device.
 *
 * @param vg the volume group's name
 * @param name the LV's name ({@code VG/LV} names it, as {@code --partition} takes it)
 * @param size its bytes: its extents times the VG's extent size
 * @param segmentTypes its segments' types in extent order, distinct, joined by {@code ","}: {@code linear},
 *     {@code striped}, or another type lvm knows ({@code raid1}, {@code thin-pool}, {@code thin},
 *     {@code mirror}, {@code cache}, {@code snapshot}, {@code vdo}, {@code error}, {@code zero}, ...)
 * @param uuid the LV's UUID as lvm writes it (with dashes)
 * @param visible whether {@code lvs} shows it without {@code -a} (false for a RAID image, a thin
 *     pool's data, a snapshot's own entry and the like)
 * @param refusal why it cannot be opened (a segment type other than linear and striped, the COW store
 *     of a snapshot, a PV that is not among the devices given, named by its UUID), or {@code ""}
 */
public record LogicalVolume(String vg, String name, long size, String segmentTypes, String uuid, boolean visible,
        String refusal) {

    /** {@code VG/LV}. */
    public String path() {
        return vg + "/" + name;
    }

    /** Whether {@link Lvm#open(java.util.List, LogicalVolume)} gives its bytes. */
    public boolean readable() {
        return refusal.isEmpty();
    }
}
