package org.vectorjce.tool.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.vectorjce.volumes.TestImages;
import org.vectorjce.volumes.tcrypt.TcryptImages;

/**
 * {@code cryptsetup tcryptDump} (2.6, user space here) as the oracle: for every image it can dump,
 * {@code volume info --type tcrypt --dump-volume-key -q} prints exactly what
 * {@code tcryptDump --dump-volume-key -q} prints (chain, mode, payload offset, key bits and the
 * volume key), and for one image of each kind the plain dump's fields match.
 *
 * <p>What cryptsetup cannot dump here is skipped with its reason, listed on stdout. Which ciphers
 * and modes it can is probed once per cipher and mode ({@link #PROBES}: one image each, the
 * first cipher as {@code -c}): where its user-space backend lacks one (here it has AES-XTS only:
 * Serpent, Twofish, Camellia, Kuznyechik, LRW and the pre-4.0 CBC chains need the kernel's
 * {@code algif_skcipher}, which this machine does not give it), every image that uses it is
 * skipped, and where a kernel gives them, those images are compared too. Besides, with
 * {@code -c aes} cryptsetup moves on to {@code twofish-aes} when the {@code aes} row does not open
 * with the first KDF row the hash allows — so VeraCrypt images are given
 * {@code --veracrypt-pim 485} (15000 + 1000 × 485 = VeraCrypt's default 500,000 iterations, which
 * leaves TrueCrypt's rows out) and VeraCrypt RIPEMD-160 (655,331 iterations, no PIM gives it) and
 * BLAKE2s (not in 2.6) cannot be dumped.
 */
class TcryptInfoCommandTest {
    static Path dir;

    /** A cipher or mode, and one image of it: {cipher or mode, image, hash, PIM or null}. */
    static final String[][] PROBES = {
        {"serpent", "tc_5-sha512-xts-serpent", "sha512", null},
        {"twofish", "tc_5-sha512-xts-twofish", "sha512", null},
        {"camellia", "vc_1-sha512-xts-camellia", "sha512", "485"},
        {"kuznyechik", "vc_1-sha512-xts-kuznyechik", "sha512", "485"},
        {"lrw", "tc_2-ripemd160-lrw-aes", "ripemd160", null},
        {"cbc", "tc_1-sha1-cbc-aes", "sha1", null},
        {"blowfish", "tc_1-sha1-cbc-blowfish", "sha1", null},
        {"cast5", "tc_1-sha1-cbc-cast5", "sha1", null},
        {"des3_ede", "tc_1-sha1-cbc-des3_ede", "sha1", null},
    };

    /** Why cryptsetup cannot dump a cipher or mode here (its error's first line), by name. */
    static final Map<String, String> CANNOT = new LinkedHashMap<>();

    @BeforeAll
    static void unpack() throws Exception {
        TestImages.assumeTool("cryptsetup");
        dir = TcryptImages.shared();
        for (String[] p : PROBES) {
            TcryptImages.Image im = TcryptImages.Image.of(p[1]);
            List<String> a = new ArrayList<>();
            if (p[3] != null) {
                a.addAll(List.of("--veracrypt-pim", p[3]));
            }
            a.addAll(List.of("-h", p[2], "-c", im.cipherHint(), "--dump-volume-key", "-q", dir.resolve(p[1]).toString()));
            TestImages.Run r = cryptsetup(TcryptImages.PASSWORD, a);
            if (r.rc() != 0) {
                CANNOT.put(p[0], r.err().lines().findFirst().orElse("exit " + r.rc()));
            }
        }
    }

    /** Why cryptsetup cannot dump {@code im} here, or null when it can. */
    static String cannot(TcryptImages.Image im) {
        boolean vc = im.name().startsWith("vc") || im.name().startsWith("sys_vc");
        if (im.hash().equals("argon2id") || vc && Set.of("ripemd160", "blake2s").contains(im.hash())
                || im.system() && im.hash().equals("sha256")) {
            return "its PRF or iteration count (see the class comment)";
        }
        for (String c : im.ciphers()) {
            if (CANNOT.containsKey(c)) {
                return c + ": " + CANNOT.get(c);
            }
        }
        return CANNOT.containsKey(im.mode()) ? im.mode() + ": " + CANNOT.get(im.mode()) : null;
    }

    /** cryptsetup's arguments for {@code im}, or null when it cannot dump it ({@link #cannot}). */
    static List<String> cryptsetupArgs(TcryptImages.Image im, boolean hidden) {
        if (cannot(im) != null) {
            return null;
        }
        boolean vc = im.name().startsWith("vc") || im.name().startsWith("sys_vc");
        List<String> a = new ArrayList<>();
        if (vc) {
            a.add("--veracrypt-pim");
            a.add(String.valueOf(im.pim() > 0 ? im.pim() : 485));
        }
        options(im, hidden, a);
        return a;
    }

