package org.vectorjce.webdav;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.testing.Tools;

/**
 * The tree the tests serve: a source folder with awkward names (spaces, '%', '#', '?', '&', '<',
 * quotes, non-ASCII), an empty file, a nested folder and a multi-MiB file, each with its own
 * modification time; written into an ext4 image by {@code mkfs.ext4 -d} (e2fsprogs) and opened
 * with {@link DiskFileSystems}. The source folder is the oracle the served tree is compared with.
 */
final class ServedImage implements AutoCloseable {
    static final String BIG = "big.bin";
    static final int BIG_SIZE = 3 * 1024 * 1024 + 12345;

    final Path source;
    final Path image;
    final FileSystem fs;

    private ServedImage(Path source, Path image, FileSystem fs) {
        this.source = source;
        this.image = image;
        this.fs = fs;
    }

    /** Makes the tree and the image in {@code dir}; skips (naming it) without mkfs.ext4. */
    static ServedImage make(Path dir) throws IOException, InterruptedException {
        Tools.assumeTool("mkfs.ext4");
        Path src = Files.createDirectories(dir.resolve("src"));
        Map<String, String> files = new TreeMap<>();
        files.put("a b.txt", "spaces in the name\n");
        files.put("100% sure.txt", "percent\n");
        files.put("#hash.txt", "hash\n");
        files.put("what?.txt", "question\n");
        files.put("Ünïcödé ファイル.txt", "non-ASCII\n");
        files.put("it's <b>&amp \"q\".txt", "markup\n");
        files.put("empty.bin", "");
        files.put("page.html", "<!DOCTYPE html><title>p</title><script>document.title = 'ran'</script>\n");
        files.put("sub folder/nested/deep.txt", "deep inside\n");
        files.put("sub folder/plus+sign.txt", "plus\n");
        files.put("sub folder/ü/ß.txt", "eszett\n");
        long t = Instant.parse("2021-03-04T05:06:07Z").getEpochSecond();
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path p = src.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue());
            Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(t += 86_400 + 17)));
        }
        byte[] big = new byte[BIG_SIZE];
        new Random(50).nextBytes(big);
        Files.write(src.resolve(BIG), big);
        Files.setLastModifiedTime(src.resolve(BIG), FileTime.from(Instant.parse("2024-07-08T09:10:11Z")));
        for (String d : new String[] {"sub folder/nested", "sub folder/ü", "sub folder"}) {
            Files.setLastModifiedTime(src.resolve(d), FileTime.from(Instant.ofEpochSecond(t += 3600)));
        }
        Path image = dir.resolve("ext4.img");
        Tools.ok("mkfs.ext4", "-q", "-F", "-L", "webdav-test", "-d", src.toString(), image.toString(), "16M");
        return new ServedImage(src, image, DiskFileSystems.open(image, Map.of()));
    }

    /** Every file and folder of {@code root} relative to it ('/'-separated), with size (-1 for folders) and mtime in seconds. */
    static Map<String, long[]> tree(Path root) throws IOException {
        Map<String, long[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.equals(root) || p.getFileName().toString().equals("lost+found")) {
                    continue;
                }
                String rel = root.relativize(p).toString().replace(root.getFileSystem().getSeparator(), "/");
                if (rel.startsWith("lost+found/")) {
                    continue;
                }
                boolean dir = Files.isDirectory(p);
                m.put(rel, new long[] {dir ? -1 : Files.size(p), Files.getLastModifiedTime(p).toInstant().getEpochSecond()});
            }
        }
        return m;
    }

    static String sha256(Path file) throws IOException {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            try (var in = Files.newInputStream(file)) {
                byte[] b = new byte[1 << 16];
                for (int n; (n = in.read(b)) > 0; ) {
                    d.update(b, 0, n);
                }
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        fs.close();
    }
}
