import java.util.Random;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.vectorjce.SectorParameterSpec;
import org.vectorjce.VectorJceProvider;

/**
 * bench/arithmetic.sh's Java part, run as a source file in a fresh JVM with the provider jar on
 * the class path:
 *
 *   ALG GIB   ALG-XTS encryption (512-bit key, 512-byte sectors, one init and one 1 MiB doFinal a
 *             call) over GIB GiB on one thread; prints the seconds of each 256 MiB, the time to
 *             the first 1 GiB and to the end, and which mode arithmetic serves at the end
 */
public class FreshJvm {
    public static void main(String[] a) throws Exception {
        String alg = a[0];
        int quarters = Integer.parseInt(a[1]) * 4;
        byte[] key = new byte[64];
        new Random(1).nextBytes(key);
        SecretKeySpec k = new SecretKeySpec(key, alg);
        Cipher c = Cipher.getInstance(alg + "/XTS/NoPadding", new VectorJceProvider());
        byte[] buf = new byte[1 << 20];
        new Random(2).nextBytes(buf);
        StringBuilder per = new StringBuilder();
        long t0 = System.nanoTime(), firstGiB = 0;
        long sector = 0;
        for (int q = 0; q < quarters; q++) {
            long tq = System.nanoTime();
            for (int i = 0; i < 256; i++, sector += 2048) {
                c.init(Cipher.ENCRYPT_MODE, k, new SectorParameterSpec("plain64", sector, 512));
                c.doFinal(buf, 0, buf.length, buf, 0);
            }
            per.append(String.format(" %.3f", (System.nanoTime() - tq) / 1e9));
            if (q == 3) {
                firstGiB = System.nanoTime() - t0;
            }
        }
        long all = System.nanoTime() - t0;
        System.out.printf("first GiB %.3f s, all %d GiB %.3f s; per 256 MiB:%s; arithmetic at the end: %s%n",
                firstGiB / 1e9, quarters / 4, all / 1e9, per, arithmetic());
    }

    /** What serves: the provider's arithmetic(), or on an older jar its BlockPasses.describe(). */
    static String arithmetic() {
        try {
            return (String) VectorJceProvider.class.getMethod("arithmetic").invoke(new VectorJceProvider());
        } catch (ReflectiveOperationException e) {
            try {
                return (String) Class.forName("org.vectorjce.internal.mode.BlockPasses").getMethod("describe").invoke(null);
            } catch (ReflectiveOperationException | RuntimeException f) {
                return "?";
            }
        }
    }
}
