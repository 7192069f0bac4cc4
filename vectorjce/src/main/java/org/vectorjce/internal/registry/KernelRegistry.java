package org.vectorjce.internal.registry;

import java.util.ArrayList;
import java.util.List;
import org.vectorjce.internal.aes.AesTable;
import org.vectorjce.internal.aes.JdkAesKernel;
import org.vectorjce.internal.kernel.BlockKernel;
import org.vectorjce.internal.kernel.KernelFactory;
import org.vectorjce.internal.kernel.VectorBridge;
import org.vectorjce.internal.serpent.SerpentBitslice;
import org.vectorjce.internal.twofish.TwofishTable;

/**
 * The kernel registry: every block-cipher implementation with its name and priority, and whether it
 * can run here. Which kernel a provider's settings give is {@link Kernels}' part.
 *
 * <p>Each kernel's availability is decided once per JVM, on first request (from the JVM and the
 * CPU's facts), and cached. Nothing here reads a system property.
 *
 * <p>Vector API kernels live in {@code org.vectorjce.internal.vector}, the only package that
 * imports {@code jdk.incubator.vector}. They are registered here by name and priority only; their
 * classes are loaded by name through {@link VectorBridge}, and only when the module is in the boot
 * layer and someone asks for them.
 */
public final class KernelRegistry {
    /**
     * Every kernel, best first within each algorithm, in holder classes: an AES program never
     * initialises the Twofish list, and no kernel class is loaded before it is asked for.
     */
    private static final class AesList {
        static final List<KernelFactory> ALL = sorted(
                // SunJCE's intrinsified AES (AES-NI/VAES) through the JCA: first wherever it runs.
                new BaseFactory("aes-jdk", "AES", 500, true),
                new VectorFactory("aes-vec512-4lane", "AES", 400, true),
                new VectorFactory("aes-vec256-2lane", "AES", 300, true),
                new BaseFactory("aes-table", "AES", 100, false));
    }

    private static final class TwofishList {
        static final List<KernelFactory> ALL = sorted(
                // The fastest where it runs (AVX-512 VBMI); docs/performance.md has its ratios.
                new VectorFactory("twofish-vec512-16way", "Twofish", 400, true),
                // The faster of the two scalar kernels gets the higher priority: two blocks
                // interleaved beat one at a time (docs/performance.md, the Twofish kernels).
                new BaseFactory("twofish-table-2way", "Twofish", 110, false),
                // Below twofish-table-2way: it only matches the 2-way scalar kernel, and in a JVM
                // that has run much other vector code C2 may leave its gathers boxed (see its
                // class comment).
                new VectorFactory("twofish-vec256-8way", "Twofish", 105, false),
                // Constant-time (nibble-sliced q permutations, register shuffles) for 256- and
                // 128-bit machines: slower than twofish-table-2way, so below it; what the
                // constant-time policy gets where the 16-way kernel cannot run.
                new VectorFactory("twofish-vec128-ct", "Twofish", 104, true),
                new BaseFactory("twofish-table", "Twofish", 100, false));
    }

    /**
     * Serpent: every kernel runs the specification's bitslice form (boolean circuits and
     * rotations, no table), so all are constant-time; wider is faster.
     */
    private static final class SerpentList {
        static final List<KernelFactory> ALL = sorted(
                new VectorFactory("serpent-vec512-32way", "Serpent", 400, true),
                new VectorFactory("serpent-vec256-16way", "Serpent", 300, true),
                new VectorFactory("serpent-vec128-8way", "Serpent", 200, true),
                new BaseFactory(SerpentBitslice.NAME, "Serpent", 100, true));
    }

    /** The algorithms that have kernels, in the order {@code info} lists them. */
    public static final List<String> ALGORITHMS = List.of("AES", "Twofish", "Serpent");

    private KernelRegistry() {
    }

    private static List<KernelFactory> sorted(KernelFactory... fs) {
        // Insertion sort by falling priority: no lambda or method reference here, whose
        // bootstrap adds milliseconds to a fresh JVM's first operation.
        KernelFactory[] a = fs.clone();
        for (int i = 1; i < a.length; i++) {
            for (int j = i; j > 0 && a[j - 1].priority() < a[j].priority(); j--) {
                KernelFactory t = a[j];
                a[j] = a[j - 1];
                a[j - 1] = t;
            }
        }
        return List.of(a);
    }

    /** All registered factories of an algorithm, highest priority first (available or not). */
    public static List<KernelFactory> all(String algorithm) {
        return switch (algorithm) {
            case "AES" -> AesList.ALL;
            case "Twofish" -> TwofishList.ALL;
            case "Serpent" -> SerpentList.ALL;
            default -> List.of();
        };
    }

    /** Names of the kernels of an algorithm that can run here, highest priority first. */
    public static List<String> availableNames(String algorithm) {
        List<String> names = new ArrayList<>();
        for (KernelFactory f : all(algorithm)) {
            if (f.unavailableReason() == null) {
                names.add(f.name());
            }
        }
        return names;
    }

    /** Names of every registered kernel of an algorithm, available or not, highest priority first. */
    public static List<String> allNames(String algorithm) {
        List<String> names = new ArrayList<>();
        for (KernelFactory f : all(algorithm)) {
            names.add(f.name());
        }
        return names;
    }

