import java.security.MessageDigest;
import java.util.Random;

import org.vectorjce.SectorCipher;
import org.vectorjce.VectorJceProvider;

/**
 * bench/bitlk.sh's part (d), compiled and run in fresh JVMs with the provider jar on the class
 * path: where a fresh process's time goes besides the JVM's start.
 *
 *   stretch           BitLocker's stretch as the volumes module runs it (an 88-byte record, the
 *                     JDK's SHA-256 2^20 times, digest in place): milliseconds to round 10,000,
 *                     to round 100,000 and to the end, then the same 2^20 rounds again (compiled)
 *   sectors SPEC MIB  SectorCipher SPEC (512-byte sectors, random key) decrypting MIB MiB in
 *                     1 MiB calls from its first call: milliseconds in all, and MB/s of each 4 MiB
 */
public class FreshJvm {
    public static void main(String[] a) throws Exception {
        if (a[0].equals("stretch")) {
            stretch();
        } else {
            sectors(a[1], Integer.parseInt(a[2]));
        }
    }

    private static void stretch() throws Exception {
        long t0 = System.nanoTime();
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        byte[] rec = new byte[88];
        StringBuilder line = new StringBuilder("stretch, fresh JVM:");
        for (int pass = 0; pass < 2; pass++) {
            long p0 = System.nanoTime();
            for (long count = 0; count < 1 << 20; count++) {
                for (int b = 0; b < 8; b++) {
                    rec[80 + b] = (byte) (count >>> (8 * b));
                }
                d.update(rec, 0, 88);
                d.digest(rec, 0, 32);
                if (pass == 0 && (count == 10_000 || count == 100_000)) {
                    line.append(String.format(" round %,d at %.0f ms;", count, (System.nanoTime() - t0) / 1e6));
                }
            }
            line.append(String.format(pass == 0 ? " all 2^20 at %.0f ms (from getInstance);" : " again, compiled: %.0f ms",
                    (System.nanoTime() - (pass == 0 ? t0 : p0)) / 1e6));
        }
        System.out.println(line + " [" + (rec[0] & 0xff) + "]");
    }

    private static void sectors(String spec, int mib) throws Exception {
        byte[] key = new byte[spec.contains("elephant") || spec.contains("xts") ? 32 : 16];
        new Random(1).nextBytes(key);
        long t0 = System.nanoTime();
        SectorCipher s = SectorCipher.of(spec, key, 512, false, new VectorJceProvider());
        byte[] buf = new byte[4 << 20];
        long n = 0;
        StringBuilder per = new StringBuilder();
        for (int m = 0; m < mib; m += 4) {
            long t1 = System.nanoTime();
            for (int off = 0; off < buf.length; off += 1 << 20) {
                s.decrypt(n, buf, off, 1 << 20);
                n += (1 << 20) / 512;
            }
            per.append(String.format(" %.0f", buf.length / ((System.nanoTime() - t1) / 1e9) / 1e6));
        }
        System.out.printf("%s, fresh JVM: %d MiB in %.0f ms (%s); MB/s per 4 MiB:%s%n", spec, mib,
                (System.nanoTime() - t0) / 1e6, s, per);
        s.close();
    }
}
