import org.vectorjce.volumes.kdf.Argon2;

/**
 * bench/argon2-engine.sh's harness: one Argon2id derivation through the module's public
 * {@code Argon2.derive} (32-byte tag), in the JVM it is started in; prints the seconds it took.
 * Arguments: time memoryKiB lanes.
 */
public final class Argon2Derive {
    public static void main(String[] args) throws Exception {
        long t = Long.parseLong(args[0]), m = Long.parseLong(args[1]), p = Long.parseLong(args[2]);
        byte[] pw = "unlock benchmark passphrase".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] salt = new byte[32];
        long t0 = System.nanoTime();
        byte[] tag = Argon2.derive("bench", Argon2.Type.ARGON2ID, pw, salt, t, m, p, 32);
        System.out.printf("%.2f%n", (System.nanoTime() - t0) / 1e9);
        java.util.Arrays.fill(tag, (byte) 0);
    }
}
