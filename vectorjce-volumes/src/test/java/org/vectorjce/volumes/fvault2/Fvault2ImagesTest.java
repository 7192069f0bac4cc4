package org.vectorjce.volumes.fvault2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.WrongPassphraseException;

/**
 * cryptsetup's FileVault 2 image {@code small} against what {@code tests/fvault2-compat-test}
 * checks: the dumped fields, the volume key the password gives, and the SHA-256 of the whole
 * opened device, with the password and with the volume key.
 */
class Fvault2ImagesTest {
    @Test
    void infoHasTheScriptsFields() throws Exception {
        Fvault2Info i = Fvault2Volume.info(Fvault2Images.small().channel(), "small");
        assertEquals(Fvault2Images.PV_UUID, i.physicalVolumeUuid());
        assertEquals(Fvault2Images.FAMILY_UUID, i.familyUuid());
        assertEquals(Fvault2Images.LV_OFFSET, i.logicalVolumeOffset());
        assertEquals(Fvault2Images.LV_SIZE, i.logicalVolumeSize());
        assertEquals(Fvault2Images.ITERATIONS, i.pbkdf2Iterations());
        assertEquals(Fvault2Images.SALT + " ", Fvault2Info.hex(i.pbkdf2Salt()));
        assertEquals("aes", i.cipher());
        assertEquals("xts-plain64", i.mode());
        String dump = i.dump("fvault2-images/small");
        // the script's check_dump: "KEY:\s*VALUE" with trailing blanks dropped
        assertEquals(Fvault2Images.PV_UUID, field(dump, "Physical volume UUID"));
        assertEquals(Fvault2Images.FAMILY_UUID, field(dump, "Family UUID"));
        assertEquals("67108864 [bytes]", field(dump, "Logical volume offset"));
        assertEquals("167772160 [bytes]", field(dump, "Logical volume size"));
        assertEquals("204222", field(dump, "PBKDF2 iterations"));
        assertEquals(Fvault2Images.SALT, field(dump, "PBKDF2 salt"));
    }

    static String field(String dump, String key) {
        for (String line : dump.split("\n")) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        return null;
    }

    @Test
    void passwordGivesTheVolumeKeyAndThePlaintext() throws Exception {
        try (Fvault2Volume v = (Fvault2Volume) Volumes.open(Fvault2Images.small().channel())
                .passphrase(Fvault2Images.PASSWORD.toCharArray()).open()) {
            assertEquals(VolumeFormat.FVAULT2, v.info().format());
            assertEquals(Fvault2Images.FAMILY_UUID, v.info().uuid());
            assertEquals("aes-xts-plain64", v.info().cipherSpec());
            assertEquals("passphrase", v.openedWith());
            assertArrayEquals(Fvault2Images.volumeKey(), v.volumeKey());
            assertEquals(Fvault2Images.VOLUME_KEY, field(v.info().dumpWithKey("small", v.volumeKey()), "Volume key"));
            // the same key as volumeKeyGivesThePlaintext's, so the same plaintext: its first MiB only here
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            v.payload().read(b);
            try (Fvault2Volume k = Fvault2Volume.of(Fvault2Images.small().channel())
                    .volumeKey(Fvault2Images.volumeKey()).open()) {
                ByteBuffer c = ByteBuffer.allocate(1 << 20);
                k.payload().read(c);
                assertArrayEquals(c.array(), b.array());
            }
        }
    }

    @Test
    void volumeKeyGivesThePlaintext() throws Exception {
        try (Fvault2Volume v = Fvault2Volume.of(Fvault2Images.small().channel()).volumeKey(Fvault2Images.volumeKey())
                .open()) {
            assertEquals("volume key", v.openedWith());
            SeekableByteChannel p = v.payload();
            assertEquals(Fvault2Images.LV_SIZE, p.size());
            assertEquals(Fvault2Images.SHA256, sha256(p));
            assertThrows(NonWritableChannelException.class, () -> p.write(ByteBuffer.allocate(1)));
        }
    }

    @Test
    void closeWipesAndNothingPrintsTheKey() throws Exception {
        Fvault2Volume v = Fvault2Volume.of(Fvault2Images.small().channel()).volumeKey(Fvault2Images.volumeKey()).open();
        String text = v + " " + v.info() + " " + v.info().dump("small");
        assertFalse(text.replace(" ", "").contains("20734d33"), text);
        SeekableByteChannel p = v.payload();
        v.close();
        assertFalse(p.isOpen());
        assertThrows(IllegalStateException.class, v::volumeKey);
        assertThrows(IllegalStateException.class, v::payload);
    }

    @Test
    void fileSystemIsHfsPlus() throws Exception {
        // the HFS+ volume header at 1024: signature "H+", version 4 (blkid reads the UUID from its finder info)
        try (Fvault2Volume v = Fvault2Volume.of(Fvault2Images.small().channel()).volumeKey(Fvault2Images.volumeKey())
                .open()) {
            ByteBuffer b = ByteBuffer.allocate(4);
            v.payload().position(1024).read(b);
            assertEquals("H+", new String(b.array(), 0, 2, StandardCharsets.US_ASCII));
            assertEquals(4, b.array()[3]);
        }
    }

    @Test
    void wrongPasswordIsNoKey() throws Exception {
        WrongPassphraseException e = assertThrows(WrongPassphraseException.class,
                () -> Fvault2Volume.of(Fvault2Images.small().channel()).passphrase("heslo124".toCharArray()).open());
        assertEquals("no key available with this passphrase", e.getMessage());
    }

    static String sha256(SeekableByteChannel c) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        c.position(0);
        while (c.read(b.clear()) > 0) {
            d.update(b.flip());
        }
        return HexFormat.of().formatHex(d.digest());
    }
}
