import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;
import java.util.Random;
/**
 * ALG-XTS with one init and one doFinal per LEN bytes of 512-byte sectors (a disk layer handing a
 * run of sectors to one call), 512-bit key, on one thread, 6 rounds of 1 s in this JVM; prints the
 * last three. Run with -Dvectorjce.arithmetic=scalar and =vector to compare the two mode
 * arithmetics in steady state at large calls (bench/arithmetic/PerSector.java does one sector per
 * call):
 *
 *   java --add-modules jdk.incubator.vector -Dvectorjce.arithmetic=scalar \
 *       -cp vectorjce/target/vectorjce-0.1.0-SNAPSHOT.jar bench/arithmetic/Bulk.java AES 1048576 dec
 */
public class Bulk {
  public static void main(String[] a) throws Exception {
    String alg = a[0]; int len = Integer.parseInt(a[1]); int mode = a[2].equals("enc") ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
    byte[] key = new byte[64]; new Random(1).nextBytes(key);
    SecretKeySpec k = new SecretKeySpec(key, alg);
    Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", new VectorJceProvider());
    byte[] buf = new byte[len]; new Random(2).nextBytes(buf);
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < 6; r++) {
      long t0 = System.nanoTime(); long n = 0;
      while (System.nanoTime() - t0 < 1_000_000_000L) {
        for (int i = 0; i < 16; i++, n++) {
          c.init(mode, k, new SectorParameterSpec("plain64", n * (len / 512), 512));
          c.doFinal(buf, 0, len, buf, 0);
        }
      }
      double s = (System.nanoTime() - t0) / 1e9;
      if (r >= 3) sb.append(String.format(" %.0f", n * (double) len / s / 1e6));
    }
    System.out.println(alg + " " + a[2] + " " + len + " arithmetic=" + System.getProperty("vectorjce.arithmetic") + " MB/s:" + sb);
  }
}
