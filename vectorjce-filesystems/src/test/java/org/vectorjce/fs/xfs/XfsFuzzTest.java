package org.vectorjce.fs.xfs;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vectorjce.device.Device;
import org.vectorjce.fs.spi.Content;
import org.vectorjce.fs.spi.DiskFs;
import org.vectorjce.fs.spi.FsOptions;
import org.vectorjce.fs.spi.Kind;
import org.vectorjce.fs.spi.Node;
import org.vectorjce.fs.spi.NodeStream;

/**
 * Coverage-guided fuzzing of the XFS driver with Jazzer: every input must end in a walked
 * filesystem or an {@link IOException}, never another exception, a hang or a huge allocation.
 *
 * <p>The volume is {@code fuzz-seed.blocks.gz}: a 300 MiB image made by mkfs.xfs and filled through
 * a loop mount by {@code make-fuzz-seed.sh} (short-form, block and leaf folders, an extent B+tree
 * file with holes, fast and remote links, a hard link), kept as its non-zero 4 KiB blocks. Input
 * byte 0 picks where the rest lands (bits 0-1 = 0: the superblock, at {@code byte 2}; 1: the
 * {@code byte 1}-th inode block, at 16 × {@code byte 2}; 2: the {@code byte 1}-th metadata block
 * with a magic, at 16 × {@code byte 2}; 3: the non-zero block {@code bytes 1-2}, at 0), and bit 2
 * whether the block's CRCs are then recomputed, so that mutations reach past the checksums into the
 * parsers. The regression form ({@code mvn test}) replays the seeds in {@code XfsFuzzTestInputs/volume/}.
 * A session, from the project root:
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-device,vectorjce-filesystems test -Dtest=XfsFuzzTest
 * </pre>
 */
class XfsFuzzTest {
    private static final int BLOCK = 4096;
    private static final long SIZE = 300L << 20;
    private static boolean hooksTurnedOff;
    private static Map<Long, byte[]> blocks;
    private static long[] nonZero;
    private static long[] inodeBlocks;
    private static long[] metaBlocks;

    @BeforeAll
    static void load() throws IOException {
        String fuzzing = System.getenv("JAZZER_FUZZ");
        if ((fuzzing == null || fuzzing.isEmpty()) && System.getProperty("jazzer.hooks") == null) {
            System.setProperty("jazzer.hooks", "false");
            hooksTurnedOff = true;
        }
        blocks = new HashMap<>();
        List<Long> all = new ArrayList<>();
        List<Long> inodes = new ArrayList<>();
        List<Long> meta = new ArrayList<>();
        try (InputStream raw = XfsFuzzTest.class.getResourceAsStream("fuzz-seed.blocks.gz");
                DataInputStream in = new DataInputStream(new GZIPInputStream(raw))) {
            while (true) {
                long n;
                try {
                    n = in.readInt() & 0xffffffffL;
                } catch (EOFException end) {
                    break;
                }
                byte[] b = new byte[BLOCK];
                in.readFully(b);
                blocks.put(n, b);
                all.add(n);
                if (b[0] == 'I' && b[1] == 'N') {
                    inodes.add(n);
                } else if (n > 0 && magic(b) != null) {
                    meta.add(n);
                }
            }
        }
        nonZero = all.stream().mapToLong(Long::longValue).toArray();
        inodeBlocks = inodes.stream().mapToLong(Long::longValue).toArray();
        metaBlocks = meta.stream().mapToLong(Long::longValue).toArray();
    }

    @AfterAll
    static void restoreHooksProperty() {
        if (hooksTurnedOff) {
            System.clearProperty("jazzer.hooks");
        }
    }

