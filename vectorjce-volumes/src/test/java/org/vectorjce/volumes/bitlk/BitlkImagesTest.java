package org.vectorjce.volumes.bitlk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.UnsupportedVolumeException;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;
import org.vectorjce.volumes.WrongPassphraseException;

/**
 * Every image of cryptsetup's {@code tests/bitlk-images.tar.xz} against its {@code images.conf}:
 * it opens with each secret listed (password, every recovery password, the startup key's
 * {@code .BEK} file, the clear key), each secret opens through the VMK whose GUID the file gives,
 * all give the same volume key, and with that key the whole device hashes to the file's SHA-256
 * and holds the file system of its UUID. Images cryptsetup does not map (encrypt-on-write,
 * partially encrypted) open and give their key, and {@code payload()} refuses them with the
 * reason. The stretch (2^20 SHA-256
 * rounds) runs once per secret, two secrets at a time; the device is hashed once, streaming.
 */
class BitlkImagesTest {
    /** Volume keys found here, for {@link BitlkCryptsetupTest} in the same JVM. */
    static final Map<String, byte[]> KEYS = new ConcurrentHashMap<>();

    private record Secret(String what, String vmkGuid, Volumes.Builder builder) {
    }

    private record Opened(String what, String vmkGuid, String openedWith, byte[] key, BitlkInfo info) {
    }

    @TestFactory
    Stream<DynamicTest> everyImageWithEverySecret() throws Exception {
        Map<String, Map<String, String>> conf = BitlkImages.conf();
        assertEquals(21, conf.size(), "images.conf sections");
        assertEquals(conf.keySet(), BitlkImages.images().keySet(), "images.conf lists the images of the tarball");
        return conf.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> check(e.getKey(),
                e.getValue())));
    }

    private static void check(String name, Map<String, String> c) throws Exception {
        SparseImages.Image im = BitlkImages.images().get(name);
        List<Secret> secrets = new ArrayList<>();
        if (!c.getOrDefault("PW", "").isEmpty()) {
            secrets.add(new Secret("password", c.get("PW_VMK_GUID"),
                    Volumes.open(im.channel()).passphrase(c.get("PW").toCharArray())));
        }
        for (String rp : new String[] {"RP", "RP2"}) {
            if (!c.getOrDefault(rp, "").isEmpty()) {
                // given as a passphrase, as on the command line: tried as a recovery password first
                secrets.add(new Secret("recovery password", c.get(rp + "_VMK_GUID"),
                        Volumes.open(im.channel()).passphrase(c.get(rp).toCharArray())));
            }
        }
        if (!c.getOrDefault("SK_VMK_GUID", "").isEmpty()) {
            byte[] bek = BitlkImages.files().get(c.get("SK_VMK_GUID").toUpperCase(Locale.ROOT) + ".BEK");
            assertNotNull(bek, "the .BEK file of " + name);
            secrets.add(new Secret("startup key", c.get("SK_VMK_GUID"), Volumes.open(im.channel()).startupKey(bek)));
        }
        if (!c.getOrDefault("CLEARKEY_VMK_GUID", "").isEmpty()) {
            secrets.add(new Secret("clear key", c.get("CLEARKEY_VMK_GUID"), Volumes.open(im.channel())));
        }
        assertTrue(!secrets.isEmpty(), name + " lists a secret");

        List<Opened> opened = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Opened>> fs = new ArrayList<>();
            for (Secret s : secrets) {
                fs.add(pool.submit(() -> {
                    try (Volume o = s.builder().open()) {
                        // through the common entry: the format is found from the image
                        assertEquals(VolumeFormat.BITLK, o.info().format(), name);
                        assertTrue(o.readOnly(), name);
                        BitlkVolume v = (BitlkVolume) o;
                        return new Opened(s.what(), s.vmkGuid(), v.openedWith(), v.volumeKey(), v.info());
                    }
                }));
            }
            for (Future<Opened> f : fs) {
                opened.add(f.get());
            }
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        }
        byte[] key = opened.get(0).key();
        for (Opened o : opened) {
            assertEquals(o.what() + " " + o.vmkGuid(), o.openedWith(), name + ": which VMK opened");
            assertArrayEquals(key, o.key(), name + ": the volume key through the " + o.what());
            assertEquals(c.get("GUID"), o.info().guid(), name + ": GUID");
            assertEquals(c.get("CIPHER"), o.info().cipher() + "-" + o.info().mode(), name + ": cipher");
            assertTrue(o.info().protectors().stream().anyMatch(p -> p.guid().equals(o.vmkGuid())),
                    name + ": VMK " + o.vmkGuid() + " listed");
        }
        if (!c.getOrDefault("SC_VMK_GUID", "").isEmpty()) {
            BitlkInfo info = opened.get(0).info();
            assertTrue(info.protectors().stream().anyMatch(p -> p.guid().equals(c.get("SC_VMK_GUID"))
                    && p.protection().equals("VMK protected with smart card")), name + ": the smart-card VMK");
            WrongPassphraseException w = assertThrows(WrongPassphraseException.class,
                    () -> BitlkVolume.of(im.channel()).passphrase("anaconda".toCharArray()).open());
            assertTrue(w.getMessage().contains("smart card, which this library cannot use: give its recovery password"),
                    w.getMessage());
        }
        KEYS.put(name, key.clone());

        try (BitlkVolume v = BitlkVolume.of(im.channel()).volumeKey(key).open()) {
            assertEquals("volume key", v.openedWith());
            String expected = c.getOrDefault("SHA256SUM", "");
            if (name.contains("eow")) {
                UnsupportedVolumeException u = assertThrows(UnsupportedVolumeException.class, v::payload);
                assertTrue(u.getMessage().contains("type 'encrypt-on-write'"), u.getMessage());
                assertEquals("", expected, "cryptsetup gives no SHA-256 for " + name);
                return;
            }
            if (name.contains("partially-encrypted")) {
                // its conversion states read 4/4 (done) but its header has the encrypt-on-write GUID, for
                // which cryptsetup's _activate_check refuses it; it also holds a clear key (protection suspended)
                assertTrue(v.info().protectors().stream().anyMatch(x -> x.protection().endsWith("clear key")));
                UnsupportedVolumeException u = assertThrows(UnsupportedVolumeException.class, v::payload);
                assertTrue(u.getMessage().contains("type 'encrypt-on-write'"), u.getMessage());
                assertEquals("", expected, "cryptsetup gives no SHA-256 for " + name);
                return;
            }
            if (name.endsWith("-crc")) {
                // the image with damaged metadata copies: the third is used, the two bad ones reported
                assertEquals(List.of("FVE metadata copy 0 at byte 35213312 is invalid: CRC-32 mismatch",
                        "FVE metadata copy 1 at byte 46256128 is invalid: CRC-32 mismatch"), v.info().warnings());
            } else {
                assertEquals(List.of(), v.info().warnings(), name);
            }
            SeekableByteChannel p = v.payload();
            assertEquals(im.size(), p.size(), name + ": the device is as large as the image");
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            byte[] boot = null;
            while (p.read(b.clear()) > 0) {
                if (boot == null) {
                    boot = java.util.Arrays.copyOf(b.array(), 512);
                }
                d.update(b.array(), 0, b.position());
            }
            assertEquals(expected, HexFormat.of().formatHex(d.digest()), name + ": SHA-256 of the device");
            assertEquals(c.get("UUID"), BitlkImages.uuid(boot), name + ": file-system UUID");
        }
    }
}
