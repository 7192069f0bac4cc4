package org.vectorjce.fuse;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Locale;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.Stat;

/**
 * The two fields of {@code struct stat} that jfuse's {@link Stat} has no setter for: the inode
 * number, so that hard links show one inode and {@code cp -a}, {@code find} and {@code du} see
 * them as the kernel's own filesystems show them, and the 512-byte blocks allocated, which
 * {@code du} and {@code cp}'s sparse-file guess read. jfuse's Linux bindings keep the C struct as
 * a {@link MemorySegment} in a record; this reaches it through the record's accessor.
 *
 * <p>Offsets (glibc's {@code struct stat}): on x86_64 ({@code bits/struct_stat.h}) {@code st_dev}
 * 0, {@code st_ino} 8, {@code st_nlink} 16, {@code st_mode} 24, ..., {@code st_size} 48,
 * {@code st_blksize} 56, {@code st_blocks} 64; on aarch64 (the kernel's asm-generic
 * {@code stat.h}, which glibc follows) {@code st_ino} 8, {@code st_mode} 16, {@code st_nlink} 20,
 * ..., {@code st_size} 48, {@code st_blksize} 56, {@code st_blocks} 64. Both 64-bit.
 *
 * <p>{@link #available()} is false on another architecture, or where the accessor cannot be
 * reached (jfuse on the module path, whose packages are not opened); a mount then lets libfuse
 * number the inodes itself and reports no blocks.
 */
final class StatFields {
    static final long INO = 8, BLOCKS = 64, END = 72;

    private final MethodHandle segment;

    private StatFields(MethodHandle segment) {
        this.segment = segment;
    }

    /** The fields of the {@link Stat} type that {@code builder}'s platform binding fills. */
    static StatFields of(FuseBuilder builder) {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
            return new StatFields(null);
        }
        try {
            Class<?> impl = Class.forName(builder.getClass().getPackageName() + ".StatImpl", false,
                    builder.getClass().getClassLoader());
            if (!Stat.class.isAssignableFrom(impl) || !impl.isRecord()) {
                return new StatFields(null);
            }
            Method m = impl.getMethod("segment");
            if (m.getReturnType() != MemorySegment.class) {
                return new StatFields(null);
            }
            m.setAccessible(true);
            MethodHandle h = MethodHandles.lookup().unreflect(m)
                    .asType(MethodType.methodType(MemorySegment.class, Stat.class));
            return new StatFields(h);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new StatFields(null);
        }
    }

    boolean available() {
        return segment != null;
    }

    /**
     * Sets {@code st_ino} and {@code st_blocks} of {@code stat}, which must be of the binding this
     * was made for; does nothing when not {@link #available()}.
     */
    void set(Stat stat, long ino, long blocks) {
        if (segment == null) {
            return;
        }
        MemorySegment s;
        try {
            s = (MemorySegment) segment.invokeExact(stat);
        } catch (Throwable e) {
            return; // another Stat type: leave libfuse's own numbering
        }
        if (s.byteSize() < END) {
            s = s.reinterpret(END);
        }
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, INO, ino);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, BLOCKS, blocks);
    }
}