    /**
     * A registered kernel, with its views: under the constant-time policy (short calls padded) and
     * with a forced batch path of {@code twofish-vec512-16way}; one object per combination, for
     * identity.
     */
    abstract static class Registered implements KernelFactory {
        final String name, algorithm;
        final int priority;
        final boolean constantTime;
        /** Views by {@code (pad ? 3 : 0) + batch}; [0] is this factory itself. */
        private final KernelFactory[] views = new KernelFactory[6];

        Registered(String name, String algorithm, int priority, boolean constantTime) {
            this.name = name;
            this.algorithm = algorithm;
            this.priority = priority;
            this.constantTime = constantTime;
            views[0] = this;
        }

        @Override public String name() { return name; }
        @Override public String algorithm() { return algorithm; }
        @Override public int priority() { return priority; }
        @Override public boolean constantTime() { return constantTime; }

        /**
         * Creates the kernel; {@code padShortCalls} for the constant-time policy, {@code batch} the
         * ordinal of a {@link Settings.TwofishBatch} (only {@code twofish-vec512-16way} reads it).
         */
        abstract BlockKernel create(byte[] key, boolean padShortCalls, int batch);

        @Override
        public BlockKernel create(byte[] key) {
            return create(key, false, 0);
        }

        /** Whether {@code batch} changes this kernel (only the 16-way kernel has two batch paths). */
        boolean readsBatch() {
            return name.equals("twofish-vec512-16way");
        }

        synchronized KernelFactory view(boolean pad, int batch) {
            int b = readsBatch() ? batch : 0;
            int i = (pad ? 3 : 0) + b;
            KernelFactory v = views[i];
            if (v == null) {
                v = new View(this, pad, b);
                views[i] = v;
            }
            return v;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A kernel created with settings: padding short calls (the constant-time policy), a batch path. */
    private static final class View implements KernelFactory {
        private final Registered f;
        private final boolean pad;
        private final int batch;

        View(Registered f, boolean pad, int batch) {
            this.f = f;
            this.pad = pad;
            this.batch = batch;
        }

        @Override public String name() { return f.name; }
        @Override public String algorithm() { return f.algorithm; }
        @Override public int priority() { return f.priority; }
        @Override public boolean constantTime() { return f.constantTime; }
        @Override public boolean underConstantTimePolicy() { return pad; }
        @Override public String unavailableReason() { return f.unavailableReason(); }
        @Override public BlockKernel create(byte[] key) { return f.create(key, pad, batch); }

        @Override
        public String toString() {
            return f.name + (pad ? " (constant-time policy)" : "");
        }
    }

    /**
     * The factory named {@code name}, if it is registered for {@code algorithm} and can run here.
     *
     * @throws IllegalArgumentException otherwise, listing the available names
     */
    public static KernelFactory byName(String algorithm, String name) {
        for (KernelFactory f : all(algorithm)) {
            if (f.name().equals(name)) {
                String why = f.unavailableReason();
                if (why != null) {
                    throw new IllegalArgumentException(algorithm + " kernel '" + name
                            + "' is not available here (" + why + "); available: "
                            + availableNames(algorithm));
                }
                return f;
            }
        }
        throw new IllegalArgumentException("unknown " + algorithm + " kernel '" + name
                + "'; available: " + availableNames(algorithm));
    }

    /** A kernel of the base (always compiled in); its class is loaded when first keyed or asked. */
    private static final class BaseFactory extends Registered {
        BaseFactory(String name, String algorithm, int priority, boolean constantTime) {
            super(name, algorithm, priority, constantTime);
        }

        @Override
        public String unavailableReason() {
            // aes-jdk decides once, at its class initialisation; the table kernels always run.
            return name.equals("aes-jdk") ? JdkAesKernel.unavailableReason() : null;
        }

        @Override
        BlockKernel create(byte[] key, boolean padShortCalls, int batch) {
            return switch (name) {
                // Static factories typed BlockKernel: the verifier then loads no kernel class
                // before it is used (an AES program never loads TwofishTable).
                case "aes-jdk" -> JdkAesKernel.create(key);
                case "aes-table" -> AesTable.create(key);
                case "twofish-table-2way" -> TwofishTable.create(key, true);
                case SerpentBitslice.NAME -> SerpentBitslice.create(key);
                default -> TwofishTable.create(key, false);
            };
        }
    }

    /**
     * A Vector API kernel, known here by name and priority. Its class is reached through
     * {@link VectorBridge} ({@code VectorKernels.unavailableReason(name)} and
     * {@code VectorKernels.create(name, key, padShortCalls, batch)}), looked up by name when first
     * asked, and only when the module is present.
     */
    private static final class VectorFactory extends Registered {
        private volatile String reason;
        private volatile boolean known;

        VectorFactory(String name, String algorithm, int priority, boolean constantTime) {
            super(name, algorithm, priority, constantTime);
        }

        @Override
        public String unavailableReason() {
            if (!known) {
                String why = VectorBridge.vectorCodeUnavailable();
                if (why != null) {
                    // as decided
                } else if (VectorBridge.loadFailure() != null) {
                    why = "the vector kernels failed to load: " + VectorBridge.loadFailure();
                } else {
                    try {
                        why = VectorBridge.kernelUnavailableReason(name);
                    } catch (Throwable e) {
                        why = "the vector kernel failed to load: " + e;
                    }
                }
                reason = why;
                known = true;
            }
            return reason;
        }

        @Override
        BlockKernel create(byte[] key, boolean padShortCalls, int batch) {
            try {
                return VectorBridge.createKernel(name, key, padShortCalls, batch);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
