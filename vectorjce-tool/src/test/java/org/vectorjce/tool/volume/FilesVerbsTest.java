package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.testing.Tools;
import org.vectorjce.volumes.JdkXts;
import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.tcrypt.TcryptFilesAccess;

/**
 * {@code volume fs}, {@code ls}, {@code cat} and {@code get} end to end, on images the real tools
 * made: a FAT32 filled by mtools (mkfs.fat, mcopy -s -m), a GPT disk (sgdisk) holding a FAT16 and
 * an NTFS (mkntfs, ntfscp), the same disk inside a LUKS2 volume that cryptsetup formatted and an
 * XTS independent of the provider (SunJCE's AES) encrypted, Windows' own BitLocker To Go FAT16 and
 * a BitLocker NTFS that cryptsetup's authors trimmed (which ntfs-3g refuses too), and crafted FATs
 * (a long name of {@code ..}, a folder that holds its parent). The expected values are the source
 * tree the tools were given, never what our reader says.
 */
class FilesVerbsTest {
    @TempDir
    static Path dir;
    static Path src;
    static Path fat32;
    static final Instant T0 = Instant.parse("2021-03-04T05:06:08Z");

    @BeforeAll
    static void images() throws Exception {
        Tools.assumeTool("mkfs.fat", "mcopy");
        src = dir.resolve("src");
        Random r = new Random(48);
        write(src.resolve("readme.txt"), "hello from a FAT32\n".getBytes(StandardCharsets.UTF_8), 0);
        write(src.resolve("Grüße Ω.txt"), "non-ASCII name\n".getBytes(StandardCharsets.UTF_8), 1);
        write(src.resolve("日本語のファイル名.txt"), "long UTF-16 name\n".getBytes(StandardCharsets.UTF_8), 2);
        write(src.resolve("empty.bin"), new byte[0], 3);
        byte[] big = new byte[(1 << 20) + 3];
        r.nextBytes(big);
        write(src.resolve("big.bin"), big, 4);
        write(src.resolve("docs/deep/deeper/note.md"), "# deep\n".getBytes(StandardCharsets.UTF_8), 5);
        Files.createDirectories(src.resolve("emptydir"));
        for (int i = 0; i < 300; i++) {
            write(src.resolve("many/file " + i + ".txt"), ("file " + i + "\n").getBytes(StandardCharsets.UTF_8), 6 + i);
        }
        fat32 = dir.resolve("fat32.img");
        Tools.ok("mkfs.fat", "-F", "32", "-n", "FILES", "-i", "1234ABCD", "-C", fat32.toString(), "65536");
        mcopy(fat32, src);
    }

    /** {@code data} to {@code p} (folders made), its modification time {@code T0 + 2 s × n}. */
    private static void write(Path p, byte[] data, int n) throws IOException {
        Files.createDirectories(p.getParent());
        Files.write(p, data);
        Files.setLastModifiedTime(p, FileTime.from(T0.plusSeconds(2L * n)));
    }

