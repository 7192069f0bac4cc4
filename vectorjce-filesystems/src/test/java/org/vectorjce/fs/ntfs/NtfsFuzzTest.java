package org.vectorjce.fs.ntfs;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
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

/**
 * Coverage-guided fuzzing of the NTFS driver with Jazzer: every input must end in a walked volume
 * or an {@link IOException} (a {@link org.vectorjce.fs.CorruptFileSystemException} naming the
 * damage), never another exception, a hang or a huge allocation.
 *
 * <p>The volume is {@code fuzz-seed.img.gz}: 2 MiB made by mkntfs and filled through ntfs-3g by
 * {@code make-fuzz-seed.sh} (nested folders, a 40-entry folder with index blocks, a compressed, a
 * sparse and a hard-linked file whose 40 long names make an attribute list, a named stream, an
 * Interix link), kept with its $UpCase clusters zeroed to stay small: the harness writes an ASCII
 * table back there. Input byte 0 picks where the rest lands (0: the boot sector; 1: MFT record
 * {@code byte 1}, at 4 × {@code byte 2} into it; 2: the {@code byte 1}-th INDX block, at 16 ×
 * {@code byte 2}; 3: anywhere, at 32 × the 16-bit {@code bytes 1-2}) so that mutations hit the
 * structures the driver parses. The regression form ({@code mvn test}) replays the seeds in
 * {@code NtfsFuzzTestInputs/volume/}. A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=NtfsFuzzTest
 * </pre>
 */
class NtfsFuzzTest {
    private static final int UPCASE_AT = 0x89000;
    private static final int MFT_AT = 0x4000;
    private static final int RECORD = 1024;
    private static boolean hooksTurnedOff;
    private static byte[] image;
    private static int[] indx;

    @BeforeAll
    static void noHooksInRegressionMode() throws IOException {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
        try (InputStream in = new GZIPInputStream(NtfsFuzzTest.class.getResourceAsStream("fuzz-seed.img.gz"))) {
            image = in.readAllBytes();
        }
        for (int c = 0; c < 65536; c++) {
            char u = c >= 'a' && c <= 'z' ? (char) (c - 32) : (char) c;
            image[UPCASE_AT + 2 * c] = (byte) u;
            image[UPCASE_AT + 2 * c + 1] = (byte) (u >>> 8);
        }
        List<Integer> blocks = new ArrayList<>();
        for (int at = 0; at + 4 <= image.length; at += 4096) {
            if (image[at] == 'I' && image[at + 1] == 'N' && image[at + 2] == 'D' && image[at + 3] == 'X') {
                blocks.add(at);
            }
        }
        indx = blocks.stream().mapToInt(Integer::intValue).toArray();
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    /** The harness's volume, undamaged, opens and walks: the fuzz inputs start from a working volume. */
    @org.junit.jupiter.api.Test
    void seedVolumeWalks() throws Exception {
        try (Device d = new MemoryDevice(image.clone()); DiskFs fs = new NtfsDriver().open(d, FsOptions.defaults())) {
            int[] count = {0};
            walk(fs, fs.root(), 0, count);
            org.junit.jupiter.api.Assertions.assertEquals(89, count[0], "fls -r lists 89 names (40 + 1 in the folders, 48 in the root)");
        }
    }

    @FuzzTest(maxDuration = "30s")
    void volume(byte[] data) throws Exception {
        if (data.length < 3 || data.length > 8192) {
            return;
        }
        byte[] img = image.clone();
        int a = data[1] & 0xff;
        int b = data[2] & 0xff;
        long at = switch (data[0] & 3) {
            case 0 -> b;
            case 1 -> MFT_AT + (long) a * RECORD + 4L * b;
            case 2 -> indx.length == 0 ? 0 : indx[a % indx.length] + 16L * b;
            default -> 32L * (a | b << 8);
        };
        int n = (int) Math.max(0, Math.min(data.length - 3, img.length - at));
        System.arraycopy(data, 3, img, (int) at, n);
        try (Device d = new MemoryDevice(img)) {
            NtfsDriver driver = new NtfsDriver();
            if (!driver.probe(d)) {
                return;
            }
            try (DiskFs fs = driver.open(d, FsOptions.defaults())) {
                fs.info();
                walk(fs, fs.root(), 0, new int[] {0});
            }
        } catch (IOException expected) {
            // a refusal that names the damage: fine
        }
    }

    /** Lists, looks up and reads everything, with bounds of its own so that only the driver's bounds matter. */
    private static void walk(DiskFs fs, Node dir, int depth, int[] count) throws IOException {
        if (depth > 8) {
            return;
        }
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null && count[0]++ < 2000; n = s.next()) {
                fs.lookup(dir, n.name());
                if (n.isDirectory()) {
                    walk(fs, n, depth + 1, count);
                } else if (n.kind() == Kind.SYMLINK) {
                    fs.readLink(n);
                } else {
                    read(fs.open(n, null));
                    for (DiskFs.StreamInfo i : fs.streams(n)) {
                        read(fs.open(n, i.name()));
                    }
                }
            }
        }
    }

    private static void read(Content c) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(65536);
        for (long pos = 0; pos < Math.min(c.size(), 1 << 20); pos += buf.capacity()) {
            buf.clear();
            c.read(buf, pos);
        }
    }
}
