package org.vectorjce.internal.kernel;

/**
 * The base's one way into the Vector API code ({@code org.vectorjce.internal.vector}, compiled into
 * the jar's {@code META-INF/versions/25}): whether that code can be used on this JVM, and its entry
 * points, looked up by name once, when first asked, and only when {@code jdk.incubator.vector} is in
 * the boot layer. Nothing here loads a vector class before someone asks for one.
 */
public final class VectorBridge {
    /** The class of the vector package that creates its kernels by name. */
    private static final String VECTOR_KERNELS = "org.vectorjce.internal.vector.VectorKernels";

    /** The first Java release whose classes of this jar include the Vector API code. */
    public static final int VECTOR_JAVA = 25;

    private VectorBridge() {
    }

    /** Whether {@code jdk.incubator.vector} is in the boot layer (without touching its classes). */
    public static boolean vectorModulePresent() {
        return VectorModule.PRESENT;
    }

    private static final class VectorModule {
        static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

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
        String failure = loadFailure();
        return failure == null ? "present" : "present, but its kernels failed to load: " + failure;
    }

    /**
     * Why the vector entry points failed to load, or null when they loaded. Call only where
     * {@link #vectorCodeUnavailable} is null: this looks them up.
     */
    public static String loadFailure() {
        return Entry.FAILURE;
    }

    /**
     * {@code VectorKernels.unavailableReason(name)}: why the vector kernel {@code name} cannot run
     * here, or null. Call only where {@link #vectorCodeUnavailable} and {@link #loadFailure} are null.
     */
    public static String kernelUnavailableReason(String name) throws Throwable {
        return (String) Entry.REASON.invokeExact(name);
    }

    /** {@code VectorKernels.create(name, key, padShortCalls, batch)}: a new vector kernel. */
    public static BlockKernel createKernel(String name, byte[] key, boolean padShortCalls, int batch) throws Throwable {
        return (BlockKernel) Entry.CREATE.invokeExact(name, key, padShortCalls, batch);
    }

    /** {@code VectorKernels.twofishBatch(batch)}: which batch {@code twofish-vec512-16way} serves. */
    public static String twofishBatch(int batch) {
        return (String) call(Entry.BATCH, batch);
    }

    /** {@code VectorKernels.preferredBits()}: the preferred species' width in bits. */
    public static int preferredBits() throws Throwable {
        return (int) Entry.PREFERRED_BITS.invokeExact();
    }

    /** {@code VectorKernels.bytePermuteSource()}: how the byte-permute fact was obtained, for {@code info}. */
    public static String bytePermuteSource() throws Throwable {
        return (String) Entry.BYTE_PERMUTE_SOURCE.invokeExact();
    }

    /**
     * {@code VectorKernels.blockPasses()}: the vector mode arithmetic (a {@code BlockPasses}, which
     * this package below the modes does not name), or null where it does not run.
     */
    public static Object blockPasses() throws Throwable {
        return (Object) Entry.BLOCK_PASSES.invokeExact();
    }

    /** Calls an entry point that returns a String ({@code BATCH}). */
    private static Object call(java.lang.invoke.MethodHandle h, Object... args) {
        try {
            return h.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The vector package's entry points, all in its one entry class, looked up once (only when the
     * module is present).
     */
    private static final class Entry {
        static final java.lang.invoke.MethodHandle REASON, CREATE, BATCH, PREFERRED_BITS, BYTE_PERMUTE_SOURCE,
                BLOCK_PASSES;
        static final String FAILURE;

        static {
            java.lang.invoke.MethodHandle reason = null, create = null, batch = null, preferredBits = null,
                    bytePermuteSource = null, blockPasses = null;
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
                preferredBits = l.findStatic(c, "preferredBits", java.lang.invoke.MethodType.methodType(int.class));
                bytePermuteSource = l.findStatic(c, "bytePermuteSource",
                        java.lang.invoke.MethodType.methodType(String.class));
                blockPasses = l.findStatic(c, "blockPasses", java.lang.invoke.MethodType.methodType(Object.class));
            } catch (ReflectiveOperationException | LinkageError e) {
                failure = e.toString(); // vectorModuleStatus() and info report it
            }
            REASON = reason;
            CREATE = create;
            BATCH = batch;
            PREFERRED_BITS = preferredBits;
            BYTE_PERMUTE_SOURCE = bytePermuteSource;
            BLOCK_PASSES = blockPasses;
            FAILURE = failure;
        }
    }
}
