package org.vectorjce.tool.volume;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.vectorjce.device.Device;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.FsInfo;
import org.vectorjce.fs.Partition;
import org.vectorjce.fs.Lvm;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeFormat;

/**
 * The device the file verbs read (a volume's plaintext or a plain disk image), the filesystem on
 * it, and {@code volume fs}'s table of its partitions.
 */
final class DiskFiles {
    private DiskFiles() {
    }

    /** A device and the volume it is the plaintext of (null for a plain disk); closing closes both. */
    record Opened(Volume volume, Device device) implements Closeable {
        @Override
        public void close() throws IOException {
            try (Volume v = volume) {
                device.close();
            }
        }
    }

    /** Opens the device a verb reads; the caller closes it. */
    @FunctionalInterface
    interface Opener {
        Opened open() throws Exception;
    }

    /**
     * What {@code browse} and {@code mount --files} show of what they serve, in order: the
     * volume's format (or "plain image"), the partition when there is a table, the filesystem and
     * its label when it has one.
     */
    static Map<String, String> facts(Opened o, FileSystem fs) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("format", o.volume() == null ? "plain image" : formatName(o.volume().info().format()));
        Partition p = DiskFileSystems.partition(fs);
        if (!"none".equals(p.scheme())) {
            facts.put("partition", Lvm.SCHEME.equals(p.scheme()) ? p.name() : p.number() + " (" + p.scheme() + ")");
        }
        FsInfo info = DiskFileSystems.info(fs);
        facts.put("filesystem", info.type());
        if (!info.label().isEmpty()) {
            facts.put("label", info.label());
        }
        return facts;
    }

    /** {@link #facts} as a phrase: {@code LUKS2, ext4 "backup"}. */
    static String describe(Map<String, String> facts) {
        String label = facts.get("label");
        return facts.get("format") + (facts.containsKey("partition") ? ", partition " + facts.get("partition") : "")
                + ", " + facts.get("filesystem") + (label == null ? "" : " \"" + label + "\"");
    }

    /** A format's name as people know it. */
    static String formatName(VolumeFormat f) {
        switch (f) {
            case TCRYPT:
                return "TrueCrypt/VeraCrypt";
            case BITLK:
                return "BitLocker";
            case FVAULT2:
                return "FileVault 2";
            default:
                return f.name();
        }
    }

    /** The read-only filesystem on {@code o}'s device ({@code env}: the partition, the code page). */
    static FileSystem fileSystem(Opened o, Map<String, ?> env) throws IOException {
        return DiskFileSystems.open(o.device(), env);
    }

    /** {@code volume fs}: each partition and what it holds. */
    static int fs(Device device, boolean json, PrintStream out) throws IOException {
        List<Partition> parts = Lvm.withLogicalVolumes(device);
        if (!json) {
            out.printf(Locale.ROOT, "%-3s %-5s %14s %14s  %-28s %-7s %-11s %-19s %7s %10s%n", "#", "TABLE", "START",
                    "SIZE", "TYPE", "FS", "LABEL", "SERIAL", "CLUSTER", "USED");
        }
        for (Partition p : parts) {
            FsInfo fs;
            String problem = null;
            try {
                fs = FsInfo.of(Lvm.SCHEME.equals(p.scheme()) ? Lvm.open(device, p) : device.window(p.offset(),
                        p.length()));
            } catch (IOException e) {
                fs = null;
                problem = e.getMessage();
            }
            String type = p.type().isEmpty() ? "" : (p.type() + " " + p.description()).trim();
            if (!p.name().isEmpty() && !p.name().equals(p.description())) {
                type = type + " \"" + p.name() + "\"";
            }
            if (json) {
                StringBuilder s = new StringBuilder("{\"number\":").append(p.number());
                field(s, "scheme", p.scheme());
                s.append(",\"offset\":").append(p.offset()).append(",\"size\":").append(p.length());
                field(s, "type", p.type());
                field(s, "description", p.description());
                field(s, "name", p.name());
                if (fs != null) {
                    field(s, "filesystem", fs.type());
                    field(s, "label", fs.label());
                    field(s, "serial", fs.serial());
                    s.append(",\"clusterSize\":").append(fs.clusterSize());
                    s.append(",\"totalBytes\":").append(fs.totalBytes());
                    s.append(",\"freeBytes\":").append(fs.freeBytes());
                }
                if (problem != null) {
                    field(s, "error", problem);
                }
                out.println(s.append('}'));
            } else {
                String used = fs == null || fs.freeBytes() < 0 ? "" : size(fs.totalBytes() - fs.freeBytes());
                out.printf(Locale.ROOT, "%-3d %-5s %14s %14s  %-28s %-7s %-11s %-19s %7s %10s%n", p.number(),
                        p.scheme(), p.offset() < 0 ? "-" : Long.toString(p.offset()), size(p.length()), type,
                        fs == null ? "-" : fs.type(),
                        fs == null ? "" : fs.label(), fs == null ? "" : fs.serial(),
                        fs == null ? "" : Integer.toString(fs.clusterSize()), used);
                if (problem != null) {
                    out.println("    " + problem);
                }
            }
        }
        return Exits.OK;
    }

    private static void field(StringBuilder s, String name, String value) {
        s.append(",\"").append(name).append("\":");
        FilesCommand.Json.string(s, value);
    }

    /** Bytes as the largest binary unit that leaves at least 1, with one decimal: 512.0 MiB. */
    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
