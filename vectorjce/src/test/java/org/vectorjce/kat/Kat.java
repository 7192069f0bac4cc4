package org.vectorjce.kat;

import java.util.Arrays;
import java.util.List;

/**
 * One known-answer record in canonical form: {@code encrypt(key, iv, pt) == ct} through
 * {@code Cipher.getInstance(algorithm + "/" + mode + "/" + padding)}, plus what each direction is
 * expected to do.
 *
 * @param label    where the record comes from (file:line, COUNT / tcId ...), for failure messages
 * @param iv       the IV / initial counter block / tweak / LRW index, or {@code null} (ECB)
 * @param encrypt  what encrypting {@code pt} must do
 * @param decrypt  what decrypting {@code ct} must do
 * @param note     why a direction is skipped or rejected (shown in the summary), or {@code ""}
 */
public record Kat(String label, String algorithm, String mode, String padding,
                  byte[] key, byte[] iv, byte[] pt, byte[] ct,
                  Outcome encrypt, Outcome decrypt, String note) {

    /** What a direction of a record must do. */
    public enum Outcome {
        /** The output must equal the expected bytes. */
        MATCH,
        /** {@code init} must throw {@link java.security.InvalidKeyException} (XTS equal key halves). */
        REFUSE_KEY,
        /** {@code init} or {@code doFinal} must throw (invalid padding, invalid vector ...). */
        REJECT,
        /** Not applicable in this direction (e.g. an invalid-padding ciphertext has no encryption). */
        SKIP
    }

    public enum Direction {
        ENCRYPT, DECRYPT
    }

    /** A record that must match in both directions. */
    public static Kat of(String label, String algorithm, String mode, String padding,
                         byte[] key, byte[] iv, byte[] pt, byte[] ct) {
        return new Kat(label, algorithm, mode, padding, key, iv, pt, ct, Outcome.MATCH, Outcome.MATCH, "");
    }

    /**
     * An XTS record: if Key1 == Key2 it runs decrypt-only and encrypt {@code init} must throw
     * {@link java.security.InvalidKeyException}.
     */
    public static Kat xts(String label, String algorithm, byte[] key, byte[] tweak, byte[] pt, byte[] ct) {
        if (equalHalves(key)) {
            return new Kat(label, algorithm, "XTS", "NoPadding", key, tweak, pt, ct,
                    Outcome.REFUSE_KEY, Outcome.MATCH, "equal key halves");
        }
        return of(label, algorithm, "XTS", "NoPadding", key, tweak, pt, ct);
    }

    public static boolean equalHalves(byte[] key) {
        int h = key.length / 2;
        return key.length % 2 == 0
                && Arrays.equals(key, 0, h, key, h, key.length);
    }

    public Outcome outcome(Direction d) {
        return d == Direction.ENCRYPT ? encrypt : decrypt;
    }

    public String transformation() {
        return algorithm + "/" + mode + "/" + padding;
    }

    /** Loaded records of one source plus how many the loader skipped and why. */
    public record Loaded(List<Kat> kats, java.util.Map<String, Integer> skipped) {
        public int skippedTotal() {
            int s = 0;
            for (int v : skipped.values()) {
                s += v;
            }
            return s;
        }
    }
}
