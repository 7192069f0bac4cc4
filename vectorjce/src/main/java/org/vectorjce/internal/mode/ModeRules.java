package org.vectorjce.internal.mode;

import java.util.Arrays;
import java.util.List;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;

/**
 * What a mode of operation demands of its caller, as hooks: the key layout and lengths, whether
 * and how it takes an IV, which lengths of message it accepts and how much of a message it needs
 * held back until the message ends, and how it is built. The JCA layer and the sector API ask
 * these instead of branching on the mode's name; each mode's rules live beside it
 * ({@code XtsMode.RULES}, …). The defaults are those of a block mode with a 16-byte IV whose
 * messages are whole blocks.
 */
public abstract class ModeRules {
    static final int BLOCK = BlockKernel.BLOCK;

    private final String name;

    ModeRules(String name) {
        this.name = name;
    }

    /**
     * The rules of mode {@code name} (ECB, CBC, CTR, LRW or XTS, upper case); null for any other
     * name.
     */
    public static ModeRules of(String name) {
        return switch (name) {
            case "ECB" -> Mode.Ecb.RULES;
            case "CBC" -> CbcMode.RULES;
            case "CTR" -> CtrMode.RULES;
            case "LRW" -> LrwMode.RULES;
            case "XTS" -> XtsMode.RULES;
            default -> null;
        };
    }

    /** ECB, CBC, CTR, LRW or XTS. */
    public final String name() {
        return name;
    }

    /**
     * A new mode over kernels from {@code f}, keyed with {@code key} in this mode's layout (its
     * length checked by the caller), its passes on {@code ops}. The caller wipes {@code key}.
     */
    public abstract Mode create(byte[] key, KernelFactory f, BlockPasses ops);

    /** The whole key's lengths in bytes, in this mode's layout. */
    int[] keyLengths() {
        return new int[] {16, 24, 32};
    }

    /** How the whole key is laid out, for messages: empty when it is one cipher key. */
    String keyLayout(String algorithm) {
        return "";
    }

    /**
     * Why {@code len} bytes is not a key of {@code algorithm} in this mode, naming the lengths
     * and the layout it takes; null when it is one.
     */
    public final String keyLengthProblem(String algorithm, int len) {
        int[] allowed = keyLengths();
        for (int a : allowed) {
            if (a == len) {
                return null;
            }
        }
        return "Invalid " + algorithm + "/" + name + " key length: " + len + " bytes; allowed: "
                + Arrays.toString(allowed).replace("[", "").replace("]", "") + " bytes" + keyLayout(algorithm);
    }

    /**
     * Why this mode refuses to encrypt under {@code key} (of a length it takes), though it may
     * decrypt with it; null when it does not. Compared in constant time where it reads the key.
     */
    public String encryptionKeyProblem(byte[] key) {
        return null;
    }

    /** Whether PKCS#5 padding applies (the modes whose messages are whole blocks of a block cipher). */
    public boolean takesPadding() {
        return false;
    }

    /** Whether the mode takes a 16-byte IV. */
    public boolean takesIv() {
        return true;
    }

    /** Whether an encryption without an IV gets a random one, as SunJCE gives CBC and CTR. */
    public boolean randomIvForEncryption() {
        return false;
    }

    /** What is missing when a message in direction {@code encrypt} gets no IV. */
    public String missingIv(boolean encrypt) {
        return name + (encrypt ? " encryption" : " decryption") + " needs the 16-byte IV used for encryption";
    }

    /** Whether the mode runs disk sectors as independent messages, each with its IV (XTS, LRW, CBC). */
    public boolean takesSectors() {
        return false;
    }

    /**
     * The dm-crypt IV generators a {@code SectorParameterSpec} may name with this mode, in the order
     * messages list them; empty for the modes that run no sectors.
     */
    public List<String> ivGenerators() {
        return List.of();
    }

    /**
     * The generators a dm-crypt cipher specification may name with this mode: {@link #ivGenerators}
     * and, where dm-crypt has them, its compatibility forms that only the sector API takes.
     */
    public List<String> ivGeneratorsInSpecs() {
        return ivGenerators();
    }

    /** The longest message, in bytes. */
    public long maxMessageBytes() {
        return Long.MAX_VALUE;
    }

    /**
     * Of {@code n} unpadded bytes not yet processed, how many to hold back: until more input comes,
     * or, when {@code last}, for {@link Mode#processFinal} to finish the message with. The default
     * keeps a partial block, which a valid message does not end with.
     */
    public long heldBack(long n, boolean last) {
        return n % BLOCK;
    }

    /** Why an unpadded message of {@code total} bytes is refused; null when it is not. */
    public String lengthProblem(long total) {
        return total % BLOCK == 0 ? null
                : "Input length " + total + " not a multiple of 16 bytes (" + name + "/NoPadding)";
    }
}
