package org.vectorjce.fs.fat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;
import org.vectorjce.fs.testing.Tools;

/**
 * Builds FAT images the way a user would, with mkfs.fat and mtools (never our own writer), from a
 * tree described in memory, and reads back what the driver and The Sleuth Kit see.
 *
 * <p>The tree is written to a temporary folder and copied with {@code mcopy -s -m} (which keeps
 * mtimes). Non-ASCII names go through a shell script written as UTF-8 bytes that renames ASCII
 * placeholders, so the test does not depend on the JVM's file-name encoding.
 */
final class FatImages {
    /** mtools with UTC local time (so FAT's zoneless times are UTC) and UTF-8 names. */
    static final Map<String, String> ENV = Map.of("TZ", "UTC", "LANG", "C.UTF-8", "LC_ALL", "C.UTF-8",
            "MTOOLS_SKIP_CHECK", "1");

    /** A file (data non-null) or a folder (data null) at a '/'-separated path. */
    record Entry(String path, byte[] data, FileTime mtime) {
        boolean isDir() {
            return data == null;
        }
    }

    private FatImages() {
    }

    static Entry dir(String path) {
        return new Entry(path, null, null);
    }

    static Entry file(String path, byte[] data, FileTime mtime) {
        return new Entry(path, data, mtime);
    }

    /**
     * Writes {@code entries} under {@code work/tree} and copies them into the root of {@code image}
     * with {@code mcopy -s -m}.
     */
    static void fill(Path image, Path work, List<Entry> entries) throws Exception {
        Path tree = work.resolve("tree");
        Files.createDirectories(tree);
        Map<String, String> placeholder = new TreeMap<>();
        List<String> renames = new ArrayList<>();
        for (Entry e : entries) {
            String p = ascii(e.path(), placeholder);
            Path at = tree.resolve(p);
            if (e.isDir()) {
                Files.createDirectories(at);
            } else {
                Files.createDirectories(at.getParent());
                Files.write(at, e.data());
                Files.setLastModifiedTime(at, e.mtime());
            }
        }
        // Rename the deepest first, so that each parent path still holds placeholders.
        List<String> real = new ArrayList<>(placeholder.keySet());
        real.sort(Comparator.comparingInt((String s) -> s.split("/").length).reversed());
        for (String r : real) {
            String ph = placeholder.get(r);
            String parent = ph.contains("/") ? ph.substring(0, ph.lastIndexOf('/') + 1) : "";
            String name = r.substring(r.lastIndexOf('/') + 1);
            renames.add("mv " + quote("tree/" + ph) + " " + quote("tree/" + parent + name));
        }
        StringBuilder sh = new StringBuilder("set -e\ncd ").append(quote(work.toString())).append('\n');
        for (String r : renames) {
            sh.append(r).append('\n');
        }
        sh.append("cd tree\nmcopy -s -m -i ").append(quote(image.toString())).append(" -- * ::/\n");
        Path script = work.resolve("fill.sh");
        Files.write(script, sh.toString().getBytes(StandardCharsets.UTF_8));
        Tools.ok(ENV, "sh", script.toString());
    }

    /** Runs an mtools command with {@link #ENV}, arguments passed through a UTF-8 script. */
    static Tools.Run mtools(Path work, String... cmd) throws Exception {
        StringBuilder sh = new StringBuilder();
        for (String c : cmd) {
            sh.append(quote(c)).append(' ');
        }
        Path script = Files.createTempFile(work, "mt", ".sh");
        Files.write(script, sh.append('\n').toString().getBytes(StandardCharsets.UTF_8));
        return Tools.ok(ENV, "sh", script.toString());
    }

