import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.vectorjce.VectorJceProvider;

/**
 * A fresh JVM's first seconds of Twofish/CTR: one cipher, SIZE-byte calls back to back, and the
 * MB/s of every WINDOW milliseconds from the program's start, for the provider settings CONFIG
 * ("" for the default), then the median of the windows that end in the second half of TOTAL_MS.
 * Run once per JVM: the JIT's state is what is measured.
 *
 *   java --add-modules jdk.incubator.vector -cp vectorjce.jar twofish16/FirstSeconds.java CONFIG SIZE TOTAL_MS WINDOW_MS
 */
public class FirstSeconds {
    public static void main(String[] a) throws Exception {
        String config = a[0];
        int size = Integer.parseInt(a[1]);
        long total = Long.parseLong(a[2]) * 1_000_000L, window = Long.parseLong(a[3]) * 1_000_000L;
        long t0 = System.nanoTime();
        VectorJceProvider p = (VectorJceProvider) new VectorJceProvider().configure(config);
        Cipher c = Cipher.getInstance("Twofish/CTR/NoPadding", p);
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[32], "Twofish"), new IvParameterSpec(new byte[16]));
        byte[] in = new byte[size], out = new byte[size];
        StringBuilder b = new StringBuilder();
        b.append("# config '").append(config).append("': kernel ").append(p.kernelFor("Twofish"))
                .append(", batch ").append(p.twofishBatch()).append('\n');
        long ws = System.nanoTime(), bytes = 0;
        java.util.List<Double> late = new java.util.ArrayList<>();
        while (true) {
            c.update(in, 0, size, out, 0);
            bytes += size;
            long now = System.nanoTime();
            if (now - ws >= window) {
                double mbs = bytes / ((now - ws) / 1e3);
                b.append(String.format("%6d ms %9.1f MB/s%n", (now - t0) / 1_000_000, mbs));
                if (now - t0 >= total / 2) {
                    late.add(mbs);
                }
                ws = now;
                bytes = 0;
                if (now - t0 >= total) {
                    break;
                }
            }
        }
        java.util.Collections.sort(late);
        b.append(String.format("median of the windows in the second half: %.1f MB/s%n", late.get(late.size() / 2)));
        System.out.print(b);
    }
}
