import java.util.concurrent.TimeUnit;
import org.vectorjce.volumes.Argon2Compression;
import org.vectorjce.volumes.kdf.Argon2;

/**
 * bench/argon2-engine.sh's per-slice harness: one Argon2id derivation (32-byte tag) in the JVM it is
 * started in, on the compression named, timing each slice through the derivation's stop check (which
 * runs before every slice); prints the milliseconds of each slice, pass by pass, and the total.
 * Arguments: time memoryKiB lanes auto|vector|scalar.
 */
public final class Argon2Slices {
    public static void main(String[] args) throws Exception {
        long t = Long.parseLong(args[0]), m = Long.parseLong(args[1]), p = Long.parseLong(args[2]);
        Argon2Compression c = Argon2Compression.valueOf(args[3].toUpperCase(java.util.Locale.ROOT));
        byte[] pw = "unlock benchmark passphrase".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.util.List<Long> starts = new java.util.ArrayList<>();
        long t0 = System.nanoTime();
        byte[] tag = Argon2.derive("bench", Argon2.Type.ARGON2ID, pw, new byte[32], t, m, p, 32, c, null, () -> {
            starts.add(System.nanoTime());
            return false;
        });
        long end = System.nanoTime();
        starts.add(end);
        StringBuilder slices = new StringBuilder();
        for (int i = 1; i < starts.size(); i++) {
            slices.append(i > 1 && (i - 1) % 4 == 0 ? " | " : i > 1 ? " " : "")
                    .append(TimeUnit.NANOSECONDS.toMillis(starts.get(i) - starts.get(i - 1)));
        }
        System.out.printf("%s: slices (ms, pass by pass) %s; total %.2f s%n", args[3], slices, (end - t0) / 1e9);
        java.util.Arrays.fill(tag, (byte) 0);
    }
}
