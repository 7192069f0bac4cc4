package org.vectorjce.internal.kernel;

/**
 * The base's one way into the Vector API code ({@code org.vectorjce.internal.vector}, compiled into
 * the jar's {@code META-INF/versions/25}): whether that code can be used on this JVM, and its entry
 * points, looked up by name once, when first asked, and only when {@code jdk.incubator.vector} is in
 * the boot layer. Nothing here loads a vector class before someone asks for one.
 */
public final class VectorBridge {
    /** The vector package's one entry class, which forwards to its kernels, species facts and mode arithmetic. */
    private static final String VECTOR_ENTRY = "org.vectorjce.internal.vector.VectorEntry";

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
     * Why the vector kernels' entry points failed to load, or null when they loaded. Call only
     * where {@link #vectorCodeUnavailable} is null: this looks them up.
     */
    public static String loadFailure() {
        return KernelHandles.FAILURE;
    }

    /**
     * {@code VectorEntry.unavailableReason(name)}: why the vector kernel {@code name} cannot run
     * here, or null. Call only where {@link #vectorCodeUnavailable} and {@link #loadFailure} are null.
     */
    public static String kernelUnavailableReason(String name) throws Throwable {
        return (String) KernelHandles.REASON.invokeExact(name);
    }

    /** {@code VectorEntry.create(name, key, padShortCalls, batch)}: a new vector kernel. */
    public static BlockKernel createKernel(String name, byte[] key, boolean padShortCalls, int batch) throws Throwable {
        return (BlockKernel) KernelHandles.CREATE.invokeExact(name, key, padShortCalls, batch);
    }

    /** {@code VectorEntry.twofishBatch(batch)}: which batch {@code twofish-vec512-16way} serves. */
    public static String twofishBatch(int batch) {
        return (String) call(KernelHandles.BATCH, batch);
    }

    /**
     * {@code VectorEntry.preferredBits()}: the preferred species' width in bits. Call only where
     * {@link #vectorCodeUnavailable} is null.
     *
     * @throws ReflectiveOperationException or {@link LinkageError} where the vector code does not load
     */
    public static int preferredBits() throws ReflectiveOperationException {
        return (int) invoke("preferredBits");
    }

    /** {@code VectorEntry.bytePermuteSource()}: how the byte-permute fact was obtained, for {@code info}. */
    public static String bytePermuteSource() throws ReflectiveOperationException {
        return (String) invoke("bytePermuteSource");
    }

    /**
     * {@code VectorEntry.blockPasses()}: the vector mode arithmetic (a {@code BlockPasses}, which
     * this package below the modes does not name), or null where it does not run.
     */
    public static Object blockPasses() throws ReflectiveOperationException {
        return invoke("blockPasses");
    }

    /**
     * Calls the entry class's method {@code name} without arguments, by core reflection: these
     * are called once or twice per JVM, and a method handle's set-up would add to the first
     * operation's time of a program that never asks for a vector kernel.
     */
    private static Object invoke(String name) throws ReflectiveOperationException {
        return entryClass().getMethod(name).invoke(null);
    }

    /** The entry class, or what its lookup threw (a {@link ReflectiveOperationException} or a {@link LinkageError}). */
    private static Class<?> entryClass() throws ReflectiveOperationException {
        if (Entry.ERROR instanceof LinkageError e) {
            throw e;
        }
        if (Entry.ERROR instanceof ReflectiveOperationException e) {
            throw e;
        }
        return Entry.CLASS;
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

    /** The vector package's one entry class, found by name once (only when the module is present). */
    private static final class Entry {
        static final Class<?> CLASS;
        static final Throwable ERROR;

        static {
            Class<?> c = null;
            Throwable error = null;
            try {
                c = Class.forName(VECTOR_ENTRY);
            } catch (ReflectiveOperationException | LinkageError e) {
                error = e;
            }
            CLASS = c;
            ERROR = error;
        }
    }

    /** The kernels' entry points, looked up once, on the first question about a vector kernel. */
    private static final class KernelHandles {
        static final java.lang.invoke.MethodHandle REASON, CREATE, BATCH;
        static final String FAILURE;

        static {
            java.lang.invoke.MethodHandle reason = null, create = null, batch = null;
            String failure = null;
            try {
                Class<?> c = entryClass();
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
