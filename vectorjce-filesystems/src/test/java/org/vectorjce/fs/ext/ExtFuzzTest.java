package org.vectorjce.fs.ext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.device.Device;
import org.vectorjce.fs.testing.MemoryDevice;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the ext driver with Jazzer: every input must open and walk to the end
 * (every folder listed and looked up, every file read, every link read) or end in an
 * {@link IOException} — never another exception, a hang or a huge allocation.
 *
 * <p>Input layout: the input (at most 64 KiB) is the first bytes of a 64 KiB device whose other
 * bytes are zeros: a whole tiny filesystem (1 KiB blocks, 32 inodes). So that mutations of a
 * metadata_csum image get past the superblock, the superblock's crc32c is recomputed when the input
 * holds it (the inodes' and blocks' checksums stay as they are: the seeds without metadata_csum
 * reach the structures behind them).
 *
 * <p>In {@code mvn test} this replays the committed seeds in
 * {@code src/test/resources/org/vectorjce/fs/ext/ExtFuzzTestInputs/image/}: images written by
 * {@code mke2fs -b 1024 -N 32 -d} (trailing zeros trimmed) of a small tree (files, folders, a fast
 * and a slow symlink, a hard link) as ext4 with and without metadata_csum, ext4 with inline_data,
 * ext2 and ext3 (block maps), ext4 with block maps and meta_bg, and a 50-entry folder indexed by
 * {@code e2fsck -fD} (htree) with and without metadata_csum. A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=ExtFuzzTest
 * </pre>
 */
class ExtFuzzTest {
    private static final int SIZE = 64 << 10;
    private static final int MAX_NODES = 2000;
    private static boolean hooksTurnedOff;

    @BeforeAll
    static void noHooksInRegressionMode() {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    @FuzzTest(maxDuration = "30s")
    void image(byte[] data) throws Exception {
        if (data.length > SIZE) {
            return;
        }
        byte[] head = java.util.Arrays.copyOf(data, SIZE);
        if (data.length >= 2048) {
            CRC32C crc = new CRC32C();
            crc.update(head, 1024, 0x3FC);
            ByteBuffer.wrap(head).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(1024 + 0x3FC, ~(int) crc.getValue());
        }
        Device device = new MemoryDevice(head);
        ExtDriver driver = new ExtDriver();
        try {
            if (!driver.probe(device)) {
                return;
            }
            try (DiskFs fs = driver.open(device, FsOptions.defaults())) {
                fs.info();
                walk(fs, fs.root(), new int[] {0}, 0);
            }
        } catch (IOException expected) {
            // a refusal that names the problem: fine
        }
    }

    private static void walk(DiskFs fs, Node dir, int[] seen, int depth) throws IOException {
        if (depth > 8) {
            return;
        }
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null && seen[0]++ < MAX_NODES; n = s.next()) {
                if (n.name().isEmpty() || n.name().indexOf('/') >= 0 || n.name().indexOf('\0') >= 0
                        || n.name().equals(".") || n.name().equals("..")) {
                    throw new AssertionError("bad name \"" + n.name() + "\"");
                }
                fs.lookup(dir, n.name());
                if (n.kind() == Kind.DIRECTORY) {
                    walk(fs, n, seen, depth + 1);
                } else if (n.kind() == Kind.SYMLINK) {
                    fs.readLink(n);
                } else {
                    read(fs.open(n, null));
                }
            }
        }
    }

    /** Reads the first 256 KiB and the last bytes (a hostile size may claim terabytes of holes). */
    private static void read(Content c) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8192);
        for (long at = 0; at < Math.min(c.size(), 256 << 10); at += b.position()) {
            b.clear();
            if (c.read(b, at) <= 0) {
                throw new AssertionError("no progress at " + at + " of " + c.size());
            }
        }
        if (c.size() > 0) {
            b.clear();
            c.read(b, c.size() - 1);
        }
    }
}
