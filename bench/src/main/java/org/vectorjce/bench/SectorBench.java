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
import org.vectorjce.SectorParameterSpec;

/**
 * A 1 MiB disk request, encrypted (issue 13). {@code who} is the algorithm, provider and way:
 * <ul>
 *   <li>{@code sectors}: one {@code init} with a {@link SectorParameterSpec} ({@code plain64}) and
 *       one {@code doFinal} of the whole request (VectorJCE's multi-sector path);</li>
 *   <li>{@code loop}: one {@code init} (the sector's {@code plain64} tweak) and one
 *       {@code doFinal} per sector, as a user of a one-data-unit API must (ACCP's only way);</li>
 *   <li>{@code unit}: the request as one 1 MiB XTS data unit (the bulk speed it builds on).</li>
 * </ul>
 * AES-256-XTS and Twofish-256-XTS (64-byte keys); average time per 1 MiB request.
 *
 * <pre>
 * bench/run.sh --jmh SectorBench
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
    "-Dvectorjce.arithmetic=vector"}) // the steady state's mode arithmetic from the first call (see BenchBase)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
public class SectorBench {
    @Param({"AES@VectorJCE:sectors", "AES@VectorJCE:loop", "AES@ACCP:loop", "AES@VectorJCE:unit",
            "Twofish@VectorJCE:sectors", "Twofish@VectorJCE:unit"})
    public String who;

    @Param({"512", "4096"})
    public int sectorSize;

    static final int REQUEST = 1 << 20;

    Cipher cipher;
    SecretKeySpec key;
    byte[] in;
    byte[] out;
    String way;
    IvParameterSpec[] tweaks;
    SectorParameterSpec[] specs;
    int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String alg = who.substring(0, who.indexOf('@'));
        String provider = who.substring(who.indexOf('@') + 1, who.indexOf(':'));
        way = who.substring(who.indexOf(':') + 1);
        Random rnd = new Random(7);
        byte[] k = new byte[64];
        rnd.nextBytes(k);
        key = new SecretKeySpec(k, alg);
        in = new byte[REQUEST];
        rnd.nextBytes(in);
        out = new byte[REQUEST];
        cipher = Cipher.getInstance(alg + "/XTS/NoPadding", BenchBase.provider(provider));
        int sectors = REQUEST / sectorSize;
        tweaks = new IvParameterSpec[2 * sectors]; // two requests' worth: consecutive tweaks differ (ACCP)
        for (int s = 0; s < tweaks.length; s++) {
            tweaks[s] = org.vectorjce.SectorIvs.plain64((long) s * sectorSize / 512);
        }
        specs = new SectorParameterSpec[] {
            new SectorParameterSpec("plain64", 0, sectorSize), new SectorParameterSpec("plain64", sectors, sectorSize)};
        for (int i = 0; i < 200; i++) {
            request();
        }
    }

    @Benchmark
    public int request() throws GeneralSecurityException {
        int r = next;
        next = r ^ 1;
        switch (way) {
            case "sectors":
                cipher.init(Cipher.ENCRYPT_MODE, key, specs[r]);
                return cipher.doFinal(in, 0, REQUEST, out, 0);
            case "unit":
                cipher.init(Cipher.ENCRYPT_MODE, key, tweaks[r]);
                return cipher.doFinal(in, 0, REQUEST, out, 0);
            default: {
                int n = 0;
                int sectors = REQUEST / sectorSize;
                for (int s = 0; s < sectors; s++) {
                    cipher.init(Cipher.ENCRYPT_MODE, key, tweaks[r * sectors + s]);
                    n += cipher.doFinal(in, s * sectorSize, sectorSize, out, s * sectorSize);
                }
                return n;
            }
        }
    }
}
