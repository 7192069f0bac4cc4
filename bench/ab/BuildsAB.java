import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.Provider;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Two or more builds of the provider side by side in one JVM, each jar in its own class loader,
 * alternating short cells so that the machine's drift falls on all of them alike: the way to tell
 * a change of a few per cent from this noisy VM's swings. Keep a copy of the jar before a change
 * (cp vectorjce/target/vectorjce-*-SNAPSHOT.jar /tmp/before.jar), build, and compare:
 *
 *   java --add-modules jdk.incubator.vector bench/ab/BuildsAB.java cipher Serpent/ECB/NoPadding,Serpent/CTR/NoPadding 8192 15 /tmp/before.jar vectorjce/target/vectorjce-0.1.0-SNAPSHOT.jar
 *   java --add-modules jdk.incubator.vector bench/ab/BuildsAB.java sector serpent-xts-plain64 512 15 /tmp/before.jar vectorjce/target/vectorjce-0.1.0-SNAPSHOT.jar
 *
 * cipher: doFinal calls of SIZE bytes per transformation (encryption; CBC/CTR/XTS with a zero IV),
 * MiB/s. sector: SectorCipher.encrypt of one SIZE-byte sector per call of an XTS spec (a 64-byte
 * key), sector numbers counting up, MB/s. Each: 3 warm-up rounds of 300 ms, then ROUNDS rounds of
 * 200 ms per build (and transformation) in turn; the median, the upper quartile and the best.
 * Each loader's classes are compiled on their own, which alone can part two loaders of one jar by
 * a tenth: for a smaller difference give each JVM one jar and alternate over several runs.
 */
public class BuildsAB {
    public static void main(String[] a) throws Throwable {
        if (a.length < 5) {
            System.err.println("usage: BuildsAB cipher|sector TRANSFORMATIONS|SPEC SIZE ROUNDS JAR...");
            System.exit(2);
        }
        boolean sector = a[0].equals("sector");
        String[] what = a[1].split(",");
        int size = Integer.parseInt(a[2]), rounds = Integer.parseInt(a[3]);
        int n = a.length - 4, m = what.length;
        Cell[][] cells = new Cell[n][m];
        for (int i = 0; i < n; i++) {
            ClassLoader l = new URLClassLoader(new URL[] {new java.io.File(a[4 + i]).toURI().toURL()},
                    ClassLoader.getPlatformClassLoader());
            for (int j = 0; j < m; j++) {
                cells[i][j] = sector ? new SectorCell(l, what[j], size) : new CipherCell(l, what[j], size);
            }
        }
        double[][][] r = new double[n][m][rounds];
        for (int w = 0; w < 3; w++) {
            for (Cell[] row : cells) {
                for (Cell c : row) {
                    c.rate(300);
                }
            }
        }
        for (int k = 0; k < rounds; k++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < m; j++) {
                    r[i][j][k] = cells[i][j].rate(200);
                }
            }
        }
        String unit = sector ? "MB/s" : "MiB/s";
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                double[] x = r[i][j];
                Arrays.sort(x);
                System.out.printf("%-44s %-24s %6d B: median %7.1f  p75 %7.1f  best %7.1f %s%n", a[4 + i], what[j], size,
                        x[rounds / 2], x[rounds * 3 / 4], x[rounds - 1], unit);
            }
        }
    }

    interface Cell {
        double rate(long ms) throws Throwable;
    }

    static final class CipherCell implements Cell {
        final Cipher c;
        final byte[] in, out;

        CipherCell(ClassLoader l, String t, int size) throws Exception {
            Provider p = (Provider) l.loadClass("org.vectorjce.VectorJceProvider").getConstructor().newInstance();
            byte[] key = new byte[t.contains("XTS") ? 64 : 32];
            new Random(1).nextBytes(key);
            c = Cipher.getInstance(t, p);
            SecretKeySpec k = new SecretKeySpec(key, t.substring(0, t.indexOf('/')));
            if (t.contains("ECB")) {
                c.init(Cipher.ENCRYPT_MODE, k);
            } else {
                c.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[16]));
            }
            in = new byte[size];
            out = new byte[size];
            new Random(2).nextBytes(in);
        }

        public double rate(long ms) throws Throwable {
            long count = 0, t0 = System.nanoTime(), end = t0 + ms * 1_000_000L, now;
            do {
                c.doFinal(in, 0, in.length, out, 0);
                count++;
                now = System.nanoTime();
            } while (now < end);
            return count * (double) in.length / ((now - t0) / 1e9) / (1 << 20);
        }
    }

    static final class SectorCell implements Cell {
        final Object cipher;
        /** SectorCipher.encrypt(long, byte[], int, int) as (Object, long, byte[], int, int)void: invokeExact, no boxing. */
        final MethodHandle encrypt;
        final byte[] buf;
        long sector;

        SectorCell(ClassLoader l, String spec, int size) throws Exception {
            Class<?> c = l.loadClass("org.vectorjce.SectorCipher");
            byte[] key = new byte[64];
            new Random(1).nextBytes(key);
            cipher = c.getMethod("of", String.class, byte[].class, int.class).invoke(null, spec, key, size);
            encrypt = MethodHandles.publicLookup().unreflect(c.getMethod("encrypt", long.class, byte[].class, int.class, int.class))
                    .asType(MethodType.methodType(void.class, Object.class, long.class, byte[].class, int.class, int.class));
            buf = new byte[size];
        }

        public double rate(long ms) throws Throwable {
            long bytes = 0, t0 = System.nanoTime(), end = t0 + ms * 1_000_000L, now;
            do {
                for (int j = 0; j < 256; j++) {
                    encrypt.invokeExact(cipher, sector++, buf, 0, buf.length);
                }
                bytes += 256L * buf.length;
                now = System.nanoTime();
            } while (now < end);
            return bytes / ((now - t0) / 1e9) / 1e6;
        }
    }
}
