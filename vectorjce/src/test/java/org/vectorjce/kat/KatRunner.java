package org.vectorjce.kat;

import org.vectorjce.TestProviders;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.vectorjce.VectorJceProvider;
import org.vectorjce.kat.Kat.Direction;
import org.vectorjce.kat.Kat.Outcome;

/**
 * Runs known-answer records through the JCA API of {@link VectorJceProvider}, once per kernel of the
 * algorithm (forced with {@code vectorjce.kernel.<alg>}) and per direction. One dynamic test per
 * source × kernel × direction loops over all records and reports every failing record.
 */
public final class KatRunner {
    /** Failures listed in full in an assertion message; the rest are counted. */
    private static final int MAX_LISTED = 25;

    /** Chunk sizes for the split-{@code update} path, cycled. */
    private static final int[] CHUNKS = {1, 16, 7, 33, 15, 64, 5, 17};

    private KatRunner() {
    }

    public static Provider provider() {
        return TestProviders.current();
    }

    /** Kernel names of {@code algorithm} to test here ({@link TestProviders#kernelsToTest}); fails when there is none. */
    public static List<String> kernels(String algorithm) {
        return TestProviders.kernelsToTest(algorithm);
    }

    /** Runs {@code body} with the kernel of {@code algorithm} forced to {@code kernel}. */
    public static <T> T withKernel(String algorithm, String kernel, Supplier<T> body) {
        return TestProviders.withKernel(algorithm, kernel, body);
    }

    /** A named group of records of one algorithm, loaded lazily (once) when its tests run. */
    public static final class Source {
        final String name;
        final String algorithm;
        final Supplier<Kat.Loaded> loader;
        private volatile Kat.Loaded loaded;
        private volatile Throwable loadError;

        public Source(String name, String algorithm, Supplier<Kat.Loaded> loader) {
            this.name = name;
            this.algorithm = algorithm;
            this.loader = loader;
        }

        synchronized Kat.Loaded load() {
            if (loaded == null && loadError == null) {
                try {
                    Kat.Loaded l = loader.get();
                    if (l.kats().isEmpty()) {
                        throw new AssertionError(name + ": no records to run");
                    }
                    loaded = l;
                } catch (Throwable t) {
                    loadError = t;
                }
            }
            if (loadError != null) {
                if (loadError instanceof AssertionError ae) {
                    throw new AssertionError(name + ": cannot load: " + ae.getMessage(), ae);
                }
                throw new AssertionError(name + ": cannot load: " + loadError, loadError);
            }
            return loaded;
        }
    }

    /** For each source: a container with a load test and one test per kernel × direction. */
    public static Stream<DynamicNode> dynamicTests(List<Source> sources) {
        return sources.stream().map(KatRunner::container);
    }

