package org.vectorjce.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.fs.DiskFileSystems;
import org.vectorjce.fs.testing.Tools;

/**
 * A source folder (nested folders, relative and absolute symbolic links, a hard link, an empty
 * file, a 3 MiB file, non-ASCII names, several modes and owners, old times with nanoseconds, a
 * folder of 1,500 entries) made into an ext4 image by {@code mkfs.ext4 -d} and a FAT32 image by
 * {@code mkfs.fat} and {@code mcopy -s -m}, read by vectorjce-filesystems and mounted; then the
 * system's own tools judge the mount against the source: {@code cp -a} of the mount equals the
 * source ({@code diff -r --no-dereference}), {@code stat} of every path, {@code find},
 * {@code grep -r}, {@code readlink}; {@code touch}, {@code rm}, {@code mkdir} fail with "Read-only
 * file system"; {@code fusermount3 -u} ends the mount and its threads. Skips, naming it, where
 * libfuse3, fusermount3, /dev/fuse or a tool is missing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileTreeMountTest {
    static final String MARKER = "needle-50-in-the-haystack";
    static final String OLD = "2001-02-03 04:05:06";
    static final Map<String, String> UTC = Map.of("TZ", "UTC", "LC_ALL", "C.UTF-8");

    @TempDir
    static Path shared;
    static Path src, ext4, fatSrc, fat;
    static byte[] big;

    @TempDir
    Path tmp;
    FileSystem fs;
    FileTreeMount mount;
    Set<Thread> before;

    @BeforeAll
    static void images() throws Exception {
        String problem = FileTreeMount.problem();
        Assumptions.assumeTrue(problem == null, () -> "FUSE is not usable here: " + problem);
        Tools.assumeTool("mkfs.ext4", "debugfs", "findmnt", "cp", "diff", "find", "stat", "grep", "readlink", "touch",
                "fusermount3");
        src = Files.createDirectory(shared.resolve("src"));
        big = new byte[3 << 20];
        new Random(50).nextBytes(big);
        sh(src, """
                mkdir -p docs/nested/deep 'Grüße' links many private
                printf 'hello\\n%s\\nbye\\n' "$MARKER" > docs/readme.txt
                echo leaf > docs/nested/deep/leaf.txt
                : > empty.txt
                echo 'one inode, two names' > hard1.txt
                ln hard1.txt docs/hard2.txt
                echo 'café' > 'Grüße/naïve café.txt'
                echo 'nihongo' > '日本語.txt'
                printf '#!/bin/sh\\necho hi\\n' > script.sh && chmod 0755 script.sh
                echo secret > private/secret.txt && chmod 0600 private/secret.txt && chmod 0750 private
                echo frozen > ro.txt && chmod 0444 ro.txt
                chown 1234:5678 docs/readme.txt
                ln -s ../docs/readme.txt links/relative
                ln -s /etc/hostname links/absolute
                ln -s ../docs links/folder
                ln -s 'no such file' links/dangling
                for i in $(seq 1 1500); do : > many/entry-$i; done
                """, Map.of("MARKER", MARKER));
        Files.write(src.resolve("big.bin"), big);
        // old times with nanoseconds, links' own times, folders last (their entries changed them)
        sh(src, """
                find . -mindepth 1 ! -type d -exec touch -h -d "$OLD" {} +
                touch -h -d '1999-12-31 23:59:58' links/relative
                touch -d "$OLD.123456789" hard1.txt
                find . -mindepth 1 -type d -exec touch -d "$OLD" {} +
                """, Map.of("OLD", OLD));
        ext4 = shared.resolve("ext4.img");
        Tools.ok(UTC, "mkfs.ext4", "-q", "-F", "-I", "256", "-b", "4096", "-d", src.toString(), ext4.toString(), "24M");
        // mkfs.ext4 -d keeps whole seconds; debugfs sets hard1.txt's nanoseconds as the source has them
        // (i_mtime_extra: nanoseconds << 2, the low two bits extend the epoch; ext4 docs, "Inode Timestamps")
        Tools.ok("debugfs", "-w", "-R", "set_inode_field /hard1.txt mtime_extra " + (123456789L << 2), ext4.toString());
    }

    @BeforeEach
    void threads() {
        before = live();
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            if (mount != null) {
                Path d = mount.directory();
                mount.close();
                assertTrue(FuseSession.fuseMounts(d).isEmpty(), "still in the mount table after close()");
                Set<Thread> after = live();
                after.removeAll(before);
                                assertEquals("", after.stream().filter(Thread::isAlive).map(Thread::getName)
                        .filter(FileTreeMountTest::notOurs).collect(Collectors.joining(", ")),
                        "threads left after close()");
            }
        } finally {
            if (mount != null && !FuseSession.fuseMounts(mount.directory()).isEmpty()) {
                new ProcessBuilder("fusermount3", "-u", "-z", mount.directory().toString()).inheritIO().start()
                        .waitFor(10, TimeUnit.SECONDS); // the test failed in between: leave no mount behind
            }
            if (fs != null) {
                fs.close();
            }
        }
    }

    private Path mountExt4() throws IOException {
        return mountExt4(FileTreeMount.Options.defaults());
    }

    private Path mountExt4(FileTreeMount.Options options) throws IOException {
        fs = DiskFileSystems.open(ext4, Map.of());
        Path dir = Files.createDirectory(tmp.resolve("mnt"));
        mount = FileTreeMount.mount(fs.getPath("/"), dir, options.source("ext4 image, test"));
        return mount.directory();
    }

    @Test
    void cpOfTheMountIsTheSource() throws Exception {
        Path mnt = mountExt4();
        Path out = tmp.resolve("out");
        Tools.ok(UTC, "cp", "-a", mnt + "/.", out.toString());
        Tools.Run diff = Tools.run(UTC, "diff", "-r", "--no-dereference", "-x", "lost+found", src.toString(),
                out.toString());
        assertEquals(0, diff.exit(), diff.out() + diff.stderr());
        // cp -a kept modes, owners, times (nanoseconds) and the hard link: stat of each copy is the source's
        assertSameLines(stats(src), stats(out));
        assertEquals(inode(out.resolve("hard1.txt")), inode(out.resolve("docs/hard2.txt")), "cp -a kept the hard link");
    }

    @Test
    void statFindGrepAndReadlinkSeeTheSource() throws Exception {
        Path mnt = mountExt4();
        assertTrue(mount.mounted());
        assertTrue(live().stream().anyMatch(t -> t.getName().startsWith("jfuse-main")), "jfuse's loop thread runs");
        // the mount table: the source named (its comma and space made safe), read-only
        String[] row = Tools.ok("findmnt", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "--mountpoint", mnt.toString())
                .out().trim().split("\\s+");
        assertEquals("ext4_image__test", row[0]);
        assertEquals("fuse.vectorjce", row[1]);
        assertTrue(row[2].startsWith("ro,"), row[2]);
        // every path's size, times (nanoseconds), mode, owner, type, and link count for all but folders
        assertSameLines(stats(src), stats(mnt));
        assertSameLines(find(src), find(mnt));
        Tools.Run grep = Tools.ok(UTC, "grep", "-r", "-l", MARKER, mnt.toString());
        assertEquals(mnt + "/docs/readme.txt\n", grep.out());
        assertEquals("../docs/readme.txt\n", Tools.ok("readlink", mnt + "/links/relative").out());
        assertEquals("/etc/hostname\n", Tools.ok("readlink", mnt + "/links/absolute").out());
        assertEquals("no such file\n", Tools.ok("readlink", mnt + "/links/dangling").out());
        assertTrue(Tools.ok(UTC, "cat", mnt + "/links/relative").out().contains(MARKER), "a link is followed");
        assertEquals("leaf\n", Tools.ok(UTC, "cat", mnt + "/links/folder/nested/deep/leaf.txt").out());
        // hard links: one inode; different files: different inodes
        assertTrue(mount.filesystemInodes());
        assertEquals(inode(mnt.resolve("hard1.txt")), inode(mnt.resolve("docs/hard2.txt")));
        assertNotEquals(inode(mnt.resolve("hard1.txt")), inode(mnt.resolve("empty.txt")));
        assertEquals(1502, Tools.ok(UTC, "ls", "-a", mnt + "/many").out().lines().count(), "1,500 entries, . and ..");
        // blocks as the image's inode counts them (debugfs: "Blockcount"), and statfs
        String count = Tools.ok("debugfs", "-R", "stat /big.bin", ext4.toString()).out()
                .replaceAll("(?s).*Blockcount: (\\d+).*", "$1");
        assertEquals(count + "\n", Tools.ok(UTC, "stat", "-c", "%b", mnt + "/big.bin").out());
        // the change time is the image's own (mkfs.ext4 -d sets it to when it ran), as debugfs reads it
        String ctime = Tools.ok("debugfs", "-R", "stat /hard1.txt", ext4.toString()).out()
                .replaceAll("(?s).*\\bctime: 0x([0-9a-f]+):.*", "$1");
        assertEquals(Long.parseLong(ctime, 16) + "\n", Tools.ok(UTC, "stat", "-c", "%Z", mnt + "/hard1.txt").out());
        assertTrue(Tools.ok(UTC, "stat", "-f", "-c", "%b %S", mnt.toString()).out().matches("\\d+ 4096\\n"));
    }

    /**
     * Reads from six threads at once, each through its own open file and through one shared one:
     * on this kernel (Linux 4.19 or later) without OPEN requests, each read opening the file by
     * its path, and with them, each read on the channel its open made.
     */
    @ParameterizedTest(name = "open requests: {0}")
    @ValueSource(booleans = {false, true})
    void readsAtOffsetsFromManyThreadsAreTheFile(boolean openRequests) throws Exception {
        FileTreeMount.Options o = FileTreeMount.Options.defaults();
        Path file = mountExt4(openRequests ? o.openRequests() : o).resolve("big.bin");
        assertArrayEquals(big, Files.readAllBytes(file));
        assertEquals(!openRequests, mount.opensWithoutRequests(), "the kernel offers zero-message opens");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (FileChannel shared = FileChannel.open(file, StandardOpenOption.READ)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    try (FileChannel own = FileChannel.open(file, StandardOpenOption.READ)) {
                        for (int i = 0; i < 40; i++) {
                            FileChannel f = i % 2 == 0 ? own : shared; // one open file read by all threads too
                            int len = 1 + r.nextInt(200_000);
                            int at = r.nextInt(big.length - len + 1);
                            ByteBuffer b = ByteBuffer.allocate(len);
                            while (b.hasRemaining() && f.read(b, at + b.position()) > 0) {
                                // to the end of the range
                            }
                            assertArrayEquals(Arrays.copyOfRange(big, at, at + len), b.array(),
                                    "at " + at + " len " + len);
                        }
                        assertEquals(-1, own.read(ByteBuffer.allocate(8), big.length));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void changesFailWithReadOnlyFileSystem() throws Exception {
        Path mnt = mountExt4();
        String[][] changes = {
            {"touch", mnt + "/new.txt"},
            {"touch", mnt + "/empty.txt"},
            {"rm", "-f", mnt + "/empty.txt"},
            {"mkdir", mnt + "/newdir"},
            {"rmdir", mnt + "/many"},
            {"mv", mnt + "/ro.txt", mnt + "/moved.txt"},
            {"ln", "-s", "x", mnt + "/newlink"},
            {"chmod", "777", mnt + "/script.sh"},
            {"sh", "-c", "echo x >> '" + mnt + "/empty.txt'"},
            {"truncate", "-s", "0", mnt + "/big.bin"},
        };
        for (String[] cmd : changes) {
            Tools.Run r = Tools.run(UTC, cmd);
            assertNotEquals(0, r.exit(), String.join(" ", cmd));
            assertTrue(r.stderr().contains("Read-only file system"), String.join(" ", cmd) + ": " + r.stderr());
        }
        assertSameLines(stats(src), stats(mnt));
    }

    @Test
    void fusermountEndsTheMountAndItsThreads() throws Exception {
        Path mnt = mountExt4();
        assertFalse(mount.awaitUnmount(Duration.ofMillis(300)), "mounted, so the wait times out");
        try (FileChannel open = FileChannel.open(mnt.resolve("big.bin"), StandardOpenOption.READ)) {
            open.read(ByteBuffer.allocate(100)); // a file open in the mount: fusermount3 -u still unmounts (lazily)
            Tools.Run r = Tools.run("fusermount3", "-u", "-z", mnt.toString());
            assertEquals(0, r.exit(), r.stderr());
        }
        assertTrue(mount.awaitUnmount(Duration.ofSeconds(10)));
        assertFalse(mount.mounted());
        assertTrue(FuseSession.fuseMounts(mnt).isEmpty());
        Set<Thread> after = live();
        after.removeAll(before);
        assertEquals("", after.stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(FileTreeMountTest::notOurs).collect(Collectors.joining(", ")),
                "threads left after fusermount3 -u, before close()");
        assertFalse(Files.exists(mnt.resolve("big.bin")));
    }

    @Test
    void fatTreeCopiesAsTheSource() throws Exception {
        Tools.assumeTool("mkfs.fat", "mcopy", "mattrib");
        // FAT keeps no modes, owners, links or nanoseconds: a tree of files and folders, even-second times
        Path fsrc = Files.createDirectory(tmp.resolve("fatsrc"));
        sh(fsrc, """
                mkdir -p Docs/Nested 'Grüße' Empty
                printf 'x\\n%s\\n' "$MARKER" > Docs/Nested/Notes.txt
                echo 'café' > 'Grüße/naïve café.txt'
                : > empty.txt
                head -c 2500000 /dev/urandom > big.bin
                find . -mindepth 1 -exec touch -d '2010-06-07 08:09:10' {} +
                """, Map.of("MARKER", MARKER));
        Path img = tmp.resolve("fat.img");
        Tools.ok(UTC, "mkfs.fat", "-F", "32", "-s", "1", "-C", img.toString(), "40000");
        List<String> mcopy = new ArrayList<>(List.of("mcopy", "-s", "-m", "-i", img.toString()));
        try (var s = Files.list(fsrc)) {
            s.map(Path::toString).sorted().forEach(mcopy::add);
        }
        mcopy.add("::/");
        Tools.ok(UTC, mcopy.toArray(String[]::new));
        Tools.ok(UTC, "mattrib", "-i", img.toString(), "+r", "::/empty.txt"); // DOS read-only
        fs = DiskFileSystems.open(img, Map.of());
        Path dir = Files.createDirectory(tmp.resolve("mnt"));
        mount = FileTreeMount.mount(fs.getPath("/"), dir);
        Path mnt = mount.directory();
        Path out = tmp.resolve("out");
        Tools.ok(UTC, "cp", "-a", mnt + "/.", out.toString());
        Tools.Run diff = Tools.run(UTC, "diff", "-r", fsrc.toString(), out.toString());
        assertEquals(0, diff.exit(), diff.out() + diff.stderr());
        assertSameLines(fatStats(fsrc), fatStats(out));
        assertSameLines(fatStats(fsrc), fatStats(mnt));
        assertSameLines(find(fsrc), find(mnt));
        assertEquals(mnt + "/Docs/Nested/Notes.txt\n", Tools.ok(UTC, "grep", "-r", "-l", MARKER, mnt.toString()).out());
        // no owners on FAT: the mounting user's; files 0644, folders 0755
        String uid = Tools.ok("id", "-u").out().trim();
        assertEquals("644 " + uid + "\n", Tools.ok(UTC, "stat", "-c", "%a %u", mnt + "/big.bin").out());
        assertEquals("755 " + uid + "\n", Tools.ok(UTC, "stat", "-c", "%a %u", mnt + "/Docs").out());
        assertEquals("444 " + uid + "\n", Tools.ok(UTC, "stat", "-c", "%a %u", mnt + "/empty.txt").out());
    }

    /**
     * {@code stat} of every path under {@code dir} but lost+found: name, type, mode, link count,
     * owner, mtime with nanoseconds; size only for what is not a folder (a folder's is the host
     * filesystem's own).
     */
    static List<String> stats(Path dir) throws Exception {
        String out = sh(dir, "find . -mindepth 1 ! -path './lost+found*' ! -type d"
                + " -exec stat -c '%n|%F|%s|%a|%h|%u|%g|%y' {} +;"
                + "find . -mindepth 1 ! -path './lost+found*' -type d -exec stat -c '%n|%F|%a|%h|%u|%g|%y' {} +",
                Map.of());
        return out.lines().sorted().toList();
    }

    /** Name, type, size and mtime of every file under {@code dir} (mcopy gives folders the time it ran). */
    static List<String> fatStats(Path dir) throws Exception {
        String out = sh(dir, "find . -mindepth 1 ! -type d -exec stat -c '%n|%F|%s|%Y' {} +", Map.of());
        return out.lines().sorted().toList();
    }

    static List<String> find(Path dir) throws Exception {
        List<String> s = sh(dir, "find . ! -path './lost+found*'", Map.of()).lines().sorted().toList();
        assertTrue(s.size() > 3, s.toString());
        return s;
    }

    /** Equal lists, or a failure naming at most 20 lines that only one of them has. */
    static void assertSameLines(List<String> expected, List<String> actual) {
        if (expected.equals(actual)) {
            return;
        }
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        throw new AssertionError("expected " + expected.size() + " lines, got " + actual.size() + "; only expected: "
                + missing.subList(0, Math.min(20, missing.size())) + "; only got: "
                + extra.subList(0, Math.min(20, extra.size())));
    }

    static String inode(Path p) throws Exception {
        return Tools.ok("stat", "-c", "%i", p.toString()).out();
    }

    /** Runs {@code script} with bash in {@code dir}; its output, or a failure with its stderr. */
    static String sh(Path dir, String script, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(UTC);
        all.putAll(env);
        return Tools.ok(all, "bash", "-euc", "cd \"$0\"\n" + script, dir.toString()).out();
    }

    /** Threads of the JDK and JUnit that have nothing to do with the mount: the process reaper, the timeout watcher. */
    static boolean notOurs(String thread) {
        return !thread.equals("process reaper") && !thread.equals("junit-jupiter-timeout-watcher");
    }

    private static Set<Thread> live() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }
}
