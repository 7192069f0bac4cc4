package org.vectorjce.volumes.bitlk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.SparseImages;
import org.vectorjce.volumes.TestImages;

/**
 * cryptsetup as the oracle (skipped, naming the tool, when it is not installed): for each of the
 * 21 images, {@code bitlkDump}'s text equals {@link BitlkInfo#dump} byte for byte (cryptsetup 2.6's
 * layout, times in UTC; for {@code bitlk-aes-xts-128-crc} but for the description, which 2.6 reads
 * from the damaged first copy); and {@code bitlkDump --dump-volume-key -q} with the password (or the
 * recovery password, or the {@code .BEK} file) equals {@link BitlkInfo#dumpWithKey} with our volume
 * key for every image cryptsetup dumps. cryptsetup 2.6.1 cannot dump two of them, listed on
 * stdout: the Unicode password (2.6 hashes twice the UTF-8 length of the UTF-16 text, fixed in
 * 2.7) and the clear-key-only image (clear keys came in 2.8); those are checked against
 * {@code images.conf} by {@link BitlkImagesTest} instead.
 */
class BitlkCryptsetupTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void tool() {
        TestImages.assumeTool("cryptsetup");
    }

    @Test
    void dumpsEqualCryptsetups() throws Exception {
        Map<String, Map<String, String>> conf = BitlkImages.conf();
        List<String> notDumped = new ArrayList<>();
        int dumped = 0;
        for (Map.Entry<String, Map<String, String>> e : conf.entrySet()) {
            String name = e.getKey();
            Map<String, String> c = e.getValue();
            SparseImages.Image im = BitlkImages.images().get(name);
            Path f = im.write(dir);
            TestImages.Run r = TestImages.run(null, "env", "TZ=UTC", "cryptsetup", "bitlkDump", f.toString());
            assertEquals(0, r.rc(), name + ": " + r.err());
            BitlkInfo info = BitlkVolume.info(f);
            if (name.endsWith("-crc")) {
                // cryptsetup 2.6 reads copy 0 without checking its CRC-32 (2.7 checks it) and prints its
                // damaged description; we print the valid copy's
                assertTrue(r.out().contains("Description:  \t\u4f43\u5252"), r.out());
                assertEquals(r.out().replaceFirst("Description:  \t[^\n]*", ""), info.dump(f.toString(),
                        ZoneOffset.UTC).replaceFirst("Description:  \t[^\n]*", ""), name + ": bitlkDump");
            } else {
                assertEquals(r.out(), info.dump(f.toString(), ZoneOffset.UTC), name + ": bitlkDump");
            }

            List<String> args = new ArrayList<>(List.of("cryptsetup", "bitlkDump", "--dump-volume-key", "-q"));
            String stdin = null;
            BitlkVolume.Builder b = BitlkVolume.at(f);
            if (!c.getOrDefault("SK_VMK_GUID", "").isEmpty()) {
                Path bek = dir.resolve(name + ".BEK");
                java.nio.file.Files.write(bek, BitlkImages.files().get(c.get("SK_VMK_GUID").toUpperCase(
                        java.util.Locale.ROOT) + ".BEK"));
                args.add("--key-file");
                args.add(bek.toString());
                b.startupKey(bek);
            } else {
                String pw = !c.getOrDefault("PW", "").isEmpty() ? c.get("PW") : c.getOrDefault("RP", "");
                stdin = pw + "\n";
                if (!pw.isEmpty()) {
                    b.passphrase(pw.toCharArray());
                }
            }
            args.add(f.toString());
            TestImages.Run k = TestImages.run(stdin == null ? null : stdin.getBytes(StandardCharsets.UTF_8),
                    args.toArray(String[]::new));
            if (k.rc() != 0) {
                notDumped.add(name + " (" + k.err().strip() + ")");
                continue;
            }
            byte[] key = BitlkImagesTest.KEYS.get(name);
            if (key == null) {
                try (BitlkVolume v = b.open()) {
                    key = v.volumeKey();
                }
            }
            assertEquals(k.out(), info.dumpWithKey(f.toString(), key), name + ": bitlkDump --dump-volume-key");
            dumped++;
        }
        System.out.println("cryptsetup bitlkDump --dump-volume-key equal for " + dumped + " images; not dumped by "
                + "cryptsetup: " + notDumped);
        assertEquals(19, dumped, "images cryptsetup 2.6 dumps: " + notDumped);
        assertTrue(notDumped.stream().anyMatch(s -> s.startsWith("bitlk-aes-xts-128-unicode ")), notDumped.toString());
        assertTrue(notDumped.stream().anyMatch(s -> s.startsWith("bitlk-aes-xts-128-clearkey-only ")),
                notDumped.toString());
    }
}
