package org.vectorjce.bench;

import java.security.GeneralSecurityException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-message call patterns (issue 11), one operation = {@code init} + {@code doFinal}:
 * <ul>
 *   <li>{@code reinit}: the same key object, the next of 64 IVs (tweaks) — a record store's
 *       messages under one key, or a disk's sectors;</li>
 *   <li>{@code rekey}: the next of 64 keys and IVs — a key per file, record or connection.</li>
 * </ul>
 * {@code who} names the transformation and provider together, so the parameter cross product asks
 * no provider for what it lacks (SunJCE has no Twofish or XTS, Bouncy Castle's JCA no XTS, ACCP no
 * Twofish). Encryption into a preallocated array; average time per operation. Set-up first makes
 * 30,000 operations at mixed sizes so that every JIT (SunJCE's AES intrinsics, our vector kernels)
 * has compiled before JMH's own warm-up.
 *
 * <pre>
 * bench/run.sh --jmh PerMessageBench -p pattern=reinit -p size=16,512,4096
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
    "-Dvectorjce.arithmetic=vector"}) // the steady state's mode arithmetic from the first call (see BenchBase)
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
public class PerMessageBench {
    @Param({
        "AES/CBC/PKCS5Padding@VectorJCE", "AES/CBC/PKCS5Padding@SunJCE", "AES/CBC/PKCS5Padding@BC",
        "AES/CBC/PKCS5Padding@ACCP",
        "Twofish/CBC/PKCS5Padding@VectorJCE", "Twofish/CBC/PKCS5Padding@BC",
        "AES/XTS/NoPadding@VectorJCE", "AES/XTS/NoPadding@ACCP", "Twofish/XTS/NoPadding@VectorJCE",
    })
    public String who;

    @Param({"reinit", "rekey"})
    public String pattern;

    @Param({"16", "64", "512", "1024", "4096"})
    public int size;

    static final int N = 64;

    Cipher cipher;
    SecretKeySpec[] keys;
    IvParameterSpec[] ivs;
    byte[] in;
    byte[] out;
    boolean rekey;
    int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        int at = who.indexOf('@');
        String transformation = who.substring(0, at);
        String provider = who.substring(at + 1);
        String alg = transformation.substring(0, transformation.indexOf('/'));
        boolean xts = transformation.contains("/XTS/");
        rekey = pattern.equals("rekey");
        Random rnd = new Random(0x5eedL ^ who.hashCode() ^ size);
        keys = new SecretKeySpec[N];
        ivs = new IvParameterSpec[N];
        for (int i = 0; i < N; i++) {
            byte[] k = new byte[xts ? 64 : 32];
            rnd.nextBytes(k);
            keys[i] = new SecretKeySpec(k, alg);
            byte[] iv = new byte[16];
            rnd.nextBytes(iv);
            ivs[i] = new IvParameterSpec(iv);
        }
        in = new byte[Math.max(size, 4096)];
        rnd.nextBytes(in);
        out = new byte[in.length + 32];
        cipher = Cipher.getInstance(transformation, BenchBase.provider(provider));
        int[] sizes = {16, 64, 512, 1024, 4096};
        for (int i = 0; i < 30_000; i++) {
            op(i & (N - 1), sizes[i % sizes.length]);
        }
    }

    private int op(int i, int len) throws GeneralSecurityException {
        cipher.init(Cipher.ENCRYPT_MODE, keys[rekey ? i : 0], ivs[i]);
        return cipher.doFinal(in, 0, len, out, 0);
    }

    @Benchmark
    public int initDoFinal() throws GeneralSecurityException {
        int i = next;
        next = (i + 1) & (N - 1);
        return op(i, size);
    }
}
