package org.vectorjce.volumes.kdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link Argon2Engine} against three independent implementations: the test vectors of RFC 9106
 * section 5, Bouncy Castle's {@code Argon2BytesGenerator} over random parameters (every type, lane
 * count, pass count and tag length class, with and without secret and associated data), and the
 * reference implementation's {@code argon2} command (Debian's package) where it is installed. Each
 * on the scalar compression and, where this JVM has it, the vector one ({@code Argon2Vector256}).
 */
class Argon2EngineTest {
    private static final HexFormat HEX = HexFormat.of();

    /** RFC 9106 section 5.2 and 5.3: m = 32 KiB, t = 3, p = 4, P = 32 x 01, S = 16 x 02, K = 8 x 03, X = 12 x 04. */
    @Test
    void rfc9106Vectors() {
        byte[] p = filled(32, 1), s = filled(16, 2), k = filled(8, 3), x = filled(12, 4);
        byte[] tag = new byte[32];
        for (Argon2Kernel kernel : kernels()) {
            String name = kernel == null ? "scalar" : kernel.name();
            Argon2Engine.derive(Argon2Engine.ARGON2_I, p, s, k, x, 3, 32, 4, tag, 4, kernel, null, null);
            assertEquals("c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8", HEX.formatHex(tag), name);
            Argon2Engine.derive(Argon2Engine.ARGON2_ID, p, s, k, x, 3, 32, 4, tag, 2, kernel, null, null);
            assertEquals("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659", HEX.formatHex(tag), name);
            Argon2Engine.derive(Argon2Engine.ARGON2_D, p, s, k, x, 3, 32, 4, tag, 1, kernel, null, null);
            assertEquals("512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb", HEX.formatHex(tag), name);
        }
        Argon2Engine.derive(Argon2Engine.ARGON2_ID, p, s, k, x, 3, 32, 4, tag, 2);
        assertEquals("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659", HEX.formatHex(tag), "auto");
    }

    /**
     * The vector compression from a derivation's first block to its last, in a JVM where it may
     * still run uncompiled: the tag must be Bouncy Castle's, for Argon2id (data-independent half
     * pass, then data-dependent) and Argon2i, two lanes on two threads.
     */
    @Test
    void vectorCompressionThroughout() {
        Argon2Kernel v = Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.VECTOR, 1);
        Assumptions.assumeTrue(v != null, "no vector compression in this JVM (" + Argon2Engine.kernel() + ")");
        byte[] pw = filled(27, 0x61), salt = filled(32, 0);
        for (int type : new int[] {Argon2Engine.ARGON2_ID, Argon2Engine.ARGON2_I}) {
            Argon2BytesGenerator g = new Argon2BytesGenerator();
            g.init(new Argon2Parameters.Builder(type).withVersion(Argon2Parameters.ARGON2_VERSION_13)
                    .withIterations(2).withMemoryAsKB(8192).withParallelism(2).withSalt(salt).build());
            byte[] expected = new byte[32], actual = new byte[32];
            g.generateBytes(pw, expected);
            Argon2Engine.derive(type, pw, salt, new byte[0], new byte[0], 2, 8192, 2, actual, 2, v, null, null);
            assertArrayEquals(expected, actual, "type " + type);
        }
    }

    /** The scalar compression (null) and the vector one where this JVM has it. */
    private static List<Argon2Kernel> kernels() {
        Argon2Kernel v = Argon2Engine.kernelFor(org.vectorjce.volumes.Argon2Compression.VECTOR, 1);
        return v == null ? Arrays.asList((Argon2Kernel) null) : Arrays.asList(null, v);
    }

    @Test
    void equalsBouncyCastleOverRandomParameters() {
        Random rnd = new Random(9106);
        int[] tagLengths = {4, 16, 32, 63, 64, 65, 96, 100, 128};
        for (int n = 0; n < 60; n++) {
            int type = n % 3;
            int lanes = 1 + rnd.nextInt(5);
            int passes = 1 + rnd.nextInt(3);
            int memory = 8 * lanes + rnd.nextInt(300);
            byte[] pw = bytes(rnd, rnd.nextInt(70));
            byte[] salt = bytes(rnd, 8 + rnd.nextInt(25));
            byte[] secret = n % 4 == 0 ? bytes(rnd, 1 + rnd.nextInt(20)) : new byte[0];
            byte[] ad = n % 5 == 0 ? bytes(rnd, 1 + rnd.nextInt(20)) : new byte[0];
            int len = tagLengths[n % tagLengths.length];
            Argon2Parameters.Builder b = new Argon2Parameters.Builder(type)
                    .withVersion(Argon2Parameters.ARGON2_VERSION_13).withIterations(passes).withMemoryAsKB(memory)
                    .withParallelism(lanes).withSalt(salt);
            if (secret.length > 0) {
                b.withSecret(secret);
            }
            if (ad.length > 0) {
                b.withAdditional(ad);
            }
            Argon2BytesGenerator g = new Argon2BytesGenerator();
            g.init(b.build());
            byte[] expected = new byte[len];
            g.generateBytes(pw, expected);
            for (Argon2Kernel kernel : kernels()) {
                byte[] actual = new byte[len];
                Argon2Engine.derive(type, pw, salt, secret, ad, passes, memory, lanes, actual, 1 + n % 3, kernel,
                        null, null);
                assertArrayEquals(expected, actual, "type " + type + " lanes " + lanes + " passes " + passes
                        + " memory " + memory + " tag " + len + " " + (kernel == null ? "scalar" : kernel.name()));
            }
        }
    }

    /** The reference command, for a LUKS2-like slot: Argon2i and Argon2id, 4 lanes, 4 MiB, 32-byte tag. */
    @Test
    void equalsTheReferenceCommand() throws Exception {
        Path argon2 = Path.of("/usr/bin/argon2");
        Assumptions.assumeTrue(Files.isExecutable(argon2), "argon2 (Debian package argon2) not installed: skipped");
        byte[] pw = "correct horse".getBytes(StandardCharsets.US_ASCII);
        String salt = "0123456789abcdef0123456789abcdef";
        for (String t : List.of("i", "id")) {
            Process p = new ProcessBuilder(argon2.toString(), salt, "-" + t, "-t", "3", "-k", "4096", "-p", "4",
                    "-l", "32", "-r").redirectErrorStream(true).start();
            p.getOutputStream().write(pw);
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            assertEquals(true, p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            for (Argon2Kernel kernel : kernels()) {
                byte[] tag = new byte[32];
                Argon2Engine.derive(t.equals("i") ? Argon2Engine.ARGON2_I : Argon2Engine.ARGON2_ID, pw,
                        salt.getBytes(StandardCharsets.US_ASCII), new byte[0], new byte[0], 3, 4096, 4, tag, 2, kernel,
                        null, null);
                assertEquals(out, HEX.formatHex(tag), "argon2 -" + t + " " + (kernel == null ? "scalar" : kernel.name()));
            }
        }
    }

    private static byte[] filled(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }
}
