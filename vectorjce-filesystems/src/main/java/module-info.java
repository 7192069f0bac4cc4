/**
 * VectorJCE filesystems: partitions, LVM2 logical volumes and filesystems (FAT12/16/32, exFAT, NTFS,
 * ext2/3/4, XFS) read-only from a {@link org.vectorjce.device.Device}, given as a read-only
 * {@link java.nio.file.FileSystem}. The API is {@link org.vectorjce.fs.DiskFileSystems}; the driver
 * interface ({@code spi}), the drivers and the provider ({@code nio}) are not exported.
 */
module org.vectorjce.filesystems {
    requires transitive org.vectorjce.device;

    exports org.vectorjce.fs;

    uses org.vectorjce.device.spi.DeviceOpener;

    provides java.nio.file.spi.FileSystemProvider with org.vectorjce.fs.nio.DiskFileSystemProvider;
}
