/**
 * VectorJCE volumes: LUKS1 and LUKS2 volumes (open, format, key-slot changes), TrueCrypt/VeraCrypt,
 * BitLocker and FileVault 2 volumes (read-only) on top of the VectorJCE provider.
 *
 * <p>The API is {@link org.vectorjce.volumes.Volumes} (any format, found from its header) and
 * {@link org.vectorjce.volumes.Volume}, which each format's class implements:
 * {@link org.vectorjce.volumes.luks.LuksVolume}, {@link org.vectorjce.volumes.tcrypt.TcryptVolume},
 * {@link org.vectorjce.volumes.bitlk.BitlkVolume}, {@link org.vectorjce.volumes.fvault2.Fvault2Volume},
 * the formatters and their information records, and the exceptions. The key derivation
 * ({@code kdf}) and the shared channel and key helpers ({@code internal}) are not exported. The
 * {@code volume} command is in vectorjce-tool.
 */
module org.vectorjce.volumes {
    requires org.vectorjce;
    requires transitive org.vectorjce.device;
    requires org.bouncycastle.provider;
    requires java.management;
    // the FileVault 2 key bag's XML property lists (javax.xml.parsers, XXE-safe settings)
    requires java.xml;
    // com.sun.management.OperatingSystemMXBean: the physical memory the Argon2 calibration is capped by
    requires jdk.management;
    // Argon2's vector compression (META-INF/versions/25), found by name only when the module is present
    requires static jdk.incubator.vector;

    exports org.vectorjce.volumes;
    exports org.vectorjce.volumes.luks;
    exports org.vectorjce.volumes.tcrypt;
    exports org.vectorjce.volumes.bitlk;
    exports org.vectorjce.volumes.fvault2;
    exports org.vectorjce.volumes.nbd;

    // the formats as drivers in Volumes' table (Volumes names no format package)
    uses org.vectorjce.volumes.VolumeDriver;
    provides org.vectorjce.volumes.VolumeDriver with org.vectorjce.volumes.luks.LuksDriver,
            org.vectorjce.volumes.tcrypt.TcryptDriver, org.vectorjce.volumes.bitlk.BitlkDriver,
            org.vectorjce.volumes.fvault2.Fvault2Driver;

    // an encrypted image's plaintext for readers that need no cipher (the filesystems' newFileSystem)
    provides org.vectorjce.device.spi.DeviceOpener with org.vectorjce.volumes.internal.VolumeDeviceOpener;
}
