package org.vectorjce.tool;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;
import picocli.CommandLine.Option;

/**
 * {@code speed}: a quick throughput table in the shape of {@code cryptsetup benchmark} — one row per
 * algorithm × mode × key size, encryption and decryption MiB/s at one message size, and the kernel
 * used. Each cell warms up until its rate is steady, then times {@code doFinal} calls for a fixed
 * wall-clock slice.
 * For careful figures use the JMH suite in {@code bench/}; this is the one-command overview.
 */
final class Speed {
    private Speed() {
    }

    @picocli.CommandLine.Command(name = "speed", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
            sortOptions = false,
            description = {"MB/s of every algorithm x mode x key size, encryption and decryption, at one message "
                    + "size, with the kernel used (the shape of cryptsetup benchmark). Each kernel "
                    + "and mode runs untimed first, until C2 has compiled it. Progress goes to standard error, the table to standard output."},
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {"0:The table was printed.", "2:A wrong option or value."})
    static final class Command implements java.util.concurrent.Callable<Integer> {
        private final PrintStream out, err;

        @Option(names = "--size", paramLabel = "BYTES",
                description = "Message size per doFinal (default ${DEFAULT-VALUE}; at least 16).")
        int size = 4096;
        @Option(names = "--ms", paramLabel = "MILLIS",
                description = "Measuring time per cell in ms (default ${DEFAULT-VALUE}, plus as much warm-up).")
        long ms = 250;
        @Option(names = "--alg", paramLabel = "AES|Twofish|Serpent", description = "Only this algorithm.")
        String alg;
        @Option(names = "--mode", paramLabel = "ECB|CBC|CTR|LRW|XTS", description = "Only this mode.")
        String mode;
        @Option(names = "--compare", description = "Also print the ratio of the chosen kernel to "
                + "the scalar kernel, 16 B - 8 KiB.")
        boolean compare;
        @Option(names = "--per-op", description = "Also print the per-message table: init + "
                + "doFinal with the same key and a new IV (a sector, a record), and with a new key each time, "
                + "16 B - 4 KiB.")
        boolean perOp;
        @Option(names = "--sectors", description = "Also print the disk table: 1 MiB requests of "
                + "512 B and 4 KiB sectors, many sectors per call (SectorParameterSpec) against one init + doFinal "
                + "per sector and one 1 MiB data unit, XTS with 512-bit keys.")
        boolean sectors;

        Command(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() throws Exception {
            return run(size, ms, alg, mode == null ? null : mode.toUpperCase(Locale.ROOT), compare, perOp, sectors,
                    out, err);
        }
    }

