package org.vectorjce.volumes.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.util.zip.CRC32C;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.fvault2.Fvault2FilesAccess;
import org.vectorjce.volumes.fvault2.Fvault2Info;
import org.vectorjce.volumes.fvault2.Fvault2Volume;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the FileVault 2 metadata parser (the Core Storage blocks and their
 * XML key bag) with Jazzer: every input must end in the volume's information (and its
 * fvault2Dump text) or a {@link VolumeException} — never another exception, a hang or a huge
 * allocation. Only the metadata is parsed, and the payload opened with a volume key when it fits:
 * no PBKDF2 runs.
 *
 * <p>Input layout (so that mutations reach the blocks' fields and XML, not the checksum or the
 * cipher): the input is the plaintext of up to four 8192-byte encrypted metadata blocks (a short
 * last block is padded with zeros). The harness writes a Core Storage header (version 1, block
 * size 4096, disk label at block 1, a fixed metadata key) and a disk label whose volume groups
 * descriptor names the blocks at block 4, sets each block's CRC-32C, encrypts each with AES-XTS
 * (the tweak its index), and gives the image 1 MiB more of zeros.
 *
 * <p>In {@code mvn test} this replays the committed corpus in
 * {@code src/test/resources/org/vectorjce/volumes/fuzz/Fvault2MetadataFuzzTestInputs/metadata/}
 * (the four decrypted metadata blocks of cryptsetup's image {@code small}) and {@code header/}
 * (its header, disk label and volume groups descriptor, for {@link #header}). A session per
 * target, from the project root (Jazzer fuzzes one target per run):
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-volumes test -Dtest='Fvault2MetadataFuzzTest#metadata' -Djazzer.max_duration=10m
 * JAZZER_FUZZ=1 ./mvnw -pl vectorjce-volumes test -Dtest='Fvault2MetadataFuzzTest#header' -Djazzer.max_duration=10m
 * </pre>
 */
class Fvault2MetadataFuzzTest {
    private static final int BLOCK = 8192, MD_AT = 4 * 4096;
    private static final byte[] KEY = new byte[32];
    private static boolean hooksTurnedOff;

    static {
        for (int i = 0; i < 32; i++) {
            KEY[i] = (byte) (17 * i + 3);   // two different halves: a key XTS takes
        }
    }

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

    @FuzzTest(maxDuration = "5m")
    void metadata(byte[] data) throws Exception {
        if (data.length < 64 || data.length > 4 * BLOCK) {
            return;
        }
        int blocks = (data.length + BLOCK - 1) / BLOCK;
        byte[] img = new byte[MD_AT + blocks * BLOCK];
        ByteBuffer h = ByteBuffer.wrap(img).order(ByteOrder.LITTLE_ENDIAN);
        h.putShort(8, (short) 1).put(88, (byte) 'C').put(89, (byte) 'S').putInt(96, 4096).putLong(104, 1)
                .putInt(168, 16);
        System.arraycopy(KEY, 0, img, 176, 16);
        System.arraycopy(KEY, 16, img, 304, 16);   // the physical volume UUID is the key's second half
        crc(img, 0, 512);
        h.putShort(4096 + 10, (short) 0x0011).putInt(4096 + 220, BLOCK);
        crc(img, 4096, BLOCK);
        h.putLong(4096 + BLOCK + 8, blocks).putLong(4096 + BLOCK + 32, 4);
        Cipher xts = Cipher.getInstance("AES/XTS/NoPadding", new VectorJceProvider());
        for (int i = 0; i < blocks; i++) {
            byte[] b = new byte[BLOCK];
            System.arraycopy(data, i * BLOCK, b, 0, Math.min(BLOCK, data.length - i * BLOCK));
            crc(b, 0, BLOCK);
            byte[] tweak = new byte[16];
            tweak[0] = (byte) i;
            xts.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"), new IvParameterSpec(tweak));
            xts.doFinal(b, 0, BLOCK, img, MD_AT + i * BLOCK);
        }
        SeekableByteChannel c = new LuksHeaderFuzzTest.SparseChannel(img, img.length + (1L << 20));
        try {
            Fvault2Info info = Fvault2Volume.info(c, "fuzz");
            info.dump("fuzz");
            if (info.activationProblem() == null) {
                try (Fvault2Volume v = Fvault2Volume.of(c).volumeKey(KEY).open()) {
                    v.payload().read(ByteBuffer.allocate(4096));
                }
            }
        } catch (VolumeException expected) {
            // a refusal that names the problem: fine
        }
    }

    /**
     * The second target: the Core Storage header (512 bytes), the disk label block (8192) and the
     * volume groups descriptor (40) of cryptsetup's image {@code small}, mutated, their CRC-32Cs
     * set by the harness, over the rest of the real image (whose metadata decrypts only while the
     * header's key and UUID are unchanged). Seeded with {@code small}'s own bytes.
     */
    @FuzzTest(maxDuration = "5m")
    void header(byte[] data) throws Exception {
        if (data.length != 512 + BLOCK + 40) {
            return;
        }
        byte[] b = data.clone();
        crc(b, 0, 512);
        crc(b, 512, BLOCK);
        SparseImages.Image im = Fvault2FilesAccess.smallImage();
        im.put(0, java.util.Arrays.copyOf(b, 512));
        im.put(4096, java.util.Arrays.copyOfRange(b, 512, b.length));
        try {
            Fvault2Volume.info(im.channel(), "fuzz").dump("fuzz");
        } catch (VolumeException expected) {
            // a refusal that names the problem: fine
        }
    }

    /** cryptsetup's CRC-32C of {@code b[off + 8, off + len)} at {@code off}, seed 0xffffffff at {@code off + 4}. */
    private static void crc(byte[] b, int off, int len) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(off + 4, -1);
        CRC32C c = new CRC32C();
        c.update(b, off + 8, len - 8);
        bb.putInt(off, (int) ~c.getValue());
    }
}