    /** {@code path} with each non-ASCII name replaced by a placeholder, recorded in {@code map} by real path. */
    private static String ascii(String path, Map<String, String> map) {
        String[] parts = path.split("/");
        StringBuilder realSoFar = new StringBuilder();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                realSoFar.append('/');
                out.append('/');
            }
            realSoFar.append(parts[i]);
            String name = parts[i];
            if (!StandardCharsets.US_ASCII.newEncoder().canEncode(name)) {
                String key = realSoFar.toString();
                String ph = map.get(key);
                name = ph != null ? ph.substring(ph.lastIndexOf('/') + 1) : "u" + map.size() + "x";
                map.putIfAbsent(key, out + name);
            }
            out.append(name);
        }
        return out.toString();
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * Every node under the root by path ({@code "a/b"}, folders ending in {@code '/'}), walked with
     * a guard against folder loops (a folder whose key was seen is not entered again) and depth 64.
     */
    static Map<String, Node> walk(DiskFs fs) throws IOException {
        Map<String, Node> out = new TreeMap<>();
        walk(fs, fs.root(), "", out, new HashSet<>(), 0);
        return out;
    }

    private static void walk(DiskFs fs, Node dir, String prefix, Map<String, Node> out, Set<Long> seen, int depth)
            throws IOException {
        if (depth > 64 || !seen.add(dir.fileKey()) || out.size() > 100_000) {
            return;
        }
        List<Node> children = new ArrayList<>();
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null; n = s.next()) {
                children.add(n);
            }
        }
        for (Node n : children) {
            String p = prefix + n.name();
            if (n.isDirectory()) {
                out.put(p + "/", n);
                walk(fs, n, p + "/", out, seen, depth + 1);
            } else {
                out.put(p, n);
            }
        }
    }

    /** The whole of {@code c}, read in pieces of {@code piece} bytes. */
    static byte[] readAll(Content c, int piece) throws IOException {
        byte[] out = new byte[Math.toIntExact(c.size())];
        ByteBuffer b = ByteBuffer.wrap(out);
        long pos = 0;
        while (pos < out.length) {
            b.limit((int) Math.min(out.length, pos + piece));
            int n = c.read(b, pos);
            assertTrue(n > 0, "read at " + pos + " returned " + n);
            pos += n;
        }
        b.limit(out.length);
        return out;
    }

    private static final Pattern FLS = Pattern.compile("^([rd])/[rd-] (?:\\* )?(\\d+)(?:\\(realloc\\))?:\\t(.*)$");

    /** The paths The Sleuth Kit's {@code fls -r -p -u} lists (folders ending in '/'), without the label and virtual files. */
    static Set<String> fls(Path image) throws Exception {
        Set<String> out = new TreeSet<>();
        for (String line : Tools.ok("fls", "-r", "-p", "-u", image.toString()).out().split("\n")) {
            Matcher m = FLS.matcher(line);
            if (!m.matches() || m.group(3).endsWith("(Volume Label Entry)")) {
                continue;
            }
            out.add(m.group(1).equals("d") ? m.group(3) + "/" : m.group(3));
        }
        return out;
    }

    /**
     * The Sleuth Kit's times of every path (no leading or trailing '/'), from {@code fls -m} run with
     * {@code TZ=UTC}: {@code {accessed, modified, created}} in whole seconds since 1970, 0 when unset.
     */
    static Map<String, long[]> flsTimes(Path image) throws Exception {
        Map<String, long[]> out = new TreeMap<>();
        for (String line : Tools.ok(ENV, "fls", "-r", "-p", "-u", "-m", "/", image.toString()).out().split("\n")) {
            String[] f = line.split("\\|");
            if (f.length != 11 || f[1].startsWith("/$") || f[1].endsWith("(Volume Label Entry)")) {
                continue;
            }
            out.put(f[1].substring(1), new long[] {Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[10])});
        }
        return out;
    }

    /** fls's inode number of {@code path}, for istat. */
    static String flsInode(Path image, String path) throws Exception {
        for (String line : Tools.ok("fls", "-r", "-p", "-u", image.toString()).out().split("\n")) {
            Matcher m = FLS.matcher(line);
            if (m.matches() && m.group(3).equals(path)) {
                return m.group(2);
            }
        }
        throw new AssertionError(path + " not in fls output");
    }
}
