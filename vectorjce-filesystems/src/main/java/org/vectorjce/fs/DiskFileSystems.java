package org.vectorjce.fs;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.util.Map;
import org.vectorjce.device.Device;
import org.vectorjce.fs.nio.DiskFileSystem;
import org.vectorjce.fs.nio.DiskFileSystemProvider;
import org.vectorjce.fs.nio.Mounter;

/**
 * The filesystem inside a disk image or device (FAT12/16/32, exFAT, NTFS, ext2/3/4, XFS; in an MBR
 * or GPT partition, an LVM2 logical volume, or from byte 0) as a read-only {@link FileSystem}. The same is reached with
 * {@code FileSystems.newFileSystem(image, env)}: the {@code vectorjce} provider claims an image
 * that holds such a filesystem, or that a {@code DeviceOpener} (vectorjce-volumes: an encrypted
 * volume) opens, and leaves any other file (a zip) to the other providers.
 *
 * <pre>{@code
 * try (FileSystem fs = FileSystems.newFileSystem(Path.of("disk.img"), Map.of())) {
 *     Files.copy(fs.getPath("/DOCS/report.txt"), Path.of("report.txt"));
 * }
 * }</pre>
 *
 * <p>The filesystem is read-only: every change is a {@link java.nio.file.ReadOnlyFileSystemException}
 * ({@code checkAccess(WRITE)} an {@link java.nio.file.AccessDeniedException}). Names are looked up
 * as the filesystem compares them (case-insensitively on FAT, exFAT and NTFS), and globs match
 * likewise; {@code Path.equals} stays case-sensitive. Symbolic links and junctions are followed
 * inside the filesystem only (an absolute target starts at its root; a drive-letter target is a
 * {@link java.nio.file.NoSuchFileException}); {@code ".."} at the root stays at the root. A last
 * name {@code "file:stream"} names an NTFS file's alternate data stream when no entry has that
 * name. Attribute views: {@code basic}, {@code dos}, and {@code posix}/{@code owner} where the
 * filesystem keeps owners, with {@code unix} by name there ({@code mode}, {@code ino},
 * {@code nlink}, {@code uid}, {@code gid}, {@code ctime}, as the JDK's default filesystem names
 * them). Safe for many threads.
 *
 * <p>The env keys:
 * <ul>
 * <li>{@value #PARTITION}: the partition to read, an {@link Integer} or a {@link String} number, from
 *     1 as {@link Lvm#withLogicalVolumes} numbers them (the partitions, then the LVM2 logical
 *     volumes), or a logical volume's {@code "VG/LV"}; by default the only one holding a filesystem
 *     (several are an {@link UnknownFileSystemException} listing them).
 * <li>{@value #CODE_PAGE}: the charset name of FAT's 8.3 names (default {@code IBM437}).
 * <li>{@code "vectorjce"}: {@code true} makes {@code FileSystems.newFileSystem} claim the image
 *     whatever it holds, so that its error (no filesystem, a wrong partition) is thrown rather than
 *     {@code ProviderNotFoundException}.
 * <li>any other key goes to the device openers: the secrets of an encrypted volume, as each opener
 *     documents (e.g. {@code "passphrase"} as {@code char[]}).
 * </ul>
 */
public final class DiskFileSystems {
    /** The env key of the partition number. */
    public static final String PARTITION = Mounter.PARTITION;
    /** The env key of FAT's 8.3 names' code page. */
    public static final String CODE_PAGE = Mounter.CODE_PAGE;

    private DiskFileSystems() {
    }

    /**
     * The filesystem on {@code device}, which stays the caller's: closing the filesystem leaves it
     * open, and it must stay open while the filesystem is used.
     *
     * @throws UnknownFileSystemException when no partition holds a filesystem read here, several do
     *     and env names none, or the partition env names holds none
     * @throws CorruptFileSystemException when the filesystem's structures are out of range
     */
    public static FileSystem open(Device device, Map<String, ?> env) throws IOException {
        return Mounter.open(device, env);
    }

    /**
     * The filesystem in the image file or block device {@code image}, opened through a device
     * opener when one reads its format (an encrypted volume, unlocked with env's secrets), else as
     * it is. Closing the filesystem closes what was opened.
     *
     * @throws UnknownFileSystemException as {@link #open(Device, Map)}
     */
    public static FileSystem open(Path image, Map<String, ?> env) throws IOException {
        return DiskFileSystemProvider.instance().open(image, env, true);
    }

    /** What {@code fsstat} shows of {@code fs}'s filesystem: type, label, serial, sizes. */
    public static FsInfo info(FileSystem fs) {
        return of(fs).info();
    }

    /** The partition of the device {@code fs} was read from ({@code scheme} {@code none}: the whole device). */
    public static Partition partition(FileSystem fs) {
        return of(fs).partition();
    }

    /**
     * The named streams of the file {@code path} (NTFS's alternate data streams: name and bytes),
     * each readable as the path {@code "file:name"}; empty on filesystems that have none.
     *
     * @throws java.nio.file.NoSuchFileException when there is no such file
     */
    public static Map<String, Long> streams(Path path) throws IOException {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (org.vectorjce.fs.spi.DiskFs.StreamInfo s : of(path.getFileSystem()).streams(path)) {
            m.put(s.name(), s.size());
        }
        return m;
    }

    private static DiskFileSystem of(FileSystem fs) {
        if (!(fs instanceof DiskFileSystem)) {
            throw new ProviderMismatchException("not a filesystem of " + DiskFileSystems.class.getName() + ": " + fs);
        }
        return (DiskFileSystem) fs;
    }
}
