package org.vectorjce.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.vectorjce.kat.Kat.Direction;
import org.vectorjce.kat.VectorFiles.Rec;

/**
 * The four Twofish AES-submission Monte-Carlo files (1,200 records each, 10,000 inner iterations
 * per record), rules as in {@code testvectors/twofish-submission/SOURCE.txt} (AES candidate
 * conventions):
 * <ul>
 *   <li>ECB: {@code x = E(x)} (or {@code D}) 10,000 times from PT (CT); the result is CT (PT).
 *       Next record: key ^= last keysize bits of {@code X_9998 || X_9999}, input = {@code X_9999}.</li>
 *   <li>CBC encrypt: {@code CV_0 = IV}; {@code CT_j = E(PT_j ^ CV_j)}; {@code CV_{j+1} = CT_j};
 *       {@code PT_{j+1} = (j == 0 ? IV : CT_{j-1})}; result {@code CT_9999}. Next record: key ^=
 *       last keysize bits of {@code CT_9998 || CT_9999}, IV = {@code CT_9999}, PT = {@code CT_9998}.</li>
 *   <li>CBC decrypt: {@code PT_j = D(CT_j) ^ CV_j}; {@code CV_{j+1} = CT_j}; {@code CT_{j+1} = PT_j};
 *       result {@code PT_9999}. Next record: key ^= last keysize bits of {@code PT_9998 || PT_9999},
 *       IV = {@code PT_9998}, CT = {@code PT_9999}.</li>
 * </ul>
 * The file's direction runs the 10,000 iterations as {@code update} calls on one 16-byte block at a
 * time through ONE initialised Cipher (ECB, or CBC so that the Cipher carries the chaining value),
 * checks the result and the derivation of the next record (key, IV, input), then sends the whole
 * 10,000-block stream through one {@code doFinal} (the multi-block kernel path) and compares. The
 * other direction inverts the chain: ECB runs {@code D} (or {@code E}) 10,000 times from the result
 * back to the input; CBC reconstructs the whole chain backwards from {@code X_9999} and
 * {@code X_9998} (taken from the next record; for the last record of a key size, where the file has
 * no next record, from a run in the file's direction) with the block decryption, checks it arrives
 * at the record's IV and input, and then runs the opposite CBC operation over the reconstructed
 * stream in one {@code doFinal}.
 *
 * <p>Cost: about 20 s per Twofish kernel on the 2-core build machine (half of it the inverse
 * chains); {@code -Dvectorjce.kat.montecarlo=file-direction} runs only the files' own direction.
 */
class TwofishMonteCarloTest {
    static final int ITER = 10_000;
    static final int B = 16;
    static final String DIR = "twofish-submission/";
    private static final AtomicLong TOTAL_NANOS = new AtomicLong();

    /** File, chaining mode and the direction the file was generated in. */
    enum McFile {
        ECB_E("ecb_e_m.txt", "ECB", Direction.ENCRYPT),
        ECB_D("ecb_d_m.txt", "ECB", Direction.DECRYPT),
        CBC_E("cbc_e_m.txt", "CBC", Direction.ENCRYPT),
        CBC_D("cbc_d_m.txt", "CBC", Direction.DECRYPT);

        final String file;
        final String mode;
        final Direction direction;

        McFile(String file, String mode, Direction direction) {
            this.file = DIR + file;
            this.mode = mode;
            this.direction = direction;
        }
    }

    /** One record; {@code next} is the following record of the same key size, or null. */
    record Mc(Rec rec, byte[] key, byte[] iv, byte[] pt, byte[] ct, Mc[] next) {
        String label() {
            return rec.where() + " KEYSIZE=" + rec.section() + " I=" + rec.req("I");
        }

        Mc nextRecord() {
            return next[0];
        }
    }

    private static final java.util.Map<McFile, List<Mc>> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    static List<Mc> load(McFile f) {
        return CACHE.computeIfAbsent(f, TwofishMonteCarloTest::parse);
    }

