package org.vectorjce.fs.nio;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import org.vectorjce.device.Device;
import org.vectorjce.device.spi.DeviceOpener;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.Lvm;
import org.vectorjce.fs.UnknownFileSystemException;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Drivers;
import org.vectorjce.fs.spi.FsDriver;
import org.vectorjce.fs.spi.FsOptions;

/**
 * From an image or a device to a {@link DiskFileSystem}: the device openers (an encrypted volume's
 * plaintext), the partition table, the choice of partition, the driver. The env keys are those
 * {@link org.vectorjce.fs.DiskFileSystems} documents.
 */
public final class Mounter {
    public static final String PARTITION = "partition";
    public static final String CODE_PAGE = "codePage";

    private Mounter() {
    }

    /** The partition chosen and its driver. */
    record Found(Partition partition, FsDriver driver) {
    }

    /**
     * The filesystem on {@code device}, which stays the caller's.
     *
     * @throws UnknownFileSystemException when no partition holds a filesystem we read, or the one asked for does not
     */
    public static DiskFileSystem open(Device device, Map<String, ?> env) throws IOException {
        FsOptions options = options(env);
        return mount(DiskFileSystemProvider.instance(), device, find(device, env), options, null, null);
    }

    /** Opens {@code found} on {@code device}; closing the filesystem closes {@code owned} (when not null). */
    static DiskFileSystem mount(DiskFileSystemProvider provider, Device device, Found found, FsOptions options,
            java.net.URI image, Device owned) throws IOException {
        Device window = windowOf(device, found.partition());
        DiskFs disk = found.driver().open(window, options);
        return new DiskFileSystem(provider, disk, found.partition(), image, owned);
    }

    /**
     * The partition to read: the one {@code env}'s {@value #PARTITION} names (a number, the LVM2
     * logical volumes numbered after the partitions, or {@code "VG/LV"}), else the only one holding a
     * filesystem a driver recognises.
     */
    static Found find(Device device, Map<String, ?> env) throws IOException {
        Object named = env.get(PARTITION);
        String lvName = named instanceof String n && n.indexOf('/') > 0 ? n.trim() : null;
        Integer wanted = lvName != null ? null : partitionNumber(named);
        List<Partition> parts = Lvm.withLogicalVolumes(device);
        if (wanted != null || lvName != null) {
            for (Partition p : parts) {
                if (wanted != null ? p.number() == wanted : Lvm.SCHEME.equals(p.scheme()) && p.name().equals(lvName)) {
                    try {
                        return new Found(p, Drivers.find(windowOf(device, p)));
                    } catch (UnknownFileSystemException e) {
                        throw new UnknownFileSystemException("partition " + describe(List.of(p)) + " of " + device
                                + " holds no " + Drivers.NAMES + " filesystem");
                    }
                }
            }
            throw new UnknownFileSystemException("no partition " + (wanted != null ? wanted : lvName) + " on " + device
                    + ": it has " + describe(parts));
        }
        List<Found> found = new ArrayList<>();
        for (Partition p : parts) {
            try {
                found.add(new Found(p, Drivers.find(windowOf(device, p))));
            } catch (UnknownFileSystemException e) {
                // not ours (or a logical volume this library does not read): the next partition
            }
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        if (found.isEmpty()) {
            throw new UnknownFileSystemException("no " + Drivers.NAMES + " filesystem on " + device + " (partitions: "
                    + describe(parts) + ")");
        }
        StringBuilder sb = new StringBuilder();
        for (Found f : found) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f.partition().number()).append(" (")
                    .append(f.driver().name()).append(f.partition().offset() >= 0 ? " at byte " + f.partition().offset()
                            : " " + f.partition().name()).append(')');
        }
        throw new UnknownFileSystemException("several partitions of " + device + " hold a filesystem: " + sb
                + "; choose one with the env key \"" + PARTITION + "\"");
    }

    /**
     * Whether some partition of {@code device} holds a filesystem a driver recognises: the image is
     * ours even when the partition env asks for is not, or several are and env chose none.
     */
    static boolean holdsAnyFileSystem(Device device) {
        try {
            for (Partition p : Lvm.withLogicalVolumes(device)) {
                try {
                    Drivers.find(windowOf(device, p));
                    return true;
                } catch (UnknownFileSystemException e) {
                    // the next partition
                }
            }
        } catch (IOException | RuntimeException e) {
            return false; // no table we read: not ours
        }
        return false;
    }

    /** The device of partition {@code p}: a window of {@code device}, or a logical volume over its partitions. */
    public static Device windowOf(Device device, Partition p) throws IOException {
        if (Lvm.SCHEME.equals(p.scheme())) {
            return Lvm.open(device, p);
        }
        return p.offset() == 0 && p.length() == device.size() ? device : device.window(p.offset(), p.length());
    }

    private static String describe(List<Partition> parts) {
        StringBuilder sb = new StringBuilder();
        for (Partition p : parts) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.number()).append(' ').append(p.scheme())
                    .append(p.description().isEmpty() ? "" : " " + p.description());
            if (p.offset() >= 0) {
                sb.append(" at byte ").append(p.offset());
            }
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    static Integer partitionNumber(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            return Math.toIntExact(((Number) value).longValue());
        }
        if (value instanceof String) {
            try {
                return Integer.valueOf(((String) value).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("env \"" + PARTITION + "\": a number from 1, not " + value, e);
            }
        }
        throw new IllegalArgumentException("env \"" + PARTITION + "\": an Integer or a String, not "
                + value.getClass().getName());
    }

    static FsOptions options(Map<String, ?> env) {
        Object cp = env.get(CODE_PAGE);
        if (cp == null) {
            return FsOptions.defaults();
        }
        if (cp instanceof Charset) {
            return new FsOptions((Charset) cp);
        }
        try {
            return new FsOptions(Charset.forName(cp.toString()));
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new IllegalArgumentException("env \"" + CODE_PAGE + "\": no charset " + cp, e);
        }
    }

    /**
     * The plaintext device of {@code image} from the first {@link DeviceOpener} that reads its format
     * (found with the given class loaders, in order), or {@code null} when none does.
     *
     * @throws IOException when an opener recognises the image but cannot open it (a wrong secret)
     */
    static Device openWithOpeners(Path image, Map<String, ?> env, ClassLoader... loaders) throws IOException {
        Set<String> seen = new HashSet<>();
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            Iterator<DeviceOpener> it = ServiceLoader.load(DeviceOpener.class, loader).iterator();
            while (true) {
                DeviceOpener opener;
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    opener = it.next();
                } catch (ServiceConfigurationError e) {
                    throw new IOException("a device opener cannot be loaded: " + e.getMessage(), e);
                }
                if (seen.add(opener.getClass().getName())) {
                    Device d = opener.open(image, env);
                    if (d != null) {
                        return d;
                    }
                }
            }
        }
        return null;
    }
}
