import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.SectorCipher;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * One sector per call, the way a disk layer calls: ALG-XTS-plain64 encryption of UNIT-byte
 * sectors, 512-bit key, one thread, in this fresh JVM (bench/sectors.sh runs it), three ways in
 * turn, 6 rounds of 1 s each, the last 3 printed:
 *   jca     Cipher.init with a SectorParameterSpec + doFinal per sector
 *   sector  SectorCipher.encrypt(n, buf, 0, UNIT) per sector (no init)
 *   bulk    SectorCipher.encrypt over 1 MiB of sectors per call
 *
 *   java --add-modules jdk.incubator.vector -cp vectorjce/target/vectorjce-0.1.0-SNAPSHOT.jar \
 *       bench/sectors/PerSectorApi.java AES 512
 */
public class PerSectorApi {
    public static void main(String[] a) throws Exception {
        String alg = a[0];
        int unit = Integer.parseInt(a[1]);
        byte[] key = new byte[64];
        new Random(1).nextBytes(key);
        SecretKeySpec k = new SecretKeySpec(key, alg);
        VectorJceProvider p = new VectorJceProvider();
        Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", p);
        SectorCipher s = SectorCipher.of(alg.toLowerCase() + "-xts-plain64", key, unit, false, p);
        byte[] buf = new byte[1 << 20];
        new Random(2).nextBytes(buf);
        String[] ways = {"jca", "sector", "bulk"};
        for (int r = 0; r < 6; r++) {
            StringBuilder line = new StringBuilder(alg + " " + unit + "-byte sectors:");
            for (String w : ways) {
                long t0 = System.nanoTime(), bytes = 0, n = 0;
                while (System.nanoTime() - t0 < 1_000_000_000L) {
                    if (w.equals("bulk")) {
                        s.encrypt(n, buf, 0, buf.length);
                        n += buf.length / unit;
                        bytes += buf.length;
                        continue;
                    }
                    for (int i = 0; i < 256; i++, n++) {
                        if (w.equals("jca")) {
                            c.init(Cipher.ENCRYPT_MODE, k, new SectorParameterSpec("plain64", n, unit));
                            c.doFinal(buf, 0, unit, buf, 0);
                        } else {
                            s.encrypt(n, buf, 0, unit);
                        }
                    }
                    bytes += 256L * unit;
                }
                double sec = (System.nanoTime() - t0) / 1e9;
                line.append(String.format(" %s %.0f MB/s", w, bytes / sec / 1e6));
            }
            if (r >= 3) {
                System.out.println(line);
            }
        }
        s.close();
    }
}