    /** The options both tools take for {@code im}. */
    static void options(TcryptImages.Image im, boolean hidden, List<String> a) {
        if (im.keyfiles()) {
            a.addAll(List.of("-d", dir.resolve("keyfile1").toString(), "-d", dir.resolve("keyfile2").toString()));
        }
        if (hidden) {
            a.add("--tcrypt-hidden");
        }
        if (im.system()) {
            a.add("--tcrypt-system");
        }
        a.addAll(List.of("-h", im.hash(), "-c", im.cipherHint()));
    }

    static String ours(String password, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        List<String> argv = new ArrayList<>(List.of("volume", "info", "--type", "tcrypt"));
        argv.addAll(args);
        int rc = VolumeMain.run(new ByteArrayInputStream((password + "\n").getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                null, argv.toArray(String[]::new));
        assertEquals(0, rc, () -> args + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    static TestImages.Run cryptsetup(String password, List<String> args) throws Exception {
        List<String> c = new ArrayList<>(List.of("cryptsetup", "tcryptDump"));
        c.addAll(args);
        return TestImages.run((password + "\n").getBytes(StandardCharsets.UTF_8), c.toArray(String[]::new));
    }

    @Test
    void volumeKeyDumpEqualsCryptsetups() throws Exception {
        List<Path> images;
        try (Stream<Path> s = Files.list(dir)) {
            images = s.filter(p -> p.getFileName().toString().matches("(tc|tck|vc|vck|vcpim|sys)_.*")).sorted().toList();
        }
        List<String> compared = new ArrayList<>(), skipped = new ArrayList<>();
        java.util.concurrent.ExecutorService side = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            dumpAll(images, side, compared, skipped);
        } finally {
            side.shutdownNow();
            side.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        }
        System.out.println("tcryptDump --dump-volume-key equal for " + compared.size() + ": " + compared);
        System.out.println("not dumpable by cryptsetup here, skipped: " + skipped);
        assertTrue(compared.size() >= 20, compared.toString());
    }

    private static void dumpAll(List<Path> images, java.util.concurrent.ExecutorService side, List<String> compared,
            List<String> skipped) throws Exception {
        for (Path f : images) {
            TcryptImages.Image im = TcryptImages.Image.of(f.getFileName().toString());
            for (boolean hidden : im.hidden() ? new boolean[] {false, true} : new boolean[] {false}) {
                String label = im.name() + (hidden ? " (hidden)" : "");
                List<String> cs = cryptsetupArgs(im, hidden);
                if (cs == null) {
                    skipped.add(label + " (" + cannot(im) + ")");
                    continue;
                }
                String pw = hidden ? TcryptImages.PASSWORD_HIDDEN : im.password();
                // both tools are run from the image's folder with its bare name, so the first line matches
                cs.addAll(List.of("--dump-volume-key", "-q", f.toString()));
                // cryptsetup's process runs on the other core while ours runs here: the suite's
                // longest test otherwise waits for the two one after the other
                java.util.concurrent.Future<TestImages.Run> theirs = side.submit(() -> cryptsetup(pw, cs));
                List<String> mine = new ArrayList<>();
                if (im.pim() > 0) {
                    mine.addAll(List.of("--veracrypt-pim", String.valueOf(im.pim())));
                }
                options(im, hidden, mine);
                mine.addAll(List.of("--dump-volume-key", "-q", f.toString()));
                String got = ours(pw, mine);
                TestImages.Run r = theirs.get();
                assertEquals(0, r.rc(), () -> label + ": cryptsetup " + cs + ": " + r.err());
                String want = r.out().replace(f.toString(), f.getFileName().toString());
                assertEquals(want, got, label);
                compared.add(label);
            }
        }
    }

    /** The plain dump: every field cryptsetup 2.6 prints has our value (we print 2.7's superset). */
    @Test
    void headerDumpFieldsEqualCryptsetups() throws Exception {
        for (String[] c : new String[][] {{"tc_5-sha512-xts-aes", "n"}, {"tc_4-sha512-xts-aes-hidden", "h"},
                {"vc_1-sha512-xts-aes-hidden", "h"}, {"sys_vc_1_gpt_part-sha512-xts-aes", "n"}, {"tck_5-sha512-xts-aes", "n"}}) {
            Path f = dir.resolve(c[0]);
            TcryptImages.Image im = TcryptImages.Image.of(c[0]);
            boolean hidden = c[1].equals("h");
            String pw = hidden ? TcryptImages.PASSWORD_HIDDEN : im.password();
            List<String> cs = cryptsetupArgs(im, hidden);
            cs.add(f.toString());
            TestImages.Run r = cryptsetup(pw, cs);
            assertEquals(0, r.rc(), r.err());
            List<String> mine = new ArrayList<>();
            options(im, hidden, mine);
            mine.add(f.toString());
            Map<String, String> want = fields(r.out()), got = fields(ours(pw, mine));
            assertTrue(want.size() >= 8, r.out());
            for (var e : want.entrySet()) {
                assertEquals(e.getValue(), got.get(e.getKey()), c[0] + " " + e.getKey());
            }
        }
    }

    static Map<String, String> fields(String dump) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : dump.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                m.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim().replace(" [bytes]", ""));
            }
        }
        return m;
    }
}
