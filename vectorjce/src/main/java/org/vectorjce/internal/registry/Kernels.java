package org.vectorjce.internal.registry;

import java.util.ArrayList;
import java.util.List;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.registry.KernelRegistry.Registered;

/**
 * Kernel selection: which of the {@link KernelRegistry}'s kernels key set-up gets.
 *
 * <p>The best kernel of each algorithm is decided once per JVM, on the first key set-up that needs
 * it, and cached. Key set-up then looks the kernel up for its provider's {@link Settings}, which may
 * name one; an unavailable named kernel fails key set-up with a message listing what is available.
 * Nothing here reads a system property.
 *
 * <p>The default is found by walking the kernels best first and stopping at the first that can
 * run, so a program whose best AES kernel is {@code aes-jdk} never loads a vector class, which
 * would add to its first operation's time.
 */
public final class Kernels {
    /** The default factory per algorithm, found on first use; benign race (same answer). */
    private static volatile Registered defaultAes, defaultTwofish, defaultSerpent;

    private Kernels() {
    }

    /**
     * The factory key set-up uses under {@code settings} for {@code algorithm}: the kernel they
     * name, or the available one of highest priority (decided once per JVM, then cached); under
     * the constant-time policy only constant-time kernels, created to pad short calls into vector
     * batches, never a table kernel. The same settings give the same factory object, so a cipher
     * can tell by identity that its key schedule still fits.
     *
     * @throws IllegalArgumentException when the settings have a problem (a bad system property),
     *     the named kernel is unavailable here or not constant-time under the policy, or no
     *     constant-time kernel of {@code algorithm} runs here (the message says why each declined)
     */
    public static KernelFactory select(String algorithm, Settings settings) {
        if (settings.problem() != null) {
            throw new IllegalArgumentException("VectorJCE settings: " + settings.problem());
        }
        boolean constantTime = settings.constantTime();
        int batch = settings.twofishBatch().ordinal();
        String forced = settings.kernel(algorithm);
        if (forced != null) {
            Registered f = (Registered) KernelRegistry.byName(algorithm, forced);
            if (constantTime && !f.constantTime()) {
                throw new IllegalArgumentException(algorithm + " kernel '" + f.name() + "' is not constant-time,"
                        + " and the constant-time policy is on (constantTime=true); constant-time kernels: "
                        + constantTimeNames(algorithm));
            }
            return f.view(constantTime, batch);
        }
        if (!constantTime) {
            Registered d = switch (algorithm) {
                case "AES" -> defaultAes;
                case "Twofish" -> defaultTwofish;
                default -> defaultSerpent;
            };
            if (d == null) {
                d = chooseDefault(algorithm);
                switch (algorithm) {
                    case "AES" -> defaultAes = d;
                    case "Twofish" -> defaultTwofish = d;
                    default -> defaultSerpent = d;
                }
            }
            return d.view(false, batch);
        }
        StringBuilder why = new StringBuilder();
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            if (!f.constantTime()) {
                continue;
            }
            String reason = f.unavailableReason();
            if (reason == null) {
                return ((Registered) f).view(true, batch);
            }
            why.append(why.length() == 0 ? "" : "; ").append(f.name()).append(": ").append(reason);
        }
        throw new IllegalArgumentException("No constant-time " + algorithm + " kernel runs on this JVM, and the"
                + " constant-time policy is on (constantTime=true), which never falls back to table lookups"
                + (why.length() == 0 ? "" : " (" + why + ")"));
    }

    /** Names of the constant-time kernels of {@code algorithm} that run here. */
    public static List<String> constantTimeNames(String algorithm) {
        List<String> names = new ArrayList<>();
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            if (f.constantTime() && f.unavailableReason() == null) {
                names.add(f.name());
            }
        }
        return names;
    }

    private static Registered chooseDefault(String algorithm) {
        for (KernelFactory f : KernelRegistry.all(algorithm)) {
            if (f.unavailableReason() == null) {
                return (Registered) f;
            }
        }
        throw new IllegalStateException("no " + algorithm + " kernel available");
    }

    /**
     * Which batch {@code twofish-vec512-16way} serves under {@code settings}, or null where that
     * kernel does not run.
     */
    public static String twofishBatch(Settings settings) {
        if (VectorBridge.vectorCodeUnavailable() != null || VectorBridge.loadFailure() != null
                || !KernelRegistry.availableNames("Twofish").contains("twofish-vec512-16way")) {
            return null;
        }
        return VectorBridge.twofishBatch(settings.twofishBatch().ordinal());
    }

    /**
     * The kernel for XTS's tweak key K2, which encrypts one block per data unit (E(K2, i)), or one
     * block per unit of a batch of units at once (the sector path). The Twofish vector kernels run
     * calls that short on their {@code twofish-table-2way} fallback anyway, so K2 gets that kernel
     * directly and no vector tables are built for it (a shorter Twofish-XTS re-key, and 5 KiB of
     * native memory and 4 KiB of heap less per cipher). Every other kernel keys K2 itself: a
     * Serpent vector kernel costs its batch buffer and its round keys as vectors (8 KiB at 256
     * bits), runs a single block on {@code serpent-bitslice} and a batch of first tweaks in vector
     * batches.
     */
    public static KernelFactory forSingleBlocks(KernelFactory f) {
        if (f.underConstantTimePolicy()) {
            return f; // the policy pads the single block into a vector batch instead
        }
        return f.name().startsWith("twofish-vec") ? KernelRegistry.byName("Twofish", "twofish-table-2way") : f;
    }
}
