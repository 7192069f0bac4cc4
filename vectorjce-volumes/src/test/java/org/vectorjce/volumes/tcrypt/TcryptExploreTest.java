package org.vectorjce.volumes.tcrypt;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TcryptExploreTest {
    @TempDir Path tmp;

    @Test
    void explore() throws Exception {
        Path dir = TcryptImages.unpack(tmp);
        List<Path> files;
        try (var s = Files.list(dir)) { files = s.sorted().toList(); }
        for (Path f : files) {
            String n = f.getFileName().toString();
            if (!n.matches("(tc|tck|vc|vck|vcpim|sys)_.*") || n.contains("argon2")) continue;
            TcryptImages.Image im = TcryptImages.Image.of(n);
            for (boolean hid : im.hidden() ? new boolean[] {false, true} : new boolean[] {false}) {
                long t0 = System.nanoTime();
                String res;
                try {
                    TcryptVolume.Builder b = TcryptVolume.at(f).passphrase((hid ? TcryptImages.PASSWORD_HIDDEN : im.password()).getBytes())
                        .hash(im.hash()).cipher(im.cipherHint()).pim(im.pim()).hidden(hid).system(im.system());
                    if (im.keyfiles()) { b.keyFile(dir.resolve("keyfile1")); b.keyFile(dir.resolve("keyfile2")); }
                    try (TcryptVolume v = b.open()) {
                        var i = v.info();
                        Integer ser = TcryptImages.fatSerial(v.payload(), 0);
                        res = "OPEN " + i.chain() + "-" + i.mode() + " v" + i.version() + " off=" + i.payloadOffset() + " size=" + i.payloadSize() + " iv=" + i.ivOffset() + " mk=" + i.mkOffset() + " vs=" + i.volumeSize() + " hs=" + i.hiddenSize()+ " flags=" + i.flags() + " serial=" + (ser == null ? "none" : Integer.toHexString(ser));
                    }
                } catch (Exception e) {
                    res = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
                System.out.printf("%-50s %s %5d ms %s%n", n, hid ? "H" : " ", (System.nanoTime() - t0) / 1000000, res);
            }
        }
    }
}
