package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;

/**
 * A TrueCrypt/VeraCrypt payload opened for writing: writes at random offsets and lengths (partial
 * units, runs over 1 MiB) leave the image exactly as {@link TcryptSynthetic}'s serial encryptor
 * (each cipher of the chain whole, the first first, through the JCA) encrypts the written
 * plaintext, the header and everything outside the payload unchanged; a volume opened without
 * {@code readWrite()} refuses writes.
 */
class TcryptWriteTest {
    private static final long SEED = 11, PAYLOAD = 3L << 20;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"aes", "serpent-twofish-aes", "kuznyechik-camellia"})
    void writesAreWhatTheSerialEncryptorWrites(String chainName) throws Exception {
        byte[] pw = "write me".getBytes(StandardCharsets.UTF_8);
        Random r = new Random(chainName.hashCode());
        byte[] model = new byte[(int) PAYLOAD];
        r.nextBytes(model);
        Path f = tmp.resolve(chainName + ".img");
        TcryptSynthetic.write(f, chainName, pw, PAYLOAD, model, false, SEED);
        byte[] before = Files.readAllBytes(f);

        try (Volume v = Volumes.open(f).type(VolumeFormat.TCRYPT).passphrase(pw).readWrite().open()) {
            assertFalse(v.readOnly());
            SeekableByteChannel p = v.payload();
            for (int i = 0; i < 40; i++) {
                int len = i == 0 ? (3 << 19) + 77 : 1 + r.nextInt(i % 2 == 0 ? 3000 : 70000);
                int at = r.nextInt((int) PAYLOAD - len);
                byte[] w = new byte[len];
                r.nextBytes(w);
                p.position(at);
                assertEquals(len, p.write(ByteBuffer.wrap(w)));
                System.arraycopy(w, 0, model, at, len);
            }
            p.position(PAYLOAD - 5);
            assertThrows(IOException.class, () -> p.write(ByteBuffer.allocate(6)), "past the payload's end");
            v.flush();
            // another channel of the same volume reads what this one wrote
            ByteBuffer all = ByteBuffer.allocate((int) PAYLOAD);
            v.payload().read(all);
            assertArrayEquals(model, all.array());
        }

        byte[] after = Files.readAllBytes(f);
        int start = (int) TcryptSynthetic.DATA_OFFSET;
        assertArrayEquals(Arrays.copyOfRange(before, 0, start), Arrays.copyOfRange(after, 0, start), "the header");
        assertArrayEquals(Arrays.copyOfRange(before, start + (int) PAYLOAD, before.length),
                Arrays.copyOfRange(after, start + (int) PAYLOAD, after.length), "after the payload");
        Chain chain = Chain.ROWS.stream().filter(c -> c.mode() == Chain.Mode.XTS && c.name().equals(chainName))
                .findFirst().orElseThrow();
        Random keys = new Random(SEED); // TcryptSynthetic's: the salt, then the key area
        keys.nextBytes(new byte[64]);
        byte[] area = new byte[TcryptHeader.KEYS_LEN];
        keys.nextBytes(area);
        byte[] expected = model.clone();
        TcryptSynthetic.encrypt(chain, area, expected, 0, expected.length, TcryptSynthetic.DATA_OFFSET / 512);
        assertTrue(Arrays.equals(expected, Arrays.copyOfRange(after, start, start + (int) PAYLOAD)),
                "the payload is the serial encryption of what was written");

        try (Volume v = Volumes.open(f).type(VolumeFormat.TCRYPT).passphrase(pw).open()) {
            assertTrue(v.readOnly());
            SeekableByteChannel p = v.payload();
            assertThrows(NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(1)));
            ByteBuffer all = ByteBuffer.allocate((int) PAYLOAD);
            p.read(all);
            assertArrayEquals(model, all.array(), "read back after reopening");
        }
    }
}
