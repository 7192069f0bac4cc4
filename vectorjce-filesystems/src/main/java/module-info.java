/**
 * VectorJCE filesystems: partitions and filesystems read-only from a {@link org.vectorjce.device.Device},
 * given as a read-only {@link java.nio.file.FileSystem}. The API is {@link org.vectorjce.fs.DiskFileSystems};
 * the drivers ({@code spi}, {@code fat}, {@code exfat}, {@code ntfs}, {@code part}) are not exported.
 */
module org.vectorjce.filesystems {
    requires transitive org.vectorjce.device;

    exports org.vectorjce.fs;

    uses org.vectorjce.device.spi.DeviceOpener;

    provides java.nio.file.spi.FileSystemProvider with org.vectorjce.fs.nio.DiskFileSystemProvider;
}
