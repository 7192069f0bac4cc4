package org.vectorjce.fs.lvm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.fs.testing.Tools;

/**
 * Sparse images on loop devices made PVs by lvm2's own tools, and lvm's reports of what it made:
 * the oracle of the LVM tests.
 *
 * <p>What works here (found by trying, lvm2 2.03.16): the device mapper is unusable, so every command
 * runs with {@code global{activation=0}} and {@code lvcreate -an -Zn}; lvm does not take plain files
 * as PVs, so each image is attached with {@code losetup -f --show} (detached in {@link #close}); the
 * {@code devices{filter}} admits only our loop devices (never the host's disks or another test's
 * loops), {@code use_devicesfile=0} and {@code hints="none"} keep lvm from its device lists, and
 * {@code backup{backup=0 archive=0}} keeps it from writing /etc/lvm/backup. raid1, mirror, thin-pool
 * and snapshot LVs cannot be created so ("Can't create ... without using device-mapper kernel
 * driver"); the {@code zero} and {@code error} types can.
 */
final class LvmLab implements AutoCloseable {
    private final List<Path> images = new ArrayList<>();
    private final List<String> loops = new ArrayList<>();
    final String vg = "vjce" + Long.toHexString(System.nanoTime() & 0xffffffL);

    /** One segment of {@code lvs}: its LV extents, stripes and their (loop device, first extent). */
    record Seg(String lv, long startPe, long sizePe, int stripes, long stripeBytes, List<String> devs,
            List<Long> firstPes) {
    }

    /** Sparse images of {@code sizes} in {@code dir}, each on a loop device; skips when that cannot be done. */
    static LvmLab create(Path dir, long... sizes) throws Exception {
        Tools.assumeTool("pvcreate", "vgcreate", "lvcreate", "lvs", "losetup");
        LvmLab lab = new LvmLab();
        try {
            for (int i = 0; i < sizes.length; i++) {
                Path img = Tools.sparse(dir.resolve("pv" + i + ".img"), sizes[i]);
                lab.images.add(img);
                Tools.Run r = Tools.run("losetup", "-f", "--show", img.toString());
                assumeTrue(r.exit() == 0, "losetup cannot attach a loop device (" + r.stderr().strip()
                        + "): test skipped");
                lab.loops.add(r.out().strip());
            }
        } catch (Throwable t) {
            lab.close();
            throw t;
        }
        return lab;
    }

    /** Attaches {@code [offset, offset + length)} of {@code image} as one more loop device (a partition's PV). */
    String attach(Path image, long offset, long length) throws Exception {
        Tools.Run r = Tools.run("losetup", "-f", "--show", "-o", Long.toString(offset), "--sizelimit",
                Long.toString(length), image.toString());
        assumeTrue(r.exit() == 0, "losetup cannot attach a loop device: test skipped");
        loops.add(r.out().strip());
        return loops.get(loops.size() - 1);
    }

    Path image(int i) {
        return images.get(i);
    }

    String loop(int i) {
        return loops.get(i);
    }

    String config() {
        StringBuilder f = new StringBuilder();
        for (String l : loops) {
            f.append("\"a|^").append(l).append("$|\",");
        }
        return "global{activation=0} devices{filter=[" + f + "\"r|.*|\"] use_devicesfile=0"
                + " obtain_device_list_from_udev=0 hints=\"none\"} backup{backup=0 archive=0}";
    }

    /** Runs lvm command {@code cmd} with our configuration; fails on a non-zero exit. */
    Tools.Run lvm(String cmd, String... args) throws Exception {
        return Tools.ok(Map.of("LVM_SUPPRESS_FD_WARNINGS", "1"), command(cmd, args));
    }

    /** {@link #lvm} without the exit check. */
    Tools.Run tryLvm(String cmd, String... args) throws Exception {
        return Tools.run(Map.of("LVM_SUPPRESS_FD_WARNINGS", "1"), command(cmd, args));
    }

    private String[] command(String cmd, String... args) {
        String[] c = new String[args.length + 3];
        c[0] = cmd;
        c[1] = "--config";
        c[2] = config();
        System.arraycopy(args, 0, c, 3, args.length);
        return c;
    }

    /** The rows of an lvm report of {@code fields} in bytes, without headings or units. */
    List<String[]> report(String cmd, String fields, String... what) throws Exception {
        List<String> args = new ArrayList<>(List.of("--noheadings", "--nosuffix", "--units", "b", "--separator",
                "|", "-o", fields));
        args.addAll(List.of(what));
        List<String[]> rows = new ArrayList<>();
        for (String line : lvm(cmd, args.toArray(String[]::new)).out().split("\n")) {
            if (!line.isBlank()) {
                String[] f = line.strip().split("\\|", -1);
                for (int i = 0; i < f.length; i++) {
                    f[i] = f[i].strip();
                }
                rows.add(f);
            }
        }
        return rows;
    }

