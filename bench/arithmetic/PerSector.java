import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import java.util.Random;
/**
 * ALG-XTS encryption with one init and one doFinal per data unit of UNIT bytes (as a disk layer
 * calls a cipher per sector), 512-bit key, on one thread, 6 rounds of 1 s in this JVM; prints the
 * last three. Run with -Dvectorjce.arithmetic=scalar and =vector to compare the two mode
 * arithmetics in steady state (the default, auto, is the vector one wherever it runs):
 *
 *   java --add-modules jdk.incubator.vector -Dvectorjce.arithmetic=scalar \
 *       -cp vectorjce/target/vectorjce-0.1.0-SNAPSHOT.jar bench/arithmetic/PerSector.java AES 4096
 */
public class PerSector {
  public static void main(String[] a) throws Exception {
    String alg = a[0]; int unit = Integer.parseInt(a[1]);
    byte[] key = new byte[64]; new Random(1).nextBytes(key);
    SecretKeySpec k = new SecretKeySpec(key, alg);
    Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", new VectorJceProvider());
    byte[] buf = new byte[unit]; new Random(2).nextBytes(buf);
    for (int r = 0; r < 6; r++) {
      long t0 = System.nanoTime(); long n = 0;
      while (System.nanoTime() - t0 < 1_000_000_000L) {
        for (int i = 0; i < 1000; i++, n++) {
          c.init(Cipher.ENCRYPT_MODE, k, new SectorParameterSpec("plain64", n, unit));
          c.doFinal(buf, 0, unit, buf, 0);
        }
      }
      double s = (System.nanoTime() - t0) / 1e9;
      if (r >= 3) System.out.printf("%s %s %d-byte units: %.0f MB/s%n", alg, System.getProperty("vectorjce.arithmetic"), unit, n * unit / s / 1e6);
    }
  }
}