    private static DynamicNode container(Source s) {
        List<DynamicNode> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest(s.name + " load", () -> {
            Kat.Loaded l = s.load();
            System.out.printf("[KAT] %s: %d records loaded, %d skipped by the loader %s%n",
                    s.name, l.kats().size(), l.skippedTotal(), l.skipped().isEmpty() ? "" : l.skipped());
        }));
        for (String kernel : kernels(s.algorithm)) {
            for (Direction d : Direction.values()) {
                tests.add(DynamicTest.dynamicTest(s.name + " [" + kernel + "] " + d,
                        () -> run(s, kernel, d)));
            }
        }
        return DynamicContainer.dynamicContainer(s.name, tests);
    }

    private static void run(Source s, String kernel, Direction d) {
        Kat.Loaded l = s.load();
        long t0 = System.nanoTime();
        Result r = withKernel(s.algorithm, kernel, () -> runAll(l.kats(), d));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String summary = String.format("%s [%s] %s: %d records, %d matched, %d rejected as expected, %d skipped%s, %d failed (%d ms)",
                s.name, kernel, d, l.kats().size(), r.matched, r.rejected, r.skipped + l.skippedTotal(),
                r.skipNotes.isEmpty() && l.skipped().isEmpty() ? "" : " " + merge(l.skipped(), r.skipNotes),
                r.failures.size(), ms);
        System.out.println("[KAT] " + summary);
        if (!r.failures.isEmpty()) {
            StringBuilder b = new StringBuilder(summary).append('\n');
            for (int i = 0; i < Math.min(MAX_LISTED, r.failures.size()); i++) {
                b.append("  ").append(r.failures.get(i)).append('\n');
            }
            if (r.failures.size() > MAX_LISTED) {
                b.append("  ... and ").append(r.failures.size() - MAX_LISTED).append(" more\n");
            }
            fail(b.toString());
        }
    }

    private static Map<String, Integer> merge(Map<String, Integer> a, Map<String, Integer> b) {
        Map<String, Integer> m = new HashMap<>(a);
        b.forEach((k, v) -> m.merge(k, v, Integer::sum));
        return m;
    }

    /** Outcome counts of one run. */
    public static final class Result {
        public int matched;
        public int rejected;
        public int skipped;
        public final Map<String, Integer> skipNotes = new HashMap<>();
        public final List<String> failures = new ArrayList<>();
    }

    /** Runs every record in direction {@code d} with the currently forced kernel. */
    public static Result runAll(List<Kat> kats, Direction d) {
        Result r = new Result();
        Map<String, Cipher> ciphers = new ConcurrentHashMap<>();
        for (int i = 0; i < kats.size(); i++) {
            Kat k = kats.get(i);
            Outcome o = k.outcome(d);
            String id = "#" + i + " " + k.label();
            try {
                Cipher c = ciphers.computeIfAbsent(k.transformation(), KatRunner::newCipher);
                switch (o) {
                    case MATCH -> {
                        String err = checkMatch(c, k, d);
                        if (err == null) {
                            r.matched++;
                        } else {
                            r.failures.add(id + ": " + err);
                        }
                    }
                    case REFUSE_KEY -> {
                        try {
                            init(c, k, d);
                            r.failures.add(id + ": " + d + " init accepted the key, InvalidKeyException expected ("
                                    + k.note() + ")");
                        } catch (InvalidKeyException expected) {
                            r.rejected++;
                        } catch (Exception e) {
                            r.failures.add(id + ": " + d + " init threw " + e + ", InvalidKeyException expected ("
                                    + k.note() + ")");
                        }
                    }
                    case REJECT -> {
                        String err = checkReject(c, k, d);
                        if (err == null) {
                            r.rejected++;
                        } else {
                            r.failures.add(id + ": " + err);
                        }
                    }
                    case SKIP -> {
                        r.skipped++;
                        r.skipNotes.merge(k.note(), 1, Integer::sum);
                    }
                }
            } catch (Throwable t) {
                r.failures.add(id + ": " + t);
            }
        }
        return r;
    }

    public static Cipher newCipher(String transformation) {
        try {
            return Cipher.getInstance(transformation, TestProviders.current());
        } catch (GeneralSecurityException e) {
            throw new AssertionError("Cipher.getInstance(\"" + transformation + "\") failed: " + e, e);
        }
    }

    private static void init(Cipher c, Kat k, Direction d) throws GeneralSecurityException {
        int opmode = d == Direction.ENCRYPT ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
        SecretKeySpec key = new SecretKeySpec(k.key(), k.algorithm());
        if (k.iv() == null) {
            c.init(opmode, key);
        } else {
            c.init(opmode, key, new IvParameterSpec(k.iv()));
        }
    }

    /** {@code null} when both the one-shot and the split-update path give the expected bytes. */
    private static String checkMatch(Cipher c, Kat k, Direction d) throws GeneralSecurityException {
        byte[] in = d == Direction.ENCRYPT ? k.pt() : k.ct();
        byte[] want = d == Direction.ENCRYPT ? k.ct() : k.pt();
        init(c, k, d);
        byte[] got = c.doFinal(in);
        String err = compare("doFinal", want, got);
        if (err != null) {
            return d + " " + err;
        }
        if (in.length > 1) {
            // Same record through update() in uneven pieces (re-init: same key and IV).
            init(c, k, d);
            ByteArrayOutputStream acc = new ByteArrayOutputStream();
            int off = 0;
            for (int i = 0; off < in.length; i++) {
                int n = Math.min(CHUNKS[i % CHUNKS.length], in.length - off);
                if (off + n == in.length) {
                    break; // the last piece goes to doFinal
                }
                byte[] part = c.update(in, off, n);
                if (part != null) {
                    acc.writeBytes(part);
                }
                off += n;
            }
            acc.writeBytes(c.doFinal(in, off, in.length - off));
            err = compare("update pieces " + pieces(in.length) + " + doFinal", want, acc.toByteArray());
            if (err != null) {
                return d + " " + err;
            }
        }
        return null;
    }

    private static String pieces(int len) {
        StringBuilder b = new StringBuilder("[");
        int off = 0;
        for (int i = 0; off < len; i++) {
            int n = Math.min(CHUNKS[i % CHUNKS.length], len - off);
            if (off + n == len) {
                break;
            }
            b.append(b.length() > 1 ? "," : "").append(n);
            off += n;
        }
        return b.append(']').toString();
    }

    private static String checkReject(Cipher c, Kat k, Direction d) {
        byte[] in = d == Direction.ENCRYPT ? k.pt() : k.ct();
        try {
            init(c, k, d);
        } catch (GeneralSecurityException | IllegalArgumentException expected) {
            return null;
        }
        byte[] got;
        try {
            got = c.doFinal(in);
        } catch (GeneralSecurityException | IllegalStateException | IllegalArgumentException expected) {
            if (k.mode().equals("CBC") && k.padding().equals("PKCS5Padding")
                    && !(expected instanceof javax.crypto.BadPaddingException)
                    && !(expected instanceof javax.crypto.IllegalBlockSizeException)) {
                return d + " threw " + expected + "; BadPaddingException or IllegalBlockSizeException expected ("
                        + k.note() + ")";
            }
            return null;
        }
        return d + " accepted an invalid record (" + k.note() + "), output " + VectorFiles.hex(got);
    }

    /** {@code null} when equal, else where they first differ. */
    public static String compare(String what, byte[] want, byte[] got) {
        if (got == null) {
            got = new byte[0];
        }
        if (java.util.Arrays.equals(want, got)) {
            return null;
        }
        int i = java.util.Arrays.mismatch(want, got);
        return String.format("%s: %d bytes, expected %d; first difference at byte %d: expected %s got %s",
                what, got.length, want.length, i, excerpt(want, i), excerpt(got, i));
    }

    private static String excerpt(byte[] b, int from) {
        int start = Math.max(0, Math.min(from, b.length) - (Math.min(from, b.length) % 16));
        int end = Math.min(b.length, start + 32);
        return (start > 0 ? "..." : "") + VectorFiles.hex(java.util.Arrays.copyOfRange(b, start, end))
                + (end < b.length ? "..." : "");
    }
}
