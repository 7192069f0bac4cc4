package org.vectorjce.fuse;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.Stat;

/**
 * What jfuse's API has no setter for: {@code struct stat}'s {@code st_ino} and {@code st_blocks},
 * and {@code struct fuse_config}'s {@code use_ino} (libfuse 3 takes it only there, in
 * {@code init}, fuse.h). With them hard links show one inode number, as the kernel's own
 * filesystems show them to {@code cp -a}, {@code find} and {@code du}, and {@code du} and
 * {@code cp}'s sparse-file guess see the blocks a file takes.
 *
 * <p>jfuse's Linux bindings keep each C struct as a {@link MemorySegment} in a record
 * ({@code StatImpl}, {@code FuseConfigImpl}) and write its fields with the accessors jextract
 * generated from the platform's headers ({@code extr.fuse3.stat}, {@code extr.fuse3.fuse_config});
 * this calls the same accessors on the same segments, found by name next to the builder's class,
 * so the offsets are jfuse's own for each architecture. {@link #available()} is false where any
 * of them cannot be reached (another jfuse version, or jfuse on the module path, whose packages
 * are not opened); a mount then lets libfuse number the inodes itself and reports no blocks.
 */
final class InodeFields {
    private final MethodHandle statSegment, configSegment, setIno, setBlocks, setUseIno;

    private InodeFields(MethodHandle statSegment, MethodHandle configSegment, MethodHandle setIno,
            MethodHandle setBlocks, MethodHandle setUseIno) {
        this.statSegment = statSegment;
        this.configSegment = configSegment;
        this.setIno = setIno;
        this.setBlocks = setBlocks;
        this.setUseIno = setUseIno;
    }

    /** The fields of the structs that {@code builder}'s platform binding passes. */
    static InodeFields of(FuseBuilder builder) {
        String pkg = builder.getClass().getPackageName();
        ClassLoader loader = builder.getClass().getClassLoader();
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Class<?> stat = Class.forName(pkg + ".extr.fuse3.stat", false, loader);
            Class<?> config = Class.forName(pkg + ".extr.fuse3.fuse_config", false, loader);
            MethodType setLong = MethodType.methodType(void.class, MemorySegment.class, long.class);
            return new InodeFields(
                    segment(lookup, Class.forName(pkg + ".StatImpl", false, loader), Stat.class),
                    segment(lookup, Class.forName(pkg + ".FuseConfigImpl", false, loader), FuseConfig.class),
                    lookup.findStatic(stat, "st_ino", setLong),
                    lookup.findStatic(stat, "st_blocks", setLong),
                    lookup.findStatic(config, "use_ino", MethodType.methodType(void.class, MemorySegment.class,
                            int.class)));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return new InodeFields(null, null, null, null, null);
        }
    }

    /** The record accessor {@code segment()} of {@code impl}, as a function of {@code api}. */
    private static MethodHandle segment(MethodHandles.Lookup lookup, Class<?> impl, Class<?> api)
            throws ReflectiveOperationException {
        if (!api.isAssignableFrom(impl) || !impl.isRecord()) {
            throw new NoSuchMethodException(impl + " is not the record of " + api);
        }
        Method m = impl.getMethod("segment");
        if (m.getReturnType() != MemorySegment.class) {
            throw new NoSuchMethodException(impl + ".segment()");
        }
        m.setAccessible(true); // a public method of a class that is not
        return lookup.unreflect(m).asType(MethodType.methodType(MemorySegment.class, api));
    }

    boolean available() {
        return statSegment != null;
    }

    /**
     * Sets {@code use_ino} in libfuse's configuration, from {@code init}: libfuse then passes the
     * inode numbers {@link #set} writes. Returns whether it did.
     */
    boolean useInodes(FuseConfig config) {
        if (!available()) {
            return false;
        }
        try {
            MemorySegment s = (MemorySegment) configSegment.invokeExact(config);
            setUseIno.invokeExact(s, 1);
            return true;
        } catch (Throwable e) { // invokeExact declares Throwable; nothing may leave an upcall
            return false;
        }
    }

    /** Sets {@code st_ino} and {@code st_blocks} of {@code stat}; nothing when not {@link #available()}. */
    void set(Stat stat, long ino, long blocks) {
        if (!available()) {
            return;
        }
        try {
            MemorySegment s = (MemorySegment) statSegment.invokeExact(stat);
            setIno.invokeExact(s, ino);
            setBlocks.invokeExact(s, blocks);
        } catch (Throwable e) { // invokeExact declares Throwable; nothing may leave an upcall
            // another Stat type: libfuse's own numbering stays
        }
    }
}