    /** Everything in {@code from} into the root of the FAT image {@code img}, times kept (mtools, UTC). */
    private static void mcopy(Path img, Path from) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("mcopy", "-s", "-m", "-i", img.toString()));
        try (Stream<Path> s = Files.list(from)) {
            s.sorted().forEach(p -> cmd.add(p.toString()));
        }
        cmd.add("::");
        Tools.ok(Map.of("TZ", "UTC", "MTOOLS_SKIP_CHECK", "1"), cmd.toArray(String[]::new));
    }

    private static VolumeMainAccess.Result ok(String stdin, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(stdin, args);
        assertEquals(0, r.rc(), String.join(" ", args) + ": " + r.err());
        return r;
    }

    /** {@code args} exit 1 with one line on stderr, which contains {@code part}. */
    private static VolumeMainAccess.Result refused(String part, String... args) {
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, args);
        assertEquals(1, r.rc(), String.join(" ", args) + ": " + r.err() + r.out());
        assertTrue(r.err().contains(part), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        return r;
    }

    /** The source tree as {@code ls -R --json} should show it: path → type, size, mtime (files). */
    private static Map<String, String> expected(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                String name = "/" + root.relativize(p).toString();
                m.put(name, Files.isDirectory(p) ? "dir" : "file " + Files.size(p) + " "
                        + Files.getLastModifiedTime(p).toInstant());
            }
        }
        return m;
    }

    private static final Pattern JSON = Pattern.compile(
            "\\{\"path\":\"((?:[^\"\\\\]|\\\\.)*)\",\"type\":\"(\\w+)\",\"size\":(\\d+),\"mtime\":\"([^\"]+)\".*\\}");

    /** {@code ls -R --json}'s lines as {@link #expected} gives the tree. */
    private static Map<String, String> listed(String json) {
        Map<String, String> m = new TreeMap<>();
        for (String line : json.split("\n")) {
            Matcher x = JSON.matcher(line);
            assertTrue(x.matches(), line);
            m.put(x.group(1).replace("\\\\", "\\"), x.group(2).equals("dir") ? "dir"
                    : x.group(2) + " " + x.group(3) + " " + x.group(4));
        }
        return m;
    }

    @Test
    void fat32ListsReadsAndCopiesWhatMtoolsWrote() throws Exception {
        String img = fat32.toString();
        String fs = ok(null, "fs", img).out();
        assertTrue(fs.contains("FAT32") && fs.contains("FILES") && fs.contains("1234-ABCD"), fs);
        assertEquals(expected(src), listed(ok(null, "ls", "-R", "--json", img).out()));

        String top = ok(null, "ls", img).out();
        assertTrue(top.contains("docs/\n") && top.contains("Grüße Ω.txt\n") && !top.contains("note.md"), top);
        String deep = ok(null, "ls", "-l", img, "/docs/deep/deeper").out();
        assertTrue(deep.matches("(?s)- ---a +7 2021-03-04 05:06:18 note\\.md\n"), deep);

        VolumeMainAccess.Result cat = ok(null, "cat", img, "/big.bin");
        assertArrayEquals(Files.readAllBytes(src.resolve("big.bin")), cat.stdout());
        // lookups are case-insensitive on FAT, and a relative PATH is from the root
        assertEquals("# deep\n", ok(null, "cat", img, "DOCS/Deep/deeper/NOTE.MD").out());
        refused("No such file: /nothing.txt", "cat", img, "/nothing.txt");
        refused("is a folder", "cat", img, "/docs");

        Path dest = Files.createDirectory(dir.resolve("get-all"));
        ok(null, "get", img, "/", dest.toString());
        assertSameTree(src, dest);
        // again: every file exists, so each is kept and named, and the status says so
        VolumeMainAccess.Result again = VolumeMainAccess.run(null, "get", img, "/docs", "/readme.txt", dest.toString());
        assertEquals(1, again.rc(), again.err());
        assertTrue(again.err().contains("Kept " + dest.resolve("readme.txt")), again.err());
        Files.writeString(dest.resolve("readme.txt"), "changed");
        assertEquals(1, VolumeMainAccess.run(null, "get", img, "/readme.txt", dest.toString()).rc());
        assertEquals("changed", Files.readString(dest.resolve("readme.txt")), "a kept file is left as it was");
        ok(null, "get", "--force", img, "/readme.txt", dest.toString());
        assertEquals("hello from a FAT32\n", Files.readString(dest.resolve("readme.txt")));
        // one file to a new name
        ok(null, "get", img, "/many/file 7.txt", dir.resolve("seven.txt").toString());
        assertEquals("file 7\n", Files.readString(dir.resolve("seven.txt")));
    }

    /** {@code b} holds what {@code a} holds: names, bytes, and the files' modification times. */
    static void assertSameTree(Path a, Path b) throws IOException {
        assertEquals(expected(a), expected(b));
        try (Stream<Path> s = Files.walk(a)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(b.resolve(a.relativize(p).toString())),
                            p.toString());
                }
            }
        }
    }

    /**
     * A GPT disk (sgdisk) with a FAT32 (mkfs.fat, mcopy) and an NTFS (mkntfs, ntfscp), plain and
     * inside a LUKS2 volume: cryptsetup formats it and dumps its key, and SunJCE's AES in an XTS of
     * the tests' own writes the payload.
     */
    @Test
    void gptDiskPlainAndInsideLuks2() throws Exception {
        Tools.assumeTool("sgdisk", "mkntfs", "ntfscp");
        long mib = 1 << 20;
        Path disk = Tools.sparse(dir.resolve("gpt.img"), 58 * mib);
        Tools.ok("sgdisk", "-n", "1:2048:+34M", "-t", "1:0700", "-c", "1:Data One", "-n", "2:0:+20M", "-t", "2:0700",
                "-c", "2:Données", disk.toString());
        Path p1 = dir.resolve("p1.img");
        Tools.ok("mkfs.fat", "-F", "32", "-s", "1", "-n", "PART ONE", "-i", "0BADF00D", "-C", p1.toString(), "34816");
        Path one = Files.createDirectories(dir.resolve("one"));
        write(one.resolve("in partition one.txt"), "one\n".getBytes(StandardCharsets.UTF_8), 0);
        mcopy(p1, one);
        Path p2 = Tools.sparse(dir.resolve("p2.img"), 20 * mib);
        Tools.ok("mkntfs", "-F", "-f", "-q", "-L", "PartTwo", p2.toString());
        Path two = dir.resolve("two.txt");
        Files.writeString(two, "two on NTFS\n");
        Tools.ok("ntfscp", "-f", p2.toString(), two.toString(), "/two.txt");
        splice(disk, p1, mib);
        splice(disk, p2, 35 * mib);

        String fs = ok(null, "fs", disk.toString()).out();
        assertTrue(fs.contains("GPT") && fs.contains("FAT32") && fs.contains("PART ONE") && fs.contains("0BAD-F00D")
                && fs.contains("NTFS") && fs.contains("PartTwo") && fs.contains("Données"), fs);
        refused("partition", "ls", disk.toString());
        assertEquals("in partition one.txt\n", ok(null, "ls", "-p", "1", disk.toString()).out());
        assertEquals("two on NTFS\n", ok(null, "cat", "--partition", "2", disk.toString(), "/two.txt").out());

        Tools.assumeTool("cryptsetup");
        Path luks = Tools.sparse(dir.resolve("luks2.img"), 74 * mib);
        Path key = dir.resolve("key");
        Files.writeString(key, "files inside");
        TestImages.ok(null, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "pbkdf2",
                "--pbkdf-force-iterations", "1000", "--cipher", "aes-xts-plain64", "--key-size", "512", "--sector-size", "512",
                luks.toString(),
                key.toString());
        byte[] vk = TestImages.dumpedKey(TestImages.ok(null, "cryptsetup", "luksDump", "--dump-volume-key",
                "--batch-mode", "--key-file", key.toString(), luks.toString()).out());
        byte[] ct = JdkXts.crypt(true, vk, Files.readAllBytes(disk), 512);
        try (FileChannel f = FileChannel.open(luks, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(ct), 16 * mib);
        }
        String k = key.toString();
        String efs = ok(null, "fs", luks.toString(), "--key-file", k).out();
        assertEquals(fs, efs);
        assertEquals("two on NTFS\n", ok(null, "cat", "-p", "2", luks.toString(), "two.txt", "--key-file", k).out());
        Path dest = Files.createDirectory(dir.resolve("from-luks"));
        ok(null, "get", "-p", "1", luks.toString(), "/", dest.toString(), "--key-file", k);
        assertSameTree(one, dest);
        // the Java API: FileSystems.newFileSystem unlocks through vectorjce-volumes' DeviceOpener
        try (java.nio.file.FileSystem efs2 = java.nio.file.FileSystems.newFileSystem(luks,
                Map.of("keyFile", key, "partition", 2))) {
            assertEquals("two on NTFS\n", Files.readString(efs2.getPath("/TWO.TXT")));
            assertEquals("NTFS", org.vectorjce.fs.DiskFileSystems.info(efs2).type());
        }
        try (java.nio.file.FileSystem efs1 = java.nio.file.FileSystems.newFileSystem(luks,
                Map.of("passphrase", "files inside".toCharArray(), "partition", "1"))) {
            assertArrayEquals(Files.readAllBytes(one.resolve("in partition one.txt")),
                    Files.readAllBytes(efs1.getPath("/in partition one.txt")));
        }
        java.io.IOException wrongKey = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> java.nio.file.FileSystems.newFileSystem(luks, Map.of("passphrase", "not it")));
        assertFalse(wrongKey.getMessage().contains("not it"), wrongKey.getMessage());
        // a wrong key: exit 2, as every verb
        Path wrong = dir.resolve("wrong");
        Files.writeString(wrong, "not it");
        assertEquals(2, VolumeMainAccess.run(null, "ls", luks.toString(), "--key-file", wrong.toString()).rc());
    }

    /**
     * A VeraCrypt container (cryptsetup's vc_1 image, made by VeraCrypt): its FAT12's boot sector as
     * VeraCrypt wrote it (serial DEAD-BABE; the rest of that FAT was wiped by cryptsetup's authors),
     * then a FAT12 that mtools formatted and filled, written into the payload, listed and copied out
     * by {@code ls} and {@code get --type tcrypt}, the README's two commands. The {@code fs} checks
     * around them are hinted ({@code -h sha512}): the file system is what they look at, and an
     * unhinted search spends a core on SHA-256's 500,000 iterations beside SHA-512's.
     */
    @Test
    void fatInsideAVeraCryptContainer() throws Exception {
        Tools.assumeTool("mformat");
        Path vc = dir.resolve("container.hc");
        Files.copy(TcryptFilesAccess.images().resolve("vc_1-sha512-xts-aes"), vc);
        String pw = TcryptFilesAccess.PASSWORD + "\n";
        String fs = ok(pw, "fs", "--type", "tcrypt", "-h", "sha512", vc.toString()).out();
        assertTrue(fs.contains("FAT12") && fs.contains("DEAD-BABE"), fs);

        Path small = dir.resolve("small-fat.img");
        try (FileChannel f = FileChannel.open(small, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), 36 * 1024 - 1);
        }
        Map<String, String> env = Map.of("TZ", "UTC", "MTOOLS_SKIP_CHECK", "1");
        Tools.ok(env, "mformat", "-i", small.toString(), "-T", "72", "-h", "1", "-s", "72", "-c", "1", "-r", "16",
                "-v", "REPORTS", "-N", "0badcafe", "::");
        Path in = Files.createDirectories(dir.resolve("vc-src/Documents"));
        write(in.resolve("report.pdf"), "%PDF-1.4 not really\n".getBytes(StandardCharsets.UTF_8), 3);
        Tools.ok(env, "mcopy", "-s", "-m", "-i", small.toString(), in.toString(), "::");
        try (Volume v = Volumes.open(vc).type(VolumeFormat.TCRYPT)
                .passphrase(TcryptFilesAccess.PASSWORD.getBytes(StandardCharsets.UTF_8)).readWrite().open();
                SeekableByteChannel p = v.payload()) {
            assertEquals(Files.size(small), v.payloadSize());
            p.write(ByteBuffer.wrap(Files.readAllBytes(small)));
        }
        String listed = ok(pw, "ls", "-R", "--type", "tcrypt", vc.toString()).out();
        assertEquals("Documents/\nDocuments/report.pdf\n", listed);
        Path here = Files.createDirectory(dir.resolve("vc-get"));
        ok(pw, "get", "--type", "tcrypt", vc.toString(), "/Documents/report.pdf", here.toString());
        assertArrayEquals(Files.readAllBytes(in.resolve("report.pdf")), Files.readAllBytes(here.resolve("report.pdf")));
        assertEquals(Files.getLastModifiedTime(in.resolve("report.pdf")),
                Files.getLastModifiedTime(here.resolve("report.pdf")));
        String fs2 = ok(pw, "fs", "--type", "tcrypt", "-h", "sha512", vc.toString()).out();
        assertTrue(fs2.contains("REPORTS") && fs2.contains("0BAD-CAFE"), fs2);
    }

    /**
     * An NTFS that mkntfs made and ntfs-3g filled through a FUSE mount: a named stream (ntfs-3g's
     * user.* extended attributes), a hard link and a symbolic link, through {@code ls --streams},
     * {@code cat FILE:STREAM} and {@code get}, which makes the link a link.
     */
    @Test
    void ntfsStreamsAndLinksThroughTheVerbs() throws Exception {
        Tools.assumeTool("mkntfs", "ntfs-3g", "python3");
        Tools.assumeFuse();
        Path img = Tools.sparse(dir.resolve("ntfs.img"), 24L << 20);
        Tools.ok("mkntfs", "-F", "-f", "-q", "-L", "Streams", img.toString());
        Path mnt = Files.createDirectory(dir.resolve("ntfs-mnt"));
        Tools.ok("ntfs-3g", img.toString(), mnt.toString());
        try {
            Files.writeString(mnt.resolve("main.txt"), "the main stream\n");
            Tools.ok("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'user.notes', b'a named stream')",
                    mnt.resolve("main.txt").toString());
            Files.createLink(mnt.resolve("hard.txt"), mnt.resolve("main.txt"));
            Files.createSymbolicLink(mnt.resolve("soft"), Path.of("main.txt"));
        } finally {
            Tools.ok("umount", mnt.toString());
        }
        String i = img.toString();
        // a hard link is the same file: its streams too
        assertEquals("hard.txt\nhard.txt:notes\nmain.txt\nmain.txt:notes\nsoft\n", ok(null, "ls", "--streams", i).out());
        assertEquals("a named stream", ok(null, "cat", i, "/main.txt:notes").out());
        assertEquals("the main stream\n", ok(null, "cat", i, "/hard.txt").out());
        assertEquals("the main stream\n", ok(null, "cat", i, "/soft").out());
        assertTrue(ok(null, "ls", "-l", i).out().contains(" soft -> main.txt\n"));
        Path dest = Files.createDirectory(dir.resolve("ntfs-get"));
        ok(null, "get", i, "/", dest.toString());
        assertEquals(Path.of("main.txt"), Files.readSymbolicLink(dest.resolve("soft")));
        assertEquals("the main stream\n", Files.readString(dest.resolve("hard.txt")));
    }

    private static void splice(Path disk, Path part, long at) throws IOException {
        try (FileChannel f = FileChannel.open(disk, StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.wrap(Files.readAllBytes(part)), at);
        }
    }

    /**
     * Crafted FATs: a long name {@code ..} (its checksum still right), which {@code get} must not
     * turn into a way out of DEST; and a folder whose cluster is its parent's, which {@code ls -R}
     * and {@code get} must end with one line rather than walk for ever.
     */
    @Test
    void craftedNamesAndLoopsStayInsideDest() throws Exception {
        Path img = dir.resolve("crafted.img");
        Tools.ok("mkfs.fat", "-F", "16", "-C", img.toString(), "16384");
        Path in = Files.createDirectories(dir.resolve("crafted-src"));
        write(in.resolve("ab cd.txt"), "escape?\n".getBytes(StandardCharsets.UTF_8), 0);
        write(in.resolve("a/b/leaf.txt"), "leaf\n".getBytes(StandardCharsets.UTF_8), 1);
        mcopy(img, in);
        byte[] b = Files.readAllBytes(img);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int bps = bb.getShort(11) & 0xffff, spc = b[13] & 0xff, reserved = bb.getShort(14) & 0xffff;
        int fats = b[16] & 0xff, rootEntries = bb.getShort(17) & 0xffff, fatSize = bb.getShort(22) & 0xffff;
        int root = (reserved + fats * fatSize) * bps;
        int data = root + rootEntries * 32;
        int lfn = -1, aAt = -1;
        for (int e = root; e < data; e += 32) {
            if (b[e] == 0) {
                break;
            }
            if ((b[e + 11] & 0x3f) == 0x0f && lfn < 0) {
                lfn = e;
            }
            if (b[e] == 'A' && b[e + 1] == ' ' && (b[e + 11] & 0x10) != 0) {
                aAt = e;
            }
        }
        assertTrue(lfn >= 0 && aAt >= 0, "mcopy wrote a long name and the folder A");
        // the long name becomes "..": two dots, a terminating NUL, then 0xFFFF padding
        int[] slots = {1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30};
        for (int i = 0; i < slots.length; i++) {
            int c = i < 2 ? '.' : i == 2 ? 0 : 0xffff;
            bb.putShort(lfn + slots[i], (short) c);
        }
        // folder b (in a) gets a's first cluster: a holds itself through b
        int aCluster = bb.getShort(aAt + 26) & 0xffff;
        int aData = data + (aCluster - 2) * spc * bps;
        int bAt = -1;
        for (int e = aData; e < aData + spc * bps; e += 32) {
            if (b[e] == 'B' && b[e + 1] == ' ' && (b[e + 11] & 0x10) != 0) {
                bAt = e;
            }
        }
        assertTrue(bAt >= 0, "mcopy wrote the folder B in A");
        bb.putShort(bAt + 26, (short) aCluster);
        Files.write(img, b);

        Path box = Files.createDirectory(dir.resolve("box"));
        Path dest = Files.createDirectory(box.resolve("dest"));
        VolumeMainAccess.Result r = VolumeMainAccess.run(null, "get", img.toString(), "/", dest.toString());
        assertEquals(1, r.rc(), r.err());
        try (Stream<Path> s = Files.list(box)) {
            assertEquals(List.of(dest), s.toList(), "nothing written beside DEST");
        }
        assertFalse(Files.exists(dir.resolve("escape?")));
        refused("Loop in the filesystem", "ls", "-R", img.toString(), "/a");
    }

    /**
     * Windows' own filesystems inside cryptsetup's BitLocker images: the To Go image's FAT16 (empty,
     * serial as blkid gives it on the opened device), and the trimmed NTFS of bitlk-aes-xts-128,
     * whose MFT ntfs-3g cannot read either: one line naming the damage, exit 1.
     */
    @Test
    void filesystemsWindowsMadeInsideBitLocker() throws Exception {
        Path images = Files.createDirectory(dir.resolve("bitlk"));
        Path togo = BitlkFiles.write("bitlk-togo-aes-xts-128", images);
        Path xts = BitlkFiles.write("bitlk-aes-xts-128", images);
        // the trimmed image keeps the boot sector (FAT16, serial 162D-C4FE as blkid reads it) but not
        // the FAT, whose first entry is no longer the media byte: mtools' mdir says "Fat error
        // detected" and exits 1, The Sleuth Kit lists nothing
        String fs = ok("anaconda\n", "fs", togo.toString()).out();
        assertTrue(fs.contains("FAT16"), fs);
        VolumeMainAccess.Result t = VolumeMainAccess.run("anaconda\n", "ls", togo.toString());
        assertEquals(1, t.rc(), t.err());
        assertTrue(t.err().contains("FAT16") && t.out().isEmpty(), t.err() + t.out());
        String nt = ok("anaconda\n", "fs", xts.toString()).out();
        assertTrue(nt.contains("NTFS") || nt.contains("MFT"), nt);
        VolumeMainAccess.Result r = VolumeMainAccess.run("anaconda\n", "ls", xts.toString());
        assertEquals(1, r.rc(), r.err());
        assertTrue(r.err().contains("MFT") && r.err().lines().filter(l -> !l.startsWith("Found a BitLocker")).count()
                == 1, r.err());
    }
}