    private static List<Mc> parse(McFile f) {
        List<Rec> recs = VectorFiles.twofishSubmission(f.file);
        assertEquals(1200, recs.size(), f.file + " records");
        List<Mc> out = new ArrayList<>();
        for (Rec r : recs) {
            byte[] key = r.hex("KEY");
            assertEquals(r.integer("KEYSIZE"), key.length * 8, r.where() + " KEYSIZE");
            assertEquals(out.isEmpty() || !out.get(out.size() - 1).rec().section().equals(r.section())
                    ? 0 : out.get(out.size() - 1).rec().integer("I") + 1, r.integer("I"), r.where() + " I sequence");
            Mc m = new Mc(r, key, f.mode.equals("CBC") ? r.hex("IV") : null, r.hex("PT"), r.hex("CT"), new Mc[1]);
            if (!out.isEmpty() && out.get(out.size() - 1).rec().section().equals(r.section())) {
                out.get(out.size() - 1).next()[0] = m;
            }
            out.add(m);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicNode> monteCarlo() {
        List<DynamicNode> nodes = new ArrayList<>();
        for (McFile f : McFile.values()) {
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest(f.file + " load", () -> {
                List<Mc> l = load(f);
                long last = l.stream().filter(m -> m.nextRecord() == null).count();
                assertEquals(3, last, "one last record per key size");
                System.out.printf("[KAT] %s: %d Monte-Carlo records loaded (%d per key size)%n", f.file, l.size(), l.size() / 3);
            }));
            for (String kernel : KatRunner.kernels("Twofish")) {
                for (Direction d : Direction.values()) {
                    tests.add(DynamicTest.dynamicTest(f.file + " [" + kernel + "] " + d
                            + (d == f.direction ? " (file direction)" : " (inverse chain)"), () -> run(f, kernel, d)));
                }
            }
            nodes.add(DynamicContainer.dynamicContainer(f.file, tests));
        }
        return nodes.stream();
    }

    @AfterAll
    static void total() {
        System.out.printf("[KAT] Twofish Monte-Carlo: total %.1f s for all files x kernels x directions%n",
                TOTAL_NANOS.get() / 1e9);
    }

    /**
     * {@code -Dvectorjce.kat.montecarlo=file-direction} skips the inverse-chain half (about half the
     * time); {@code base-partial} (for a JVM of base kernels only) runs the files' direction, and
     * where this CPU has no AVX-512 VBMI only what the default runs on all but the best kernel;
     * {@code partial} runs on every kernel what the default runs on all but the best one (the
     * AVX2 execution: its best kernel is the scalar one, which it-jdk17 runs in full); {@code all}
     * runs every record both ways on every kernel; the default is described in {@link #run}.
     */
    static final String SCOPE_PROPERTY = "vectorjce.kat.montecarlo";
    /** Records per key size that kernels other than the best one run by default. */
    static final int PARTIAL_RECORDS = 40;

    private static void run(McFile f, String kernel, Direction d) {
        String scope = System.getProperty(SCOPE_PROPERTY, "default");
        Assumptions.assumeTrue(d == f.direction || !scope.equals("file-direction"),
                "inverse chain skipped: -D" + SCOPE_PROPERTY + "=" + scope);
        // Default scope: the best kernel runs every record both ways; the other kernels run the
        // file direction of the first PARTIAL_RECORDS records per key size (each is 10,000 chained
        // single-block calls plus one 10,000-block doFinal; the full set costs ~20 s per kernel
        // here). -Dvectorjce.kat.montecarlo=all runs everything for every kernel.
        // -Dvectorjce.kat.montecarlo=base-partial (it-jdk17, which runs the base kernels): without
        // AVX-512 VBMI default-test's best kernel is twofish-table-2way, which it runs in full, so
        // here every kernel runs as the others do; with it, the files' direction in full.
        boolean partial = scope.equals("partial")
                || scope.equals("base-partial") && !org.vectorjce.TestMachine.hasAvx512Vbmi();
        Assumptions.assumeTrue(d == f.direction || !scope.endsWith("partial"),
                "inverse chain skipped: -D" + SCOPE_PROPERTY + "=" + scope);
        boolean full = scope.equals("all")
                || (!partial && kernel.equals(org.vectorjce.internal.registry.KernelRegistry.availableNames("Twofish").get(0)));
        Assumptions.assumeTrue(full || d == f.direction,
                "inverse chain runs on the best kernel only (-D" + SCOPE_PROPERTY + "=all runs it everywhere)");
        List<Mc> loaded;
        try {
            loaded = load(f);
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(f.file + ": cannot load: " + e.getMessage(), e);
        }
        List<Mc> recs = full ? loaded
                : loaded.stream().filter(m -> m.rec().integer("I") < PARTIAL_RECORDS).toList();
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        int[] borrowed = {0};
        KatRunner.withKernel("Twofish", kernel, () -> {
            Ciphers cs = new Ciphers(f.mode);
            for (Mc m : recs) {
                try {
                    String err;
                    if (d == f.direction) {
                        err = forward(cs, f, m).error;
                    } else {
                        err = inverse(cs, f, m, borrowed);
                    }
                    if (err != null) {
                        failures.add(m.label() + ": " + err);
                    }
                } catch (Throwable t) {
                    failures.add(m.label() + ": " + t);
                }
            }
            return null;
        });
        long nanos = System.nanoTime() - t0;
        TOTAL_NANOS.addAndGet(nanos);
        String summary = String.format("%s [%s] %s%s: %d records x %d iterations, %d failed%s (%.1f s)",
                f.file, kernel, d, d == f.direction ? " (file direction)" : " (inverse chain)", recs.size(), ITER,
                failures.size(), borrowed[0] > 0 ? ", " + borrowed[0] + " last-of-key-size records took X_9998 from a file-direction run" : "",
                nanos / 1e9);
        System.out.println("[KAT] " + summary);
        if (!failures.isEmpty()) {
            StringBuilder b = new StringBuilder(summary).append('\n');
            failures.stream().limit(25).forEach(s -> b.append("  ").append(s).append('\n'));
            if (failures.size() > 25) {
                b.append("  ... and ").append(failures.size() - 25).append(" more\n");
            }
            fail(b.toString());
        }
    }

    /** The Cipher instances of one dynamic test (re-initialised per record). */
    static final class Ciphers {
        final Cipher ecb = KatRunner.newCipher("Twofish/ECB/NoPadding");
        final Cipher chained;

        Ciphers(String mode) {
            chained = KatRunner.newCipher("Twofish/" + mode + "/NoPadding");
        }

        Cipher init(Cipher c, int opmode, byte[] key, byte[] iv) throws GeneralSecurityException {
            SecretKeySpec k = new SecretKeySpec(key, "Twofish");
            if (iv == null) {
                c.init(opmode, k);
            } else {
                c.init(opmode, k, new IvParameterSpec(iv));
            }
            return c;
        }
    }

    /** Result of a file-direction run: the error (or null) and the last two chain blocks. */
    record Forward(String error, byte[] x9998, byte[] x9999) {
    }

    private static byte[] block(byte[] stream, int j) {
        return Arrays.copyOfRange(stream, j * B, (j + 1) * B);
    }

    private static int opmode(Direction d) {
        return d == Direction.ENCRYPT ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
    }

    /** key ^ (last keysize bits of a || b). */
    static byte[] nextKey(byte[] key, byte[] a, byte[] b) {
        byte[] cat = new byte[2 * B];
        System.arraycopy(a, 0, cat, 0, B);
        System.arraycopy(b, 0, cat, B, B);
        byte[] k = key.clone();
        for (int i = 0; i < k.length; i++) {
            k[i] ^= cat[cat.length - k.length + i];
        }
        return k;
    }

    /** One block through {@code update}, which must return it at once. */
    private static void step(Cipher c, byte[] in, int inOff, byte[] out, int outOff) throws GeneralSecurityException {
        int n = c.update(in, inOff, B, out, outOff);
        if (n != B) {
            throw new AssertionError("update(16 bytes) returned " + n + " bytes, expected 16 at once");
        }
    }

    /** The record in the file's direction. */
    static Forward forward(Ciphers cs, McFile f, Mc m) throws GeneralSecurityException {
        Direction d = f.direction;
        boolean enc = d == Direction.ENCRYPT;
        byte[] start = enc ? m.pt() : m.ct();
        byte[] want = enc ? m.ct() : m.pt();
        byte[] in = new byte[ITER * B];
        byte[] out = new byte[ITER * B];
        System.arraycopy(start, 0, in, 0, B);
        Cipher c = cs.init(f.mode.equals("ECB") ? cs.ecb : cs.chained, opmode(d), m.key(), m.iv());
        for (int j = 0; j < ITER; j++) {
            step(c, in, j * B, out, j * B);
            if (j + 1 < ITER) {
                if (f == McFile.CBC_E) {
                    // PT_{j+1} = (j == 0 ? IV : CT_{j-1})
                    if (j == 0) {
                        System.arraycopy(m.iv(), 0, in, B, B);
                    } else {
                        System.arraycopy(out, (j - 1) * B, in, (j + 1) * B, B);
                    }
                } else {
                    // ECB: x = E(x) / D(x); CBC decrypt: CT_{j+1} = PT_j
                    System.arraycopy(out, j * B, in, (j + 1) * B, B);
                }
            }
        }
        byte[] x9999 = block(out, ITER - 1);
        byte[] x9998 = block(out, ITER - 2);
        String err = KatRunner.compare(d + " after " + ITER + " single-block updates", want, x9999);
        if (err != null) {
            return new Forward(err, x9998, x9999);
        }
        // Derivation of the next record (rules in SOURCE.txt).
        Mc n = m.nextRecord();
        if (n != null) {
            err = KatRunner.compare("next record's KEY", n.key(), nextKey(m.key(), x9998, x9999));
            if (err == null) {
                switch (f) {
                    case ECB_E -> err = KatRunner.compare("next record's PT", n.pt(), x9999);
                    case ECB_D -> err = KatRunner.compare("next record's CT", n.ct(), x9999);
                    case CBC_E -> {
                        err = KatRunner.compare("next record's IV", n.iv(), x9999);
                        if (err == null) {
                            err = KatRunner.compare("next record's PT", n.pt(), x9998);
                        }
                    }
                    case CBC_D -> {
                        err = KatRunner.compare("next record's IV", n.iv(), x9998);
                        if (err == null) {
                            err = KatRunner.compare("next record's CT", n.ct(), x9999);
                        }
                    }
                }
            }
            if (err != null) {
                return new Forward("chain to I=" + n.rec().req("I") + " broken: " + err, x9998, x9999);
            }
        }
        // The same 10,000 blocks in one doFinal.
        c = cs.init(f.mode.equals("ECB") ? cs.ecb : cs.chained, opmode(d), m.key(), m.iv());
        err = KatRunner.compare(d + " of the whole " + ITER + "-block stream in one doFinal", out, c.doFinal(in));
        return new Forward(err, x9998, x9999);
    }

    /** The record in the direction opposite to the file's. */
    static String inverse(Ciphers cs, McFile f, Mc m, int[] borrowed) throws GeneralSecurityException {
        if (f.mode.equals("ECB")) {
            Direction d = f.direction == Direction.ENCRYPT ? Direction.DECRYPT : Direction.ENCRYPT;
            byte[] start = f.direction == Direction.ENCRYPT ? m.ct() : m.pt();
            byte[] want = f.direction == Direction.ENCRYPT ? m.pt() : m.ct();
            byte[] in = new byte[ITER * B];
            byte[] out = new byte[ITER * B];
            System.arraycopy(start, 0, in, 0, B);
            Cipher c = cs.init(cs.ecb, opmode(d), m.key(), null);
            for (int j = 0; j < ITER; j++) {
                step(c, in, j * B, out, j * B);
                if (j + 1 < ITER) {
                    System.arraycopy(out, j * B, in, (j + 1) * B, B);
                }
            }
            String err = KatRunner.compare(d + " after " + ITER + " single-block updates", want, block(out, ITER - 1));
            if (err != null) {
                return err;
            }
            c = cs.init(cs.ecb, opmode(d), m.key(), null);
            return KatRunner.compare(d + " of the whole " + ITER + "-block stream in one doFinal", out, c.doFinal(in));
        }
        // CBC: X_9999 is the record's result; X_9998 is in the next record (or from a forward run).
        byte[] x9999 = f.direction == Direction.ENCRYPT ? m.ct() : m.pt();
        byte[] x9998;
        Mc n = m.nextRecord();
        if (n != null) {
            x9998 = f == McFile.CBC_E ? n.pt() : n.iv();
        } else {
            Forward fw = forward(cs, f, m);
            if (fw.error() != null) {
                return "needs X_9998 from a file-direction run, which failed: " + fw.error();
            }
            x9998 = fw.x9998();
            borrowed[0]++;
        }
        Cipher dec = cs.init(cs.ecb, Cipher.DECRYPT_MODE, m.key(), null);
        byte[] s = new byte[ITER * B];
        byte[] t = new byte[B];
        System.arraycopy(x9998, 0, s, (ITER - 2) * B, B);
        System.arraycopy(x9999, 0, s, (ITER - 1) * B, B);
        if (f == McFile.CBC_E) {
            // s = CT stream. PT_j = D(CT_j) ^ CT_{j-1} and PT_j = CT_{j-2} (j >= 2), PT_1 = IV.
            for (int j = ITER - 1; j >= 2; j--) {
                step(dec, s, j * B, s, (j - 2) * B);
                xor(s, (j - 2) * B, s, (j - 1) * B);
            }
            step(dec, s, B, t, 0);
            xor(t, 0, s, 0);
            String err = KatRunner.compare("chain inverted to CT_0: PT_1 = D(CT_1) ^ CT_0 must be the IV", m.iv(), t);
            if (err != null) {
                return err;
            }
            step(dec, s, 0, t, 0);
            xor(t, 0, m.iv(), 0);
            err = KatRunner.compare("chain inverted to CT_0: PT_0 = D(CT_0) ^ IV must be PT", m.pt(), t);
            if (err != null) {
                return err;
            }
            // CBC decryption of the whole ciphertext stream gives PT, IV, CT_0 .. CT_9997.
            byte[] p = new byte[ITER * B];
            System.arraycopy(m.pt(), 0, p, 0, B);
            System.arraycopy(m.iv(), 0, p, B, B);
            System.arraycopy(s, 0, p, 2 * B, (ITER - 2) * B);
            Cipher c = cs.init(cs.chained, Cipher.DECRYPT_MODE, m.key(), m.iv());
            return KatRunner.compare("DECRYPT of the whole " + ITER + "-block CT stream in one doFinal", p, c.doFinal(s));
        }
        // CBC_D: s = PT stream. PT_j = D(PT_{j-1}) ^ PT_{j-2} (j >= 2), PT_1 = D(PT_0) ^ CT_0, PT_0 = D(CT_0) ^ IV.
        for (int j = ITER - 1; j >= 2; j--) {
            step(dec, s, (j - 1) * B, s, (j - 2) * B);
            xor(s, (j - 2) * B, s, j * B);
        }
        byte[] ct0 = new byte[B];
        step(dec, s, 0, ct0, 0);
        xor(ct0, 0, s, B);
        String err = KatRunner.compare("chain inverted to PT_0: CT_0 = D(PT_0) ^ PT_1 must be CT", m.ct(), ct0);
        if (err != null) {
            return err;
        }
        step(dec, ct0, 0, t, 0);
        xor(t, 0, s, 0);
        err = KatRunner.compare("chain inverted to PT_0: IV = D(CT_0) ^ PT_0 must be the IV", m.iv(), t);
        if (err != null) {
            return err;
        }
        // CBC encryption of the whole plaintext stream gives CT_0 = CT, then CT_{j+1} = PT_j.
        byte[] cts = new byte[ITER * B];
        System.arraycopy(m.ct(), 0, cts, 0, B);
        System.arraycopy(s, 0, cts, B, (ITER - 1) * B);
        Cipher c = cs.init(cs.chained, Cipher.ENCRYPT_MODE, m.key(), m.iv());
        return KatRunner.compare("ENCRYPT of the whole " + ITER + "-block PT stream in one doFinal", cts, c.doFinal(s));
    }

    private static void xor(byte[] dst, int dOff, byte[] src, int sOff) {
        for (int i = 0; i < B; i++) {
            dst[dOff + i] ^= src[sOff + i];
        }
    }
}
