package org.vectorjce.volumes.tcrypt;

import static org.vectorjce.volumes.TestImages.first;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;

import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.engines.TwofishEngine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import org.vectorjce.volumes.CorruptHeaderException;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.WrongPassphraseException;

/**
 * Wrong secrets, damaged images and the trial search without hints: the documented exception
 * with a message that names what failed and holds no secret, and the image untouched (bytes and
 * modification time). Also the cascade payloads against an independent XTS and LRW over Bouncy
 * Castle's engines.
 */
class TcryptBadInputTest {
    static final String WRONG = "no header opened with the password, keyfiles and PIM given";

    @TempDir
    static Path tmp;
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        dir = TcryptImages.shared();
    }

    static TcryptVolume.Builder at(String name, String pw) {
        return TcryptVolume.at(dir.resolve(name)).passphrase(pw.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs {@code open} on {@code image}, expecting {@code type}; checks the image did not change. */
    static <T extends Throwable> T refused(Class<T> type, Path image, Executable open) throws Exception {
        byte[] before = Files.readAllBytes(image);
        FileTime mtime = Files.getLastModifiedTime(image);
        T e = assertThrows(type, open);
        assertArrayEquals(before, Files.readAllBytes(image), "image bytes changed");
        assertEquals(mtime, Files.getLastModifiedTime(image), "image mtime changed");
        String m = String.valueOf(e.getMessage());
        for (String pw : List.of(TcryptImages.PASSWORD, TcryptImages.PASSWORD_HIDDEN, TcryptImages.PASSWORD_PIM)) {
            assertFalse(m.contains(pw), m);
        }
        return e;
    }

    @Test
    void wrongPasswordPimOrKeyfile() throws Exception {
        Path tc = dir.resolve("tc_5-sha512-xts-aes");
        assertEquals(WRONG, refused(WrongPassphraseException.class, tc,
                () -> at("tc_5-sha512-xts-aes", "aaaaaaaaaaab").hash("sha512").cipher("aes").open()).getMessage());
        Path pim = dir.resolve("vcpim_1_1234-sha256-xts-aes");
        assertEquals(WRONG, refused(WrongPassphraseException.class, pim,
                () -> at("vcpim_1_1234-sha256-xts-aes", TcryptImages.PASSWORD_PIM).pim(1233).hash("sha256").cipher("aes")
                        .open()).getMessage());
        Path kf = dir.resolve("vck_1-sha512-xts-aes");
        assertEquals(WRONG, refused(WrongPassphraseException.class, kf,
                () -> at("vck_1-sha512-xts-aes", TcryptImages.PASSWORD).keyFile(dir.resolve("keyfile1")).hash("sha512")
                        .cipher("aes").open()).getMessage());
        refused(NoSuchFileException.class, kf, () -> at("vck_1-sha512-xts-aes", TcryptImages.PASSWORD)
                .keyFile(dir.resolve("no-such-keyfile")));
        // no hidden volume in this image: the "header" at 64 KiB is payload, and nothing opens it
        assertEquals(WRONG, refused(WrongPassphraseException.class, tc,
                () -> at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).hidden(true).hash("sha512").cipher("aes").open())
                .getMessage());
    }

    @Test
    void hintsThatNameNothingAreRefused() throws Exception {
        Path tc = dir.resolve("tc_5-sha512-xts-aes");
        assertTrue(refused(UnsupportedVolumeException.class, tc,
                () -> at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).hash("xxxx").open()).getMessage().contains("xxxx"));
        assertTrue(refused(UnsupportedVolumeException.class, tc,
                () -> at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).hash("sha512").cipher("xxx").open()).getMessage()
                .contains("xxx"));
    }

    /**
     * A {@code -c} hint that matches no chain: refused before any key is derived, naming the hint
     * and the chains there are (the command's one line: the tool's {@code TcryptCommandTest}).
     */
    @Test
    void unknownChainNameIsRefusedByName() throws Exception {
        Path tc = dir.resolve("tc_5-sha512-xts-aes");
        String m = refused(UnsupportedVolumeException.class, tc,
                () -> at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).cipher("rijndael").open()).getMessage();
        assertTrue(m.contains("--cipher rijndael names no TrueCrypt/VeraCrypt cipher chain")
                && m.contains("serpent-twofish-aes") && m.contains("kuznyechik"), m);
    }

    /**
     * Key material too short for a cascade (a three-cipher XTS chain reads 192 bytes): the header
     * trial throws {@code InvalidKeyException}, the key layout {@code IllegalArgumentException} and the
     * payload {@link UnsupportedVolumeException}, each naming the chain and both lengths — never an
     * index out of bounds. The volume's own key material is always long enough (192 derived bytes,
     * a 256-byte key area); this is the guard for the code that takes it apart.
     */
    @Test
    void shortKeyMaterialForACascadeIsRefused() throws Exception {
        for (Chain c : Chain.ROWS) {
            byte[] shortKey = new byte[c.keyBytesNeeded() - 1];
            java.security.InvalidKeyException e = assertThrows(java.security.InvalidKeyException.class,
                    () -> HeaderCipher.decrypt(new org.vectorjce.VectorJceProvider(), c, shortKey, new byte[HeaderCipher.LEN]));
            assertTrue(e.getMessage().contains(c.toString()) && e.getMessage().contains(c.keyBytesNeeded() + " bytes")
                    && e.getMessage().contains(shortKey.length + " given"), e.getMessage());
            for (int i = 0; i < c.parts().size(); i++) {
                int part = i;
                assertThrows(IllegalArgumentException.class, () -> c.partKey(part, shortKey));
            }
            assertThrows(IllegalArgumentException.class, () -> c.volumeKey(shortKey));
            UnsupportedVolumeException u = assertThrows(UnsupportedVolumeException.class,
                    () -> new TcryptSectors(null, c, shortKey, 0, 512, 0, new org.vectorjce.VectorJceProvider(), false));
            assertTrue(u.getMessage().contains("key area") && u.getMessage().contains(c.toString()), u.getMessage());
        }
        Chain sta = Chain.ROWS.stream().filter(c -> c.name().equals("serpent-twofish-aes") && c.mode() == Chain.Mode.XTS)
                .findFirst().orElseThrow();
        assertEquals(192, sta.keyBytesNeeded());
        // the full key area and header key still work
        HeaderCipher.decrypt(new org.vectorjce.VectorJceProvider(), sta, new byte[192], new byte[HeaderCipher.LEN]);
    }

    @Test
    void truncatedAndZeroedImages() throws Exception {
        byte[] img = Files.readAllBytes(dir.resolve("tc_5-sha512-xts-aes"));
        Path small = Files.write(tmp.resolve("small"), Arrays.copyOf(img, 300));
        assertTrue(refused(CorruptHeaderException.class, small,
                () -> TcryptVolume.at(small).passphrase(TcryptImages.PASSWORD.getBytes()).open()).getMessage()
                .contains("too small"));
        // the header opens, but its payload (131072 + 36864 bytes) is not all in the image
        Path cut = Files.write(tmp.resolve("cut"), Arrays.copyOf(img, 140_000));
        String m = refused(CorruptHeaderException.class, cut,
                () -> TcryptVolume.at(cut).passphrase(TcryptImages.PASSWORD.getBytes()).hash("sha512").cipher("aes").open())
                .getMessage();
        assertTrue(m.contains("outside"), m);
        Path zero = Files.write(tmp.resolve("zero"), new byte[img.length]);
        assertTrue(refused(CorruptHeaderException.class, zero,
                () -> TcryptVolume.at(zero).passphrase(TcryptImages.PASSWORD.getBytes()).open()).getMessage()
                .contains("all zeros"));
        // backup header: 128 KiB before the end, where this image has it
        try (TcryptVolume v = at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).backupHeader(true).hash("sha512")
                .cipher("aes").open()) {
            assertEquals("backup", v.info().headerKind());
            assertEquals("DEAD-BABE", org.vectorjce.volumes.TestImages.fatSerial(first(v.payload())));
        }
    }

    /**
     * Without hints every row and chain is tried, on all cores; the first that opens wins. A
     * TrueCrypt cascade opens after VeraCrypt's SHA-512 and SHA-256 blocks, which go first, on one
     * thread too (its rows' cascade blocks then queued behind them).
     */
    @Test
    void unhintedTrials() throws Exception {
        for (int threads : new int[] {1, 2}) {
            try (TcryptVolume v = at("tc_5-sha512-xts-aes-twofish", TcryptImages.PASSWORD).threads(threads).open()) {
                assertEquals("twofish-aes", v.info().chain());
                assertEquals("sha512", v.info().hash());
                assertEquals(1000, v.info().iterations());
            }
        }
        for (int threads : new int[] {1, 2}) {
            try (TcryptVolume v = at("vc_1-sha256-xts-aes", TcryptImages.PASSWORD).threads(threads).open()) {
                assertEquals("aes", v.info().chain());
                assertEquals("sha256", v.info().hash());
                assertEquals(500_000, v.info().iterations());
                assertEquals("DEAD-BABE", org.vectorjce.volumes.TestImages.fatSerial(first(v.payload())));
            }
        }
        // no hint: every row and chain, up to Bouncy Castle's Kuznyechik and Camellia
        try (TcryptVolume v = at("vc_1-sha512-xts-kuznyechik-camellia", TcryptImages.PASSWORD).open()) {
            assertEquals("kuznyechik-camellia", v.info().chain());
            assertEquals("DEAD-BABE", org.vectorjce.volumes.TestImages.fatSerial(first(v.payload())));
        }
        // every TrueCrypt row and chain tried (VeraCrypt's off, as --disable-veracrypt), none opens
        assertEquals(WRONG, refused(WrongPassphraseException.class, dir.resolve("tc_4-sha512-xts-twofish"),
                () -> at("tc_4-sha512-xts-twofish", "wrong").veracrypt(false).open()).getMessage());
        // a VeraCrypt volume is not a TrueCrypt one
        assertEquals(WRONG, refused(WrongPassphraseException.class, dir.resolve("vc_1-sha512-xts-aes"),
                () -> at("vc_1-sha512-xts-aes", TcryptImages.PASSWORD).veracrypt(false).open()).getMessage());
    }

    /**
     * The AES-Twofish cascade's whole payload against XTS written here over Bouncy Castle's AES and
     * Twofish engines (not the provider): AES first, then Twofish, on each 512-byte unit numbered
     * from the header's data offset; cryptsetup's volume key layout (Twofish K1 ‖ K2, AES K1 ‖ K2).
     */
    @Test
    void cascadePayloadEqualsAnIndependentXts() throws Exception {
        Path f = dir.resolve("tc_5-sha512-xts-aes-twofish");
        try (TcryptVolume v = at("tc_5-sha512-xts-aes-twofish", TcryptImages.PASSWORD).hash("sha512").cipher("aes").open()) {
            byte[] key = v.volumeKey();
            TcryptInfo info = v.info();
            byte[] img = Files.readAllBytes(f);
            byte[] want = Arrays.copyOfRange(img, (int) info.payloadOffset(), (int) (info.payloadOffset() + info.payloadSize()));
            for (int u = 0; u < want.length / 512; u++) {
                xtsDecrypt(new AESEngine(), Arrays.copyOfRange(key, 64, 128), want, u * 512, info.ivOffset() + u);
                xtsDecrypt(new TwofishEngine(), Arrays.copyOfRange(key, 0, 64), want, u * 512, info.ivOffset() + u);
            }
            SeekableByteChannel p = v.payload();
            ByteBuffer got = ByteBuffer.allocate(want.length);
            // odd reads across unit boundaries
            for (int n = 1; got.hasRemaining(); n = n * 3 + 7) {
                ByteBuffer part = got.slice().limit(Math.min(n, got.remaining()));
                int r = p.read(part);
                got.position(got.position() + r);
            }
            assertArrayEquals(want, got.array());
            assertEquals(-1, p.read(ByteBuffer.allocate(1)));
            assertThrows(NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(512)));
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * TrueCrypt 4's LRW cascade (AES-Twofish: AES decrypts first) against LRW written here over
     * Bouncy Castle's engines and BigInteger arithmetic in GF(2^128): block i of the payload (from 1,
     * data units from 0) is D(C ⊕ T) ⊕ T with T = K2 ⊗ i, the values big-endian, reduced by
     * x^128 + x^7 + x^2 + x + 1; each cipher's key is 32 bytes then the shared 16-byte tweak key.
     */
    @Test
    void lrwCascadePayloadEqualsAnIndependentLrw() throws Exception {
        Path f = dir.resolve("tc_2-ripemd160-lrw-aes-twofish");
        try (TcryptVolume v = at("tc_2-ripemd160-lrw-aes-twofish", TcryptImages.PASSWORD).hash("ripemd160").cipher("aes")
                .open()) {
            assertEquals("lrw-benbi", v.info().mode());
            byte[] key = v.volumeKey(); // twofish key ‖ tweak, aes key ‖ tweak
            TcryptInfo info = v.info();
            byte[] want = Arrays.copyOfRange(Files.readAllBytes(f), (int) info.payloadOffset(),
                    (int) (info.payloadOffset() + info.payloadSize()));
            lrwDecrypt(new AESEngine(), Arrays.copyOfRange(key, 48, 96), want);
            lrwDecrypt(new TwofishEngine(), Arrays.copyOfRange(key, 0, 48), want);
            ByteBuffer got = ByteBuffer.allocate(want.length);
            v.payload().read(got);
            assertArrayEquals(want, got.array());
            Arrays.fill(key, (byte) 0);
        }
    }

    static void lrwDecrypt(BlockCipher engine, byte[] key, byte[] buf) {
        engine.init(false, new KeyParameter(Arrays.copyOfRange(key, 0, 32)));
        java.math.BigInteger k2 = new java.math.BigInteger(1, Arrays.copyOfRange(key, 32, 48));
        java.math.BigInteger poly = java.math.BigInteger.ONE.shiftLeft(128).or(java.math.BigInteger.valueOf(0x87));
        for (int b = 0; b < buf.length; b += 16) {
            java.math.BigInteger i = java.math.BigInteger.valueOf(b / 16 + 1), r = java.math.BigInteger.ZERO;
            for (int bit = 0; bit < 128; bit++) {
                if (i.testBit(bit)) {
                    r = r.xor(k2.shiftLeft(bit));
                }
            }
            for (int bit = 254; bit >= 128; bit--) {
                if (r.testBit(bit)) {
                    r = r.xor(poly.shiftLeft(bit - 128));
                }
            }
            byte[] t = new byte[16];
            byte[] rb = r.toByteArray();
            System.arraycopy(rb, Math.max(0, rb.length - 16), t, 16 - Math.min(16, rb.length), Math.min(16, rb.length));
            for (int j = 0; j < 16; j++) {
                buf[b + j] ^= t[j];
            }
            engine.processBlock(buf, b, buf, b);
            for (int j = 0; j < 16; j++) {
                buf[b + j] ^= t[j];
            }
        }
    }

    static void xtsDecrypt(BlockCipher engine, byte[] key, byte[] buf, int off, long unit) {
        BlockCipher tweak = engine instanceof AESEngine ? new AESEngine() : new TwofishEngine();
        engine.init(false, new KeyParameter(Arrays.copyOfRange(key, 0, 32)));
        tweak.init(true, new KeyParameter(Arrays.copyOfRange(key, 32, 64)));
        byte[] t = new byte[16];
        for (int i = 0; i < 8; i++) {
            t[i] = (byte) (unit >>> (8 * i));
        }
        tweak.processBlock(t, 0, t, 0);
        for (int b = off; b < off + 512; b += 16) {
            for (int i = 0; i < 16; i++) {
                buf[b + i] ^= t[i];
            }
            engine.processBlock(buf, b, buf, b);
            for (int i = 0; i < 16; i++) {
                buf[b + i] ^= t[i];
            }
            int carry = 0;
            for (int i = 0; i < 16; i++) {
                int x = t[i] & 0xff;
                t[i] = (byte) (x << 1 | carry);
                carry = x >>> 7;
            }
            if (carry != 0) {
                t[0] ^= (byte) 0x87;
            }
        }
    }

    @Test
    void closedVolumeWipesAndRefuses() throws Exception {
        TcryptVolume v = at("tc_5-sha512-xts-aes", TcryptImages.PASSWORD).hash("sha512").cipher("aes").open();
        SeekableByteChannel p = v.payload();
        v.close();
        assertFalse(p.isOpen());
        assertThrows(IllegalStateException.class, v::volumeKey);
        assertFalse(v.toString().matches(".*[0-9a-f]{32}.*"), v.toString());
    }
}
