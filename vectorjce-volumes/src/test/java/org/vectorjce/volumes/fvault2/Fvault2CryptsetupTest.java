package org.vectorjce.volumes.fvault2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vectorjce.volumes.TestImages;

/**
 * cryptsetup as the oracle (skipped, naming the tool, when it is not installed), on the image
 * {@code small} written out as a sparse file: {@code fvault2Dump}'s text equals
 * {@link Fvault2Info#dump} byte for byte, {@code fvault2Dump --dump-volume-key -q} with the password
 * equals {@link Fvault2Info#dumpWithKey} with the key our password gives, and a wrong password
 * ends in cryptsetup's exit 2 as it does here. The command's own text is compared in
 * {@code tool.Fvault2CommandTest}.
 */
class Fvault2CryptsetupTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void tool() {
        TestImages.assumeTool("cryptsetup");
    }

    @Test
    void dumpsEqualCryptsetups() throws Exception {
        Path f = Fvault2Images.small().write(dir);
        TestImages.Run r = TestImages.run(null, "cryptsetup", "fvault2Dump", f.toString());
        assertEquals(0, r.rc(), r.err());
        Fvault2Info info = Fvault2Volume.info(f);
        assertEquals(r.out(), info.dump(f.toString()), "fvault2Dump");

        TestImages.Run k = TestImages.run((Fvault2Images.PASSWORD + "\n").getBytes(StandardCharsets.UTF_8),
                "cryptsetup", "fvault2Dump", "--dump-volume-key", "-q", f.toString());
        assertEquals(0, k.rc(), k.err());
        try (Fvault2Volume v = Fvault2Volume.at(f).passphrase(Fvault2Images.PASSWORD.toCharArray()).open()) {
            assertEquals(k.out(), v.info().dumpWithKey(f.toString(), v.volumeKey()), "fvault2Dump --dump-volume-key");
        }
        TestImages.Run w = TestImages.run("heslo\n".getBytes(StandardCharsets.UTF_8), "cryptsetup", "fvault2Dump",
                "--dump-volume-key", "-q", f.toString());
        assertEquals(2, w.rc(), w.err());
    }
}
