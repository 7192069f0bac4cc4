package org.vectorjce.bench;

import java.util.Locale;

/**
 * One benchmarked transformation: the values of a benchmark's {@code @Param} fields.
 *
 * <p>Key layouts follow the provider's README: ECB/CBC/CTR take one {@code keyBits} key; XTS takes
 * K1 ‖ K2, two keys of {@code keyBits} (IEEE 1619, Linux {@code xts()}); LRW takes the cipher key ‖ a
 * 16-byte tweak key (Linux {@code lrw()}). So "XTS, keyBits 128" is tcrypt's "256 bit key" line.
 *
 * @param provider  VectorJCE, SunJCE, BC or ACCP
 * @param algorithm AES, Twofish or Serpent
 * @param kernel    VectorJCE kernel: a registered name, {@code default} (no forcing), or
 *                  {@code default:NAME} (no forcing, and set-up checks that NAME is what is chosen);
 *                  {@code -} for other providers
 * @param mode      ECB, CBC, CTR, LRW or XTS (always NoPadding)
 * @param direction ENCRYPT or DECRYPT
 * @param keyBits   size of one cipher key: 128, 192 or 256
 * @param size      bytes per {@code doFinal}
 */
public record Spec(String provider, String algorithm, String kernel, String mode, String direction,
                   int keyBits, int size) {

    /** The JCA transformation string. */
    public String transformation() {
        return algorithm + "/" + mode + "/NoPadding";
    }

    /** Total key bytes in the mode's layout. */
    public int keyBytes() {
        int k = keyBits / 8;
        return switch (mode) {
            case "XTS" -> 2 * k;
            case "LRW" -> k + 16;
            default -> k;
        };
    }

    /** Whether the mode takes an IV (every mode but ECB). */
    public boolean hasIv() {
        return !mode.equals("ECB");
    }

    /** Whether the mode accepts lengths that are not a multiple of 16 (CTR: any; XTS: stealing). */
    public boolean anyLength() {
        return mode.equals("CTR") || mode.equals("XTS");
    }

    /** The kernel name to force, or {@code null} for the provider's own choice. */
    public String forcedKernel() {
        return kernel.equals("-") || kernel.startsWith("default") ? null : kernel;
    }

    /** For {@code default:NAME}, NAME; otherwise {@code null}. */
    public String expectedDefaultKernel() {
        return kernel.startsWith("default:") ? kernel.substring("default:".length()) : null;
    }

    /** tcrypt's name of the mode template, e.g. {@code xts(aes)}. */
    public String tcryptName() {
        return mode.toLowerCase(Locale.ROOT) + "(" + algorithm.toLowerCase(Locale.ROOT) + ")";
    }
}
