package org.vectorjce.bench;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Security;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.vectorjce.VectorJce;
import org.vectorjce.VectorJceProvider;

/**
 * What every benchmark of the suite shares: the JMH settings, a cipher initialised in
 * {@code @Setup}, {@value #INPUTS} rotating random inputs, a preallocated output array, and the
 * set-up warm-up.
 *
 * <p>Warm-up: JMH's warm-up iterations repeat one length, which is not enough. Measured here,
 * SunJCE's AES intrinsics did not engage at 1 MiB for 4–6 s of a short JMH run until about 30,000
 * calls of mixed lengths had been made, and the first call of a Vector API kernel takes ~150 ms,
 * with C2 compiling the vector code only after 1–3 s of calls. So set-up first makes
 * {@value #WARMUP_CALLS} calls of the measured operation at mixed lengths (16 B to 8 KiB, partial
 * blocks too where the mode takes them) on the very cipher that is measured, then calls at the
 * measured size for {@code -Dvectorjce.bench.warmupMillis} ms (default 500), and only then JMH's
 * own warm-up iterations run. ({@code -Dvectorjce.bench.warmupCalls=N} changes the 30,000, to
 * study the warm-up itself.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector",   // the vector kernels; without it VectorJCE is scalar-only
    "--enable-native-access=ALL-UNNAMED",   // ACCP loads its native library
    "-Xms1g", "-Xmx1g",
    // VectorJCE's vector mode arithmetic (BlockPasses), the default wherever it runs: named so
    // that the setting a result was measured under is in the command
    "-Dvectorjce.arithmetic=vector"})
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class BenchBase {
    /** Rotating inputs (a power of two). */
    static final int INPUTS = 4;
    /** Rotating tweaks for {@link #initPerOperation()} (a power of two): consecutive ones always differ. */
    static final int TWEAKS = 64;
    /** Mixed-length calls made in set-up before anything is timed. */
    static final int WARMUP_CALLS = 30_000;
    /** Lengths for the mixed-length warm-up of the block-multiple modes (ECB, CBC, LRW). */
    static final int[] BLOCK_LENGTHS = {
        16, 32, 48, 64, 80, 96, 112, 128, 160, 256, 384, 512, 1024, 1536, 2048, 4096, 8192};
    /** Lengths for CTR and XTS, which also take partial blocks. */
    static final int[] ANY_LENGTHS = {
        16, 17, 32, 48, 64, 80, 100, 112, 128, 160, 256, 384, 512, 1000, 1024, 1536, 2048, 4096, 4100, 8192};

    Cipher cipher;
    SecretKeySpec key;
    IvParameterSpec[] ivs;
    int opmode;
    boolean hasIv;
    byte[][] inputs;
    byte[] out;
    int size;
    int next;
    int tweak;

    /** The parameters of this trial. */
    protected abstract Spec spec();

    /** Whether one operation is {@code init} (same key, next tweak) + {@code doFinal}, not just {@code doFinal}. */
    protected boolean initPerOperation() {
        return false;
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Spec s = spec();
        size = s.size();
        Random rnd = new Random(0x5eedL ^ s.hashCode());
        int bufLen = Math.max(size, 8192);
        inputs = new byte[INPUTS][bufLen];
        for (byte[] b : inputs) {
            rnd.nextBytes(b);
        }
        out = new byte[bufLen + 32];
        byte[] k = new byte[s.keyBytes()];
        rnd.nextBytes(k);
        key = new SecretKeySpec(k, s.algorithm());
        ivs = new IvParameterSpec[TWEAKS];
        for (int i = 0; i < TWEAKS; i++) {
            byte[] iv = new byte[16];
            rnd.nextBytes(iv);
            ivs[i] = new IvParameterSpec(iv);
        }
        hasIv = s.hasIv();
        opmode = s.direction().equals("ENCRYPT") ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
        cipher = Cipher.getInstance(s.transformation(), forKernel(s));
        init();
        warmUp(s);
    }

    /** {@code init} with the same key and the next tweak (ACCP refuses to reuse the last one). */
    final void init() throws GeneralSecurityException {
        if (hasIv) {
            cipher.init(opmode, key, ivs[tweak++ & (TWEAKS - 1)]);
        } else {
            cipher.init(opmode, key);
        }
    }

    /** One operation on input {@code i} with the first {@code len} bytes. */
    private int op(int i, int len) throws GeneralSecurityException {
        if (initPerOperation()) {
            init();
        }
        return cipher.doFinal(inputs[i], 0, len, out, 0);
    }

    /** The provider instance for a name; fails (and so fails the trial) if it cannot be had. */
    static Provider provider(String name) {
        switch (name) {
            case "VectorJCE":
                return new VectorJceProvider();
            case "BC":
                return new org.bouncycastle.jce.provider.BouncyCastleProvider();
            case "ACCP": {
                var accp = com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE;
                if (accp.getLoadingError() != null) {
                    throw new IllegalStateException("ACCP did not load", accp.getLoadingError());
                }
                return accp;
            }
            default: {
                Provider p = Security.getProvider(name);
                if (p == null) {
                    throw new IllegalStateException("no provider " + name);
                }
                return p;
            }
        }
    }

    /**
     * The provider of the trial: for VectorJCE one configured with the forced kernel, if any; checks
     * and prints the kernel chosen.
     */
    static Provider forKernel(Spec s) {
        if (!s.provider().equals("VectorJCE")) {
            return provider(s.provider());
        }
        String forced = s.forcedKernel();
        VectorJceProvider p = forced == null ? new VectorJceProvider() : (VectorJceProvider) new VectorJceProvider()
                .configure("kernel." + s.algorithm().toLowerCase(java.util.Locale.ROOT) + "=" + forced);
        String chosen = p.kernelFor(s.algorithm()); // throws if the forced one is unavailable
        String expected = s.expectedDefaultKernel();
        if (expected != null && !expected.equals(chosen)) {
            throw new IllegalStateException("the fork chose " + chosen + " by default but the launcher saw "
                    + expected + ": give the launcher JVM the same flags as the forks");
        }
        System.err.println("# VectorJCE " + s.algorithm() + " kernel: " + chosen
                + (forced == null ? " (default)" : " (forced)"));
        return p;
    }

    private void warmUp(Spec s) throws GeneralSecurityException {
        int[] lengths = s.anyLength() ? ANY_LENGTHS : BLOCK_LENGTHS;
        long t0 = System.nanoTime();
        int calls = Integer.getInteger("vectorjce.bench.warmupCalls", WARMUP_CALLS);
        for (int i = 0; i < calls; i++) {
            op(i & (INPUTS - 1), lengths[i % lengths.length]);
        }
        long t1 = System.nanoTime();
        long millis = Long.getLong("vectorjce.bench.warmupMillis", 500);
        long deadline = t1 + TimeUnit.MILLISECONDS.toNanos(millis);
        int n = 0;
        do {
            op(n & (INPUTS - 1), size);
            n++;
        } while (n < 10 || System.nanoTime() < deadline);
        long t2 = System.nanoTime();
        System.err.printf("# set-up warm-up: %d mixed-length calls in %d ms, %d calls of %d B in %d ms%n",
                calls, (t1 - t0) / 1_000_000, n, size, (t2 - t1) / 1_000_000);
    }
}
