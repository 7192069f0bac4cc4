/**
 * VectorJCE's positional device: {@link org.vectorjce.device.Device}, what every consumer of a
 * volume's plaintext or a disk image reads and writes at offsets (servers, mounts, the filesystems).
 * No dependency: a filesystem reader that needs no cipher uses it on a plain image file.
 */
module org.vectorjce.device {
    exports org.vectorjce.device;
    exports org.vectorjce.device.spi;
    uses org.vectorjce.device.spi.DeviceOpener;
}
