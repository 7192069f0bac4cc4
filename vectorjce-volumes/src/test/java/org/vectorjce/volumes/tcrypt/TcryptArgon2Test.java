package org.vectorjce.volumes.tcrypt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.vectorjce.volumes.TestImages;

/**
 * VeraCrypt 1.26.27's Argon2id images: 416 MiB at the default cost (vc_1), 288 MiB at PIM 8 and
 * 1 GiB at PIM 33 — more than the tests' heap, so each opens in a JVM of its own with the heap it
 * needs ({@link Probe}), hinted {@code -h argon2id -c aes}, and its payload must hold the FAT with
 * serial DEAD-BABE. The child JVMs have the vector module, so the Argon2 work of PIM 33 (15 passes
 * over 1 GiB) runs on the vector compression, as the default setting chooses for that cost. That
 * one takes 25 s here, so it runs only with {@code -Dvectorjce.test.slow=true}
 * ({@code ./mvnw -B verify -Dvectorjce.test.slow=true}).
 */
class TcryptArgon2Test {
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        dir = TcryptImages.shared();
    }

    @ParameterizedTest
    @CsvSource({"vc_1-argon2id-xts-aes,600m", "vcpim_1_8-argon2id-xts-aes,500m", "vcpim_1_33-argon2id-xts-aes,1400m"})
    void opensInItsOwnJvm(String name, String heap) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!name.contains("_33-") || Boolean.getBoolean("vectorjce.test.slow"),
                "PIM 33 (1 GiB, 25 s here) runs with -Dvectorjce.test.slow=true");
        TcryptImages.Image im = TcryptImages.Image.of(name);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        TestImages.Run r = TestImages.run((im.password() + "\n").getBytes(StandardCharsets.UTF_8), java,
                "-Xmx" + heap, "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
                Probe.class.getName(),
                dir.resolve(name).toString(), String.valueOf(im.pim()));
        assertEquals(0, r.rc(), r.err());
        assertEquals("argon2id aes-xts-plain64 DEAD-BABE", r.out().trim());
    }

    /** Opens IMAGE with the password on stdin and PIM, prints the KDF, chain and FAT serial. */
    public static final class Probe {
        public static void main(String[] a) throws Exception {
            byte[] pw = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine().getBytes(StandardCharsets.UTF_8);
            try (TcryptVolume v = TcryptVolume.at(Path.of(a[0])).passphrase(pw).pim(Integer.parseInt(a[1]))
                    .hash("argon2id").cipher("aes").open()) {
                ByteBuffer b = ByteBuffer.allocate(512);
                v.payload().read(b);
                System.out.println(v.info().hash() + " " + v.info().chain() + "-" + v.info().mode() + " "
                        + TestImages.fatSerial(b.array()));
            }
        }
    }
}
