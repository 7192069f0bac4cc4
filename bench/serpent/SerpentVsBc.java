import java.security.Provider;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.vectorjce.VectorJceProvider;

/**
 * Serpent-256 through the JCA, VectorJCE (its default kernel) beside Bouncy Castle's provider
 * (SerpentEngine, one block at a time), SIZE-byte doFinal calls, one thread, in this JVM
 * (bench/serpent.sh runs it): ECB, CBC decryption and CTR, which both have; XTS for VectorJCE
 * only (Bouncy Castle's JCA provider has no XTS). Each cell: 1 s of warm-up, then the best of
 * ROUNDS rounds of MS milliseconds, the two providers alternating per round.
 *
 *   java --add-modules jdk.incubator.vector -cp vectorjce.jar:bcprov.jar bench/serpent/SerpentVsBc.java 8192 1000 3
 */
public class SerpentVsBc {
    public static void main(String[] a) throws Exception {
        int size = Integer.parseInt(a[0]);
        long ms = Long.parseLong(a[1]);
        int rounds = Integer.parseInt(a[2]);
        Provider vj = new VectorJceProvider(), bc = new BouncyCastleProvider();
        System.out.println("# VectorJCE kernel: " + ((VectorJceProvider) vj).kernelFor("Serpent"));
        System.out.println("# columns: transformation, direction, VectorJCE MiB/s, Bouncy Castle MiB/s, ratio");
        String[][] cells = {
            {"Serpent/ECB/NoPadding", "ENCRYPT"}, {"Serpent/CBC/NoPadding", "DECRYPT"},
            {"Serpent/CTR/NoPadding", "ENCRYPT"}, {"Serpent/XTS/NoPadding", "ENCRYPT"},
            {"Serpent/XTS/NoPadding", "DECRYPT"},
        };
        for (String[] cell : cells) {
            boolean xts = cell[0].contains("XTS");
            int op = cell[1].equals("ENCRYPT") ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
            double v = 0, b = 0;
            rate(vj, cell[0], op, size, 1000);
            if (!xts) {
                rate(bc, cell[0], op, size, 1000);
            }
            for (int r = 0; r < rounds; r++) {
                v = Math.max(v, rate(vj, cell[0], op, size, ms));
                if (!xts) {
                    b = Math.max(b, rate(bc, cell[0], op, size, ms));
                }
            }
            System.out.printf("%-22s %-8s %10.1f %10s %8s%n", cell[0], cell[1], v,
                    xts ? "-" : String.format("%.1f", b), xts ? "-" : String.format("%.1fx", v / b));
        }
    }

    static double rate(Provider p, String t, int op, int size, long ms) throws Exception {
        byte[] key = new byte[t.contains("XTS") ? 64 : 32];
        new Random(1).nextBytes(key);
        Cipher c = Cipher.getInstance(t, p);
        SecretKeySpec k = new SecretKeySpec(key, "Serpent");
        IvParameterSpec iv = new IvParameterSpec(new byte[16]);
        if (t.contains("ECB")) {
            c.init(op, k);
        } else {
            c.init(op, k, iv);
        }
        byte[] in = new byte[size], out = new byte[size];
        new Random(2).nextBytes(in);
        long n = 0, t0 = System.nanoTime(), end = t0 + ms * 1_000_000L, now;
        do {
            c.doFinal(in, 0, size, out, 0);
            n++;
            now = System.nanoTime();
        } while (now < end);
        return n * (double) size / ((now - t0) / 1e9) / (1 << 20);
    }
}
