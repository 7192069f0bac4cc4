package org.vectorjce.fs.fat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * Coverage-guided fuzzing of the FAT driver with Jazzer: every input must end in a volume that is
 * walked and read, or in an {@link IOException} (a refusal, a corrupt structure) — never another
 * exception, a hang or a huge allocation.
 *
 * <p>Input layout: records of (sector number u32 LE, byte count u16 LE, bytes) laid over a 64 MiB
 * device of zeros ({@link SparseDevice}), so that a few KiB describe a FAT32 volume whose root lies
 * past its FATs. The harness probes, opens, reads the info, walks every folder (at most 2000 nodes,
 * depth 16, each folder entered once by key), looks each name up again, and reads the first 64 KiB
 * and the last 4 KiB of every file; a name holding '/' or NUL, or "." or "..", fails the test.
 *
 * <p>In {@code mvn test} this replays the committed seeds in
 * {@code src/test/resources/org/vectorjce/fs/fat/FatFuzzTestInputs/image/}: the non-zero sectors of
 * a FAT12, a FAT16 and a FAT32 image made by mkfs.fat and filled by mcopy ({@code make-fuzz-seeds.sh}
 * beside them). A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=FatFuzzTest -Djazzer.max_duration=10m
 * </pre>
 */
class FatFuzzTest {
    private static final long DEVICE = 64L << 20;
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

    /** The seeds are real volumes: each opens as its type and walks to the file in its subfolder. */
    @Test
    void seedsAreVolumes() throws Exception {
        for (String type : new String[] {"12", "16", "32"}) {
            byte[] seed;
            try (var in = FatFuzzTest.class.getResourceAsStream("FatFuzzTestInputs/image/fat" + type)) {
                seed = in.readAllBytes();
            }
            try (DiskFs fs = new FatDriver().open(SparseDevice.of(seed, DEVICE), FsOptions.defaults())) {
                assertEquals("FAT" + type, fs.info().type());
                assertEquals("SEED", fs.info().label());
                Node f = fs.lookup(fs.lookup(fs.root(), "sub"), "GRÜSSE.TXT".replace("SS", "ß"));
                assertEquals(1, f.size());
                ByteBuffer b = ByteBuffer.allocate(1);
                fs.open(f, null).read(b, 0);
                assertEquals('y', b.get(0));
                assertEquals(1300, fs.lookup(fs.root(), "long file name.txt").size());
            }
        }
    }

    @FuzzTest(maxDuration = "30s")
    void image(byte[] data) throws Exception {
        if (data.length > 256 << 10) {
            return;
        }
        Device device = SparseDevice.of(data, DEVICE);
        FatDriver driver = new FatDriver();
        try {
            if (!driver.probe(device)) {
                return;
            }
            try (DiskFs fs = driver.open(device, FsOptions.defaults())) {
                fs.info();
                walk(fs);
            }
        } catch (IOException expected) {
            // a refusal that names the problem: fine
        }
    }

    private static void walk(DiskFs fs) throws IOException {
        record Dir(Node node, int depth) {
        }
        ArrayDeque<Dir> todo = new ArrayDeque<>();
        todo.add(new Dir(fs.root(), 0));
        Set<Long> seen = new HashSet<>();
        int nodes = 0;
        while (!todo.isEmpty() && nodes < MAX_NODES) {
            Dir d = todo.poll();
            if (!seen.add(d.node().fileKey())) {
                continue;
            }
            List<Node> children = new ArrayList<>();
            try (NodeStream s = fs.list(d.node())) {
                for (Node n = s.next(); n != null && nodes < MAX_NODES; n = s.next()) {
                    nodes++;
                    check(n);
                    children.add(n);
                }
            }
            for (Node n : children) {
                fs.lookup(d.node(), n.name());
                if (n.isDirectory()) {
                    if (d.depth() < 16) {
                        todo.add(new Dir(n, d.depth() + 1));
                    }
                } else {
                    read(fs, n);
                }
            }
        }
    }

    private static void check(Node n) {
        String name = n.name();
        if (name.indexOf('/') >= 0 || name.indexOf(0) >= 0 || name.equals(".") || name.equals("..")
                || name.isEmpty()) {
            throw new AssertionError("bad name \"" + name + "\"");
        }
    }

    private static void read(DiskFs fs, Node n) throws IOException {
        try {
            Content c = fs.open(n, null);
            ByteBuffer b = ByteBuffer.allocate(64 << 10);
            long pos = 0;
            while (b.hasRemaining() && pos < c.size()) {
                int got = c.read(b, pos);
                if (got <= 0) {
                    throw new AssertionError("read at " + pos + " of " + c.size() + " returned " + got);
                }
                pos += got;
            }
            if (c.size() > 4096) {
                c.read(ByteBuffer.allocate(4096), c.size() - 4096);
            }
        } catch (IOException e) {
            // one unreadable file; walk on
        }
    }
}