    /** The byte offset of the CRC of a block with this magic, or null. */
    private static Integer magic(byte[] b) {
        String m = new String(b, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
        return switch (m) {
            case "XDB3", "XDD3", "XDF3" -> 4;
            case "BMA3" -> 64;
            case "XSLM" -> 12;
            default -> null;
        };
    }

    /** The undamaged volume opens and walks: make-fuzz-seed.sh made 475 names. */
    @Test
    void seedVolumeWalks() throws Exception {
        try (Device d = new BlockDevice(blocks); DiskFs fs = new XfsDriver().open(d, FsOptions.defaults())) {
            int[] count = {0};
            walk(fs, fs.root(), 0, count);
            Assertions.assertEquals(475, count[0]);
            Assertions.assertTrue(metaBlocks.length > 3 && inodeBlocks.length > 1);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void volume(byte[] data) throws Exception {
        if (data.length < 3 || data.length > 8192) {
            return;
        }
        int a = data[1] & 0xff;
        int b = data[2] & 0xff;
        long block;
        int at;
        switch (data[0] & 3) {
            case 0 -> {
                block = 0;
                at = b;
            }
            case 1 -> {
                block = inodeBlocks[a % inodeBlocks.length];
                at = 16 * b;
            }
            case 2 -> {
                block = metaBlocks[a % metaBlocks.length];
                at = 16 * b;
            }
            default -> {
                block = nonZero[(a | b << 8) % nonZero.length];
                at = 0;
            }
        }
        Map<Long, byte[]> img = new HashMap<>(blocks);
        byte[] patched = img.get(block).clone();
        int n = Math.max(0, Math.min(data.length - 3, BLOCK - at));
        System.arraycopy(data, 3, patched, at, n);
        if ((data[0] & 4) != 0) {
            fixCrcs(block, patched);
        }
        img.put(block, patched);
        try (Device d = new BlockDevice(img)) {
            XfsDriver driver = new XfsDriver();
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

    /** Recomputes the CRC32Cs of the structures in {@code b}: the superblock, inodes, or a block by its magic. */
    private static void fixCrcs(long block, byte[] b) {
        if (block == 0) {
            crc(b, 0, 512, 224);
        } else if (b[0] == 'I' && b[1] == 'N') {
            for (int o = 0; o < BLOCK; o += 512) {
                crc(b, o, 512, o + 100);
            }
        } else {
            Integer at = magic(b);
            if (at != null) {
                crc(b, 0, BLOCK, at);
            }
        }
    }

    private static void crc(byte[] b, int off, int len, int at) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = 0;
        }
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        long v = c.getValue();
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> 8 * i);
        }
    }

    /** Lists, looks up and reads everything, with bounds of its own so that only the driver's bounds matter. */
    private static void walk(DiskFs fs, Node dir, int depth, int[] count) throws IOException {
        if (depth > 8) {
            return;
        }
        try (NodeStream s = fs.list(dir)) {
            for (Node n = s.next(); n != null && count[0] < 3000; n = s.next()) {
                if (count[0]++ % 16 == 0) {
                    fs.lookup(dir, n.name());
                }
                if (n.isDirectory()) {
                    walk(fs, n, depth + 1, count);
                } else if (n.kind() == Kind.SYMLINK) {
                    fs.readLink(n);
                } else if (n.kind() == Kind.FILE) {
                    read(fs.open(n, null));
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

    /** A read-only 300 MiB device of zeros but for the blocks given. */
    private static final class BlockDevice implements Device {
        private final Map<Long, byte[]> blocks;

        BlockDevice(Map<Long, byte[]> blocks) {
            this.blocks = blocks;
        }

        @Override
        public long size() {
            return SIZE;
        }

        @Override
        public boolean readOnly() {
            return true;
        }

        @Override
        public int read(ByteBuffer dst, long offset) {
            if (offset < 0) {
                throw new IllegalArgumentException("negative offset");
            }
            if (offset >= SIZE) {
                return dst.hasRemaining() ? -1 : 0;
            }
            int n = (int) Math.min(dst.remaining(), SIZE - offset);
            for (int done = 0; done < n;) {
                long pos = offset + done;
                int in = (int) (pos % BLOCK);
                int k = Math.min(n - done, BLOCK - in);
                byte[] b = blocks.get(pos / BLOCK);
                if (b == null) {
                    for (int i = 0; i < k; i++) {
                        dst.put((byte) 0);
                    }
                } else {
                    dst.put(b, in, k);
                }
                done += k;
            }
            return n;
        }

        @Override
        public void write(ByteBuffer src, long offset) {
            throw new java.nio.channels.NonWritableChannelException();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