    static int run(int size, long ms, String onlyAlg, String onlyMode, boolean compare, boolean perOp,
            boolean sectors, PrintStream out, PrintStream err) throws Exception {
        if (size < 16) {
            err.println("speed: --size must be at least 16 (XTS needs a full block)");
            return 2;
        }
        out.println("# VectorJCE " + VectorJceProvider.VERSION + " speed, " + size + "-byte messages");
        java.util.Map<String, String> facts = VectorJce.platformFacts();
        out.println("# CPU: " + facts.get("cpu") + "; JVM: " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version") + "; vector: " + VectorJce.vectorModuleStatus()
                + ", " + facts.get("vector width") + "; " + facts.get("jit"));
        VectorJceProvider p = new VectorJceProvider();
        out.println("# mode arithmetic: " + p.arithmetic());
        out.printf("#%14s %9s %17s %17s   %s%n", "Algorithm", "Key", "Encryption", "Decryption", "kernel");
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            if (onlyAlg != null && !onlyAlg.equalsIgnoreCase(alg)) {
                continue;
            }
            // Compile the kernel first: a vector kernel's first seconds run interpreted, and a
            // per-cell warm-up can mistake that slow phase for the steady state.
            err.printf("  warming up the %s kernel %s...%n", alg, kernelLabel(p, alg));
            for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                mibPerSecond(p, alg, "ECB", 16, 4096, opmode, 1500);
            }
            // And each mode's own code (the XTS and LRW lane arithmetic): without this the first
            // LRW cell would time it before C2 had compiled it, far below the cells after it.
            for (String mode : new String[] {"CBC", "CTR", "LRW", "XTS"}) {
                if (onlyMode == null || onlyMode.equals(mode)) {
                    for (int opmode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                        mibPerSecond(p, alg, mode, 32, size, opmode, 300);
                    }
                }
            }
            if (alg.equals("Twofish") && p.twofishBatch() != null) {
                out.println("# twofish-vec512-16way batch: " + p.twofishBatch());
            }
            for (String mode : new String[] {"ECB", "CBC", "CTR", "LRW", "XTS"}) {
                if (onlyMode != null && !onlyMode.equals(mode)) {
                    continue;
                }
                for (int bits : new int[] {128, 192, 256}) {
                    int keyBits = mode.equals("XTS") ? 2 * bits : mode.equals("LRW") ? bits + 128 : bits;
                    err.printf("  measuring %s-%s %d-bit key...%n", alg, mode, keyBits);
                    double enc = mibPerSecond(p, alg, mode, keyBits / 8, size, Cipher.ENCRYPT_MODE, ms);
                    double dec = mibPerSecond(p, alg, mode, keyBits / 8, size, Cipher.DECRYPT_MODE, ms);
                    out.printf("%15s %8db %12.1f MiB/s %12.1f MiB/s   %s%n",
                            alg.toLowerCase(Locale.ROOT) + "-" + mode.toLowerCase(Locale.ROOT), keyBits, enc, dec,
                            kernelLabel(p, alg));
                }
            }
        }
        if (compare) {
            compare(p, onlyAlg, onlyMode, ms, out, err);
        }
        if (perOp) {
            perOp(p, onlyAlg, onlyMode, ms, out, err);
        }
        if (sectors) {
            sectors(p, onlyAlg, ms, out, err);
        }
        return 0;
    }

    /** Disk table: MiB/s of 1 MiB requests, three ways (see --sectors). */
    private static void sectors(VectorJceProvider p, String onlyAlg, long ms, PrintStream out, PrintStream err)
            throws Exception {
        out.println();
        out.println("# disk requests of 1 MiB, XTS, 512-bit key, plain64 IVs, encryption (MiB/s)");
        out.printf("#%14s %8s %16s %16s %16s   %s%n", "Algorithm", "sector", "sectors/call", "init per sector",
                "one data unit", "kernel");
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            if (onlyAlg != null && !onlyAlg.equalsIgnoreCase(alg)) {
                continue;
            }
            for (int sector : new int[] {512, 4096}) {
                err.printf("  disk: %s-XTS, %d-byte sectors...%n", alg, sector);
                double[] r = new double[3];
                for (int way = 0; way < 3; way++) {
                    r[way] = diskMibPerSecond(p, alg, sector, way, ms);
                }
                out.printf("%15s %8d %11.1f MiB/s %11.1f MiB/s %11.1f MiB/s   %s%n",
                        alg.toLowerCase(Locale.ROOT) + "-xts", sector, r[0], r[1], r[2], kernelLabel(p, alg));
            }
        }
    }

    /** way 0: one SectorParameterSpec call; 1: init + doFinal per sector; 2: one 1 MiB data unit. */
    private static double diskMibPerSecond(VectorJceProvider p, String alg, int sector, int way, long ms)
            throws Exception {
        byte[] k = new byte[64];
        new Random(3).nextBytes(k);
        k[0] = 1;
        k[32] = 2;
        SecretKeySpec key = new SecretKeySpec(k, alg);
        Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", p);
        int req = 1 << 20, n = req / sector;
        byte[] buf = new byte[req];
        IvParameterSpec[] ivs = new IvParameterSpec[n];
        for (int s = 0; s < n; s++) {
            ivs[s] = org.vectorjce.SectorIvs.plain64((long) s * sector / 512);
        }
        org.vectorjce.SectorParameterSpec spec = new org.vectorjce.SectorParameterSpec("plain64", 0, sector);
        double best = 0;
        long start = System.nanoTime();
        for (int round = 0; round < 100 && (round < 6 || System.nanoTime() - start < 3 * ms * 1_000_000L); round++) {
            long t0 = System.nanoTime();
            long bytes = 0;
            do {
                if (way == 0) {
                    c.init(Cipher.ENCRYPT_MODE, key, spec);
                    c.doFinal(buf, 0, req, buf, 0);
                } else if (way == 1) {
                    for (int s = 0; s < n; s++) {
                        c.init(Cipher.ENCRYPT_MODE, key, ivs[s]);
                        c.doFinal(buf, s * sector, sector, buf, s * sector);
                    }
                } else {
                    c.init(Cipher.ENCRYPT_MODE, key, ivs[0]);
                    c.doFinal(buf, 0, req, buf, 0);
                }
                bytes += req;
            } while (System.nanoTime() - t0 < ms * 1_000_000L / 3);
            if (round >= 3) { // the first rounds warm up
                best = Math.max(best, bytes / (double) (1 << 20) / ((System.nanoTime() - t0) / 1e9));
            }
        }
        return best;
    }

    /**
     * Per-message table: ns per {@code init} + {@code doFinal} (encryption), with the same key object
     * and the next of 64 IVs ("same key"), or the next of 64 keys and IVs ("new key"), and the MiB/s
     * that gives. What disks (a sector per init) and record stores (a key per file) see.
     */
    private static void perOp(VectorJceProvider p, String onlyAlg, String onlyMode, long ms, PrintStream out,
            PrintStream err) throws Exception {
        int[] sizes = {16, 64, 512, 4096};
        out.println();
        out.println("# per message: init + doFinal (encryption), ns per message and MiB/s; 64 rotating IVs (and keys)");
        StringBuilder head = new StringBuilder(String.format("#%29s %-9s", "transformation", "pattern"));
        for (int s : sizes) {
            head.append(String.format("%19s", s + " B"));
        }
        out.println(head.append("   kernel"));
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            if (onlyAlg != null && !onlyAlg.equalsIgnoreCase(alg)) {
                continue;
            }
            for (String t : new String[] {"CBC/PKCS5Padding", "CTR/NoPadding", "XTS/NoPadding"}) {
                String mode = t.substring(0, 3);
                if (onlyMode != null && !onlyMode.equals(mode)) {
                    continue;
                }
                for (boolean newKey : new boolean[] {false, true}) {
                    err.printf("  per message: %s/%s, %s...%n", alg, t, newKey ? "new key" : "same key");
                    StringBuilder row = new StringBuilder(String.format("%30s %-9s", alg + "/" + t, newKey ? "new key" : "same key"));
                    for (int s : sizes) {
                        double ns = nsPerMessage(p, alg + "/" + t, mode.equals("XTS") ? 64 : 32, s, newKey, ms);
                        row.append(String.format("%9.0f ns %6.0f", ns, s / ns * 1e9 / (1 << 20)));
                    }
                    out.println(row.append("   ").append(kernelLabel(p, alg)));
                }
            }
        }
    }

    /** Warms up, then times init + doFinal for {@code ms}; returns ns per message. */
    static double nsPerMessage(VectorJceProvider p, String transformation, int keyBytes, int size, boolean newKey,
            long ms) throws Exception {
        String alg = transformation.substring(0, transformation.indexOf('/'));
        Random rnd = new Random(size * 31L + keyBytes);
        SecretKeySpec[] keys = new SecretKeySpec[64];
        IvParameterSpec[] ivs = new IvParameterSpec[64];
        for (int i = 0; i < 64; i++) {
            byte[] k = new byte[keyBytes];
            rnd.nextBytes(k);
            k[0] = 1;
            k[keyBytes / 2] = 2; // XTS halves differ
            keys[i] = new SecretKeySpec(k, alg);
            byte[] iv = new byte[16];
            rnd.nextBytes(iv);
            ivs[i] = new IvParameterSpec(iv);
        }
        Cipher c = Cipher.getInstance(transformation, p);
        byte[] in = new byte[size];
        rnd.nextBytes(in);
        byte[] out = new byte[size + 32];
        long slice = ms * 1_000_000L;
        double best = Double.MAX_VALUE;
        // Warm-up slices until two agree within 10 % (at most 8 s), then the best of three.
        long start = System.nanoTime();
        double last = 0;
        for (int round = 0; ; round++) {
            long t0 = System.nanoTime();
            long n = 0;
            do {
                for (int i = 0; i < 64; i++, n++) {
                    c.init(Cipher.ENCRYPT_MODE, keys[newKey ? i : 0], ivs[i]);
                    c.doFinal(in, 0, size, out, 0);
                }
            } while (System.nanoTime() - t0 < slice / 3);
            double ns = (System.nanoTime() - t0) / (double) n;
            if (last > 0 && (Math.abs(ns - last) <= 0.1 * last || System.nanoTime() - start > 8_000_000_000L)) {
                best = Math.min(best, ns);
                if (round > 3) {
                    break;
                }
            }
            last = ns;
        }
        return best;
    }

    /** The kernel a key gets now, marked [ct] when its block function is constant-time. */
    static String kernelLabel(VectorJceProvider p, String alg) {
        String k = p.kernelFor(alg);
        String path = k.equals("twofish-vec512-16way") ? p.twofishBatch() : null;
        return k + (VectorJce.isConstantTime(alg, k) ? " [ct]" : "")
                + (path == null ? "" : path.startsWith("fused") ? " (fused)"
                        : path.startsWith("split,") ? " (split, then fused)" : " (split)");
    }

    /** tcrypt-style ratio table: chosen kernel vs the scalar table kernel, encryption, 16 B - 8 KiB. */
    private static void compare(VectorJceProvider p, String onlyAlg, String onlyMode, long ms, PrintStream out,
            PrintStream err) throws Exception {
        int[] sizes = {16, 64, 256, 1024, 8192};
        for (String alg : new String[] {"AES", "Twofish", "Serpent"}) {
            if (onlyAlg != null && !onlyAlg.equalsIgnoreCase(alg)) {
                continue;
            }
            String key = "kernel." + alg.toLowerCase(Locale.ROOT) + "=";
            String best = p.kernelFor(alg);
            String scalar = switch (alg) {
                case "AES" -> "aes-table";
                case "Twofish" -> "twofish-table";
                default -> "serpent-bitslice";
            };
            VectorJceProvider fastP = (VectorJceProvider) p.configure(key + best);
            VectorJceProvider slowP = (VectorJceProvider) p.configure(key + scalar);
            out.println();
            out.printf("# %s vs. %s (encryption, ratio of MiB/s; >1 means %s is faster)%n", best, scalar, best);
            StringBuilder head = new StringBuilder(String.format("%-12s", "mode"));
            for (int s : sizes) {
                head.append(String.format("%9s", s + "B"));
            }
            out.println(head);
            {
                for (String mode : new String[] {"ECB", "CBC", "CTR", "LRW", "XTS"}) {
                    if (onlyMode != null && !onlyMode.equals(mode)) {
                        continue;
                    }
                    int keyBytes = mode.equals("XTS") ? 32 : mode.equals("LRW") ? 32 : 16;
                    StringBuilder row = new StringBuilder(String.format("%-12s", mode.toLowerCase(Locale.ROOT) + "-enc"));
                    for (int s : sizes) {
                        err.printf("  comparing %s-%s %d B...%n", alg, mode, s);
                        double fast = mibPerSecond(fastP, alg, mode, keyBytes, s, Cipher.ENCRYPT_MODE, ms);
                        double slow = mibPerSecond(slowP, alg, mode, keyBytes, s, Cipher.ENCRYPT_MODE, ms);
                        row.append(String.format("%9.2f", fast / slow));
                    }
                    out.println(row);
                }
            }
        }
    }

    /** Warms up for {@code ms}, then times doFinal calls for {@code ms}; returns MiB/s. */
    static double mibPerSecond(VectorJceProvider p, String alg, String mode, int keyBytes, int size, int opmode,
            long ms) throws Exception {
        Random rnd = new Random(size * 31L + keyBytes);
        byte[] key = new byte[keyBytes];
        rnd.nextBytes(key);
        key[0] ^= 1; // XTS halves must differ
        byte[] iv = new byte[16];
        rnd.nextBytes(iv);
        Cipher c = Cipher.getInstance(alg + "/" + mode + "/NoPadding", p);
        SecretKeySpec k = new SecretKeySpec(key, alg);
        if (mode.equals("ECB")) {
            c.init(opmode, k);
        } else {
            c.init(opmode, k, new IvParameterSpec(iv));
        }
        int len = mode.equals("CTR") || mode.equals("XTS") ? size : Math.max(16, size & ~15);
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] b = new byte[len];
            rnd.nextBytes(b);
            inputs.add(b);
        }
        byte[] out = new byte[len + 32];
        warmUp(c, inputs, out, ms);
        long t0 = System.nanoTime();
        long calls = loop(c, inputs, out, ms * 1_000_000L);
        long t1 = System.nanoTime();
        return (double) calls * len / (1 << 20) / ((t1 - t0) / 1e9);
    }

    /**
     * Calls until C2 has compiled the path: at least {@code ms}, then 100 ms slices until two in a
     * row agree within 10 %, at most 8 s. Vector kernels run interpreted (and boxed) for the first
     * seconds, a small fraction of their compiled speed, so a fixed short warm-up would time that.
     */
    private static void warmUp(Cipher c, List<byte[]> inputs, byte[] out, long ms) throws Exception {
        long start = System.nanoTime();
        loop(c, inputs, out, ms * 1_000_000L);
        double last = 0;
        while (System.nanoTime() - start < 8_000_000_000L) {
            long calls = loop(c, inputs, out, 100_000_000L);
            double rate = calls; // calls per slice: same message size, so comparable
            if (last > 0 && Math.abs(rate - last) <= 0.1 * last) {
                return;
            }
            last = rate;
        }
    }

    private static long loop(Cipher c, List<byte[]> inputs, byte[] out, long nanos) throws Exception {
        long end = System.nanoTime() + nanos;
        long calls = 0;
        do {
            for (int i = 0; i < 16; i++) {
                byte[] in = inputs.get((int) (calls++ & 3));
                c.doFinal(in, 0, in.length, out, 0);
            }
        } while (System.nanoTime() < end);
        return calls;
    }
}
