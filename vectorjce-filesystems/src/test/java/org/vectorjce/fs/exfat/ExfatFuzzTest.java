package org.vectorjce.fs.exfat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vectorjce.fs.testing.MemoryDevice;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the exFAT driver with Jazzer: every input must end in a walked volume
 * or an {@link IOException} (a {@link org.vectorjce.fs.CorruptFileSystemException} naming what is
 * wrong) — never another exception, a hang or a huge allocation.
 *
 * <p>The image is {@code fuzz-template.img.gz}: a 1 MiB volume made by {@code mkfs.exfat -b 4K -c
 * 512 -L FUZZ}, filled through exfat-fuse (a folder, a non-ASCII name, an empty file, a file
 * written into the holes left by deleted ones, deleted entries; the root folder is the chain 15,
 * 26, 31 and one entry set straddles clusters 26 and 31). The input replaces, in this order (so that
 * short inputs, which the fuzzer tries most, reach the entries first): the boot sector's fields
 * (bytes 64-119; the harness then recomputes the main boot checksum so that they are believed),
 * the root folder's first cluster, the FAT's first 256 bytes (clusters 0-63), the root folder's
 * other two clusters, the sub-folder's cluster, the allocation bitmap's cluster and the up-case
 * table's clusters. The harness then opens the volume, lists every folder (at most 2000 entries and
 * 8 levels, since a damaged folder may point back at its parent), looks each name up, and reads up
 * to 64 KiB of each file.
 *
 * <p>In {@code mvn test} this replays the seeds in
 * {@code src/test/resources/org/vectorjce/fs/exfat/ExfatFuzzTestInputs/image/} (the template's own
 * bytes, whole and in part). A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=ExfatFuzzTest
 * </pre>
 */
class ExfatFuzzTest {
    /** Where the input goes: {offset, length} in the template, in input order (see the class comment). */
    private static final int[][] SEGMENTS = {{64, 56}, {27136, 512}, {12288, 256}, {32768, 512}, {35328, 512},
        {27648, 512}, {20480, 512}, {20992, 6144}};
    private static final int MAX_INPUT = 9016;
    private static final byte[] TEMPLATE = template();
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

    /** The harness's unpatched image opens, and lists what The Sleuth Kit's fls lists in the template. */
    @Test
    void theTemplateWalksWhole() throws IOException {
        java.util.Set<String> names = new java.util.TreeSet<>();
        try (DiskFs fs = new ExfatDriver().open(new MemoryDevice(TEMPLATE.clone()), FsOptions.defaults())) {
            assertEquals("FUZZ", fs.info().label());
            try (NodeStream s = fs.list(fs.root())) {
                for (Node n = s.next(); n != null; n = s.next()) {
                    names.add(n.name());
                }
            }
            assertEquals("x.txt", fs.list(fs.lookup(fs.root(), "D")).next().name());
        }
        // fls -r -p on the template: the allocated entries (p1, p3, p5 were deleted)
        assertEquals(java.util.Set.of("a.txt", "b.bin", "d", "long name ünï.txt", "empty", "p0", "frag.bin", "p2",
                "p4"), names);
    }

    @FuzzTest(maxDuration = "30s")
    void image(byte[] data) {
        if (data.length > MAX_INPUT) {
            return;
        }
        byte[] img = TEMPLATE.clone();
        int from = 0;
        for (int[] segment : SEGMENTS) {
            int n = Math.min(segment[1], data.length - from);
            if (n <= 0) {
                break;
            }
            System.arraycopy(data, from, img, segment[0], n);
            from += n;
        }
        fixBootChecksum(img);
        MemoryDevice device = new MemoryDevice(img);
        ExfatDriver driver = new ExfatDriver();
        try {
            if (!driver.probe(device)) {
                return;
            }
            try (DiskFs fs = driver.open(device, FsOptions.defaults())) {
                fs.info();
                walk(fs, fs.root(), 0, new int[] {2000});
            }
        } catch (IOException expected) {
            // a refusal that names the problem: fine
        }
    }

    private static void walk(DiskFs fs, Node dir, int depth, int[] budget) throws IOException {
        if (depth > 8) {
            return;
        }
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null && budget[0]-- > 0; n = s.next()) {
                if (n.name().contains("/") || n.name().indexOf('\0') >= 0 || n.name().equals(".")
                        || n.name().equals("..")) {
                    throw new AssertionError("unsanitized name " + n.name());
                }
                fs.lookup(dir, n.name());
                if (n.isDirectory()) {
                    walk(fs, n, depth + 1, budget);
                } else {
                    Content c = fs.open(n, null);
                    ByteBuffer b = ByteBuffer.allocate(4096);
                    for (long pos = 0; pos < Math.min(c.size(), 64 << 10); pos += 4096) {
                        b.clear();
                        c.read(b, pos);
                    }
                    b.clear();
                    if (c.size() > 0) {
                        c.read(b, c.size() - 1);
                    }
                }
            }
        }
    }

    /** Section 3.4's checksum over sectors 0-10 of the main boot region, written to sector 11. */
    private static void fixBootChecksum(byte[] img) {
        int shift = img[108];
        int sector = shift >= 9 && shift <= 12 ? 1 << shift : 512;
        int sum = 0;
        for (int i = 0; i < 11 * sector; i++) {
            if (i != 106 && i != 107 && i != 112) {
                sum = ((sum & 1) != 0 ? 0x80000000 : 0) + (sum >>> 1) + (img[i] & 0xff);
            }
        }
        ByteBuffer b = ExfatImages.le(img);
        for (int i = 11 * sector; i < 12 * sector; i += 4) {
            b.putInt(i, sum);
        }
    }

    private static byte[] template() {
        try (InputStream in = new GZIPInputStream(ExfatFuzzTest.class.getResourceAsStream("fuzz-template.img.gz"))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