    /** Every segment of the VG's LVs ({@code -a}: hidden ones too) as {@code lvs} reports it. */
    List<Seg> segments() throws Exception {
        List<Seg> out = new ArrayList<>();
        for (String[] r : report("lvs", "lv_name,seg_start_pe,seg_size_pe,stripes,stripe_size,seg_pe_ranges", "-a",
                vg)) {
            List<String> devs = new ArrayList<>();
            List<Long> firsts = new ArrayList<>();
            for (String range : r[5].isEmpty() ? new String[0] : r[5].split(" ")) {
                int colon = range.lastIndexOf(':');
                devs.add(range.substring(0, colon));
                firsts.add(Long.parseLong(range.substring(colon + 1, range.indexOf('-', colon))));
            }
            out.add(new Seg(r[0], Long.parseLong(r[1]), Long.parseLong(r[2]), Integer.parseInt(r[3]),
                    Long.parseLong(r[4]), devs, firsts));
        }
        return out;
    }

    /** {@code pvs}' first PE offset of each loop device. */
    Map<String, Long> peStarts() throws Exception {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String[] r : report("pvs", "pv_name,pe_start")) {
            m.put(r[0], Long.parseLong(r[1]));
        }
        return m;
    }

    long extentSize() throws Exception {
        return Long.parseLong(report("vgs", "vg_extent_size", vg).get(0)[0]);
    }

    /** {@code lvs}' name to size (visible LVs only, as {@code lvs} without -a). */
    Map<String, Long> sizes() throws Exception {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String[] r : report("lvs", "lv_name,lv_size", vg)) {
            m.put(r[0], Long.parseLong(r[1]));
        }
        return m;
    }

    /**
     * Writes {@code data} (LV bytes from 0) into the LV's extents where lvm's report says they are:
     * a linear segment's extents in a row, a striped one's chunks round-robin over its stripes.
     */
    void writeLv(String lv, byte[] data) throws Exception {
        long ext = extentSize();
        Map<String, Long> pe = peStarts();
        // losetup's BACK-FILE and OFFSET once per device, not per chunk (a striped LV has hundreds)
        Map<String, String[]> backing = new LinkedHashMap<>();
        for (Seg s : segments()) {
            if (!s.lv().equals(lv)) {
                continue;
            }
            long segStart = s.startPe() * ext;
            long segLen = s.sizePe() * ext;
            long chunk = s.stripes() == 1 ? segLen : s.stripeBytes();
            for (long o = 0; o < segLen && segStart + o < data.length; o += chunk) {
                long c = o / chunk;
                int stripe = (int) (c % s.stripes());
                long row = c / s.stripes();
                String dev = s.devs().get(stripe);
                long at = pe.get(dev) + s.firstPes().get(stripe) * ext + row * chunk;
                int n = (int) Math.min(chunk, data.length - (segStart + o));
                if (!backing.containsKey(dev)) {
                    backing.put(dev, Tools.ok("losetup", "-n", "-O", "BACK-FILE,OFFSET", dev).out().strip()
                            .split("\\s+"));
                }
                write(backing.get(dev), at, data, (int) (segStart + o), n);
            }
        }
    }

    /** Writes at {@code at} on a loop device: into its BACK-FILE {@code info[0]}, past its OFFSET {@code info[1]}. */
    private static void write(String[] info, long at, byte[] b, int off, int len) throws Exception {
        try (FileChannel ch = FileChannel.open(Path.of(info[0]), StandardOpenOption.WRITE)) {
            ByteBuffer bb = ByteBuffer.wrap(b, off, len);
            long pos = at + Long.parseLong(info[1]);
            while (bb.hasRemaining()) {
                pos += ch.write(bb, pos);
            }
        }
    }

    /** A recognisable pattern: 8-byte words of the seed mixed with the word's offset. */
    static byte[] pattern(long seed, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int o = 0; o + 8 <= length; o += 8) {
            b.putLong(o, (seed * 0x9e3779b97f4a7c15L) ^ o);
        }
        return b.array();
    }

    /** Detaches every loop device (the images stay). */
    void detach() throws Exception {
        IOException failed = null;
        for (String l : loops) {
            Tools.Run r = Tools.run("losetup", "-d", l);
            if (r.exit() != 0) {
                failed = new IOException("losetup -d " + l + ": " + r.stderr());
            }
        }
        loops.clear();
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public void close() throws Exception {
        detach();
    }
}
