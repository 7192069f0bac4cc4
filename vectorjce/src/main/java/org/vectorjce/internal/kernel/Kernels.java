package org.vectorjce.internal.kernel;

import org.vectorjce.internal.aes.AesTable;
import org.vectorjce.internal.aes.JdkAesKernel;
import org.vectorjce.internal.serpent.SerpentBitslice;
import org.vectorjce.internal.twofish.TwofishTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel registry: every block-cipher implementation with its name and priority.
 *
 * <p>What can run here is decided once per JVM and cached: each kernel's availability on first
 * request (from the JVM and the CPU's facts), and the best kernel of each algorithm on the first
 * key set-up that needs it. Key set-up then looks the kernel up for its provider's
 * {@link Settings}, which may name one; an unavailable named kernel fails key set-up with a
 * message listing what is available. Nothing here reads a system property.
 *
 * <p>Vector API kernels live in {@code org.vectorjce.internal.vector}, the only package that
 * imports {@code jdk.incubator.vector}. They are registered here by name and priority only; their
 * classes are loaded by name, and only when the module is in the boot layer and someone asks for
 * them. The default is found by walking the kernels best first and stopping at the first that can
 * run, so a program whose best AES kernel is {@code aes-jdk} never loads a vector class, which
 * would add to its first operation's time.
 */
public final class Kernels {
    /** The class of the vector package that creates its kernels by name (see {@link VectorFactory}). */
    private static final String VECTOR_KERNELS = "org.vectorjce.internal.vector.VectorKernels";

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

    /** The default factory per algorithm, found on first use; benign race (same answer). */
    private static volatile Registered defaultAes, defaultTwofish, defaultSerpent;

    private Kernels() {
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

    /** Whether {@code jdk.incubator.vector} is in the boot layer (without touching its classes). */
    public static boolean vectorModulePresent() {
        return VectorModule.PRESENT;
    }

    private static final class VectorModule {
        static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** The first Java release whose classes of this jar include the Vector API code. */
    public static final int VECTOR_JAVA = 25;

    /**
     * Null when the vector package can be used on this JVM, else why not: a JVM older than
     * {@value #VECTOR_JAVA} (the jar's {@code META-INF/versions/25} is invisible to it, and the
     * two-vector byte permutes the kernels need are JDK 24+ API), or the module not added.
     */
    public static String vectorCodeUnavailable() {
        int feature = Runtime.version().feature();
        if (feature < VECTOR_JAVA) {
            return "this JVM is Java " + feature + "; the Vector API code needs Java " + VECTOR_JAVA
                    + " or newer (it is in META-INF/versions/" + VECTOR_JAVA + " of the jar)";
        }
        if (!vectorModulePresent()) {
            return "jdk.incubator.vector is not in the boot layer (run with --add-modules jdk.incubator.vector)";
        }
        return null;
    }

    /** A line for {@code info}: whether the vector module is present and its kernels loaded. */
    public static String vectorModuleStatus() {
        String why = vectorCodeUnavailable();
        if (why != null) {
            return (vectorModulePresent() ? "present, not used: " : "absent: ") + why;
        }
        String failure = VectorFactory.loadFailure();
        return failure == null ? "present" : "present, but its kernels failed to load: " + failure;
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
            Registered f = (Registered) byName(algorithm, forced);
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
        for (KernelFactory f : all(algorithm)) {
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
        for (KernelFactory f : all(algorithm)) {
            if (f.constantTime() && f.unavailableReason() == null) {
                names.add(f.name());
            }
        }
        return names;
    }

    private static Registered chooseDefault(String algorithm) {
        for (KernelFactory f : all(algorithm)) {
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
        if (vectorCodeUnavailable() != null || VectorFactory.loadFailure() != null
                || !availableNames("Twofish").contains("twofish-vec512-16way")) {
            return null;
        }
        return (String) VectorFactory.call(VectorFactory.Entry.BATCH, settings.twofishBatch().ordinal());
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
        return f.name().startsWith("twofish-vec") ? byName("Twofish", "twofish-table-2way") : f;
    }

    /**
     * A registered kernel, with its views: under the constant-time policy (short calls padded) and
     * with a forced batch path of {@code twofish-vec512-16way}; one object per combination, for
     * identity.
     */
    private abstract static class Registered implements KernelFactory {
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
     * {@code VectorKernels.unavailableReason(name)} and
     * {@code VectorKernels.create(name, key, padShortCalls)}, looked up by name when first asked,
     * and only when the module is present.
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
                String why = vectorCodeUnavailable();
                if (why != null) {
                    // as decided
                } else if (Entry.FAILURE != null) {
                    why = "the vector kernels failed to load: " + Entry.FAILURE;
                } else {
                    try {
                        why = (String) Entry.REASON.invokeExact(name);
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
                return (BlockKernel) Entry.CREATE.invokeExact(name, key, padShortCalls, batch);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        static String loadFailure() {
            return Entry.FAILURE;
        }

        /** Calls an entry point that returns a String ({@code BATCH}). */
        static Object call(java.lang.invoke.MethodHandle h, Object... args) {
            try {
                return h.invokeWithArguments(args);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** The vector package's entry points, looked up once (only when the module is present). */
        private static final class Entry {
            static final java.lang.invoke.MethodHandle REASON, CREATE, BATCH;
            static final String FAILURE;

            static {
                java.lang.invoke.MethodHandle reason = null, create = null, batch = null;
                String failure = null;
                try {
                    Class<?> c = Class.forName(VECTOR_KERNELS);
                    java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup(); // same module: the package is not exported
                    reason = l.findStatic(c, "unavailableReason",
                            java.lang.invoke.MethodType.methodType(String.class, String.class));
                    create = l.findStatic(c, "create",
                            java.lang.invoke.MethodType.methodType(BlockKernel.class, String.class, byte[].class, boolean.class,
                                    int.class));
                    batch = l.findStatic(c, "twofishBatch",
                            java.lang.invoke.MethodType.methodType(String.class, int.class));
                } catch (ReflectiveOperationException | LinkageError e) {
                    failure = e.toString(); // vectorModuleStatus() and info report it
                }
                REASON = reason;
                CREATE = create;
                BATCH = batch;
                FAILURE = failure;
            }
        }
    }
}
